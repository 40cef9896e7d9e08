package web

import (
	"context"
	"io/fs"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// builtinServer is a console with the built-in scenarios and the policies
// of scripts/, as oncall play serves them.
func builtinServer(t *testing.T) *testServer {
	t.Helper()
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var scs []Scenario
	for _, p := range progs {
		scs = append(scs, p)
	}
	var pols []PolicySource
	err = fs.WalkDir(scripts.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := scripts.Files.ReadFile(path)
		pols = append(pols, PolicySource{Name: strings.TrimSuffix(path, ".rules"), Source: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	compile := func(filename, src string) (shift.Policy, error) {
		p, err := policy.Compile(filename, []byte(src))
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	return newTestServer(t, Options{Scenarios: scs, Policies: pols, Compile: compile})
}

// A shift scores in the debrief what oncall grade gives the same policy on
// the same seed, criterion by criterion, partial credit included.
func TestDebriefScoresAsGrade(t *testing.T) {
	ts := builtinServer(t)
	const example = "examples/rollback-on-page"
	src, err := scripts.Files.ReadFile(example + ".rules")
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Compile(example+".rules", src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := grade.ReferencePolicy("bad-deploy")
	if err != nil {
		t.Fatal(err)
	}
	sc := grade.Graded(p)
	for _, seed := range []uint32{401, 402, 403} {
		r, err := grade.RecordReference(context.Background(), grade.RecordOptions{Scenario: sc, Policy: ref.Program, PolicyName: ref.Name, PolicySHA256: ref.SHA256, Noise: true}, []uint32{seed}, batch.Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := grade.Grade(context.Background(), grade.GradeOptions{Scenarios: []grade.Scenario{sc}, Policy: pol,
			References: &grade.ReferenceFile{Format: grade.ReferenceFormat, References: []grade.Reference{r}}, Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		var d Debrief
		ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": seed, "noise": true,
			"autopilot": map[string]any{"policy": example, "until": -1}}, &d)
		if math.Abs(d.Score-rep.Score) > 1e-9 || d.Max != rep.MaxScore || len(d.Criteria) != len(rep.Scenarios[0].Criteria) {
			t.Fatalf("seed %d: debrief %v / %v, grade %v / %v", seed, d.Score, d.Max, rep.Score, rep.MaxScore)
		}
		for i, c := range d.Criteria {
			g := rep.Scenarios[0].Criteria[i]
			if math.Abs(c.Points-g.Score) > 1e-9 || c.None != g.Seeds[0].None || c.Limit != g.Seeds[0].Bound || c.Pass != g.Pass() {
				t.Errorf("seed %d, %s: debrief %+v, grade %+v", seed, c.Metric, c, g.Seeds[0])
			}
		}
	}
}

// The debrief names the first sign of trouble a player could see, and
// neither its moments nor the decisions it lists come before it.
func TestDebriefCountsFromTheFirstSignal(t *testing.T) {
	ts := builtinServer(t)
	for _, seed := range []uint32{411, 412, 413, 414} {
		var d Debrief
		ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": seed, "noise": true,
			"decisions": []Decision{{Minute: 3, Control: "min_instances", Value: 12}, {Minute: 40, Control: "rollback"}}}, &d)
		// The bad build ships at 09:10 (minute 10): nothing shows before.
		if d.Signal.Minute < 10 || d.Signal.Metric == "" {
			t.Fatalf("seed %d: signal %+v", seed, d.Signal)
		}
		if len(d.Moments) == 0 {
			t.Fatalf("seed %d: no moment", seed)
		}
		for _, m := range d.Moments {
			if m.Minute < d.Signal.Minute {
				t.Errorf("seed %d: moment %s at minute %d, before the signal at %d", seed, m.Kind, m.Minute, d.Signal.Minute)
			}
			for _, x := range append(m.Player, m.Reference...) {
				if x.Minute < d.Signal.Minute {
					t.Errorf("seed %d: moment %s blames a decision of minute %d, before the signal at %d", seed, m.Kind, x.Minute, d.Signal.Minute)
				}
			}
		}
	}
	var free Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "free-play", "seed": 1, "noise": true}, &free)
	if free.Signal.Minute != -1 || len(free.Moments) != 0 {
		t.Errorf("a quiet day: signal %+v, moments %+v", free.Signal, free.Moments)
	}
}

// A shift that does worse than doing nothing is told so, with the figures,
// and scores no more than no policy.
func TestDebriefSaysWorseThanNoPolicy(t *testing.T) {
	ts := builtinServer(t)
	harm := "rule \"scale in when paged\"\n  when paging && autoscaling\n  do   set_autoscaling(false), set_min_instances(5)\n"
	var d Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 404, "noise": true,
		"autopilot": map[string]any{"source": harm, "until": -1}, "decisions": []any{}}, &d)
	if d.Score != 0 || !strings.Contains(d.Worse, "budget_used ") || !strings.Contains(d.Worse, "against no policy's") {
		t.Errorf("a harmful shift: score %v, worse %q", d.Score, d.Worse)
	}
	var good Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 404, "noise": true,
		"autopilot": map[string]any{"policy": "examples/rollback-on-page", "until": -1}}, &good)
	if good.Worse != "" || good.Score == 0 {
		t.Errorf("the textbook answer: score %v, worse %q", good.Score, good.Worse)
	}
}

// TestDebriefTellsWhatWasQuiet: once the shift is over the debrief says
// what the scenario did that production did not show: in db-degradation,
// the database losing capacity and getting it back.
func TestDebriefTellsWhatWasQuiet(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	var d Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "db-degradation", "seed": 4}, &d)
	var lines []string
	for _, q := range d.Quiet {
		lines = append(lines, q.Text["en"])
	}
	all := strings.Join(lines, "\n")
	t.Log(all)
	if len(d.Quiet) < 2 || !strings.Contains(all, i18n.T("en", "constant.db_capacity.label")) {
		t.Errorf("the debrief of db-degradation tells of %d quiet events:\n%s", len(d.Quiet), all)
	}
	if d.Quiet[0].Text["ur"] == "" || d.Quiet[0].Text["ur"] == d.Quiet[0].Text["en"] {
		t.Errorf("the quiet events are not written in Urdu: %q", d.Quiet[0].Text["ur"])
	}
}

// countedDeploy is the test scenario counting its instances.
type countedDeploy struct {
	badDeploy
	n *atomic.Int32
}

func (c countedDeploy) Instance(m *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
	c.n.Add(1)
	return c.badDeploy.Instance(m, seed)
}

// A debrief runs the shift, the reference and no policy: the scenario is
// instantiated three times, not a fourth to learn the shift's length.
func TestDebriefInstantiatesThreeRuns(t *testing.T) {
	var n atomic.Int32
	ts := newTestServer(t, Options{Scenarios: []Scenario{countedDeploy{n: &n}}})
	var d Debrief
	ts.doJSON(t, "POST", "/api/debrief", map[string]any{"scenario": "bad-deploy", "seed": 7, "decisions": []any{}}, &d)
	if d.Reference != "bad-deploy" || d.Max == 0 {
		t.Fatalf("debrief %+v", d)
	}
	if got := n.Load(); got != 3 {
		t.Errorf("the scenario was instantiated %d times for the 3 runs of a debrief", got)
	}
}
