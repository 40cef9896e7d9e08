package policy

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// compiler holds what loading one file needs.
type compiler struct {
	file     string
	src      string
	errs     dsl.List
	rules    []*ruleSrc
	slots    []slot
	slotIdx  map[string]int
	parseCfg *conf.Config
	switches []switchUse // the scenario's switches the rules name (switch.go)
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
	p, errs := CompileLoaded(filename, src)
	if len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// CompileLoaded is Compile for a check of the file: every problem of the
// file (each with its kind, dsl.Diagnostic.Kind), and the program of the
// rules that load whole, so that a dry run can show what they do; nil
// when none does. With problems, the program holds the rules that have
// none (loaded.go).
func CompileLoaded(filename string, src []byte) (*Program, dsl.List) {
	p, errs := compileFile(filename, src)
	return p, classify(errs)
}

func compileFile(filename string, src []byte) (*Program, dsl.List) {
	c := &compiler{file: filename, slotIdx: map[string]int{}}
	if len(src) > MaxSourceBytes {
		c.errs.Add("", dsl.Pos{File: filename}, "", "the file is %d bytes; a policy may have at most %d: split it or remove rules", len(src), MaxSourceBytes)
		return nil, c.errs
	}
	text, d := dsl.SourceText(filename, src, "a policy is a text file of rules", func(c rune) string {
		return fmt.Sprintf(`"\x%02x"`, c)
	})
	if d != nil {
		c.errs = append(c.errs, *d)
		return nil, c.errs
	}
	c.src = text
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
	p.switches = c.switches
	if len(c.errs) > 0 {
		// Structure problems are found before expression ones; the
		// author reads them in the file's order.
		c.errs.Sort()
		if c.keepLoaded(p); len(p.rules) == 0 {
			return nil, c.errs
		}
	}
	p.bindVariables()
	for _, r := range p.rules {
		r.fast = p.fast(r.cond.Node())
	}
	p.small = p.mostStepsAMinute() < budget.CheckEvery
	return p, c.errs
}

// mostStepsAMinute bounds what a minute of the policy charges: every
// condition and computed argument, every helper's longest window.
func (p *Program) mostStepsAMinute() int64 {
	var n int64
	for _, r := range p.rules {
		n += r.steps
		for _, a := range r.actions {
			n += a.steps
		}
	}
	for _, v := range p.envVars {
		if v.slot >= 0 {
			n += p.slots[v.slot].minutes(MaxWindow + 1)
		}
	}
	return n
}

// newConfig makes the expr configuration rules are checked with, that of
// every expression a user writes (exprwork.Config).
func newConfig(env map[string]any) *conf.Config { return exprwork.Config(env) }

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
		what := "a condition, e.g. when paging && new_build > 0"
		if isDo {
			what = "actions, e.g. do rollback()"
		}
		c.errs.Add(c.src, c.pos(cl, 0), quoteRule(rs.name), "%s needs %s", map[bool]string{false: "when", true: "do"}[isDo], what)
		return nil
	}
	tree, refused := rulePlace.Parse(text, c.parseCfg)
	if tree == nil {
		c.problem(rs, cl, refused[0], isDo)
		return nil
	}
	for _, p := range refused {
		c.problem(rs, cl, p, isDo)
	}
	v := &callChecker{c: c, rs: rs, cl: cl, isDo: isDo, failed: len(refused) > 0}
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
				c.errs.Add(c.src, c.pos(cl, startOf(n)), quoteRule(rs.name), "unknown action %s%s (actions: %s)", id, spell.Suggest(id, actionNames()), strings.Join(actionNames(), ", "))
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

// compileRule type-checks and compiles a parsed rule.
func (c *compiler) compileRule(pr parsedRule, cfg *conf.Config) *rule {
	rs := pr.src
	r := &rule{name: rs.name, pos: rs.pos, when: rs.when, cooldown: rs.cooldown}
	ok := pr.when != nil
	if pr.when != nil {
		r.cond, r.seen, r.steps = c.compileCond(rs, pr.when, cfg)
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
// compiles it; it returns the steps of an evaluation too.
func (c *compiler) compileCond(rs *ruleSrc, tree *exprparser.Tree, cfg *conf.Config) (*vm.Program, []seenRef, int64) {
	cl := rs.when
	if _, p := condPlace.Check(tree, cfg); p != nil {
		if p.Mistyped {
			p.At, p.Msg = firstNonSpace(cl.expr), fmt.Sprintf("the condition must be true or false, but it is %s: compare it, e.g. when %s > 0.5", describe(p.WrongType), clip(strings.TrimSpace(tree.Node.String())))
		}
		c.problem(rs, cl, p, false)
		return nil, nil, 0
	}
	steps, p := condPlace.Bound(tree.Node)
	if p != nil {
		c.problem(rs, cl, p, false)
		return nil, nil, 0
	}
	seen := seenNames(tree.Node, cfg)
	prog := c.finish(rs, cl, tree, cfg)
	return prog, seen, steps
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
	arg := 0
	if af.Switch {
		id, ok := c.switchArg(rs, cl, call)
		if !ok {
			return a, false
		}
		a.switchID, arg = id, 1
	} else if len(call.Arguments) != 1 {
		c.errs.Add(c.src, c.pos(cl, startOf(call)), quoteRule(rs.name), "%s takes one argument, %s, e.g. %s", name, spec.Range(), exampleCall(name))
		return a, false
	}
	argTree := &exprparser.Tree{Node: call.Arguments[arg], Source: tree.Source}
	a.argStart = startOf(call.Arguments[arg])
	t, p := rulePlace.Check(argTree, cfg)
	if p != nil {
		c.problem(rs, cl, p, true)
		return a, false
	}
	if bad, hint := argTypeProblem(af, t); bad {
		c.errs.Add(c.src, c.pos(cl, a.argStart), quoteRule(rs.name), "%s takes %s, but this is %s%s", name, spec.Range(), describe(t), hint)
		return a, false
	}
	steps, p := rulePlace.Bound(argTree.Node)
	if p != nil {
		c.problem(rs, cl, p, true)
		return a, false
	}
	a.steps = steps
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
		c.problem(rs, cl, rulePlace.Explain(cl.expr, err), true)
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

// finish optimizes and compiles a checked tree.
func (c *compiler) finish(rs *ruleSrc, cl *clause, tree *exprparser.Tree, cfg *conf.Config) *vm.Program {
	prog, p := rulePlace.Build(tree, cfg)
	if p != nil {
		c.problem(rs, cl, p, false)
	}
	return prog
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

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }
