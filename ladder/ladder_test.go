package ladder

import (
	"context"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// Every control of the engine is in the table of what holding it on
// means, so that a control added to the engine gets its "always" rung or
// a reason it has none; and every rung's rules load.
func TestEveryControl(t *testing.T) {
	for _, s := range engine.ControlSpecs() {
		if _, ok := mitigation[s.Name]; !ok {
			t.Errorf("%s is not in ladder's mitigation table", s.Name)
		}
	}
	if len(mitigation) != len(engine.ControlSpecs()) {
		t.Errorf("the mitigation table has %d controls, the engine %d", len(mitigation), len(engine.ControlSpecs()))
	}
	if _, err := alwaysRungs(); err != nil {
		t.Fatal(err)
	}
	if _, err := everyDeploy(); err != nil {
		t.Fatal(err)
	}
}

// firesAt is a policy that rolls back at each of the minutes given, and
// also at the minute after each (a rule that holds two minutes running).
type firesAt []int

func (f firesAt) Instance(*budget.Meter) engine.Policy { return f }

func (f firesAt) Decide(rows []engine.Row) ([]engine.Firing, error) {
	now := rows[len(rows)-1].Minute
	for _, m := range f {
		if now == m || now == m+1 {
			return []engine.Firing{{Rule: "roll back", Actions: []engine.Action{{Control: engine.Rollback}}}}, nil
		}
	}
	return nil, nil
}

// The late rung takes each of the reference's actions that many minutes
// after it, once: an action the reference repeats while the same one
// waits is not queued again.
func TestLateActsLateOnce(t *testing.T) {
	p := late(firesAt{10, 40}, 5).Instance(nil)
	var rows []engine.Row
	var got []int
	for m := 0; m < 60; m++ {
		rows = append(rows, engine.Row{Minute: m})
		fs, err := p.Decide(rows)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if f.Rule != "late by 5: roll back" || len(f.Actions) != 1 {
				t.Errorf("minute %d: %+v", m, f)
			}
			got = append(got, m)
		}
	}
	if len(got) != 2 || got[0] != 15 || got[1] != 45 {
		t.Errorf("the late rung acted at minutes %v, want 15 and 45", got)
	}
}

// On bad-deploy, whose build ships at 09:10 on every seed: the clock rung
// rolls back when the reference did on the first seed, the rungs come in
// the order oncall ladder prints them, and there is no log rung: its
// build writes the engine's line, not one of the scenario's own. On
// retry-storm, the log rung keys the line the scenario writes when search
// is back.
func TestRungsOfBadDeploy(t *testing.T) {
	p, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := grade.ReferencePolicy("bad-deploy")
	if err != nil {
		t.Fatal(err)
	}
	rungs, err := Rungs(context.Background(), p, ref.Program, ref.Name, 7, true, budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds, names []string
	for _, r := range rungs {
		if len(kinds) == 0 || kinds[len(kinds)-1] != r.Kind {
			kinds = append(kinds, r.Kind)
		}
		names = append(names, r.Name)
	}
	if got := strings.Join(kinds, ", "); got != "reference, none, always, late, clock, every deploy" {
		t.Errorf("the rungs' kinds in order: %s", got)
	}
	for _, r := range rungs {
		switch r.Kind {
		case KindClock:
			if !strings.Contains(r.Rules, `when time == "09:1`) || !strings.Contains(r.Rules, "do   rollback()") {
				t.Errorf("the clock rung:\n%s", r.Rules)
			}
		}
	}
	// A run of every rung finishes.
	for _, r := range rungs {
		if _, err := (shift.Shift{Scenario: p, Seed: 8, Noise: true, Policy: r.Policy}).Run(context.Background()); err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
	}
	t.Logf("rungs: %s", strings.Join(names, "; "))

	storm, err := scenario.Builtin("retry-storm", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err = grade.ReferencePolicy("retry-storm")
	if err != nil {
		t.Fatal(err)
	}
	rungs, err = Rungs(context.Background(), storm, ref.Program, ref.Name, 7, true, budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if r := rungs[len(rungs)-1]; r.Kind != KindLog || !strings.Contains(r.Rules, `log_count("search: errors back to normal") > 0`) {
		t.Errorf("retry-storm's last rung is %s:\n%s", r.Name, r.Rules)
	}
}

// A scenario with nothing to earn (free play) holds no rung to a bound,
// and says why.
func TestNothingToEarn(t *testing.T) {
	p, err := scenario.Builtin("free-play", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := grade.ReferencePolicy("free-play")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Scenario: grade.Graded(p), Reference: ref, Seeds: []uint32{1, 2, 3}, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := res.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !res.NothingToEarn || res.Warnings() != 0 || !strings.Contains(out.String(), "the scenario grades nothing a policy could do") {
		t.Errorf("free play:\n%s", out.String())
	}
}
