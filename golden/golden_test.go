package golden_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/fingerprint"
	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/shift"
)

func builtins(t testing.TB) []*scenario.Program {
	t.Helper()
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return progs
}

// model is the model's fingerprint, which the public references are
// stamped with.
func model(t testing.TB) grade.Model {
	t.Helper()
	m, err := fingerprint.Current()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runFor is the shift of a golden case, seed aside.
func runFor(t testing.TB, p *scenario.Program, which string) shift.Shift {
	t.Helper()
	run := shift.Shift{Scenario: p, Noise: true}
	if which == golden.PolicyReference {
		pol, err := grade.ReferencePolicy(p.ID())
		if err != nil {
			t.Fatal(err)
		}
		run.Policy = pol.Program
	}
	return run
}

// Every built-in scenario, seeds 1 to 3, with no policy and with its
// reference policy: the trace and the outcome match their golden files.
func TestGoldenTraces(t *testing.T) {
	g := goldentest.New(t, "testdata", ".golden")
	for _, p := range builtins(t) {
		for _, which := range []string{golden.PolicyNone, golden.PolicyReference} {
			run := runFor(t, p, which)
			for _, seed := range golden.TraceSeeds() {
				c := golden.Case{Scenario: p.ID(), Seed: seed, Policy: which}
				t.Run(c.Name(), func(t *testing.T) {
					t.Parallel()
					sh := run
					sh.Seed = seed
					rec, err := golden.Record(sh)
					if err != nil {
						t.Fatalf("%s: %v", c.Label(), err)
					}
					g.AssertTrace(t, c.Label(), c.Name()+".csv", rec.Trace)
					g.AssertOutcome(t, c.Label(), c.Name()+".outcome", rec.Outcome)
				})
			}
		}
	}
}

// The public references are the outcomes of each graded scenario's
// reference policy over the public seeds, as the binary embeds them.
func TestPublicReferences(t *testing.T) {
	g := goldentest.New(t, "testdata", ".json")
	seeds, err := shift.ParseSeeds(golden.PublicSeeds)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range builtins(t) {
		if len(p.Grading()) == 0 {
			continue
		}
		t.Run(p.ID(), func(t *testing.T) {
			pol, err := grade.ReferencePolicy(p.ID())
			if err != nil {
				t.Fatal(err)
			}
			ref, err := grade.RecordReference(context.Background(), grade.RecordOptions{
				Scenario: grade.Graded(p), Policy: pol.Program, PolicyName: pol.Name, PolicySHA256: pol.SHA256, Noise: true, Model: model(t),
			}, seeds, batch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			f := grade.ReferenceFile{References: []grade.Reference{ref}}
			if err := f.Write(&out); err != nil {
				t.Fatal(err)
			}
			g.AssertEquivalent(t, p.ID()+" reference", "reference/"+p.ID(), out.Bytes(), grade.CompareReferences)
		})
	}
}

// The embedded public references hold every graded built-in scenario.
func TestPublicReferencesEmbedded(t *testing.T) {
	if goldentest.Updating() {
		t.Skip("the files are being rewritten; the embedded copies are the old ones")
	}
	refs, err := golden.PublicReferences()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range builtins(t) {
		if len(p.Grading()) == 0 {
			continue
		}
		r, err := refs.Lookup(p.ID())
		if err != nil {
			t.Error(err)
			continue
		}
		if r.Seeds != golden.PublicSeeds || !r.Noise {
			t.Errorf("%s: seeds %s, noise %v", p.ID(), r.Seeds, r.Noise)
		}
	}
}

// firstDifference finds, independently of CompareTrace, the first minute and
// column where two runs' rows differ as written.
func firstDifference(a, b []engine.Row) (int, string) {
	for i := range min(len(a), len(b)) {
		for _, s := range engine.MetricSpecs()[1:] {
			if s.Format(s.Get(&a[i])) != s.Format(s.Get(&b[i])) {
				return a[i].Minute, s.Name
			}
		}
	}
	return -1, ""
}

// A change of one engine constant makes the golden comparison fail with a
// message naming the first minute and column that differ and both values.
func TestGoldenCatchesAConstantChange(t *testing.T) {
	if goldentest.Updating() {
		t.Skip("the goldens are being rewritten")
	}
	bad, err := scenario.Builtin("bad-deploy", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := goldentest.New(t, "testdata", ".golden")
	cases := []struct {
		name   string
		change func(*engine.Setup) error
		which  string
	}{
		{"database capacity 4,000 → 3,900", func(s *engine.Setup) error { s.Constants.DBCapacity = 3900; return nil }, golden.PolicyNone},
		{"application time 50 → 51 ms", func(s *engine.Setup) error { s.Constants.AppMS = 51; return nil }, golden.PolicyNone},
		{"rollback 5 → 6 minutes", func(s *engine.Setup) error { s.Constants.RollbackMinutes = 6; return nil }, golden.PolicyReference},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gc := golden.Case{Scenario: "bad-deploy", Seed: 2, Policy: c.which}
			run := runFor(t, bad, c.which)
			run.Seed = gc.Seed
			plain, err := run.Run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			run.Adjust = c.change
			changed, err := run.Run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			rec, err := golden.Record(run)
			if err != nil {
				t.Fatal(err)
			}
			err = g.Check(t, gc.Name()+".csv", rec.Trace, golden.CompareTrace)
			var diff *golden.TraceDiff
			if !errors.As(err, &diff) {
				t.Fatalf("the changed engine passes the golden: %v", err)
			}
			minute, column := firstDifference(plain.Rows(), changed.Rows())
			want := fmt.Sprintf("first difference at minute %d (%s), column %s: golden ", minute, engine.ClockString(9*60+minute), column)
			if !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("message %q\nwant it to start %q", err, want)
			}
			if !regexp.MustCompile(`: golden [-0-9.]+, now [-0-9.]+ \(\d+ cells differ in \d+ minutes\) \(testdata/traces/bad-deploy/seed2-\w+\.csv\.golden; `).MatchString(err.Error()) {
				t.Errorf("message %q lacks both values, the extent or the file", err)
			}
			t.Logf("%s: %s", gc.Label(), err)
		})
	}
}
