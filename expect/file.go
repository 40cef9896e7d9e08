package expect

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/internal/untrusted"
	"github.com/oncall-sim/oncall/scenarios"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// Ext is how a test file's name ends.
const Ext = ".claims"

// File is a parsed test file.
type File struct {
	Path string
	// Scenario is a built-in's id or the path of a scenario file (relative
	// paths resolved against the test file's folder already).
	Scenario string
	// ScenarioPos is where the scenario was named (the file itself when it
	// came from the file's name).
	ScenarioPos dsl.Pos
	Seeds       []uint32
	SeedsPos    dsl.Pos
	// Policies are the named policies in the order of the file; the
	// scenario's reference, when the file names it (policy reference =
	// FILE), is among them.
	Policies []Policy
	Claims   []Claim

	src string // the file's text, for the lines its diagnostics show
}

// Policy is a named policy of a test file: its rules' source and where
// they came from.
type Policy struct {
	Name   string
	Pos    dsl.Pos // the policy line
	File   string  // the rules file, or the test file for inline rules
	Line   int     // the first line of inline rules in the test file (0 for a file)
	Source string
}

// Claim is one sentence and its check.
type Claim struct {
	Pos   dsl.Pos // the claim line
	Text  string
	Kind  string // "every", "median" or "grade"
	Check string // as written after the kind
	// CheckPos is where the check starts.
	CheckPos dsl.Pos

	prog  *exprwork.Expr // every: a bool; median: the number
	refs  []figureRef    // the figures the expression reads, in order
	op    string         // median and grade
	bound float64        // median; grade against a number (percent)
	other string         // grade against another policy
	worse bool           // grade NAME is worse than none
	pol   string         // grade: the policy graded
}

// figureRef is one policy.figure an expression reads.
type figureRef struct{ policy, figure string }

func (r figureRef) String() string { return r.policy + "." + r.figure }

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Limits of a test file, which an instructor may be handed with a course:
// what it may name, checked as it is read, before anything runs.
const (
	// MaxFileBytes is the largest test file read: claims are a few
	// kilobytes.
	MaxFileBytes = 1 << 20
	// MaxPolicies is the most policies a test file names.
	MaxPolicies = 100
)

// Load reads and parses a test file. The file and the files it names are
// read as package untrusted reads them: a link, a folder, a FIFO or a
// device is refused with its name.
func Load(path string) (*File, error) {
	src, err := untrusted.ReadFile(path, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, string(src))
}

// Parse parses the test file at path whose text is src. Its errors are a
// dsl.List, each at file:line:col and saying what to do: every problem of
// the file at once, those of its lines and those of the whole (a check
// that reads a policy the file does not name, a line the file lacks).
func Parse(path string, src string) (*File, error) {
	f := &File{Path: path, src: src}
	p := parser{f: f, src: src, lines: strings.Split(src, "\n"), dir: filepath.Dir(path)}
	p.parse()
	p.finish()
	if len(p.errs) > 0 {
		p.errs.Sort()
		return nil, p.errs
	}
	return f, nil
}

type parser struct {
	f     *File
	src   string
	lines []string
	dir   string
	errs  dsl.List
	// What the lines named, loaded or not, so that the checks of the
	// whole file say nothing more of a line already refused: a scenario,
	// seeds or claim line written, and the names of the policy lines.
	sawScenario, sawSeeds, sawClaim bool
	named                           []string
}

func (p *parser) pos(i, col int) dsl.Pos { return dsl.Pos{File: p.f.Path, Line: i + 1, Col: col} }

func (p *parser) fail(i, col int, format string, args ...any) {
	p.errs.Add(p.src, p.pos(i, col), "", format, args...)
}

// colOf returns the column (from 1, in characters) of the byte offset off
// of line i.
func (p *parser) colOf(i, off int) int { return utf8.RuneCountInString(p.lines[i][:off]) + 1 }

func indented(line string) bool {
	return strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "\t")
}

func blank(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

// parse reads the file line by line, each line by its first word: the
// kinds of line (scenario, seeds, policy, claim, grade, blank, indented
// out of place, unknown), each case naming the line:col and what to write
// there.
func (p *parser) parse() {
	for i := 0; i < len(p.lines); i++ {
		line := strings.TrimRight(p.lines[i], " \t\r")
		if blank(line) {
			continue
		}
		if indented(line) {
			p.fail(i, 1, "an indented line belongs to a policy's rules or to a claim's check: start the line at column 1, or put it below a policy NAME: or a claim")
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		restCol := len(word) + 2
		rest = strings.TrimSpace(rest)
		switch word {
		case "scenario":
			p.scenario(i, rest, restCol)
		case "seeds":
			p.seeds(i, rest, restCol)
		case "policy":
			i = p.policy(i, rest, restCol)
		case "claim":
			i = p.claim(i, rest)
		case "grade":
			p.sawClaim = true
			c := Claim{Pos: p.pos(i, 0), Text: line}
			if p.check(i, 0, &c) {
				p.f.Claims = append(p.f.Claims, c)
			}
		default:
			p.fail(i, 1, "%q: a line is scenario, seeds, policy, claim, grade, a comment (#) or blank", word)
		}
	}
}

// seeds reads "seeds SET".
func (p *parser) seeds(i int, rest string, col int) {
	if p.sawSeeds {
		p.fail(i, 1, "a second seeds line: the seeds are given once, every seed on one line (the first is at %s)", p.f.SeedsPos)
		return
	}
	p.sawSeeds, p.f.SeedsPos = true, p.pos(i, 1)
	seeds, err := shift.ParseSeeds(rest)
	if err != nil {
		p.fail(i, col, "seeds: %v", err)
		return
	}
	p.f.Seeds = seeds
}

// claim reads "claim SENTENCE" and its one indented check; it returns the
// last line it read.
func (p *parser) claim(i int, rest string) int {
	p.sawClaim = true
	if rest == "" {
		p.fail(i, 1, "a claim needs its sentence: claim WHAT IT SAYS, its check indented below it")
		return i
	}
	c := Claim{Pos: p.pos(i, 0), Text: rest}
	if i+1 >= len(p.lines) || !indented(p.lines[i+1]) || blank(p.lines[i+1]) {
		p.fail(i, 1, "claim %q has no check: indent one below it, every EXPR, median EXPR OP NUMBER or grade POLICY OP NUMBER %%", rest)
		return i
	}
	i++
	line := strings.TrimRight(p.lines[i], " \t\r")
	start := len(line) - len(strings.TrimLeft(line, " \t"))
	if p.check(i, start, &c) {
		p.f.Claims = append(p.f.Claims, c)
	}
	if i+1 < len(p.lines) && indented(p.lines[i+1]) && !blank(p.lines[i+1]) {
		p.fail(i+1, 1, "claim %q has one check; write another claim for a second one", rest)
		for i+1 < len(p.lines) && indented(p.lines[i+1]) {
			i++
		}
	}
	return i
}

func (p *parser) scenario(i int, rest string, col int) {
	if p.sawScenario {
		p.fail(i, 1, "a second scenario line: a test file tests one scenario (the first is at %s)", p.f.ScenarioPos)
		return
	}
	p.sawScenario, p.f.ScenarioPos = true, p.pos(i, 1)
	switch {
	case rest == "":
		p.fail(i, col, "scenario needs a built-in's id (%s) or the path of a .lua file", strings.Join(scenarios.Names(), ", "))
		return
	case strings.HasSuffix(rest, ".lua"):
		path := rest
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.dir, path)
		}
		if _, err := untrusted.Stat(path, 0); errors.Is(err, fs.ErrNotExist) {
			p.fail(i, col, "scenario %s: no such file (a path is read from the test file's folder, %s)", rest, p.dir)
			return
		} else if err != nil {
			p.fail(i, col, "scenario %s: %v", rest, err)
			return
		}
		p.f.Scenario = path
	case slices.Contains(scenarios.Names(), rest):
		p.f.Scenario = rest
	default:
		p.fail(i, col, "scenario %q is not a built-in (%s)%s; a scenario file's path ends with .lua", rest, strings.Join(scenarios.Names(), ", "), spell.Suggest(rest, scenarios.Names()))
		return
	}
	p.f.ScenarioPos = p.pos(i, 1)
}

// policy parses "policy NAME = FILE" or "policy NAME:" and its indented
// rules; it returns the last line it read.
//
// It branches on the forms of a policy line (a file or inline rules), the
// names it refuses (none, reference inline, a bad or repeated name), the
// file's column and errors, and the indented rules that follow: the grammar
// of one policy line, each error with its own message.
func (p *parser) policy(i int, rest string, col int) int {
	name, file, isFile := strings.Cut(rest, "=")
	name = strings.TrimSpace(name)
	inline := !isFile && strings.HasSuffix(name, ":")
	name = strings.TrimSpace(strings.TrimSuffix(name, ":"))
	pol := Policy{Name: name, Pos: p.pos(i, 1)}
	switch {
	case !isFile && !inline:
		p.fail(i, col, "a policy is policy NAME = FILE, or policy NAME: and its rules indented below it")
		return i
	case name == "none":
		p.fail(i, col, "none is no policy, always there; name this policy otherwise")
		return i
	case name == "reference" && !isFile:
		p.fail(i, col, "the reference is a file: policy reference = FILE (a scenario file's reference policy)")
		return i
	case !nameRE.MatchString(name):
		p.fail(i, col, "policy name %q: a name is letters, digits and _, not starting with a digit (it is read in checks as NAME.figure)", name)
		return i
	}
	if len(p.f.Policies) == MaxPolicies {
		p.fail(i, col, "policy %s: a test file names at most %d policies; test the others in a file of their own", name, MaxPolicies)
		return i
	}
	for _, q := range p.f.Policies {
		if q.Name == name {
			p.fail(i, col, "policy %s is already named at line %d; give this one another name", name, q.Pos.Line)
			return i
		}
	}
	p.named = append(p.named, name) // named, whether its rules load or not
	if isFile {
		file = strings.TrimSpace(file)
		fcol := strings.Index(p.lines[i], "=") + 1
		for fcol < len(p.lines[i]) && p.lines[i][fcol] == ' ' {
			fcol++
		}
		path, src, err := p.readPolicy(file)
		if err != nil {
			p.fail(i, p.colOf(i, fcol), "policy %s: %v", name, err)
			return i
		}
		pol.File, pol.Source = path, src
		p.f.Policies = append(p.f.Policies, pol)
		return i
	}
	var b strings.Builder
	first := i + 1
	for i+1 < len(p.lines) && (indented(p.lines[i+1]) || strings.TrimSpace(p.lines[i+1]) == "") {
		i++
		b.WriteString(strings.TrimPrefix(strings.TrimPrefix(p.lines[i], "  "), "\t") + "\n")
	}
	if strings.TrimSpace(b.String()) == "" {
		p.fail(first-1, col, "policy %s has no rules: indent them below it", name)
		return i
	}
	pol.File, pol.Line, pol.Source = p.f.Path, first+1, b.String()
	p.f.Policies = append(p.f.Policies, pol)
	return i
}

// readPolicy finds a policy file: relative to the test file's folder; for
// the claims of the built-in scenarios, kept in scenarios/ beside
// scripts/, in the scripts folder beside that folder; and last among the
// policies shipped with oncall (examples/rollback-on-page.rules). Its
// name ends with .rules, so that a test file cannot pass any file it
// names for a policy and have its lines shown as the policy's
// diagnostics; a file found that is not a regular file (a link, a FIFO)
// is refused with its name.
func (p *parser) readPolicy(name string) (path, src string, err error) {
	if name == "" {
		return "", "", errors.New("no file after =: policy NAME = FILE")
	}
	if !strings.HasSuffix(name, ".rules") {
		return "", "", fmt.Errorf("%s: a policy file's name ends with .rules", name)
	}
	tries := []string{name}
	if !filepath.IsAbs(name) {
		tries = []string{filepath.Join(p.dir, name), filepath.Join(p.dir, "..", "scripts", name)}
	}
	for _, t := range tries {
		b, err := untrusted.ReadFile(t, policy.MaxSourceBytes)
		if err == nil {
			return t, string(b), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", err
		}
	}
	if b, err := scripts.Files.ReadFile(filepath.ToSlash(name)); err == nil {
		return "scripts/" + filepath.ToSlash(name), string(b), nil
	}
	return "", "", fmt.Errorf("%s: no such file in %s (a path is read from the test file's folder)", name, p.dir)
}

var gradeOps = []string{"<=", ">=", "==", "<", ">"}

// check parses the check of c on line i, from byte start.
func (p *parser) check(i, start int, c *Claim) bool {
	line := strings.TrimRight(p.lines[i], " \t\r")
	kind, rest, _ := strings.Cut(line[start:], " ")
	restOff := start + len(kind) + 1
	for restOff < len(line) && line[restOff] == ' ' {
		restOff++
	}
	rest = strings.TrimSpace(rest)
	c.Kind, c.Check, c.CheckPos = kind, rest, p.pos(i, p.colOf(i, start))
	if rest == "" && (kind == "every" || kind == "median" || kind == "grade") {
		p.fail(i, p.colOf(i, start), "%s needs what it checks, e.g. %s", kind, example(kind))
		return false
	}
	switch kind {
	case "every":
		return p.expr(i, restOff, rest, c, false)
	case "median":
		op, lhs, rhs := "", "", ""
		for _, o := range []string{"<=", ">=", "<", ">"} {
			if k := strings.LastIndex(rest, " "+o+" "); k >= 0 {
				op, lhs, rhs = o, rest[:k], strings.TrimSpace(rest[k+len(o)+2:])
				break
			}
		}
		if op == "" {
			p.fail(i, p.colOf(i, restOff), "median takes EXPR OP NUMBER (<=, >=, < or >, spaced), e.g. %s", example("median"))
			return false
		}
		b, err := strconv.ParseFloat(rhs, 64)
		if err != nil {
			p.fail(i, p.colOf(i, restOff+strings.LastIndex(rest, rhs)), "%q is not a number: median EXPR OP NUMBER", rhs)
			return false
		}
		c.op, c.bound = op, b
		return p.expr(i, restOff, lhs, c, true)
	case "grade":
		return p.grade(i, restOff, rest, c)
	}
	p.fail(i, p.colOf(i, start), "a check starts with every, median or grade, not %q", kind)
	return false
}

func example(kind string) string {
	switch kind {
	case "every":
		return "every none.first_page - none.deploy_minute <= 15"
	case "median":
		return "median rollback.budget_used / none.budget_used <= 0.2"
	}
	return "grade textbook >= 90 %"
}

// grade parses "NAME OP NUMBER [%]", "NAME OP NAME" or "NAME is worse
// than none".
func (p *parser) grade(i, off int, rest string, c *Claim) bool {
	name, tail, _ := strings.Cut(rest, " ")
	tail = strings.TrimSpace(tail)
	c.pol = name
	if tail == "is worse than none" {
		c.worse = true
		return true
	}
	op, val, _ := strings.Cut(tail, " ")
	if !slices.Contains(gradeOps, op) {
		p.fail(i, p.colOf(i, off+len(name)+1), "grade takes POLICY OP NUMBER %%, POLICY OP POLICY (OP: <=, >=, ==, < or >) or POLICY is worse than none, e.g. grade textbook >= 90 %%")
		return false
	}
	c.op = op
	val = strings.TrimSpace(val)
	num := strings.TrimSpace(strings.TrimSuffix(val, "%"))
	if b, err := strconv.ParseFloat(num, 64); err == nil {
		if b < 0 || b > 100 {
			p.fail(i, p.colOf(i, off+strings.LastIndex(rest, num)), "%s %%: a grade is 0 to 100 %%", num)
			return false
		}
		c.bound = b
		return true
	}
	if !nameRE.MatchString(val) {
		p.fail(i, p.colOf(i, off+strings.LastIndex(rest, val)), "%q is neither a percent (90 %%) nor a policy's name", val)
		return false
	}
	c.other = val
	return true
}

// expr compiles an every or median expression (text at byte off of line i)
// against figures of every name, checking the names at the end. It is
// held to what every expression a user writes is held to (package
// exprwork): a test file is code an instructor may be handed.
func (p *parser) expr(i, off int, text string, c *Claim, number bool) bool {
	col := p.colOf(i, off)
	pl := checkPlace(number, func(at int) dsl.Pos { return p.pos(i, col+at) })
	fail := func(pr *exprwork.Problem) bool {
		p.errs.Add(p.src, pr.Pos, "", "%s", pr.Msg)
		return false
	}
	tree, refused := pl.Parse(text, exprwork.Config(nil))
	if len(refused) > 0 {
		return fail(refused[0])
	}
	v := &refVisitor{}
	ast.Walk(&tree.Node, v)
	c.refs = v.refs
	for _, bad := range v.bad {
		p.fail(i, col+bad.col, "%s", bad.msg)
	}
	if len(v.bad) > 0 {
		return false
	}
	cfg := exprwork.Config(sampleEnv(p.names(c.refs)))
	if _, pr := pl.Check(tree, cfg); pr != nil {
		if pr.Mistyped && number {
			pr.Msg = "median compares a number: " + pr.Msg
		} else if pr.Mistyped {
			pr.Msg = "every takes a comparison that holds or not on each seed: " + pr.Msg
		}
		return fail(pr)
	}
	steps, pr := pl.Bound(tree.Node)
	if pr != nil {
		return fail(pr)
	}
	prog, pr := pl.Build(tree, cfg)
	if pr != nil {
		return fail(pr)
	}
	c.prog = &exprwork.Expr{Program: prog, Steps: steps}
	return true
}

// checkPlace is where a check stands, for exprwork's compiler: a number
// (median) or a comparison (every) over POLICY.figure, whose offsets at
// maps to the test file.
func checkPlace(number bool, at func(offset int) dsl.Pos) *exprwork.Place {
	pl := &exprwork.Place{
		At:   at,
		What: "a check", In: "a check", Subject: "the check", Each: "for each seed",
		Simpler: "write the check more simply", Want: reflect.Bool, AnyOK: true,
		Unknown: func(name string) string {
			if slices.Contains(FigureNames(), name) {
				return name + " is a figure of a run: name the run, e.g. none." + name + " or reference." + name
			}
			return "unknown name " + name + "; a check reads POLICY.figure, e.g. none.cost"
		},
	}
	if number {
		pl.Want = reflect.Float64
	}
	return pl
}

// names are the policies an expression may read: none, reference and every
// policy declared so far or later (checked at the end).
func (p *parser) names(refs []figureRef) []string {
	names := []string{"none", "reference"}
	for _, r := range refs {
		if !slices.Contains(names, r.policy) {
			names = append(names, r.policy)
		}
	}
	return names
}

// finish checks what needs the whole file: the scenario, the seeds and a
// claim, which a line must give, the reference a built-in has and a
// scenario file must name, and the policies the claims read. A line
// refused already is not reported again: a scenario, seeds or claim line
// that did not read counts as given, and so does a policy line.
func (p *parser) finish() {
	f := p.f
	if f.Scenario == "" && !p.sawScenario {
		id := strings.TrimSuffix(filepath.Base(f.Path), Ext)
		if !slices.Contains(scenarios.Names(), id) {
			p.errs.Add(p.src, dsl.Pos{File: f.Path}, "", "no scenario line: write scenario ID (a built-in: %s) or scenario FILE.lua; a file named ID%s tests that built-in", strings.Join(scenarios.Names(), ", "), Ext)
		} else {
			f.Scenario, f.ScenarioPos = id, dsl.Pos{File: f.Path}
		}
	}
	if !p.sawSeeds {
		p.errs.Add(p.src, dsl.Pos{File: f.Path}, "", "no seeds line: write the seeds the claims hold on, e.g. seeds 1-20")
	}
	if !p.sawClaim {
		p.errs.Add(p.src, dsl.Pos{File: f.Path}, "", "no claim: a test file says at least one thing, claim SENTENCE with its check indented below it")
	}
	// A scenario that did not read is neither a built-in nor a file: its
	// line says why, and what depends on it is not checked.
	builtin, file := f.Scenario != "" && !strings.HasSuffix(f.Scenario, ".lua"), strings.HasSuffix(f.Scenario, ".lua")
	if ref := f.policy("reference"); ref != nil && builtin {
		p.errs.Add(p.src, ref.Pos, "", "%s is a built-in and has its own reference policy; drop this line, or test a scenario file", f.Scenario)
	}
	for _, c := range f.Claims {
		p.reads(&c, file)
	}
	if file && !slices.Contains(p.named, "reference") && slices.ContainsFunc(f.Claims, func(c Claim) bool { return c.Kind == "grade" }) {
		p.errs.Add(p.src, f.ScenarioPos, "", "a grade is against the scenario's reference, which a scenario file does not have: name it, policy reference = FILE")
	}
}

// reads checks the policies a claim reads: each named by the file (none
// and reference always are, but a scenario file's reference is the one
// the file names).
func (p *parser) reads(c *Claim, file bool) {
	declared := append([]string{"none", "reference"}, p.named...)
	var used []string
	for _, r := range c.refs {
		used = append(used, r.policy)
	}
	if c.Kind == "grade" {
		used = append(used, c.pol)
		if c.other != "" {
			used = append(used, c.other)
		}
	}
	for _, name := range used {
		if !slices.Contains(declared, name) {
			p.errs.Add(p.src, c.CheckPos, "", "claim %q reads policy %s, which the file does not name (policies: %s)%s", c.Text, name, strings.Join(declared, ", "), spell.Suggest(name, declared))
		} else if name == "reference" && file && !slices.Contains(p.named, "reference") {
			p.errs.Add(p.src, c.CheckPos, "", "claim %q reads the reference, which a scenario file does not have: name it, policy reference = FILE", c.Text)
		}
	}
}

func (f *File) policy(name string) *Policy {
	for i := range f.Policies {
		if f.Policies[i].Name == name {
			return &f.Policies[i]
		}
	}
	return nil
}

// refVisitor collects the NAME.figure an expression reads and what it
// reads wrong.
type refVisitor struct {
	refs []figureRef
	bad  []struct {
		col int
		msg string
	}
}

func (v *refVisitor) add(col int, format string, args ...any) {
	v.bad = append(v.bad, struct {
		col int
		msg string
	}{col, fmt.Sprintf(format, args...)})
}

func (v *refVisitor) Visit(n *ast.Node) {
	switch m := (*n).(type) {
	case *ast.MemberNode:
		id, ok := m.Node.(*ast.IdentifierNode)
		prop, ok2 := m.Property.(*ast.StringNode)
		if !ok || !ok2 {
			return
		}
		if !slices.Contains(FigureNames(), prop.Value) {
			v.add(m.Location().From, "%s.%s: no figure %s%s (figures: %s)", id.Value, prop.Value, prop.Value, spell.Suggest(prop.Value, FigureNames()), strings.Join(FigureNames(), ", "))
			return
		}
		r := figureRef{id.Value, prop.Value}
		if !slices.Contains(v.refs, r) {
			v.refs = append(v.refs, r)
		}
	}
}
