package alerts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/promtooltest"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// stateRules exercise the state machine: an alert held for 3 minutes and
// kept firing for 4, one without either, one kept for 2 on a gauge
// that goes up and down. Their expressions read one sample each, so that
// Prometheus 2's range selectors (closed on the left, Debian's promtool)
// and 3's (open) cannot tell them apart.
const stateRules = `groups:
  - name: states
    rules:
      - alert: Held
        expr: oncall_error_ratio > 0.01
        for: 3m
        keep_firing_for: 4m
        labels:
          severity: page
      - alert: Bare
        expr: oncall_error_ratio > 0.05
      - alert: Booting
        expr: oncall_instances{state="booting"} > 0
        keep_firing_for: 2m
`

// TestStateMachineAgreesWithPromtool runs promtool test rules, the rule
// manager of a real Prometheus, over the series of three runs, expecting
// at every minute the alerts this package's evaluator fires there: the
// two state machines agree minute for minute, for:, keep_firing_for:
// and labels included.
func TestStateMachineAgreesWithPromtool(t *testing.T) {
	promtooltest.Path(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(stateRules), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, err := Load("rules.yml", []byte(stateRules))
	if err != nil {
		t.Fatal(err)
	}
	ev := NewEvaluator(rules, DefaultLimits)
	ev.ranged = false // the loop promtool runs
	var tests strings.Builder
	fmt.Fprintf(&tests, "rule_files: [rules.yml]\nevaluation_interval: 1m\ntests:\n")
	fired := 0
	for _, c := range []struct {
		name string
		seed uint32
	}{{"bad-deploy", 3}, {"surge", 5}, {"cache-flush", 2}} {
		p, err := scenario.Builtin(c.name, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sim, err := shift.Shift{Scenario: p, Seed: c.seed, Noise: true, Minutes: 150}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
		run.Start = time.Unix(0, 0) // promtool's series start at 0
		res, err := ev.Run(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&tests, "  - interval: 1m\n    input_series:\n")
		for _, fs := range metricsout.Build(run) {
			name := fs.Family.SampleName()
			if name != "oncall_error_ratio" && name != "oncall_instances" {
				continue
			}
			for _, s := range fs.Series {
				var ls []string
				for _, l := range s.Labels {
					ls = append(ls, l.Name+"="+strconv.Quote(l.Value))
				}
				vals := make([]string, len(s.V))
				for i, v := range s.V {
					vals[i] = strconv.FormatFloat(v, 'g', -1, 64)
				}
				fmt.Fprintf(&tests, "      - series: '%s{%s}'\n        values: '%s'\n", name, strings.Join(ls, ","), strings.Join(vals, " "))
			}
		}
		fmt.Fprintf(&tests, "    alert_rule_test:\n")
		for i, rl := range rules.Alerting() {
			for m := range run.Rows {
				fmt.Fprintf(&tests, "      - eval_time: %dm\n        alertname: %s\n        exp_alerts:", m, rl.Name)
				if !res.Firing[i][m] {
					fmt.Fprintf(&tests, " []\n")
					continue
				}
				fired++
				fmt.Fprintf(&tests, "\n          - exp_labels: {scenario: %s, seed: %q", c.name, strconv.Itoa(int(c.seed)))
				switch rl.Name {
				case "Held":
					fmt.Fprintf(&tests, ", severity: page")
				case "Booting":
					fmt.Fprintf(&tests, ", state: booting")
				}
				fmt.Fprintf(&tests, "}\n")
			}
		}
	}
	if fired == 0 {
		t.Fatal("no alert fired: the runs test nothing")
	}
	file := filepath.Join(dir, "tests.yml")
	if err := os.WriteFile(file, []byte(tests.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := promtooltest.Command(t, "test", "rules", "tests.yml")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("promtool test rules disagrees with the evaluator: %v\n%.4000s", err, out)
	}
	t.Logf("promtool agrees on %d minutes of firing alerts", fired)
}
