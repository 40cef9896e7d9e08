package policy

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	exprcompiler "github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
)

// Program is a compiled policy. It is read-only once compiled, so any number
// of runs may share it; each takes its own Instance.
type Program struct {
	file  string
	src   string
	rules []*rule
	slots []slot         // the helper calls of every rule, computed each minute
	env   map[string]any // every name a rule can read, with its zero value
	times []any          // "HH:MM" of each minute of the day, boxed once, when a rule reads time

	envVars  []envVar       // the names the rules read, refreshed each minute
	index    map[string]int // envVars by name
	base     int            // the machine variable of envVars[0]
	needsMap bool           // some program reads the map environment too
}

// rule is one compiled rule.
type rule struct {
	name     string
	pos      dsl.Pos
	cond     *vm.Program
	fast     fastCond // the condition in Go, when it is simple enough; see fast.go
	when     *clause
	seen     []seenRef // the variables and helper values the condition reads, for the trace
	actions  []action
	cooldown int
}

// action is one compiled action of a rule.
type action struct {
	fn       ActionFunc
	arg      *vm.Program // nil when the value is constant or there is none
	value    float64     // the constant value
	pos      dsl.Pos
	clause   *clause
	argStart int // rune offset of the argument in the clause, for run-time messages
}

// slotKind says which helper a slot computes.
type slotKind int

const (
	slotAgo slotKind = iota
	slotMean
	slotMax
	slotMin
	slotRising
	slotFalling
	slotSince
)

// slot is one distinct helper call, e.g. mean_over("error_rate", 10). The
// call is replaced at load by a name no rule can write, whose value is
// computed in Go once a minute: helpers then cost a map lookup in expr.
type slot struct {
	key   string // "#0", "#1", ...: short to hash, and no rule can write it
	label string // the call as written, e.g. mean_over("db_util",5), for the trace
	kind  slotKind
	typ   Type
	get   func(*engine.Row) float64
	n     int // window or look-back, minutes
	rule  int // since(): index of the rule
}

// Rules returns the rule names in file order.
func (p *Program) Rules() []string {
	names := make([]string, len(p.rules))
	for i, r := range p.rules {
		names[i] = r.name
	}
	return names
}

// File returns the name the program was compiled from.
func (p *Program) File() string { return p.file }

// compiler holds what loading one file needs.
type compiler struct {
	file     string
	src      string
	errs     dsl.List
	rules    []*ruleSrc
	slots    []slot
	slotIdx  map[string]int
	parseCfg *conf.Config
}

// parsedRule is a rule between parsing and type-checking.
type parsedRule struct {
	src  *ruleSrc
	when *exprparser.Tree
	do   []parsedDo
}

type parsedDo struct {
	cl   *clause
	tree *exprparser.Tree
}

// Compile loads a policy file: it parses every rule, type-checks each
// condition and action against the variables, helpers and actions of
// policies, bounds the work of every expression and compiles it once. The
// error, when there is one, is a dsl.List with every problem of the file.
func Compile(filename string, src []byte) (*Program, error) {
	c := &compiler{file: filename, slotIdx: map[string]int{}}
	if len(src) > MaxSourceBytes {
		c.errs.Add("", dsl.Pos{File: filename}, "", "the file is %d bytes; a policy may have at most %d: split it or remove rules", len(src), MaxSourceBytes)
		return nil, c.errs
	}
	if !utf8.Valid(src) {
		line := 1 + strings.Count(string(src[:firstInvalid(src)]), "\n")
		c.errs.Add("", dsl.Pos{File: filename, Line: line}, "", "the file is not UTF-8 text: save it as UTF-8")
		return nil, c.errs
	}
	c.src = string(src)
	rules, errs := parseFile(filename, c.src)
	c.errs, c.rules = errs, rules
	c.parseCfg = newConfig(variableEnv())

	parsed := make([]parsedRule, 0, len(rules))
	for _, rs := range rules {
		pr := parsedRule{src: rs}
		if rs.when != nil {
			pr.when = c.parse(rs, rs.when, false)
		}
		for _, d := range rs.do {
			pr.do = append(pr.do, parsedDo{cl: d, tree: c.parse(rs, d, true)})
		}
		parsed = append(parsed, pr)
	}

	p := &Program{file: filename, src: c.src, env: variableEnv(), slots: c.slots}
	for _, s := range c.slots {
		p.env[s.key] = zero(s.typ)
	}
	cfg := newConfig(p.env)
	for _, pr := range parsed {
		r := c.compileRule(pr, cfg)
		if r != nil {
			p.rules = append(p.rules, r)
		}
	}
	if len(c.errs) > 0 {
		// Structure problems are found before expression ones; the
		// author reads them in the file's order.
		sort.SliceStable(c.errs, func(i, j int) bool {
			a, b := c.errs[i].Pos, c.errs[j].Pos
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, c.errs
	}
	p.bindVariables()
	for _, r := range p.rules {
		r.fast = p.fast(r.cond.Node())
	}
	return p, nil
}

// newConfig makes the expr configuration rules are checked with: the
// environment, the builtins less those a policy may not call, the node limit.
func newConfig(env map[string]any) *conf.Config {
	cfg := conf.New(env)
	cfg.MaxNodes = MaxNodes
	for _, name := range disabledBuiltins() {
		cfg.Disabled[name] = true
		delete(cfg.Builtins, name)
	}
	return cfg
}

// variableEnv returns every variable with its zero value, typed.
func variableEnv() map[string]any {
	vs := Variables()
	env := make(map[string]any, len(vs)+8)
	for _, v := range vs {
		env[v.Name] = zero(v.Type)
	}
	return env
}

func zero(t Type) any {
	switch t {
	case Int:
		return 0
	case Bool:
		return false
	case String:
		return ""
	}
	return 0.0
}

// parse parses one clause, bounds its nesting, checks the calls it makes and
// replaces helper calls by slots. It returns nil when the clause is broken.
func (c *compiler) parse(rs *ruleSrc, cl *clause, isDo bool) *exprparser.Tree {
	text := cl.text
	if isDo {
		// The actions are read as one array, opened on a line of its own so
		// that columns stay those of the file.
		cl.pre = 1
		text = "[\n" + text + "\n]"
	}
	cl.expr = text
	if strings.TrimSpace(cl.text) == "" {
		what := "a condition, e.g. when paging && bad_traffic > 0"
		if isDo {
			what = "actions, e.g. do rollback()"
		}
		c.errs.Add(c.src, c.pos(cl, 0), quoteRule(rs.name), "%s needs %s", map[bool]string{false: "when", true: "do"}[isDo], what)
		return nil
	}
	if off, ok := tooDeep(text); !ok {
		c.errs.Add(c.src, c.pos(cl, off), quoteRule(rs.name), "brackets nested more than %d deep: split the expression into simpler rules", MaxDepth)
		return nil
	}
	tree, err := exprparser.ParseWithConfig(text, c.parseCfg)
	if err != nil {
		c.exprError(rs, cl, err, isDo)
		return nil
	}
	v := &callChecker{c: c, rs: rs, cl: cl, isDo: isDo}
	if isDo {
		arr, ok := tree.Node.(*ast.ArrayNode)
		if !ok {
			c.errs.Add(c.src, c.pos(cl, firstNonSpace(text)), quoteRule(rs.name), "do takes action calls separated by commas, e.g. do set_shed(0.5), set_feature(false)")
			return nil
		}
		for _, n := range arr.Nodes {
			call, ok := n.(*ast.CallNode)
			id, _ := callee(call)
			if !ok || id == "" {
				c.errs.Add(c.src, c.pos(cl, startOf(n)), quoteRule(rs.name), "%s is not an action: do takes calls of %s", clip(n.String()), strings.Join(actionNames(), ", "))
				v.failed = true
				continue
			}
			if _, ok := lookupAction(id); !ok {
				c.errs.Add(c.src, c.pos(cl, startOf(n)), quoteRule(rs.name), "unknown action %s%s (actions: %s)", id, didYouMean(id, actionNames()), strings.Join(actionNames(), ", "))
				v.failed = true
				continue
			}
			for i := range call.Arguments {
				ast.Walk(&call.Arguments[i], v)
			}
		}
	} else {
		ast.Walk(&tree.Node, v)
	}
	if v.failed {
		return nil
	}
	return tree
}

// callee returns the name a call calls, or "".
func callee(call *ast.CallNode) (string, bool) {
	if call == nil {
		return "", false
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return "", false
	}
	return id.Value, true
}

// callChecker walks an expression: helper calls become slots, and calls of
// anything else than helpers and expr's builtins are reported.
type callChecker struct {
	c      *compiler
	rs     *ruleSrc
	cl     *clause
	isDo   bool
	failed bool
}

func (v *callChecker) fail(n ast.Node, format string, args ...any) {
	v.c.errs.Add(v.c.src, v.c.pos(v.cl, startOf(n)), quoteRule(v.rs.name), format, args...)
	v.failed = true
}

func (v *callChecker) Visit(node *ast.Node) {
	if b, ok := (*node).(*ast.BuiltinNode); ok && isDisabledBuiltin(b.Name) {
		// expr parses its predicates as builtins even when disabled.
		v.fail(b, "%s() is not available in policies: it builds values step by step, which could grow without bound; use sum, count, all or any", b.Name)
		return
	}
	call, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	name, _ := callee(call)
	if name == "" {
		return // a call of an expression; the checker says what is wrong
	}
	if _, ok := lookupHelper(name); ok {
		if s, ok := v.helperSlot(call, name); ok {
			id := &ast.IdentifierNode{Value: s}
			ast.Patch(node, id)
		}
		return
	}
	if _, ok := lookupAction(name); ok {
		if v.isDo {
			v.fail(call, "%s() is an action: it cannot be an argument of another action; write each action on its own, separated by commas", name)
		} else {
			v.fail(call, "%s() is an action, not a value: actions go in the rule's do clause, e.g. do %s", name, exampleCall(name))
		}
		return
	}
	if isDisabledBuiltin(name) {
		switch name {
		case "now", "date", "timezone", "duration":
			v.fail(call, "%s() is not available in policies: a rule must give the same result on every run, so it cannot read the wall clock; use time, clock, hour or minute", name)
		default:
			v.fail(call, "%s() is not available in policies: it builds text or lists from others, which a rule has no use for and which could grow without bound", name)
		}
		return
	}
	v.fail(call, "unknown function %s%s (helpers: %s; expr's builtins such as abs, min, max, all, any are also there)", name, didYouMean(name, helperNames()), strings.Join(helperNames(), ", "))
}

// helperSlot checks a helper call's arguments and returns its slot's key.
func (v *callChecker) helperSlot(call *ast.CallNode, name string) (string, bool) {
	c := v.c
	h, _ := lookupHelper(name)
	wantArgs := 2
	if name == "since" {
		wantArgs = 1
	}
	if len(call.Arguments) != wantArgs {
		v.fail(call, "%s takes %d argument%s: %s", name, wantArgs, map[bool]string{true: "s", false: ""}[wantArgs > 1], h.Signature)
		return "", false
	}
	str, ok := call.Arguments[0].(*ast.StringNode)
	if !ok {
		what := `a metric's name in quotes, e.g. "error_rate"`
		if name == "since" {
			what = `a rule's name in quotes, e.g. "roll back"`
		}
		v.fail(call.Arguments[0], "the first argument of %s must be %s", name, what)
		return "", false
	}
	if name == "since" {
		for i, r := range c.rules {
			if r.name == str.Value {
				return c.slot(slot{label: `since(` + strconv.Quote(str.Value) + `)`, kind: slotSince, typ: Int, rule: i}), true
			}
		}
		var names []string
		for _, r := range c.rules {
			names = append(names, r.name)
		}
		v.fail(str, "since(%q): no rule of this file has that name%s", str.Value, didYouMean(str.Value, names))
		return "", false
	}
	mv, ok := lookupVariable(str.Value)
	if !ok || mv.get == nil {
		v.fail(str, "%s(%q): unknown metric%s", name, str.Value, didYouMean(str.Value, metricNames()))
		return "", false
	}
	lo := 1
	if name == "ago" {
		lo = 0
	}
	n, ok := call.Arguments[1].(*ast.IntegerNode)
	if !ok || n.Value < lo || n.Value > MaxWindow {
		v.fail(call.Arguments[1], "the second argument of %s must be a whole number of minutes from %d to %d written as a number, e.g. %s(%q, 10)", name, lo, MaxWindow, name, str.Value)
		return "", false
	}
	s := slot{get: mv.get, n: n.Value, typ: Float}
	switch name {
	case "ago":
		s.kind, s.typ = slotAgo, mv.Type
	case "mean_over":
		s.kind = slotMean
	case "max_over":
		s.kind = slotMax
	case "min_over":
		s.kind = slotMin
	case "rising":
		s.kind, s.typ = slotRising, Bool
	case "falling":
		s.kind, s.typ = slotFalling, Bool
	}
	s.label = name + "(" + strconv.Quote(str.Value) + "," + strconv.Itoa(n.Value) + ")"
	return c.slot(s), true
}

// slot registers s once and returns its key.
func (c *compiler) slot(s slot) string {
	i, ok := c.slotIdx[s.label]
	if !ok {
		i = len(c.slots)
		s.key = "#" + strconv.Itoa(i)
		c.slotIdx[s.label] = i
		c.slots = append(c.slots, s)
	}
	return c.slots[i].key
}

// compileRule type-checks and compiles a parsed rule.
func (c *compiler) compileRule(pr parsedRule, cfg *conf.Config) *rule {
	rs := pr.src
	r := &rule{name: rs.name, pos: rs.pos, when: rs.when, cooldown: rs.cooldown}
	ok := pr.when != nil
	if pr.when != nil {
		r.cond, r.seen = c.compileCond(rs, pr.when, cfg)
		for i := range r.seen {
			for _, sl := range c.slots {
				if sl.key == r.seen[i].key {
					r.seen[i].label = sl.label
				}
			}
		}
		ok = r.cond != nil
	}
	for _, d := range pr.do {
		if d.tree == nil {
			ok = false
			continue
		}
		for _, n := range d.tree.Node.(*ast.ArrayNode).Nodes {
			a, aok := c.compileAction(rs, d.cl, d.tree, n.(*ast.CallNode), cfg)
			if aok {
				r.actions = append(r.actions, a)
			} else {
				ok = false
			}
		}
	}
	if !ok || len(pr.do) == 0 {
		return nil
	}
	return r
}

// compileCond checks that a condition is a bool, bounds its work and
// compiles it.
func (c *compiler) compileCond(rs *ruleSrc, tree *exprparser.Tree, cfg *conf.Config) (*vm.Program, []seenRef) {
	cl := rs.when
	t, err := checker.Check(tree, cfg)
	if err != nil {
		c.exprError(rs, cl, err, false)
		return nil, nil
	}
	if t != nil && t.Kind() != reflect.Bool && t.Kind() != reflect.Interface {
		c.errs.Add(c.src, c.pos(cl, firstNonSpace(cl.expr)), quoteRule(rs.name),
			"the condition must be true or false, but it is %s: compare it, e.g. when %s > 0.5", describe(t), clip(strings.TrimSpace(tree.Node.String())))
		return nil, nil
	}
	if !c.bounded(rs, cl, tree.Node) || !c.noGrowth(rs, cl, tree.Node) {
		return nil, nil
	}
	seen := seenNames(tree.Node, cfg)
	prog := c.finish(rs, cl, tree, cfg)
	return prog, seen
}

// compileAction checks one action call and compiles its argument. A
// constant argument is computed and range-checked at load.
func (c *compiler) compileAction(rs *ruleSrc, cl *clause, tree *exprparser.Tree, call *ast.CallNode, cfg *conf.Config) (action, bool) {
	name, _ := callee(call)
	af, _ := lookupAction(name)
	a := action{fn: af, pos: c.pos(cl, startOf(call)), clause: cl}
	if af.NoArg {
		if len(call.Arguments) != 0 {
			c.errs.Add(c.src, c.pos(cl, startOf(call.Arguments[0])), quoteRule(rs.name), "%s takes no argument: write %s()", name, name)
			return a, false
		}
		return a, true
	}
	spec := af.Control.Spec()
	if len(call.Arguments) != 1 {
		c.errs.Add(c.src, c.pos(cl, startOf(call)), quoteRule(rs.name), "%s takes one argument, %s, e.g. %s", name, spec.Range(), exampleCall(name))
		return a, false
	}
	argTree := &exprparser.Tree{Node: call.Arguments[0], Source: tree.Source}
	a.argStart = startOf(call.Arguments[0])
	t, err := checker.Check(argTree, cfg)
	if err != nil {
		c.exprError(rs, cl, err, true)
		return a, false
	}
	if bad, hint := argTypeProblem(af, t); bad {
		c.errs.Add(c.src, c.pos(cl, a.argStart), quoteRule(rs.name), "%s takes %s, but this is %s%s", name, spec.Range(), describe(t), hint)
		return a, false
	}
	if !c.bounded(rs, cl, argTree.Node) || !c.noGrowth(rs, cl, argTree.Node) {
		return a, false
	}
	constant := isConstant(argTree.Node)
	prog := c.finish(rs, cl, argTree, cfg)
	if prog == nil {
		return a, false
	}
	if !constant {
		a.arg = prog
		return a, true
	}
	out, err := vm.Run(prog, cfg.EnvObject)
	if err != nil {
		c.exprError(rs, cl, err, true)
		return a, false
	}
	v, err := actionValue(af, out)
	if err != nil {
		c.errs.Add(c.src, c.pos(cl, a.argStart), quoteRule(rs.name), "%s", err)
		return a, false
	}
	a.value = v
	return a, true
}

// argTypeProblem reports whether type t cannot be an argument of af, with
// a hint when there is one.
func argTypeProblem(af ActionFunc, t reflect.Type) (bool, string) {
	if t == nil || t.Kind() == reflect.Interface {
		return false, "" // known only at run time; checked then
	}
	k := t.Kind()
	isInt := k >= reflect.Int && k <= reflect.Uint64
	isFloat := k == reflect.Float32 || k == reflect.Float64
	switch af.Arg {
	case Int:
		if isFloat {
			return true, ": round it, e.g. int(ceil(x)) or int(round(x))"
		}
		return !isInt, ""
	case Float:
		return !isInt && !isFloat, ""
	case Bool:
		if isInt || isFloat {
			return true, ": write true or false, or a comparison such as db_util < 0.8"
		}
		return k != reflect.Bool, ""
	}
	return false, ""
}

// actionValue converts what an argument gave to the control's value and
// checks it: NaN and ±Inf never reach a control.
func actionValue(af ActionFunc, out any) (float64, error) {
	spec := af.Control.Spec()
	var v float64
	switch x := out.(type) {
	case float64:
		v = x
	case float32:
		v = float64(x)
	case int:
		v = float64(x)
	case int64:
		v = float64(x)
	case bool:
		if af.Arg != Bool {
			return 0, fmt.Errorf("%s takes %s, but it got %v", af.Name, spec.Range(), x)
		}
		if x {
			v = 1
		}
	default:
		return 0, fmt.Errorf("%s takes %s, but it got %s", af.Name, spec.Range(), describeValue(out))
	}
	if af.Arg == Bool {
		if _, ok := out.(bool); !ok {
			return 0, fmt.Errorf("%s takes true or false, but it got %s", af.Name, describeValue(out))
		}
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s(%s): %s is not a number any control takes (a division by zero?); it takes %s", af.Name, fmtNum(v), fmtNum(v), spec.Range())
	}
	if err := spec.Check(v); err != nil {
		return 0, fmt.Errorf("%s(%s): %v", af.Name, fmtNum(v), err)
	}
	return v, nil
}

// finish optimizes and compiles a checked tree.
func (c *compiler) finish(rs *ruleSrc, cl *clause, tree *exprparser.Tree, cfg *conf.Config) *vm.Program {
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		c.exprError(rs, cl, err, false)
		return nil
	}
	prog, err := exprcompiler.Compile(tree, cfg)
	if err != nil {
		c.exprError(rs, cl, err, false)
		return nil
	}
	return prog
}

// exprError turns an error of expr into a diagnostic at its place in the
// file, with a suggestion for a misspelt name.
func (c *compiler) exprError(rs *ruleSrc, cl *clause, err error, isDo bool) {
	var fe *file.Error
	if !errors.As(err, &fe) {
		c.errs.Add(c.src, c.pos(cl, firstNonSpace(cl.expr)), quoteRule(rs.name), "%v", err)
		return
	}
	msg := fe.Message
	if name, ok := strings.CutPrefix(msg, "unknown name "); ok {
		if _, isHelper := lookupHelper(name); isHelper {
			h, _ := lookupHelper(name)
			msg = name + " is a helper function: call it, e.g. " + h.Signature
		} else if _, isAction := lookupAction(name); isAction {
			msg = name + " is an action: call it in the do clause, e.g. do " + exampleCall(name)
		} else {
			msg = "unknown name " + name + didYouMean(name, variableNames())
		}
	}
	if msg == "unexpected token EOF" {
		msg = "the expression ends too soon: something is missing at its end"
	}
	if strings.Contains(msg, "exceeds maximum allowed nodes") {
		msg = fmt.Sprintf("the expression is too large (more than %d parts): split it into simpler rules", MaxNodes)
	}
	c.errs.Add(c.src, c.pos(cl, fe.From), quoteRule(rs.name), "%s", msg)
}

// pos maps a rune offset of a clause's expression to the file.
func (c *compiler) pos(cl *clause, off int) dsl.Pos {
	return cl.position(c.file, off)
}

// position maps a rune offset of the clause's expression to the file.
func (cl *clause) position(fileName string, off int) dsl.Pos {
	text := cl.expr
	if text == "" {
		text = cl.text
	}
	line, col, i := 1, 1, 0
	for _, r := range text {
		if i == off {
			break
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i++
	}
	line -= cl.pre
	if line < 1 {
		line, col = 1, firstNonSpace(cl.text)+1
	}
	last := strings.Count(cl.text, "\n") + 1
	if line > last {
		line = last
		col = utf8.RuneCountInString(lastLine(cl.text)) + 1
	}
	return dsl.Pos{File: fileName, Line: cl.first + line - 1, Col: col}
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// startOf returns the rune offset where a node starts.
func startOf(n ast.Node) int {
	if n == nil {
		return 0
	}
	from := n.Location().From
	// A call's location is its bracket; its callee starts it.
	switch x := n.(type) {
	case *ast.CallNode:
		from = min(from, startOf(x.Callee))
	case *ast.BinaryNode:
		from = min(from, startOf(x.Left))
	case *ast.MemberNode:
		from = min(from, startOf(x.Node))
	}
	return from
}

// firstNonSpace returns the rune offset of the first character that is not a space.
func firstNonSpace(s string) int {
	i := 0
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return i
		}
		i++
	}
	return 0
}

// tooDeep reports the rune offset where brackets nest deeper than MaxDepth.
func tooDeep(s string) (int, bool) {
	depth := 0
	var quote rune
	i := 0
	escaped := false
	for _, r := range s {
		switch {
		case quote != 0:
			if escaped {
				escaped = false
			} else if r == '\\' && quote != '`' {
				escaped = true
			} else if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'' || r == '`':
			quote = r
		case r == '(' || r == '[' || r == '{':
			depth++
			if depth > MaxDepth {
				return i, false
			}
		case r == ')' || r == ']' || r == '}':
			depth--
		}
		i++
	}
	return 0, true
}

// isConstant reports whether a checked expression reads nothing of the
// run: no name (a variable, a helper's slot or a let name) and no call.
func isConstant(n ast.Node) bool {
	found := false
	ast.Walk(&n, visitFunc(func(node *ast.Node) {
		switch (*node).(type) {
		case *ast.IdentifierNode, *ast.CallNode, *ast.PointerNode:
			found = true
		}
	}))
	return !found
}

// seenNames lists the variables and helper values a condition reads, in
// the order they appear; time is left out (every row shows it).
func seenNames(n ast.Node, cfg *conf.Config) []seenRef {
	env := cfg.EnvObject.(map[string]any)
	var names []seenRef
	seen := map[string]bool{}
	ast.Walk(&n, visitFunc(func(node *ast.Node) {
		id, ok := (*node).(*ast.IdentifierNode)
		if !ok || seen[id.Value] || id.Value == "time" {
			return
		}
		if _, ok := env[id.Value]; ok {
			seen[id.Value] = true
			names = append(names, seenRef{key: id.Value, label: id.Value})
		}
	}))
	return names
}

// seenRef is a name a condition reads: its key in the environment and the
// label the trace shows.
type seenRef struct{ key, label string }

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }

// programs returns the rule's compiled expressions.
func (r *rule) programs() []*vm.Program {
	ps := []*vm.Program{r.cond}
	for _, a := range r.actions {
		if a.arg != nil {
			ps = append(ps, a.arg)
		}
	}
	return ps
}

// describe names a type for a message.
func describe(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	switch k := t.Kind(); {
	case k == reflect.Bool:
		return "true or false (bool)"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "a whole number (int)"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number (float)"
	case k == reflect.String:
		return "text (string)"
	case k == reflect.Slice || k == reflect.Array:
		return "a list (" + t.String() + ")"
	case k == reflect.Map:
		return "a map (" + t.String() + ")"
	}
	return t.String()
}

func describeValue(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%v, %s", clip(fmt.Sprint(v)), describe(reflect.TypeOf(v)))
}

func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// firstInvalid returns the byte offset of the first invalid UTF-8 sequence.
func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func didYouMean(name string, candidates []string) string {
	if n := engine.Nearest(name, candidates); n != "" {
		return "; did you mean " + n + "?"
	}
	return ""
}

func exampleCall(name string) string {
	switch name {
	case "set_min_instances":
		return "set_min_instances(14)"
	case "set_autoscaling", "set_feature":
		return name + "(false)"
	case "set_target":
		return "set_target(0.5)"
	case "set_ttl":
		return "set_ttl(120)"
	case "set_shed":
		return "set_shed(0.5)"
	}
	return name + "()"
}

func actionNames() []string {
	var names []string
	for _, a := range Actions() {
		names = append(names, a.Name)
	}
	return names
}

func helperNames() []string {
	var names []string
	for _, h := range Helpers() {
		names = append(names, h.Name)
	}
	return names
}

func variableNames() []string {
	var names []string
	for _, v := range Variables() {
		names = append(names, v.Name)
	}
	return names
}

func metricNames() []string {
	var names []string
	for _, v := range Variables() {
		if v.get != nil {
			names = append(names, v.Name)
		}
	}
	return names
}
