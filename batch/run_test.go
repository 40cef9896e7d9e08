package batch_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/batch/batchtest"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
	"pgregory.net/rapid"
)

var errTest = errors.New("test error")

func seeds(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i + 1)
	}
	return s
}

// The results do not depend on the number of workers.
func TestManySameWithOneAndTwoWorkers(t *testing.T) {
	run := shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.FiveRules(), Noise: true}
	ss := seeds(40)
	one, err := batch.Many(context.Background(), run, ss, batch.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	two, err := batch.Many(context.Background(), run, ss, batch.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatal("results differ between 1 and 2 workers")
	}
	for i, r := range one {
		if r.Seed != ss[i] || r.Err != nil || r.Outcome.Minutes != 120 {
			t.Fatalf("result %d: seed %d, err %v, %d minutes", i, r.Seed, r.Err, r.Outcome.Minutes)
		}
	}
	var a, b bytes.Buffer
	rep1 := batch.Report{Scenario: "x", Policy: "p", Seeds: ss, A: one}
	rep2 := batch.Report{Scenario: "x", Policy: "p", Seeds: ss, A: two}
	rep1.WriteCSV(&a)
	rep2.WriteCSV(&b)
	if a.String() != b.String() {
		t.Fatal("CSV differs between 1 and 2 workers")
	}
	// Seeds differ from each other, or the batch would test nothing.
	if reflect.DeepEqual(one[0].Outcome, one[1].Outcome) {
		t.Fatal("seeds 1 and 2 give the same outcome")
	}
}

func TestManyProgressInOrder(t *testing.T) {
	var got []int
	run := shift.Shift{Scenario: batchtest.BadDeploy(), Minutes: 5, Noise: true}
	_, err := batch.Many(context.Background(), run, seeds(9), batch.Options{Jobs: 3, Progress: func(done, total int) {
		if total != 9 {
			t.Errorf("total %d, want 9", total)
		}
		got = append(got, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("progress %v", got)
	}
}

func TestManyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := batch.Many(ctx, shift.Shift{Scenario: batchtest.BadDeploy(), Noise: true}, seeds(100), batch.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// failing stops on minute 3 of odd seeds.
type failing struct{ seed uint32 }

func (f failing) Events(m int) ([]engine.Event, error) {
	if m == 3 && f.seed%2 == 1 {
		return nil, errTest
	}
	return nil, nil
}
func (failing) Surge(int) (float64, error) { return 1, nil }
func (failing) Observe(*engine.Row) error  { return nil }

func TestManyErrorsStayWithTheirSeed(t *testing.T) {
	src := shift.SourceFunc(func(_ *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
		s := engine.FreePlay()
		s.Minutes = 10
		return failing{seed}, s, nil
	})
	rs, err := batch.Many(context.Background(), shift.Shift{Scenario: src, Noise: true}, seeds(6), batch.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if (r.Err != nil) != (r.Seed%2 == 1) {
			t.Errorf("seed %d: err %v", r.Seed, r.Err)
		}
	}
	if err := batch.FirstError(rs); err == nil || !strings.HasPrefix(err.Error(), "seed 1: minute 3 (08:03): test error") {
		t.Errorf("first error %v", err)
	}
	var out bytes.Buffer
	rep := batch.Report{Scenario: "x", Policy: "none", Seeds: seeds(6), A: rs}
	if err := rep.WriteSummary(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "3 runs stopped on an error and are left out; the first: seed 1: minute 3") {
		t.Errorf("summary does not report the failures:\n%s", out.String())
	}
}

func TestReportWriters(t *testing.T) {
	ss := seeds(12)
	a, _ := batch.Many(context.Background(), shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.FiveRules(), Noise: true}, ss, batch.Options{})
	b, _ := batch.Many(context.Background(), shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.Idle(), Noise: true}, ss, batch.Options{})
	rep := batch.Report{Scenario: "go-bad-deploy", Policy: "five.rules", Vs: "idle.rules", Seeds: ss, Noise: true, A: a, B: b}

	var out bytes.Buffer
	if err := rep.WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+3*len(ss) || recs[0][0] != "seed" || recs[0][1] != "policy" || recs[3][1] != "a-b" {
		t.Fatalf("CSV: %d records, head %v", len(recs), recs[0])
	}

	out.Reset()
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Seeds string `json:"seeds"`
		Runs  []struct {
			Seed uint32             `json:"seed"`
			A    map[string]float64 `json:"a"`
			B    map[string]float64 `json:"b"`
			Diff map[string]float64 `json:"a_minus_b"`
		} `json:"runs"`
		Differences []struct {
			Figure  string   `json:"figure"`
			Pairs   int      `json:"pairs"`
			Low     *float64 `json:"ci95_low"`
			Verdict string   `json:"verdict"`
		} `json:"differences"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Seeds != "1-12" || len(doc.Runs) != 12 || len(doc.Differences) != len(batch.MainFigures()) {
		t.Fatalf("JSON: seeds %q, %d runs, %d differences", doc.Seeds, len(doc.Runs), len(doc.Differences))
	}
	r := doc.Runs[0]
	if d := r.A["cost"] - r.B["cost"]; abs(d-r.Diff["cost"]) > 1e-3 {
		t.Errorf("seed 1: cost a %v − b %v ≠ diff %v", r.A["cost"], r.B["cost"], r.Diff["cost"])
	}
	if doc.Differences[0].Pairs != 12 || doc.Differences[0].Low == nil {
		t.Errorf("difference %+v", doc.Differences[0])
	}

	out.Reset()
	if err := rep.WriteSummary(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go-bad-deploy · 12 seeds (1-12) · noise on", "policy five.rules", "vs idle.rules", "paired t interval", "budget_used"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkManyGoScenario runs 1,000 seeds of the two-hour Go bad deploy
// with the five-rule Go policy on every core: the engine's share of the batch
// budget (2 s for 1,000 seeds on two cores).
func BenchmarkManyGoScenario(b *testing.B) {
	run := shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.FiveRules(), Noise: true}
	ss := seeds(1000)
	for b.Loop() {
		if _, err := batch.Many(context.Background(), run, ss, batch.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A seed's outcome depends on the seed alone: not on the number of workers,
// nor on which other seeds share the batch, nor on their order.
func TestManyOutcomeDependsOnSeedOnly(t *testing.T) {
	run := shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.FiveRules(), Minutes: 40, Noise: true}
	alone := make(map[uint32]engine.Outcome)
	for s := uint32(0); s < 30; s++ {
		rs, err := batch.Many(context.Background(), run, []uint32{s}, batch.Options{Jobs: 1})
		if err != nil || rs[0].Err != nil {
			t.Fatal(err, rs[0].Err)
		}
		alone[s] = rs[0].Outcome
	}
	rapid.Check(t, func(rt *rapid.T) {
		ss := rapid.SliceOfNDistinct(rapid.Uint32Range(0, 29), 1, 30, rapid.ID).Draw(rt, "seeds")
		jobs := rapid.IntRange(0, 5).Draw(rt, "jobs")
		rs, err := batch.Many(context.Background(), run, ss, batch.Options{Jobs: jobs})
		if err != nil {
			rt.Fatal(err)
		}
		for i, r := range rs {
			if r.Seed != ss[i] || !reflect.DeepEqual(r.Outcome, alone[r.Seed]) {
				rt.Fatalf("seed %d (position %d, %d jobs): outcome differs from the seed run alone", ss[i], i, jobs)
			}
		}
	})
}

// In a --vs batch, a run of one policy may stop while the other's finishes:
// the JSON keeps the finished side and says which side stopped.
func TestVsJSONKeepsTheSideThatFinished(t *testing.T) {
	ss := seeds(2)
	a, _ := batch.Many(context.Background(), shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.FiveRules(), Noise: true}, ss, batch.Options{})
	b, _ := batch.Many(context.Background(), shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.Idle(), Noise: true}, ss, batch.Options{})
	a[1].Err = errors.New("seed 2: minute 7 (09:07): five.rules:3:9: broken")
	rep := batch.Report{Scenario: "go-bad-deploy", Policy: "five.rules", Vs: "idle.rules", Seeds: ss, Noise: true, A: a, B: b}
	var out bytes.Buffer
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			A      map[string]float64 `json:"a"`
			B      map[string]float64 `json:"b"`
			Diff   map[string]float64 `json:"a_minus_b"`
			ErrorA string             `json:"a_error"`
			ErrorB string             `json:"b_error"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	ok, stopped := doc.Runs[0], doc.Runs[1]
	if ok.A == nil || ok.B == nil || ok.Diff == nil || ok.ErrorA != "" || ok.ErrorB != "" {
		t.Errorf("seed 1: %+v", ok)
	}
	out.Reset()
	if err := rep.WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// seed 2's rows: a (stopped), b, a-b; the seed is a column of its own.
	if got := recs[4]; got[0] != "2" || got[1] != "a" || got[len(got)-1] != "minute 7 (09:07): five.rules:3:9: broken" || got[2] != "" {
		t.Errorf("CSV row of seed 2, a: %q", got)
	}
	if stopped.A != nil || stopped.B == nil || stopped.Diff != nil || stopped.ErrorA != "minute 7 (09:07): five.rules:3:9: broken" || stopped.ErrorB != "" {
		t.Errorf("seed 2: %+v", stopped)
	}
}

// When no run finished, the distribution has no worst seed: JSON null (0 is
// a seed), and n/a in the summary like the figures.
func TestDistributionOfNoRunHasNoWorstSeed(t *testing.T) {
	ss := seeds(2)
	a, _ := batch.Many(context.Background(), shift.Shift{Scenario: batchtest.BadDeploy(), Policy: batchtest.Idle(), Noise: true}, ss, batch.Options{})
	for i := range a {
		a[i].Err = errors.New("stopped")
	}
	rep := batch.Report{Scenario: "go-bad-deploy", Policy: "none", Seeds: ss, A: a}
	var out bytes.Buffer
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"runs": 0,
      "mean": null,
      "p50": null,
      "p90": null,
      "worst": null,
      "worst_seed": null`) {
		t.Errorf("JSON distribution:\n%s", out.String())
	}
	out.Reset()
	if err := rep.WriteSummary(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "  budget_used          share     0     n/a   n/a  n/a  n/a    n/a\n") {
		t.Errorf("summary:\n%s", out.String())
	}
}

// spender spends its run's budget at minute 5.
type spender struct{ m *budget.Meter }

func (s spender) Decide(rows []engine.Row) ([]engine.Firing, error) {
	if len(rows) == 5 {
		return nil, s.m.Charge(budget.Policy, 2_000)
	}
	return nil, nil
}

// TestManyStopsAtABudgetSpent: a run whose code spends its budget stops the
// batch, for the policy would spend it on every seed; the seeds not run
// say why instead of each spending a budget.
func TestManyStopsAtABudgetSpent(t *testing.T) {
	sh := shift.Shift{Scenario: batchtest.BadDeploy(), Noise: true, Limits: budget.Limits{Steps: 1_000},
		Policy: shift.PolicyFunc(func(m *budget.Meter) engine.Policy { return spender{m} })}
	rs, err := batch.Many(context.Background(), sh, seeds(200), batch.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	spent, notRun := 0, 0
	for _, r := range rs {
		var ex *budget.Exceeded
		switch {
		case r.Err == nil:
			t.Fatalf("seed %d ran to its end", r.Seed)
		case errors.As(r.Err, &ex) && !strings.Contains(r.Err.Error(), "not run"):
			spent++
		case strings.Contains(r.Err.Error(), "not run: the batch stopped: seed "):
			notRun++
		}
	}
	if spent == 0 || spent > 10 || notRun < 150 {
		t.Fatalf("%d runs spent their budget, %d were not run; want a few and most", spent, notRun)
	}
}
