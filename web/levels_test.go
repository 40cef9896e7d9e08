package web

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// viewState is the part of a shift's state the page draws without
// computing anything.
type viewState struct {
	ID        string
	Rows      []engine.Row
	Texts     []rowTexts
	Decisions []decisionView
	Levels    map[string]level
	Lines     []chartLine
}

// TestLevelsAndLines: the tiles' levels and the charts' bounds come with
// the shift, from the engine: the default page rule's and the slow p99 in
// free play; a scenario's own rule and objective where it sets them; and
// the capacity the page draws is the engine's, whatever the workers.
func TestLevelsAndLines(t *testing.T) {
	prog, err := scenario.Compile("own-page.lua", []byte(luachunk.Src(t, "testdata/chunks/levels.lua", "own-page")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Scenarios: []Scenario{prog, badDeploy{}}})
	var free viewState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "free-play", "seed": 1}, &free)
	get := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	for name, want := range map[string][2]float64{"burn_1h": {6, 14.4}, "p99_ms": {engine.SlowP99MS, 2 * engine.SlowP99MS}, "error_rate": {0.001, 0.01}} {
		l := free.Levels[name]
		if math.Abs(get(l.Warn)-want[0]) > 1e-12 || math.Abs(get(l.Bad)-want[1]) > 1e-12 {
			t.Errorf("free play: %s levels %v and %v, want %v", name, get(l.Warn), get(l.Bad), want)
		}
	}
	wantLines := []chartLine{{engine.Threshold{Metric: "p99_ms", Op: ">", Value: engine.SlowP99MS}, "slow"}}
	for _, th := range (engine.DefaultPage{}).Thresholds() {
		wantLines = append(wantLines, chartLine{th, "page"})
	}
	if !reflect.DeepEqual(free.Lines, wantLines) {
		t.Errorf("free play's lines %+v", free.Lines)
	}

	var own viewState
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "own-page", "seed": 1, "minute": 5}, &own)
	if l := own.Levels["burn_1h"]; get(l.Bad) != 20 || get(l.Warn) != 20 {
		t.Errorf("own page rule: burn_1h levels %v, %v", get(l.Warn), get(l.Bad))
	}
	if l := own.Levels["error_rate"]; math.Abs(get(l.Warn)-0.01) > 1e-12 {
		t.Errorf("an objective of 99 %%: error_rate turns amber at %v", get(l.Warn))
	}
	var pageLines []string
	for _, l := range own.Lines {
		if l.Why == "page" {
			pageLines = append(pageLines, l.Metric+l.Op+strconvG(l.Value))
		}
	}
	if got := strings.Join(pageLines, " "); got != "burn_1h>=20 burn_5m>=20 error_rate>0.2" {
		t.Errorf("own page rule's lines: %s", got)
	}
	for _, r := range own.Rows {
		if want := float64(r.Serving) * 8 / (r.ServiceMS / 1000); math.Abs(r.Capacity-want) > 1e-9*want {
			t.Errorf("%s: capacity %v, want %v with 8 workers an instance", r.Time(), r.Capacity, want)
		}
	}
}

func strconvG(v float64) string { b, _ := json.Marshal(v); return string(b) }

// TestNoModelArithmetic: the page computes nothing from a row: no
// arithmetic on a row's field in the script (the capacity, the page's
// bounds and the tiles' levels come from the server).
func TestNoModelArithmetic(t *testing.T) {
	b, err := os.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	field := `\b(?:r|row|last|rows\[[^\]]*\])\.(?:` + strings.Join(engine.MetricNames(), "|") + `)\b`
	arith := regexp.MustCompile(field + `\s*[-+*/%]|[-+*/%]\s*` + field + `|\b14\.4\b|[*/]\s*16\b|\b16\s*[*/]`)
	for i, line := range strings.Split(string(b), "\n") {
		if m := arith.FindString(line); m != "" {
			t.Errorf("app.js:%d computes %q: %s", i+1, m, strings.TrimSpace(line))
		}
	}
}
