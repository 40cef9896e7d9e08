package grade

import (
	"errors"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// LoadStudent compiles a student's policy, the file's bytes src, the same
// way for a class and for a grade of one policy, so that a file reads the
// same in both: a file that does not load gives Error, its diagnostics
// each at file:line:col with the line and a caret (the words of the
// file, not of the command that read it); a file that holds no rule
// (blank, or comments only) is a valid submission of no policy, graded as
// no policy (NoRule).
func LoadStudent(name, file string, src []byte) Student {
	st := Student{Name: name, File: file}
	if policy.NoRule(src) {
		st.NoRule, st.Policy = true, nothing{}
		return st
	}
	p, err := policy.Compile(file, src)
	var l dsl.List
	switch {
	case err == nil:
		st.Policy = p
	case errors.As(err, &l):
		st.Error = l.Render()
	default:
		st.Error = file + ": " + err.Error()
	}
	return st
}

// nothing is the policy of a file that holds no rule: it decides nothing,
// so that its runs are no policy's, in a class's shared runs as alone.
type nothing struct{}

// Instance implements shift.Policy.
func (nothing) Instance(*budget.Meter) engine.Policy { return nothing{} }

// Decide implements engine.Policy.
func (nothing) Decide([]engine.Row) ([]engine.Firing, error) { return nil, nil }
