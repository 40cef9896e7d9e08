package policy

import (
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// errors_by and log_count read the minute's causes and log lines: a rule
// opens the breaker when the dependency fails requests, and holds on a
// line of its own; a cause misspelt or an empty text is a load error with
// its place.
func TestErrorsByAndLogCount(t *testing.T) {
	p, err := Compile("causes.rules", []byte(`rule "open"
  when errors_by("dependency") > 0.1 && !breaker
  do   set_breaker(true)

rule "saw the timeouts"
  when log_count("call timed out") > 1000
  do   pause_rollout()
`))
	if err != nil {
		t.Fatal(err)
	}
	setup := shortSetup(10)
	setup.Constants.DepShare, setup.Constants.DepMS, setup.Constants.DepName = 0.3, 2000, "auth"
	sim, err := engine.New(engine.Options{Setup: setup, Policy: p.Instance(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(0); err != nil {
		t.Fatal(err)
	}
	rows := sim.Rows()
	if len(rows[0].Fired) != 2 {
		t.Fatalf("minute 0: fired %v, want both rules (dependency errors %v, lines %v)", rows[0].Fired, rows[0].DepErrors, rows[0].Logs)
	}
	if !rows[1].Controls.Breaker || rows[1].DepErrors != 0.3 {
		t.Errorf("minute 1: breaker %v, dep_errors %v, want open and 0.3", rows[1].Controls.Breaker, rows[1].DepErrors)
	}
	if len(rows[1].Fired) != 0 {
		t.Errorf("minute 1: fired %v, want none: the breaker is open and no call times out", rows[1].Fired)
	}
	for _, tc := range []struct{ src, want string }{
		{"rule \"r\"\n  when errors_by(\"databse\") > 0\n  do set_shed(1)", `bad.rules:2:18: rule "r": errors_by("databse"): unknown cause "databse"; did you mean database?`},
		{"rule \"r\"\n  when log_count(\"\") > 0\n  do set_shed(1)", `bad.rules:2:18: rule "r": log_count(""): give the text`},
		{"rule \"r\"\n  when errors_by(cause) > 0\n  do set_shed(1)", `the first argument of errors_by must be a cause in quotes`},
		{"rule \"r\"\n  when errors_by(\"build\", 2) > 0\n  do set_shed(1)", `errors_by takes 1 argument`},
	} {
		_, err := Compile("bad.rules", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}
