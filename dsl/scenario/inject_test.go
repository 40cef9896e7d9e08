package scenario

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
	"github.com/oncall-sim/oncall/shift"
)

// TestInjectsApplyAtTheirMinute: an inject fired at minute m runs its
// effect at the start of m, after the at() callbacks of m; what it sets
// for surge(t) and the scenario stream it draws from hold from m on; the
// runs before m are the run without it. The program lists its injects.
func TestInjectsApplyAtTheirMinute(t *testing.T) {
	p, err := Compile("inject.lua", []byte(luachunk.Src(t, "testdata/inject.lua", "TestInjectsApplyAtTheirMinute")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []shift.InjectDecl{{ID: "surge", Title: engine.Text{"en": "A surge", "fr": "Un pic"}}, {ID: "flush", Title: engine.Text{"en": "The cache is flushed"}}}
	if got := p.Injects(); !reflect.DeepEqual(got, want) {
		t.Errorf("Injects() = %+v, want %+v", got, want)
	}
	if err := shift.CheckInject(p, "flush"); err != nil {
		t.Error(err)
	}
	run := func(ins []shift.Inject) []engine.Row {
		sim, err := shift.Shift{Scenario: p, Seed: 5, Noise: true, Injects: ins}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return sim.Rows()
	}
	base := run(nil)
	rows := run([]shift.Inject{{Minute: 20, ID: "surge"}, {Minute: 20, ID: "flush"}, {Minute: 45, ID: "surge"}})
	if !reflect.DeepEqual(base[:20], rows[:20]) {
		t.Error("the minutes before the first inject differ from the run without injects")
	}
	var says []string
	for _, e := range rows[20].Events {
		if e.Kind == engine.EventSay {
			says = append(says, e.Text["en"])
		}
	}
	if !reflect.DeepEqual(says, []string{"scheduled", "surge at 09:20 (surge)"}) {
		t.Errorf("minute 20 says %q, want the at() callback's line, then the inject's", says)
	}
	if rows[20].Demand < 2*base[20].Demand || rows[30].Demand != base[30].Demand || rows[45].Demand < 2*base[45].Demand {
		t.Errorf("demand at 20, 30, 45: %v %v %v against %v %v %v", rows[20].Demand, rows[30].Demand, rows[45].Demand, base[20].Demand, base[30].Demand, base[45].Demand)
	}
	kinds := map[engine.EventKind]bool{}
	for _, e := range rows[20].Events {
		kinds[e.Kind] = true
	}
	if !kinds[engine.EventFlush] || !kinds[engine.EventSetConstant] {
		t.Errorf("minute 20's events %v lack the flush and the constant set", rows[20].Events)
	}
	again := run([]shift.Inject{{Minute: 20, ID: "surge"}, {Minute: 20, ID: "flush"}, {Minute: 45, ID: "surge"}})
	var a, b bytes.Buffer
	engine.WriteCSV(&a, rows)
	engine.WriteCSV(&b, again)
	if a.String() != b.String() {
		t.Error("the same injects at the same minutes give another run")
	}
	_, err = shift.Shift{Scenario: p, Seed: 5, Injects: []shift.Inject{{Minute: 3, ID: "surg"}}}.Run(context.Background())
	var ue *shift.UnknownInjectError
	if !errors.As(err, &ue) || !reflect.DeepEqual(ue.Known, []string{"surge", "flush"}) {
		t.Errorf("an unknown inject: %v", err)
	}
}
