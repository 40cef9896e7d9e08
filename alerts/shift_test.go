package alerts

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

func TestSpans(t *testing.T) {
	for _, c := range []struct {
		on   string
		want []Span
	}{
		{"", nil},
		{"...", nil},
		{"x", []Span{{0, 0}}},
		{"xx.x..xxx", []Span{{0, 1}, {3, 3}, {6, 8}}},
		{".xxx.", []Span{{1, 3}}},
	} {
		on := make([]bool, len(c.on))
		for i := range c.on {
			on[i] = c.on[i] == 'x'
		}
		if got := Spans(on); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Spans(%q) = %v, want %v", c.on, got, c.want)
		}
	}
}

// TestShiftIsARunOfTest: the rules over one shift say, alert by alert,
// what alerts test reports of the same run, and fire on the minutes the
// evaluator fires them.
func TestShiftIsARunOfTest(t *testing.T) {
	src, err := os.ReadFile("../docs/alerts/multiwindow.yml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := Load("multiwindow.yml", src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Builtin("cache-flush", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	report, err := Test(ctx, rules, Options{Scenarios: []Scenario{{"cache-flush", p}}, Seeds: []uint32{2}})
	if err != nil {
		t.Fatal(err)
	}
	sim, err := shift.Shift{Scenario: p, Seed: 2, Noise: true}.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
	ev := NewEvaluator(rules, DefaultLimits)
	on, err := ev.Shift(ctx, run, 1-sim.Setup().Constants.SLO, sim.Setup().Constants.SLODays*1440)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ev.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if len(on.Alerts) != 2 || len(report.Lines) != 2 || len(on.Incidents) != 1 {
		t.Fatalf("%d alerts, %d report lines, %d incidents: want 2, 2, 1", len(on.Alerts), len(report.Lines), len(on.Incidents))
	}
	for i, a := range on.Alerts {
		got, want := a.Line, report.Lines[i]
		got.Scenario = want.Scenario
		got.detections, got.resets = nil, nil
		want.detections, want.resets = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v on the shift, %+v in the report", a.Name, got, want)
		}
	}
	if got, want := on.Alerts[0].Firing, Spans(res.Firing[0]); !reflect.DeepEqual(got, want) || len(got) == 0 {
		t.Errorf("the alert fires on %v over the shift, %v by the evaluator", got, want)
	}
	if on.Alerts[1].Name != Builtin || !on.Alerts[1].Builtin || on.Alerts[0].Pos.Line == 0 {
		t.Errorf("alerts %+v, %+v", on.Alerts[0], on.Alerts[1])
	}
}
