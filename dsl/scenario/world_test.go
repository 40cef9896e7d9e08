package scenario

import (
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// get reads the values the scenario declares while it loads and those in
// force during the run; scale and ramp change constants relative to them,
// and a later event ends them.
func TestGetScaleAndRamp(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/world.lua", "TestGetScaleAndRamp"), 1)
	if got := rows[21].Events[0].Text["en"]; got != "1200 600/true/90 70 1200 80" {
		t.Errorf("said %q", got)
	}
	var quiet []string
	for _, r := range rows {
		for _, e := range r.Events {
			if e.Quiet {
				quiet = append(quiet, engine.Instructor.EventsText([]engine.Event{e}))
			}
		}
	}
	want := "scale db_capacity×0.5, ramp app_ms to 80 over 3 min, scale db_capacity×1"
	if strings.Join(quiet, ", ") != want {
		t.Errorf("quiet events %q, want %q", strings.Join(quiet, ", "), want)
	}
	if got := engine.Learner.EventsText(rows[5].Events); got != "" {
		t.Errorf("the learner sees %q at 10:05", got)
	}
}

// A deploy ships a build with its properties; "bad" alone is the model's
// bad build, from the constants in force.
func TestDeployABuild(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/world.lua", "TestDeployABuild"), 1)
	if got := engine.Instructor.EventsText(rows[2].Events); got != "deploy 4.2.1 (error_rate 0.1, cpu 1.5, leak 2 ms/min), rollout 2 min" {
		t.Errorf("10:02: %q", got)
	}
	if got := engine.Learner.EventsText(rows[2].Events); got != "deploy 4.2.1, rollout 2 min" {
		t.Errorf("10:02, learner: %q", got)
	}
	if rows[2].NewBuild != 0.5 || rows[3].BadTraffic != 1 {
		t.Errorf("new_build %v at 10:02, bad_traffic %v at 10:03", rows[2].NewBuild, rows[3].BadTraffic)
	}
	if got := engine.Instructor.EventsText(rows[10].Events); !strings.HasPrefix(got, "deploy bad (error_rate 0.2, cpu 1.25), rollout 1 min") {
		t.Errorf("10:10: %q", got)
	}
	if rows[15].BadTraffic != 0 || rows[15].NewBuild != 1 || rows[15].ErrorRate != 0 {
		t.Errorf("10:15: bad_traffic %v, new_build %v, error_rate %v after a build that changes nothing", rows[15].BadTraffic, rows[15].NewBuild, rows[15].ErrorRate)
	}
}

// on_decision sees each decision at the start of the minute it takes
// effect, and what it says comes before the decision in that minute.
func TestOnDecision(t *testing.T) {
	p, err := Compile("t.lua", []byte(luachunk.Src(t, "testdata/world.lua", "TestOnDecision")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, setup, err := p.Instance(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(3); err != nil {
		t.Fatal(err)
	}
	for _, a := range []engine.Action{{Control: engine.Rollback}, {Control: engine.Feature, Value: 0}, {Control: engine.Shed, Value: 0.5}} {
		if err := sim.Decide(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := sim.Run(0); err != nil {
		t.Fatal(err)
	}
	rows := sim.Rows()
	want := `say "rollback=nil by player after 10:02"; say "feature=false by player after 10:02"; say "shed=0.5 by player after 10:02"; action rollback() by player; action feature=false by player; action shed=0.5 by player`
	if got := engine.Instructor.EventsText(rows[3].Events); got != want {
		t.Errorf("10:03:\n%s\nwant\n%s", got, want)
	}
	if rows[6].Controls.Feature || !rows[7].Controls.Feature {
		t.Errorf("feature %v at 10:06, %v at 10:07: the scenario turns it back on 5 minutes after the row the decision was made after", rows[6].Controls.Feature, rows[7].Controls.Feature)
	}
}

// outcome{} computes a figure from the rows once the run is over; grade{}
// may name it, declared before or after.
func TestOutcome(t *testing.T) {
	p, err := Compile("t.lua", []byte(luachunk.Src(t, "testdata/world.lua", "TestOutcome")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Outcomes(); len(got) != 2 || got[0].Name != "slow_rows" || got[0].Unit != "min" || got[1].Name != "rows" {
		t.Errorf("outcomes %+v", got)
	}
	rows, setup := runProgram(t, p, 3)
	sc, _, _ := p.Instance(nil, 3)
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: 3, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(0); err != nil {
		t.Fatal(err)
	}
	o := sim.Outcome()
	slow := 0
	for _, r := range rows {
		if r.P99MS > 341 {
			slow++
		}
	}
	if v, ok := o.Figure("slow_rows"); !ok || v != float64(slow) {
		t.Errorf("slow_rows = %v %v, want %d", v, ok, slow)
	}
	if v, _ := o.Figure("rows"); v != 30 {
		t.Errorf("rows = %v", v)
	}
	if c := p.Grading()[0]; c.Metric != "slow_rows" {
		t.Errorf("criterion %+v", c)
	}
}
