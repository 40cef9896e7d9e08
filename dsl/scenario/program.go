package scenario

import (
	"slices"
	"sort"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/dsl/scenario/pagerule"
	"github.com/oncall-sim/oncall/dsl/scenario/source"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Options configure a program.
type Options struct {
	// Limits bound what a run of the scenario may spend: Compile's load on
	// seed 0 (and its loads past a top-level error, together), each run of
	// Instance given no meter, and DryRun's seeds (seed 0 alone, the
	// others together). Zero fields take budget's defaults. One string may
	// hold 1/64 of the memory budget.
	Limits budget.Limits
}

// Program is a compiled scenario file. It is immutable and safe for
// concurrent use: compile once, then call Instance for each run.
type Program struct {
	file  string
	src   string
	proto *lua.FunctionProto
	cat   bool // the file concatenates strings
	opts  Options
	decl  *declaration   // from the load with seed 0
	lib   *library       // what every run's state shares
	page  *pagerule.Rule // nil: the rule of MODEL.md

	chunk      []ast.Stmt // the syntax tree, for where tables stand
	placesOnce sync.Once
	placesOf   *source.Places

	states   sync.Pool // *sandbox.State: states clean runs gave back (reuse.go)
	declared *declared // seed 0's scenario{}, for the runs that pass the same (declared.go)

	// known is what loading a program that Check dry-runs despite its
	// problems found, by causeKey (tolerate): each seed's load finds them
	// again, perhaps with other values drawn, and only the others are news.
	known map[string]bool
}

// places returns where the file's table constructors stand, read from its
// syntax tree the first time a diagnostic needs one.
func (p *Program) places() *source.Places {
	p.placesOnce.Do(func() { p.placesOf = source.Find(p.file, p.src, p.chunk) })
	return p.placesOf
}

// argPlace returns where the table passed to name at call stands.
func (p *Program) argPlace(call dsl.Pos, name string) source.Place {
	return p.places().Arg(call, name)
}

// Compile checks a scenario file as it loads: its syntax, its main chunk
// run on seed 0 (its declaration, grading criteria, outcomes and page
// rule). The error is a dsl.List with every problem found: past a
// statement of the main chunk that stops it, the file loads again without
// that statement, so that one stray call does not hide the rest (loadPast).
// What the callbacks do during a run is Check's and DryRun's to find: a
// file whose callback fails at 11:20 compiles, and its run stops there.
func Compile(filename string, src []byte, opts Options) (*Program, error) {
	p, _, diags := compile(filename, src, opts)
	if len(diags) > 0 {
		return nil, diags
	}
	return p, nil
}

// compile is Compile, and for a file whose main chunk stops, also the
// program without the statements that stopped it (past), when that one
// loads: Check dry-runs its callbacks, so that a stray call at the top
// level does not hide what the callbacks do.
func compile(filename string, src []byte, opts Options) (p, past *Program, diags dsl.List) {
	opts.Limits = opts.Limits.WithDefaults()
	text, d := source.Text(filename, src)
	if d != nil {
		return nil, nil, dsl.List{*d}
	}
	p = &Program{file: filename, src: text, opts: opts, lib: newLibrary()}
	if d := source.Check(filename, text); d != nil {
		return nil, nil, dsl.List{*d}
	}
	chunk, err := parse.Parse(strings.NewReader(text), filename)
	if err != nil {
		return nil, nil, dsl.List{source.SyntaxDiagnostic(filename, text, err)}
	}
	sandbox.RewriteLength(chunk)
	proto, err := compileChunk(chunk, filename)
	if err != nil {
		return nil, nil, dsl.List{source.SyntaxDiagnostic(filename, text, err)}
	}
	p.proto, p.cat, p.chunk = proto, sandbox.Concatenates(proto), chunk
	r, diags, top := p.loadChunk(budget.New(opts.Limits), 0, proto)
	if r == nil {
		var loaded *run
		var stripped *lua.FunctionProto
		diags, loaded, stripped = p.loadPast(diags, top)
		diags = addNew(diags, p.clockBeforeScenario())
		if loaded != nil && loaded.decl != nil {
			past = &Program{file: filename, src: text, opts: opts, lib: p.lib, chunk: chunk,
				proto: stripped, cat: sandbox.Concatenates(stripped)}
			diags = past.tolerate(loaded, diags)
		}
		return nil, past, diags
	}
	if len(diags) > 0 && r.decl != nil {
		// The main chunk ran to its end, but what it declared has
		// problems: Check dry-runs the file as loaded, each faulty value
		// at its default.
		past = &Program{file: filename, src: text, opts: opts, lib: p.lib, chunk: chunk, proto: proto, cat: p.cat}
		return nil, past, past.tolerate(r, diags)
	}
	if len(diags) > 0 {
		return nil, nil, diags
	}
	if d := p.finish(r); d != nil {
		return nil, nil, dsl.List{*d}
	}
	return p, nil, nil
}

// tolerate makes p, a program whose load had the problems diags, one that
// DryRun plays all the same: the declaration as loaded, each faulty value
// at its default (and a page rule that does not compile, the model's),
// and those problems known, so that each seed's load does not report them
// again. It returns diags with the page rule's problem, when it has one.
func (p *Program) tolerate(r *run, diags dsl.List) dsl.List {
	if d := p.finish(r); d != nil {
		p.page = nil
		diags = append(diags, *d)
		if r.decl.assumed == nil {
			r.decl.assumed = map[string]string{}
		}
		r.decl.assumed[d.Error()] = "the check plays on with the model's page rule"
		diags.Sort()
	}
	p.known = map[string]bool{}
	for _, d := range diags {
		p.known[causeKey(d)] = true
	}
	return diags
}

// finish takes the declaration of a load that succeeded and compiles its
// page rule.
func (p *Program) finish(r *run) *dsl.Diagnostic {
	p.decl, p.declared = r.decl, r.declared
	if r.decl != nil {
		p.placeRules(&r.decl.reference)
	}
	if r.decl == nil || r.decl.pageSrc == "" {
		return nil
	}
	quote := p.argPlace(r.decl.pos, "scenario").Value("page") // the string's opening quote
	pr, d := pagerule.Compile(r.decl.pageSrc, p.src, quote)
	p.page = pr
	return d
}

// PageFor returns a fresh page rule for one run charging m, or nil for
// MODEL.md's.
func (p *Program) PageFor(m *budget.Meter) engine.PageRule {
	if p.page == nil {
		return nil
	}
	return p.page.Instance(m)
}

// Limits returns what a run of the program may spend when its caller
// gives it no meter: Options.Limits, with budget's defaults.
func (p *Program) Limits() budget.Limits { return p.opts.Limits }

// ID returns the scenario's id.
func (p *Program) ID() string { return p.decl.setup.ID }

// File returns the name the program was compiled from.
func (p *Program) File() string { return p.file }

// Source returns the text the program was compiled from, which references
// pin by its SHA-256.
func (p *Program) Source() string { return p.src }

// Title returns the scenario's title by language; "en" is always there.
func (p *Program) Title() engine.Text { return p.decl.title }

// Briefing returns what the player reads before the shift, by language.
func (p *Program) Briefing() engine.Text { return p.decl.briefing }

// Setup returns the starting setup as declared (seed 0's, should the
// declaration draw from the scenario stream).
func (p *Program) Setup() engine.Setup {
	s := p.decl.setup
	s.Page = p.PageFor(budget.New(p.opts.Limits))
	return s
}

// PageRule returns the page rule's expression, or "" for MODEL.md's.
func (p *Program) PageRule() string { return p.decl.pageSrc }

// Grading returns the criteria of grade{...}, in file order, or
// DefaultGrading when the file declares none.
func (p *Program) Grading() []Criterion {
	if len(p.decl.grading) == 0 {
		return DefaultGrading()
	}
	out := make([]Criterion, len(p.decl.grading))
	for i := range p.decl.grading {
		out[i] = p.decl.grading[i].graded()
	}
	return out
}

// Instance prepares one run: a fresh Lua state whose scenario stream is
// seeded with engine.ScenarioSeed(seed), the scenario ready for the engine,
// and the setup the script declared for this seed. The run's code, loading
// included, charges m; a nil m is a meter of the run's own, with the
// program's limits.
func (p *Program) Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
	if m == nil {
		m = budget.New(p.opts.Limits)
	}
	r, diags := p.load(m, seed)
	if len(diags) > 0 {
		return nil, engine.Setup{}, diags
	}
	setup := r.decl.setup
	setup.Page = p.PageFor(m)
	return r, setup, nil
}

// load runs the file's main chunk in a fresh state charging m.
func (p *Program) load(m *budget.Meter, seed uint32) (*run, dsl.List) {
	r, diags, _ := p.loadChunk(m, seed, p.proto)
	return r, diags
}

// loadChunk runs a compiled main chunk in a fresh state charging m; when
// it stops on an error that loading past could get over (not a spent
// budget), top is the line of the main chunk that was running.
func (p *Program) loadChunk(m *budget.Meter, seed uint32, proto *lua.FunctionProto) (r *run, diags dsl.List, top int) {
	r = newRun(p, m, seed)
	fn := r.L.NewFunctionFromProto(proto)
	r.L.Push(fn)
	r.loading = true
	err := r.call(0, 0)
	r.loading = false
	if err == nil && r.m.Err() != nil {
		// The memory measure after loading found the budget spent.
		return nil, dsl.List{{Pos: dsl.Pos{File: p.file}, Message: "once loaded, " + r.m.Err().Error(), Cause: r.m.Err()}}, 0
	}
	if err != nil {
		l := r.raisedAs(err) // what the API found wrong, each problem at its place
		if l == nil {
			l = asList(p.file, p.src, err, "", r.errLine)
		}
		r.diags = append(r.diags, r.caused(p.placed(l))...)
		if r.m.Err() != nil || r.broken != nil {
			return nil, r.diags, 0 // a budget spent: loading again would spend it again
		}
		return nil, r.diags, r.topLine
	}
	r.finishLoad()
	if len(r.diags) > 0 {
		return r, r.diags, 0
	}
	return r, nil, 0
}

// maxSkipped is how many statements loadPast leaves out at most.
const maxSkipped = 20

// loadPast loads the file again without each top-level statement that
// stopped it, from the one at line top, so that a file with a stray call
// (deploy{} at the top level, a misspelt name) shows every problem, not the
// first alone. A statement that declares a local is not left out, nor
// anything after it: what follows would meet a nil where it was, and report
// that instead. Each problem is reported once. The loads share one budget,
// so that a file that spends much before each stray call costs one budget,
// not one a load.
//
// When a load without those statements succeeds, loadPast also returns its
// run and the main chunk it ran, from which Check dry-runs the callbacks.
func (p *Program) loadPast(first dsl.List, top int) (out dsl.List, loaded *run, proto *lua.FunctionProto) {
	out = slices.Clone(first)
	seen := map[string]bool{}
	for _, d := range first {
		seen[d.Error()] = true
	}
	m := budget.New(p.opts.Limits)
	chunk := slices.Clone(p.chunk)
	for range maxSkipped {
		i := statementAt(chunk, top)
		if i < 0 {
			break
		}
		switch chunk[i].(type) {
		case *ast.LocalAssignStmt: // local x = ..., local function f
			out.Sort()
			return out, nil, nil
		}
		chunk = slices.Delete(chunk, i, i+1)
		next, err := compileChunk(chunk, p.file)
		if err != nil {
			break
		}
		var diags dsl.List
		var r *run
		r, diags, top = p.loadChunk(m, 0, next)
		if m.Err() != nil {
			break // the shared budget, not the file, stopped this load
		}
		if r != nil {
			loaded, proto = r, next // problems of its declaration included: Check plays past them
		}
		for _, d := range diags {
			if !seen[d.Error()] {
				seen[d.Error()] = true
				out = append(out, d)
			}
		}
		if top == 0 {
			break
		}
	}
	out.Sort()
	return out, loaded, proto
}

// addNew adds to l the problems of more it does not have, in the file's
// order.
func addNew(l, more dsl.List) dsl.List {
	seen := map[string]bool{}
	for _, d := range l {
		seen[d.Error()] = true
	}
	for _, d := range more {
		if !seen[d.Error()] {
			seen[d.Error()] = true
			l = append(l, d)
		}
	}
	l.Sort()
	return l
}

// statementAt returns the index of the top-level statement that holds
// line: the last that starts on it or before (gopher-lua's tree knows
// where a statement starts, not where it ends), or −1.
func statementAt(chunk []ast.Stmt, line int) int {
	at := -1
	for i, s := range chunk {
		if s.Line() > line {
			break
		}
		at = i
	}
	return at
}

// compileChunk compiles a file's statements, or a chunk made of them, into
// the function a load runs. gopher-lua marks that function as one that
// wants Lua 5.0's implicit arg table, but declares no local to name it, so
// every call built a table that nothing can reach (Lua 5.1 gives the main
// chunk none): at about 3 KB, half of what loading a run on a reused state
// allocated. The mark is taken off; a function of the file that takes
// `...` keeps its arg table.
//
// gopher-lua places an error of the main chunk itself (too many local
// variables) on its line 0; it is placed on the statement that meets it,
// the last of the shortest run of statements that fails the same way.
func compileChunk(chunk []ast.Stmt, name string) (*lua.FunctionProto, error) {
	proto, err := lua.Compile(chunk, name)
	if ce, ok := err.(*lua.CompileError); ok && ce.Line <= 0 && len(chunk) > 0 {
		k := sort.Search(len(chunk), func(k int) bool {
			_, err := lua.Compile(chunk[:k+1], name)
			e, ok := err.(*lua.CompileError)
			return ok && e.Message == ce.Message
		})
		ce.Line = chunk[min(k, len(chunk)-1)].Line()
	}
	if err != nil {
		return nil, err
	}
	proto.IsVarArg &^= lua.VarArgNeedsArg
	return proto, nil
}
