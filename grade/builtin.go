package grade

import (
	"fmt"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// Program is a compiled scenario as grading sees it (dsl/scenario's
// programs).
type Program interface {
	shift.Source
	ID() string
	Title() engine.Text
	File() string
	Source() string
	Grading() []Criterion
}

// Graded adapts a compiled scenario for grading: its id, English title,
// file (a built-in's name alone, any other file with a folder: sourceFile)
// and the SHA-256 of its source, the scenario itself as the source of
// every run, its grading criteria, and its built-in reference policy's name
// and hash when it has one.
func Graded(p Program) Scenario {
	sc := Scenario{ID: p.ID(), Title: p.Title().In("en"), File: sourceFile(p), SHA256: SHA256([]byte(p.Source())), Source: p, Criteria: p.Grading()}
	if src, err := scripts.Reference(p.ID()); err == nil {
		sc.ReferencePolicy, sc.ReferencePolicySHA256 = referencePolicyName(p.ID()), SHA256(src)
	}
	return sc
}

func referencePolicyName(id string) string { return "scripts/" + id + ".rules" }

// Policy is a compiled policy with its name and the SHA-256 of its source,
// as a reference records them.
type Policy struct {
	Program *policy.Program
	Name    string
	SHA256  string
}

// ReferencePolicy compiles the built-in reference policy of a scenario,
// scripts/<id>.rules.
func ReferencePolicy(id string) (Policy, error) {
	b := Policy{Name: referencePolicyName(id)}
	src, err := scripts.Reference(id)
	if err != nil {
		return b, fmt.Errorf("scenario %s has no built-in reference policy (%s)", id, b.Name)
	}
	b.SHA256 = SHA256(src)
	if b.Program, err = policy.Compile(b.Name, src); err != nil {
		return b, fmt.Errorf("the built-in reference policy %s does not load: %w", b.Name, err)
	}
	return b, nil
}
