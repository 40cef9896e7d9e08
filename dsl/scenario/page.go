package scenario

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// pageRule is a page rule written as an expression over a row's metrics.
// The compiled program is shared; each run gets its own VM and variables.
type pageRule struct {
	prog  *vm.Program
	specs []engine.MetricSpec // the metrics the expression reads
}

// compilePage compiles page = "..." against the metrics by canonical name;
// it must be a bool. An error points into the string.
func (p *Program) compilePage(decl *declaration) (*pageRule, *dsl.Diagnostic) {
	text := decl.pageSrc
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
	prog, err := expr.Compile(text, expr.Env(env), expr.AsBool())
	if err != nil {
		pos := p.argPlace(decl.pos, "scenario").value("page") // the string's opening quote
		d := dsl.Diagnostic{Pos: pos, Context: "page rule", Snippet: dsl.LineOf(p.src, pos.Line)}
		msg := err.Error()
		if fe, ok := err.(*file.Error); ok {
			msg = fe.Message
			if pos.Col > 0 && fe.Line == 1 {
				d.Pos.Col = pos.Col + 1 + fe.Column
			}
		}
		if name, ok := strings.CutPrefix(msg, "unknown name "); ok {
			name = strings.TrimSpace(name)
			msg += spell.Suggest(name, append(names, "paging"))
			if name == "paging" {
				msg = "the page rule cannot read paging, which is what it decides"
			}
		}
		if strings.Contains(msg, "expected bool") {
			msg = "the page rule must be true or false, e.g. \"burn_1h >= 14.4 && burn_5m >= 14.4\" (" + msg + ")"
		}
		d.Message = msg
		return nil, &d
	}
	pr := &pageRule{prog: prog}
	seen := map[string]bool{}
	ast.Find(prog.Node(), func(n ast.Node) bool {
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

// instance returns the rule for one run.
func (p *pageRule) instance() engine.PageRule {
	return &pageRun{rule: p, env: make(map[string]any, len(p.specs))}
}

// pageRun evaluates the rule in one run; not safe for concurrent use.
type pageRun struct {
	rule *pageRule
	vm   vm.VM
	env  map[string]any
}

// Holds implements engine.PageRule.
func (p *pageRun) Holds(r *engine.Row) (bool, error) {
	for i := range p.rule.specs {
		s := &p.rule.specs[i]
		v := s.Get(r)
		if s.Kind == engine.Boolean {
			p.env[s.Name] = v == 1
		} else {
			p.env[s.Name] = v
		}
	}
	out, err := p.vm.Run(p.rule.prog, p.env)
	if err != nil {
		return false, fmt.Errorf("page rule: %v", err)
	}
	b, _ := out.(bool)
	return b, nil
}
