package scenario

import (
	"math"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// Everything of docs/model.md's "Beyond one service" is settable from a
// scenario: the dependency's constants and name, the breaker, a canary
// held and resumed, a build's own log line, and lines of the scenario's.
func TestDependencyCanaryAndLogs(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/beyond.lua", "TestDependencyCanaryAndLogs"), 1)
	if ev := rows[19].Events; len(ev) != 1 || ev[0].Text["en"] != "auth" {
		t.Errorf("09:19: events %v, want get(\"dep_name\") said: auth", ev)
	}
	if got := rows[9].NewBuild; got != 0.1 {
		t.Errorf("09:09: new_build %v, want held at 0.1", got)
	}
	if got := rows[11].NewBuild; got < 0.29 || got > 0.31 {
		t.Errorf("09:11: new_build %v, want 0.1 + 2/10", got)
	}
	if got := rows[15].NewBuild; got < 0.29 || got > 0.31 {
		t.Errorf("09:15: new_build %v, want held at 0.3 (paused at the start of 09:12: the share of 09:11)", got)
	}
	var build bool
	for _, l := range rows[15].Logs {
		build = build || l.Cause == engine.LogBuild && l.Message == "NullPointerException in checkout (build 4.4.0)"
	}
	if !build {
		t.Errorf("09:15: the build's line is missing: %v", rows[15].Logs)
	}
	last := rows[20].Logs[len(rows[20].Logs)-1]
	if last != (engine.LogLine{Level: "WARN", Source: "cert", Message: "certificate expires in 10 minutes", Count: 3}) {
		t.Errorf("09:20: last line %+v, want the scenario's", last)
	}
	if rows[21].LogCount("certificate") != 0 {
		t.Errorf("09:21: the scenario's line is still there")
	}
	// w = 3,000·(1 − e^(−1000/3000)) = 850.406 ms
	if math.Abs(rows[25].DepMSSeen-850.406) > 5e-4 || !strings.Contains(engine.LogsText(rows[25].Logs), "auth-v2: call timed out after 1000 ms") {
		t.Errorf("09:25: dep_ms_seen %v, lines %v: want auth-v2 timing out", rows[25].DepMSSeen, rows[25].Logs)
	}
	if !rows[30].Controls.Breaker || rows[30].DepErrors != 0.2 || rows[30].DepMSSeen != 0 {
		t.Errorf("09:30: breaker %v, dep_errors %v, dep_ms_seen %v, want open, 0.2, 0", rows[30].Controls.Breaker, rows[30].DepErrors, rows[30].DepMSSeen)
	}
	if rows[31].RetryShare == 0 {
		t.Errorf("09:31: retry_share 0 with retries 2 and errors the minute before")
	}
}

// Misuse of the new fields is caught with its place.
func TestBeyondMisuse(t *testing.T) {
	for _, c := range luachunk.Read(t, "testdata/misuse.lua") {
		p, err := Compile(c.File, []byte(c.Src), Options{})
		if err == nil {
			_, err = runErr(p)
		}
		c.Check(t, err)
	}
}

// runErr runs a compiled scenario on seed 0 and returns its error.
func runErr(p *Program) ([]engine.Row, error) {
	sc, setup, err := p.Instance(nil, 0)
	if err != nil {
		return nil, err
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc})
	if err != nil {
		return nil, err
	}
	return sim.Rows(), sim.Run(0)
}
