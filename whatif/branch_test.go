package whatif_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/whatif"
)

func builtin(t *testing.T, id string) *scenario.Program {
	t.Helper()
	p, err := scenario.Builtin(id, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, p whatif.Plan) *whatif.Result {
	t.Helper()
	res, err := whatif.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// csvOf is a run's trace as the instructor's CSV writes it.
func csvOf(t *testing.T, s *shift.Sim) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := engine.Instructor.WriteCSV(&b, s.Rows()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func act(c engine.Control, v float64) engine.Action { return engine.Action{Control: c, Value: v} }

// The lesson of slow-dependency, as the what-if tells it: on seed 3 auth
// slows from 09:24 and is fixed at 09:47. A circuit breaker opened at
// 09:26 and left open fails auth's requests to the end, far more errors
// than waiting; opened at 09:26 and closed again at 09:48, it saves a
// third of the errors of the shift played with no policy.
func TestBreakerOpenedAndClosedAgainShowsTheLesson(t *testing.T) {
	played := shift.Shift{Scenario: builtin(t, "slow-dependency"), Seed: 3, Noise: true}
	open := whatif.Step{Minute: 26, Actions: []engine.Action{act(engine.Breaker, 1)}}
	close := whatif.Step{Minute: 48, Actions: []engine.Action{act(engine.Breaker, 0)}}
	left := run(t, whatif.Plan{Played: played, Steps: []whatif.Step{open}})
	closed := run(t, whatif.Plan{Played: played, Steps: []whatif.Step{close, open}}) // in any order
	errs := func(r *whatif.Result) (played, branch float64) {
		return r.Played.Outcome().ErrorRequests, r.Branch.Outcome().ErrorRequests
	}
	if p, b := errs(left); b <= p {
		t.Errorf("breaker left open: %v failed requests, the shift played %v: want more", b, p)
	}
	if p, b := errs(closed); b >= 0.8*p {
		t.Errorf("breaker opened and closed again: %v failed requests, the shift played %v: want a fifth fewer at least", b, p)
	}
	if closed.At != 26 {
		t.Errorf("the branch starts at minute %d, want the first step's, 26", closed.At)
	}
	for _, f := range closed.Figures {
		if f.Name == "error_requests" && (f.Diff == nil || *f.Diff >= 0 || f.DiffText()[0] != '-') {
			t.Errorf("error_requests: difference %v (%s), want a fall", f.Diff, f.DiffText())
		}
	}
}

// A shift played by hand, branched with nothing changed, is the shift
// played byte for byte: a step that takes again what the shift took at its
// minute, or a step at a quiet minute, with the recorded decisions carrying
// on; and with nobody deciding after a minute past the last decision.
func TestBranchWithNoChangeIsTheShiftByteForByte(t *testing.T) {
	played := shift.Shift{Scenario: builtin(t, "bad-deploy"), Seed: 7, Noise: true, Decisions: []shift.Decision{
		{Minute: 20, Action: engine.Action{Control: engine.Rollback, By: "player"}},
		{Minute: 30, Action: engine.Action{Control: engine.Shed, Value: 0.1, By: "player"}},
		{Minute: 31, Action: engine.Action{Control: engine.Shed, Value: 0, By: "player"}},
	}}
	for name, p := range map[string]whatif.Plan{
		"the same decision at its minute": {Steps: []whatif.Step{{Minute: 30, Actions: []engine.Action{act(engine.Shed, 0.1)}}}, Then: whatif.Then{Who: whatif.Recorded}},
		"a quiet minute, recorded after":  {Steps: []whatif.Step{{Minute: 25}}, Then: whatif.Then{Who: whatif.Recorded}},
		"nobody after the last decision":  {Steps: []whatif.Step{{Minute: 50}}},
	} {
		p.Played = played
		res := run(t, p)
		if a, b := csvOf(t, res.Branch), csvOf(t, res.Played); !bytes.Equal(a, b) {
			t.Errorf("%s: the branch's trace differs from the shift played", name)
		}
		if res.Replayed+res.Kept+res.Dropped != 3 {
			t.Errorf("%s: replayed %d, kept %d, dropped %d of 3", name, res.Replayed, res.Kept, res.Dropped)
		}
	}
	// Nobody deciding from 25 on drops the two after it: the shed is not
	// taken, and the branch differs from minute 30 on.
	res := run(t, whatif.Plan{Played: played, Steps: []whatif.Step{{Minute: 25}}})
	if res.Replayed != 1 || res.Dropped != 2 || bytes.Equal(csvOf(t, res.Branch), csvOf(t, res.Played)) {
		t.Errorf("nobody from 25: replayed %d, dropped %d", res.Replayed, res.Dropped)
	}
}

// A policy that decides in a branch watches every minute and decides only
// after the first step, and not at a step's minute: its firing after
// minute m−1 takes effect at m.
func TestThenPolicyDecidesAtTheOtherMinutes(t *testing.T) {
	always, err := policy.Compile("always.rules", []byte("rule \"every minute\"\n  when minute >= 0\n  do   set_ttl(60)\n"))
	if err != nil {
		t.Fatal(err)
	}
	played := shift.Shift{Scenario: builtin(t, "bad-deploy"), Seed: 7, Noise: true}
	res := run(t, whatif.Plan{Played: played, Steps: []whatif.Step{{Minute: 10}, {Minute: 20}}, Then: whatif.Then{Who: whatif.Policy, Policy: always}})
	rows := res.Branch.Rows()
	for i := range rows[:len(rows)-1] {
		decides := i+1 > 10 && i+1 != 20
		if fired := len(rows[i].Fired) > 0; fired != decides {
			t.Errorf("row %d: fired %v, want %v (its decision takes effect at minute %d)", i, fired, decides, i+1)
		}
	}
}

// The scenario's reference policy taking over a shift left alone saves
// most of its budget; the recorded decisions carrying on replay the rest.
func TestThenReferenceAndRecorded(t *testing.T) {
	ref, err := grade.ReferencePolicy("bad-deploy")
	if err != nil {
		t.Fatal(err)
	}
	played := shift.Shift{Scenario: builtin(t, "bad-deploy"), Seed: 7, Noise: true, Decisions: []shift.Decision{
		{Minute: 60, Action: engine.Action{Control: engine.Rollback, By: "player"}},
	}}
	taken := run(t, whatif.Plan{Played: played, Steps: []whatif.Step{{Minute: 12}}, Then: whatif.Then{Who: whatif.Policy, Policy: ref.Program}})
	if p, b := taken.Played.Outcome().BudgetUsed, taken.Branch.Outcome().BudgetUsed; b > p/2 || taken.Dropped != 1 {
		t.Errorf("the reference from 09:12: budget %v against %v played, %d dropped", b, p, taken.Dropped)
	}
	kept := run(t, whatif.Plan{Played: played, Steps: []whatif.Step{{Minute: 12}}, Then: whatif.Then{Who: whatif.Recorded}})
	if kept.Kept != 1 || !bytes.Equal(csvOf(t, kept.Branch), csvOf(t, kept.Played)) {
		t.Errorf("recorded from 09:12: kept %d, budget %v against %v", kept.Kept, kept.Branch.Outcome().BudgetUsed, kept.Played.Outcome().BudgetUsed)
	}
}

// A plan the shift cannot take is refused before anything runs, and a
// decision the engine refuses names its step and action.
func TestPlanErrors(t *testing.T) {
	played := shift.Shift{Scenario: builtin(t, "bad-deploy"), Seed: 7, Noise: true}
	var se *whatif.StepError
	for name, tc := range map[string]struct {
		steps []whatif.Step
		want  error
		step  int
	}{
		"no step":        {nil, whatif.ErrNoStep, -1},
		"a minute twice": {[]whatif.Step{{Minute: 5}, {Minute: 9}, {Minute: 5}}, whatif.ErrTwice, 2},
		"past the end":   {[]whatif.Step{{Minute: 5}, {Minute: 120}}, whatif.ErrMinute, 1},
	} {
		_, err := whatif.Run(context.Background(), whatif.Plan{Played: played, Steps: tc.steps})
		if !errors.As(err, &se) || !errors.Is(err, tc.want) || se.Step != tc.step {
			t.Errorf("%s: %v, want step %d: %v", name, err, tc.step, tc.want)
		}
	}
	_, err := whatif.Run(context.Background(), whatif.Plan{Played: played, Steps: []whatif.Step{
		{Minute: 40, Actions: []engine.Action{act(engine.Shed, 0.5)}},
		{Minute: 30, Actions: []engine.Action{act(engine.Shed, 0.1), act(engine.MinInstances, 41)}},
	}})
	var de *whatif.DecisionError
	if !errors.As(err, &de) || de.Step != 1 || de.Index != 1 || de.Minute != 30 {
		t.Errorf("a refused decision: %v, want steps[1].actions[1] at minute 30", err)
	}
}
