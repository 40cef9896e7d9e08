package whatif_test

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/whatif"
)

// traceOf is the JSON trace of bad-deploy's reference policy on seed 1, as
// oncall run -f json writes it, and the decisions its rows hold.
func traceOf(t *testing.T) ([]byte, []shift.Decision) {
	t.Helper()
	src, err := scripts.Files.ReadFile("bad-deploy.rules")
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile("bad-deploy.rules", src)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := shift.Shift{Scenario: builtin(t, "bad-deploy"), Seed: 1, Noise: true, Policy: p}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := engine.WriteJSON(&b, sim.Trace()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), shift.Recorded(sim.Rows())
}

// A trace read a row and an event at a time gives the shift it recorded:
// its scenario, seed, noise, the decisions of its rows as shift.Recorded
// takes them, and its outcome.
func TestReadTraceGivesTheShiftRecorded(t *testing.T) {
	data, want := traceOf(t)
	rec, err := whatif.ReadTrace(data)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Scenario != "bad-deploy" || rec.Seed != 1 || !rec.Noise || len(rec.Outcome) == 0 {
		t.Errorf("read %+v", rec)
	}
	if len(want) == 0 || !reflect.DeepEqual(rec.Decisions, want) {
		t.Errorf("decisions %+v, want %+v", rec.Decisions, want)
	}
}

// What is wrong with a trace is said at its line and column, and a trace
// of more decisions than a shift carries is refused at the first one too
// many.
func TestReadTraceRefusals(t *testing.T) {
	data, _ := traceOf(t)
	s := string(data)
	at := strings.Index(s, `"events": [`) + len(`"events": [`)
	var many strings.Builder
	for i := 0; i <= shift.MaxDecisions; i++ {
		fmt.Fprintf(&many, `{"kind": "action", "name": "rollback", "value": 0, "by": "player"},`)
	}
	flood := s[:at] + many.String() + s[at:]
	cases := []struct{ in, want string }{
		{flood, "more than 10,000 decisions: a shift carries at most 10,000, as a share link does"},
		{"[1, 2]", "line 1, column 2: a trace is a JSON object"},
		{`{"rows": 7}`, `line 1, column 11: rows: a list of the trace's minutes is expected`},
		{"{\n\"seed\": 1,\n\"rows\": [{\"events\": 3}]}", "line 3, column 22: events: a list of the minute's events is expected"},
		{s[:len(s)/2], "the file ends in the middle of its JSON"},
		{`{"seed": 1}`, "a trace has scenario, seed, noise, rows and outcome; this file lacks some"},
		{`{"seed": "x"}`, "not a JSON trace (json: cannot unmarshal string into Go value of type uint32)"},
	}
	for _, c := range cases {
		_, err := whatif.ReadTrace([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := whatif.ReadTrace([]byte(flood)); err == nil || !strings.HasPrefix(err.Error(), "line ") {
		t.Errorf("the flood is refused without its place: %v", err)
	}
}
