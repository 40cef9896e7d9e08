package pagerule

import (
	"errors"
	"reflect"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Rule is a page rule written as an expression over a row's metrics.
// The compiled program is shared; each run gets its own VM and variables.
type Rule struct {
	expr  *exprwork.Expr
	specs []engine.MetricSpec // the metrics the expression reads
	at    func(offset int) dsl.Pos
	src   string // the scenario file, for snippets
}

// Compile compiles page = "..." against the metrics by canonical name,
// the way a policy's condition compiles: it must be true or false, read
// neither the clock nor build values without bound, and take at most
// pageMaxWork steps. text is the rule, src the scenario file, quote the
// place of the string's opening quote in it; its errors point into the
// string.
func Compile(text, src string, quote dsl.Pos) (*Rule, *dsl.Diagnostic) {
	env := map[string]any{}
	var names []string
	for _, s := range engine.MetricSpecs() {
		if s.Name == "paging" {
			continue // the rule decides it
		}
		names = append(names, s.Name)
		if s.Kind == engine.Boolean {
			env[s.Name] = false
		} else {
			env[s.Name] = 0.0
		}
	}
	pr := &Rule{src: src, at: func(off int) dsl.Pos {
		// A place inside the string only where the file holds the rule
		// as written up to that place (a literal on one line); a rule the
		// file computes (`"a" .. x`) is pointed at by its opening quote.
		pos := quote
		head := []rune(text)[:min(off, len([]rune(text)))]
		if pos.Col > 0 && pos.Line > 0 {
			line := []rune(dsl.LineOf(src, pos.Line))
			if pos.Col+len(head) <= len(line) && string(line[pos.Col:pos.Col+len(head)]) == string(head) {
				pos.Col += 1 + off
			}
		}
		return pos
	}}
	expr, problem := pagePlace(names, pr.at).Compile(text, env)
	if problem != nil {
		if problem.Mistyped {
			problem.Msg = "the page rule must be true or false, e.g. \"burn_1h >= 14.4 && burn_5m >= 14.4\" (" + problem.Msg + ")"
		}
		return nil, &dsl.Diagnostic{Pos: problem.Pos, Context: "page rule", Message: problem.Msg, Snippet: dsl.LineOf(src, problem.Pos.Line)}
	}
	pr.expr = expr
	seen := map[string]bool{}
	ast.Find(pr.expr.Program.Node(), func(n ast.Node) bool {
		if id, ok := n.(*ast.IdentifierNode); ok && !seen[id.Value] {
			seen[id.Value] = true
		}
		return false
	})
	for _, s := range engine.MetricSpecs() {
		if seen[s.Name] {
			pr.specs = append(pr.specs, s)
		}
	}
	return pr, nil
}

// Instance returns the rule for one run, charging its steps to m.
func (p *Rule) Instance(m *budget.Meter) engine.PageRule {
	return &pageRun{rule: p, bud: m, env: make(map[string]any, len(p.specs))}
}

// pageRun evaluates the rule in one run; not safe for concurrent use.
type pageRun struct {
	rule *Rule
	bud  *budget.Meter
	vm   vm.VM
	env  map[string]any
}

// Holds implements engine.PageRule. An error is a diagnostic at the place
// in the rule where it happened.
//
// Each evaluation is a timed call of the run's budget (Enter, Leave), as
// every call into what a user wrote is.
func (p *pageRun) Holds(r *engine.Row) (holds bool, err error) {
	if p.bud.Off() {
		return p.holds(r)
	}
	p.bud.Enter()
	defer func() {
		if lerr := p.bud.Leave(); lerr != nil && err == nil {
			d := p.rule.diag(0, lerr.Error()).(dsl.Diagnostic)
			d.Cause = lerr
			holds, err = false, d
		}
	}()
	return p.holds(r)
}

func (p *pageRun) holds(r *engine.Row) (bool, error) {
	if err := p.charge(); err != nil {
		d := p.rule.diag(0, err.Error()).(dsl.Diagnostic)
		d.Cause = err
		return false, d
	}
	for i := range p.rule.specs {
		s := &p.rule.specs[i]
		v := s.Get(r)
		if s.Kind == engine.Boolean {
			p.env[s.Name] = v == 1
		} else {
			p.env[s.Name] = v
		}
	}
	out, err := p.vm.Run(p.rule.expr.Program, p.env)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return false, p.rule.diag(fe.From, fe.Message)
		}
		return false, p.rule.diag(0, err.Error())
	}
	b, _ := out.(bool)
	return b, nil
}

// charge charges an evaluation's steps, unless the run is unmetered.
func (p *pageRun) charge() error {
	return p.rule.expr.Charge(p.bud, budget.Scenario)
}

func (p *Rule) diag(off int, msg string) error {
	pos := p.at(off)
	return dsl.Diagnostic{Pos: pos, Context: "page rule", Message: msg, Snippet: dsl.LineOf(p.src, pos.Line)}
}

// pagePlace is where a page rule stands, for exprwork's compiler: a
// condition over the metrics (names) that cannot read paging, which it
// decides, whose offsets at maps to the scenario file.
func pagePlace(names []string, at func(offset int) dsl.Pos) *exprwork.Place {
	return &exprwork.Place{
		At:   at,
		What: "a page rule", In: "a page rule", Subject: "it", Each: "each evaluation",
		Simpler: "write a page rule more simply", Want: reflect.Bool, Names: append(names, "paging"),
		Unknown: func(name string) string {
			if name == "paging" {
				return "the page rule cannot read paging, which is what it decides"
			}
			return ""
		},
	}
}
