package golden

import (
	"fmt"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/scripts"
)

// Graded adapts a compiled scenario for grading: its id, English title,
// the scenario itself as the source of every run, and its grading criteria.
func Graded(p *scenario.Program) Scenario {
	return Scenario{ID: p.ID(), Title: p.Title().In("en"), Source: p, Criteria: p.Grading()}
}

// ReferencePolicy compiles the built-in reference policy of a scenario,
// scripts/<id>.rules, and returns it with that name.
func ReferencePolicy(id string) (*policy.Program, string, error) {
	name := "scripts/" + id + ".rules"
	src, err := scripts.Reference(id)
	if err != nil {
		return nil, name, fmt.Errorf("scenario %s has no built-in reference policy (%s)", id, name)
	}
	p, err := policy.Compile(name, src)
	if err != nil {
		return nil, name, fmt.Errorf("the built-in reference policy %s does not load: %w", name, err)
	}
	return p, name, nil
}
