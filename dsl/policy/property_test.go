package policy

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/engine"
)

// numberMetrics are the metrics of kind Number, which rules read as float.
func numberMetrics() []Variable {
	var vs []Variable
	for _, v := range Variables() {
		if v.Type == Float && v.get != nil {
			vs = append(vs, v)
		}
	}
	return vs
}

// TestFiresExactlyWhenTheConditionHolds: a rule `metric > x` with a cooldown
// of c minutes fires at the minutes a Go reading of the same trace says,
// and its Seen value is the metric's value. The action sets the target to
// the value it has, so that the policy does not change the run.
func TestFiresExactlyWhenTheConditionHolds(t *testing.T) {
	metrics := numberMetrics()
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.SampledFrom(metrics).Draw(t, "metric")
		cooldown := rapid.IntRange(0, 12).Draw(t, "cooldown")
		seed := rapid.Uint32().Draw(t, "seed")
		setup := shortSetup(90)
		sim, _ := engine.New(engine.Options{Setup: setup, Seed: seed, Noise: true})
		if err := sim.Run(0); err != nil {
			t.Fatal(err)
		}
		plain := sim.Rows()
		// A threshold among the values seen, so that the rule fires sometimes.
		x := m.get(&plain[rapid.IntRange(0, len(plain)-1).Draw(t, "at")])
		src := fmt.Sprintf("rule \"r\"\n  when %s > %v\n  do set_target(0.6)\n", m.Name, x)
		if cooldown > 0 {
			src += fmt.Sprintf("  cooldown %dm\n", cooldown)
		}
		p, err := Compile("p.rules", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(Test{Setup: setup, Seed: seed, Noise: true})
		if err != nil || res.Err != nil {
			t.Fatal(err, res.Err)
		}
		last := -1
		var want []Expect
		for i := range plain {
			if m.get(&plain[i]) > x && (last < 0 || cooldown == 0 || i-last >= cooldown) {
				want = append(want, Expect{Minute: i, Rule: "r", Actions: "set_target(0.6)"})
				last = i
			}
		}
		if d := Diff(want, res.Got); len(d) > 0 {
			t.Fatalf("%s:\n%v", src, d)
		}
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.Minute != plain[i].Minute || m.get(r) != m.get(&plain[i]) {
				t.Fatalf("minute %d: the policy changed the run", i)
			}
			for _, f := range r.Fired {
				if len(f.Seen) != 1 || f.Seen[0].Name != m.Name || f.Seen[0].Value != m.get(r) {
					t.Fatalf("minute %d: seen %v, want %s=%v", i, f.Seen, m.Name, m.get(r))
				}
			}
		}
	})
}

// TestHelpersMatchTheirDefinition: ago, mean_over, max_over, min_over,
// rising and falling give, minute by minute, what their definitions say on
// the rows so far.
func TestHelpersMatchTheirDefinition(t *testing.T) {
	metrics := numberMetrics()
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.SampledFrom(metrics).Draw(t, "metric")
		n := rapid.IntRange(1, 40).Draw(t, "n")
		seed := rapid.Uint32().Draw(t, "seed")
		src := fmt.Sprintf(`rule "r"
  when ago(%[1]q, %[2]d) > -1e300 && mean_over(%[1]q, %[2]d) > -1e300 && max_over(%[1]q, %[2]d) > -1e300 && min_over(%[1]q, %[2]d) > -1e300 && (rising(%[1]q, %[2]d) || !rising(%[1]q, %[2]d)) && (falling(%[1]q, %[2]d) || true)
  do   set_target(0.6)
`, m.Name, n)
		p, err := Compile("p.rules", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(Test{Setup: shortSetup(60), Seed: seed, Noise: true})
		if err != nil || res.Err != nil {
			t.Fatal(err, res.Err)
		}
		rows := res.Rows
		for i := range rows {
			from := max(0, i-n+1)
			sum, hi, lo := 0.0, math.Inf(-1), math.Inf(1)
			for j := from; j <= i; j++ {
				v := m.get(&rows[j])
				sum += v
				hi, lo = math.Max(hi, v), math.Min(lo, v)
			}
			then := m.get(&rows[max(0, i-n)])
			want := map[string]float64{
				fmt.Sprintf("ago(%q,%d)", m.Name, n):       then,
				fmt.Sprintf("mean_over(%q,%d)", m.Name, n): sum / float64(i-from+1),
				fmt.Sprintf("max_over(%q,%d)", m.Name, n):  hi,
				fmt.Sprintf("min_over(%q,%d)", m.Name, n):  lo,
				fmt.Sprintf("rising(%q,%d)", m.Name, n):    b2f(m.get(&rows[i]) > then),
			}
			if len(rows[i].Fired) != 1 {
				t.Fatalf("minute %d: fired %v", i, rows[i].Fired)
			}
			found := 0
			for _, s := range rows[i].Fired[0].Seen {
				w, ok := want[s.Name]
				if !ok {
					continue
				}
				found++
				if math.Abs(s.Value-w) > 1e-9*math.Max(1, math.Abs(w)) {
					t.Fatalf("minute %d: %s = %v, want %v", i, s.Name, s.Value, w)
				}
			}
			if found != len(want) {
				t.Fatalf("minute %d: seen %v; want every helper of %v", i, rows[i].Fired[0].Seen, want)
			}
		}
	})
}
