package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/alerts"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

func readRules(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/alerts/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firedWith evaluates a rule file over a run with nobody on call, as
// `oncall alerts test` does, and returns the stretches each alert and the
// built-in page fired.
func firedWith(t *testing.T, name, src, sc string, seed uint32) [][]alerts.Span {
	t.Helper()
	rules, err := alerts.Load(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Builtin(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sim, err := shift.Shift{Scenario: p, Seed: seed, Noise: true}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	setup := sim.Setup()
	on, err := alerts.NewEvaluator(rules, alerts.DefaultLimits).Shift(context.Background(),
		metricsout.OfTrace(sim.Trace(), setup, metricsout.DefaultDate, engine.Learner), 1-setup.Constants.SLO, setup.Constants.SLODays*1440)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]alerts.Span
	for _, a := range on.Alerts {
		out = append(out, a.Firing)
	}
	return out
}

// The debrief's rule file is evaluated over the shift played: the
// Workbook's page over a cache flush left alone fires where alerts' own
// evaluation of the run fires it, beside the built-in page, each with its
// place in the file; with a rollback the shift is another run.
func TestAlertRulesOverTheShift(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	src := readRules(t, "multiwindow.yml")
	var ar AlertRules
	ts.doJSON(t, "POST", "/api/alertrules", map[string]any{"scenario": "cache-flush", "seed": 2, "file": "multiwindow.yml", "rules": src}, &ar)
	want := firedWith(t, "multiwindow.yml", src, "cache-flush", 2)
	if len(ar.Alerts) != 2 || ar.Alerts[0].Name != "ErrorBudgetBurn" || !ar.Alerts[1].Builtin || ar.Alerts[1].Name != alerts.Builtin {
		t.Fatalf("alerts %+v", ar.Alerts)
	}
	for i, a := range ar.Alerts {
		if !reflect.DeepEqual(a.Firing, want[i]) || len(a.Firing) == 0 {
			t.Errorf("%s fires on %v in the debrief, on %v as alerts test evaluates the run", a.Name, a.Firing, want[i])
		}
	}
	if ar.File != "multiwindow.yml" || !strings.HasPrefix(ar.Alerts[0].At, "multiwindow.yml:") || len(ar.Incidents) != 1 || ar.Alerts[0].Detected != 1 {
		t.Errorf("file %q, at %q, incidents %v, detected %d", ar.File, ar.Alerts[0].At, ar.Incidents, ar.Alerts[0].Detected)
	}
	var flushed AlertRules
	ts.doJSON(t, "POST", "/api/alertrules", map[string]any{"scenario": "cache-flush", "seed": 2, "d": "1:min_instances=40", "file": "multiwindow.yml", "rules": src}, &flushed)
	if reflect.DeepEqual(flushed.Alerts, ar.Alerts) {
		t.Errorf("a shift with other decisions fires the same: %+v", flushed.Alerts)
	}
}

// A rule file that does not load, or that the debrief refuses, gets a
// clear answer: its diagnostics at file:line:col with Prometheus' message,
// the bound it passes.
func TestAlertRulesRefused(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	shiftOf := map[string]any{"scenario": "bad-deploy", "seed": 7}
	body := func(file, rules string) string {
		m := map[string]any{"file": file, "rules": rules}
		for k, v := range shiftOf {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	hostile := `count(count_over_time(count_values("v", label_replace({__name__=~"oncall_.+"}, "n", "$1", "__name__", "(.+)") + time())[2w:1m])) > 0`
	for _, c := range []struct {
		name, file, rules string
		status            int
		want              string
	}{
		{"promql", "../../etc/bad.yml", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_error_ratio > > 1\n", http.StatusUnprocessableEntity,
			`bad.yml:5:36: group "g", rule 1, "A": could not parse expression: parse error: unexpected <op:>>`},
		{"metric", "mine.yml", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_eror_ratio > 0.001\n", http.StatusUnprocessableEntity,
			"mine.yml:5:15: " + `group "g", rule 1, "A": no metric named oncall_eror_ratio; did you mean oncall_error_ratio?`},
		{"yaml", "", "groups:\n  - name: g\n   rules: [\n", http.StatusUnprocessableEntity, "rules.yml:1: yaml: line 1: did not find expected '-' indicator"},
		{"no alert", "rec.yml", "groups:\n  - name: g\n    rules:\n      - record: r\n        expr: oncall_error_ratio\n", http.StatusUnprocessableEntity, `"rec.yml" has no alerting rule (alert:)`},
		{"empty", "x.yml", " \n", http.StatusBadRequest, "rules: send the text of a Prometheus rule file"},
		{"large", "big.yml", "# " + strings.Repeat("x", MaxRuleFile) + "\n", http.StatusRequestEntityTooLarge, "the rule file is 129 KB: the console takes one of 128 KB at most"},
		{"hostile", "hostile.yml", "groups:\n  - name: g\n    rules:\n      - alert: Hostile\n        expr: '" + hostile + "'\n", http.StatusUnprocessableEntity,
			"the rules took more than 2s over the run"},
	} {
		rec := ts.do("POST", "/api/alertrules", body(c.file, c.rules))
		var e errorBody
		json.Unmarshal(rec.Body.Bytes(), &e)
		// The bounds are not the player's to move: no flag is named.
		if rec.Code != c.status || !strings.Contains(e.Error, c.want) || strings.Contains(e.Error, "--") {
			t.Errorf("%s: %d %q, want %d and %q", c.name, rec.Code, e.Error, c.status, c.want)
		}
	}
	if ts.panics.Load() != 0 {
		t.Error("a handler panicked")
	}
}

// An evaluation takes as much of the work under way as a debrief: with a
// byte less than three slots free it waits, then gets the work share's
// 503, while a step, one slot, still runs; with them free it runs.
func TestAlertRulesTakeTheirSlots(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.Server.mem.wait = 50 * time.Millisecond
	var st shiftState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1}, &st)
	b, _ := json.Marshal(map[string]any{"scenario": "bad-deploy", "seed": 1, "file": "multiwindow.yml", "rules": readRules(t, "multiwindow.yml")})
	m := ts.Server.mem
	held := m.workCap - 3*m.slot + 1
	if err := m.work.Acquire(context.Background(), held); err != nil {
		t.Fatal(err)
	}
	rec := ts.do("POST", "/api/alertrules", string(b))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "the console is busy: the runs under way hold") {
		t.Errorf("rules with less than three slots free: %d %s", rec.Code, rec.Body)
	}
	if rec := ts.do("POST", "/api/sessions/"+st.ID+"/step", `{"minutes":1}`); rec.Code != http.StatusOK {
		t.Errorf("a step with a slot free: %d %s", rec.Code, rec.Body)
	}
	m.work.Release(held)
	if rec := ts.do("POST", "/api/alertrules", string(b)); rec.Code != http.StatusOK {
		t.Errorf("rules once the slots are free: %d %s", rec.Code, rec.Body)
	}
	if _, working, _, _ := ts.MemoryInUse(); working != 0 {
		t.Errorf("the work share holds %d bytes once every request is done", working)
	}
}
