package scenario

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/scenarios"
)

// runBuiltin runs a built-in scenario for its whole duration on a seed at the
// default controls, with no policy.
func runBuiltin(t *testing.T, name string, seed uint32) (*Program, []engine.Row) {
	t.Helper()
	p, err := Builtin(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, setup := runProgram(t, p, seed)
	if got := len(rows); got != setup.Minutes {
		t.Fatalf("%s ran %d minutes, want %d", name, got, setup.Minutes)
	}
	return p, rows
}

func TestBuiltinsLoadInOrderWithEveryLanguage(t *testing.T) {
	progs, err := Builtins(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) != len(scenarios.Names()) {
		t.Fatalf("%d built-ins, want %d", len(progs), len(scenarios.Names()))
	}
	for i, p := range progs {
		if p.ID() != scenarios.Names()[i] {
			t.Errorf("built-in %d is %s, want %s", i, p.ID(), scenarios.Names()[i])
		}
		for _, lang := range i18n.Codes() {
			if p.Title()[lang] == "" || p.Briefing()[lang] == "" {
				t.Errorf("%s has no title or briefing in %s", p.ID(), lang)
			}
			for _, w := range p.Switches() {
				if w.Label[lang] == "" || w.Help[lang] == "" {
					t.Errorf("%s: switch %s has no label or help in %s", p.ID(), w.ID, lang)
				}
			}
			for name, l := range p.Labels() {
				if l[lang] == "" {
					t.Errorf("%s: the label of %s has no text in %s", p.ID(), name, lang)
				}
			}
		}
		if len(p.Grading()) == 0 {
			t.Errorf("%s declares no grading", p.ID())
		}
		own := make(map[string]bool) // the figures it declares with outcome{}
		for _, o := range p.Outcomes() {
			own[o.Name] = true
		}
		for _, c := range p.Grading() {
			if _, err := engine.LookupOutcome(c.Metric); err != nil && !own[c.Metric] {
				t.Errorf("%s: %v", p.ID(), err)
			}
			if _, err := c.Limit(1); err != nil {
				t.Errorf("%s: %v", p.ID(), err)
			}
		}
	}
}

func TestBuiltinUnknownNameSuggests(t *testing.T) {
	_, err := Builtin("bad-deplyo", Options{})
	want := `unknown scenario "bad-deplyo"; did you mean bad-deploy? (built-in scenarios: free-play, bad-deploy, surge, cache-flush, db-degradation, memory-leak, thundering-herd, config-push, slow-dependency, cert-expiry, canary, retry-storm, waf-rules, holiday-return; or give the path of a .lua file)`
	if err == nil || err.Error() != want {
		t.Errorf("Builtin = %v, want %s", err, want)
	}
}

func TestFreePlayIsTheDefaults(t *testing.T) {
	p, rows := runBuiltin(t, "free-play", 1)
	want := engine.FreePlay()
	if got := p.Setup(); got.Start != want.Start || got.Minutes != want.Minutes || got.BudgetLeft != want.BudgetLeft ||
		got.Warm != want.Warm || got.Constants != want.Constants || got.Controls != want.Controls || got.Page != nil {
		t.Errorf("setup = %+v, want the defaults %+v", got, want)
	}
	for _, r := range rows {
		for _, ev := range r.Events {
			switch ev.Kind {
			case engine.EventDeploy, engine.EventFlush, engine.EventSetConstant, engine.EventSetControl, engine.EventSay:
				t.Fatalf("minute %d: free play has a scenario event %v", r.Minute, ev)
			}
		}
	}
}

// The bad build ships at 09:10 on every seed; how bad it is comes from the
// seed, within the ranges the header and the briefing state, so that with
// no policy the budget spent and the minute of the page vary over seeds
// 1-50, and the page fires a few minutes after the deploy.
func TestBadDeployVariesWithTheSeed(t *testing.T) {
	budgets, pages := map[float64]bool{}, map[int]bool{}
	for seed := uint32(1); seed <= 50; seed++ {
		p, rows := runBuiltin(t, "bad-deploy", seed)
		_, s, err := p.Instance(nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		if s.BudgetLeft != 0.20 || engine.ClockString(s.Start) != "09:00" {
			t.Fatalf("setup: budget_left %v, start %s", s.BudgetLeft, engine.ClockString(s.Start))
		}
		deploy, page := -1, -1
		for _, r := range rows {
			for _, e := range r.Events {
				if b := e.Build; e.Kind == engine.EventDeploy && (b.Name != "4.2.0" || b.ErrorRate < 0.08 || b.ErrorRate > 0.20 || b.ExtraCPU < 0.25-1e-9 || b.ExtraCPU > 0.75+1e-9 || b.LeakMSPerMin != 0) {
					t.Errorf("seed %d: build %+v, want 4.2.0 failing 0.08-0.20 of its requests and costing +0.25-0.75 CPU", seed, b)
				}
			}
			if r.Time() < "09:10" && r.BadTraffic != 0 {
				t.Fatalf("seed %d: bad traffic %v at %s, before the deploy", seed, r.BadTraffic, r.Time())
			}
			if r.Time() == "09:10" {
				deploy = r.Minute
				if rollout := math.Round(1 / r.BadTraffic); rollout < 2 || rollout > 8 || math.Abs(r.BadTraffic*rollout-1) > 1e-12 {
					t.Errorf("seed %d: bad traffic %v at 09:10, want a rollout of 2 to 8 minutes", seed, r.BadTraffic)
				}
			}
			if r.Paging && page < 0 {
				page = r.Minute
			}
		}
		if page < 0 || page-deploy < 3 || page-deploy > 15 {
			t.Errorf("seed %d: the page fires %d minutes after the deploy, want a few (3 to 15)", seed, page-deploy)
		}
		o := engine.Summarize(s.BudgetLeft, rows)
		budgets[o.BudgetUsed], pages[page] = true, true
	}
	if len(budgets) < 10 || len(pages) < 3 {
		t.Errorf("seeds 1-50 with no policy: %d distinct budget_used and %d page minutes, want at least 10 and 3", len(budgets), len(pages))
	}
	t.Logf("seeds 1-50, no policy: %d distinct budget_used, the page at %d different minutes", len(budgets), len(pages))
}

// The grading variant of bad deploy draws the same build as bad-deploy on
// a seed, then ships it at a minute drawn between 09:05 and 10:05.
func TestBadDeployAnytimeDrawsTheDeployTime(t *testing.T) {
	src, err := os.ReadFile("../../scenarios/variants/bad-deploy-anytime.lua")
	if err != nil {
		t.Fatal(err)
	}
	v, err := Compile("bad-deploy-anytime.lua", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Builtin("bad-deploy", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Grading()) != len(b.Grading()) || v.Grading()[0].Text() != b.Grading()[0].Text() {
		t.Errorf("the variant grades %v, bad-deploy %v", v.Grading(), b.Grading())
	}
	times := map[string]bool{}
	for seed := uint32(1); seed <= 40; seed++ {
		rows, _ := runProgram(t, v, seed)
		brows, _ := runProgram(t, b, seed)
		if vb, bb := shipped(rows), shipped(brows); vb != bb || vb.Name == "" {
			t.Errorf("seed %d: the variant's build %+v differs from bad-deploy's %+v", seed, vb, bb)
		}
		deploy := ""
		for _, r := range rows {
			if r.BadTraffic > 0 {
				deploy = r.Time()
				break
			}
		}
		if deploy < "09:05" || deploy > "10:05" {
			t.Errorf("seed %d: the build ships at %q, want 09:05 to 10:05", seed, deploy)
		}
		times[deploy] = true
	}
	if len(times) < 20 {
		t.Errorf("40 seeds ship at %d different minutes", len(times))
	}
}

// shipped returns the build the first deploy of a run ships.
func shipped(rows []engine.Row) engine.Build {
	for _, r := range rows {
		for _, e := range r.Events {
			if e.Kind == engine.EventDeploy {
				return e.Build
			}
		}
	}
	return engine.Build{}
}

// surgeCurve reads a surge instance's multipliers over the run.
func surgeCurve(t *testing.T, p *Program, seed uint32) []float64 {
	t.Helper()
	sc, setup, err := p.Instance(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	curve := make([]float64, setup.Minutes)
	for m := range curve {
		if curve[m], err = sc.Surge(m); err != nil {
			t.Fatal(err)
		}
	}
	return curve
}

// onsetAndPeak returns the first minute the surge lifts demand and its peak.
func onsetAndPeak(curve []float64) (int, float64) {
	onset, peak := -1, 0.0
	for m, v := range curve {
		if v > 1 && onset < 0 {
			onset = m
		}
		peak = math.Max(peak, v)
	}
	return onset, peak
}

func TestSurgeTimeAndSizeComeFromTheSeed(t *testing.T) {
	p, err := Builtin("surge", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Setup().Constants.BootDelay != 8 {
		t.Errorf("boot_delay = %v, want 8", p.Setup().Constants.BootDelay)
	}
	onsets, peaks := map[int]bool{}, map[float64]bool{}
	for seed := uint32(1); seed <= 20; seed++ {
		a, b := surgeCurve(t, p, seed), surgeCurve(t, p, seed)
		for m := range a {
			if a[m] != b[m] {
				t.Fatalf("seed %d: minute %d differs between two instances: %v, %v", seed, m, a[m], b[m])
			}
		}
		onset, peak := onsetAndPeak(a)
		clock := engine.ClockString(p.Setup().Start + onset)
		if onset < 0 || clock < "07:30" || clock > "10:30" || peak < 2.2 || peak > 3.2 {
			t.Errorf("seed %d: surge from %s up to ×%.2f, want a morning surge of ×2.2 to ×3.2", seed, clock, peak)
		}
		onsets[onset], peaks[peak] = true, true
	}
	if len(onsets) < 15 || len(peaks) < 15 {
		t.Errorf("20 seeds gave %d onsets and %d sizes: the seed should decide both", len(onsets), len(peaks))
	}
	_, rows := runBuiltin(t, "surge", 5)
	onset, _ := onsetAndPeak(surgeCurve(t, p, 5))
	if rows[onset+30].Demand < 1.3*rows[onset-1].Demand {
		t.Errorf("demand %.0f half an hour into the surge, %.0f before", rows[onset+30].Demand, rows[onset-1].Demand)
	}
}

func TestCacheFlushEmptiesTheCacheAtNoon(t *testing.T) {
	for _, seed := range []uint32{2, 9} {
		p, rows := runBuiltin(t, "cache-flush", seed)
		if ttl := p.Setup().Controls.TTL; ttl != 90 {
			t.Errorf("ttl_s = %v, want 90", ttl)
		}
		for _, r := range rows {
			switch {
			case r.Time() < "12:00" && math.Abs(r.HitRate-0.85) > 0.01:
				t.Errorf("seed %d, %s: hit rate %.4f, want about 0.85", seed, r.Time(), r.HitRate)
			case r.Time() == "12:00":
				if r.HitRate != 0 {
					t.Errorf("seed %d, 12:00: hit rate %v, want 0", seed, r.HitRate)
				}
				if r.DBUtil < 0.9 {
					t.Errorf("seed %d, 12:00: db_util %.3f, want the database near saturation", seed, r.DBUtil)
				}
			}
		}
	}
}

// The database's capacity and the fleet's floor come from the seed, within
// the ranges the header and the briefing state: the flush overloads a small
// database and only slows a large one, and no policy's errors vary.
func TestCacheFlushVariesWithTheSeed(t *testing.T) {
	capacities, fleets, errs := map[float64]bool{}, map[int]bool{}, map[float64]bool{}
	overloaded, slowed := 0, 0
	for seed := uint32(1); seed <= 40; seed++ {
		p, rows := runBuiltin(t, "cache-flush", seed)
		_, s, err := p.Instance(nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		c, n := s.Constants.DBCapacity, s.Controls.MinInstances
		if c < 3400 || c > 4600 || n < 9 || n > 12 || rows[0].Serving != n {
			t.Errorf("seed %d: database capacity %v, floor %d, %d serving; want 3,400-4,600 and 9-12", seed, c, n, rows[0].Serving)
		}
		capacities[c], fleets[n] = true, true
		errs[engine.Summarize(s.BudgetLeft, rows).ErrorRequests] = true
		var dbErrors bool
		for _, r := range rows {
			dbErrors = dbErrors || r.DBErrors > 0
		}
		if dbErrors {
			overloaded++
		} else {
			slowed++
		}
	}
	if len(capacities) < 20 || len(fleets) != 4 || len(errs) < 20 || overloaded == 0 || slowed == 0 {
		t.Errorf("seeds 1-40: %d capacities, %d floors, %d error counts; %d seeds overload the database, %d only slow it",
			len(capacities), len(fleets), len(errs), overloaded, slowed)
	}
}

func TestInstancesOfOneProgramRunConcurrently(t *testing.T) {
	p, err := Builtin("surge", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := surgeCurve(t, p, 77)
	done := make(chan []float64)
	for range 4 {
		go func() {
			sc, setup, err := p.Instance(nil, 77)
			if err != nil {
				done <- nil
				return
			}
			curve := make([]float64, setup.Minutes)
			for m := range curve {
				curve[m], _ = sc.Surge(m)
			}
			done <- curve
		}()
	}
	for range 4 {
		got := <-done
		if len(got) != len(want) {
			t.Fatal("an instance failed")
		}
		for m := range got {
			if got[m] != want[m] {
				t.Fatalf("minute %d: %v, want %v", m, got[m], want[m])
			}
		}
	}
}

// TestAnnotationsCoverTheAPI keeps the language server's annotations in step
// with the engine and with what scenarios can call.
func TestAnnotationsCoverTheAPI(t *testing.T) {
	src, err := scenarios.Files.ReadFile(scenarios.Annotations)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	var names []string
	for _, s := range engine.ConstantSpecs() {
		names = append(names, "---@field "+s.Name+"? ")
	}
	for _, s := range engine.ControlSpecs() {
		if s.Kind == engine.KindAction {
			names = append(names, "function "+s.Name+"()")
		} else {
			names = append(names, "---@field "+s.Name+"? ")
		}
	}
	for _, s := range engine.MetricSpecs() {
		names = append(names, "---@field "+s.Name+" ")
	}
	for _, s := range engine.OutcomeSpecs() {
		names = append(names, `---| "`+s.Name+`"`)
	}
	for _, f := range API() {
		names = append(names, f)
	}
	for _, f := range []string{"rng.uniform(", "rng.exponential(", "rng.normal(", "rng.poisson("} {
		names = append(names, "function "+f)
	}
	for _, n := range names {
		if !strings.Contains(text, n) {
			t.Errorf("%s has no %q", scenarios.Annotations, n)
		}
	}
	// Every field a table of the API declares is in its class.
	for class, fields := range map[string][]string{
		"oncall.Scenario":  scenarioTable.Names(),
		"oncall.Criterion": criterionTable.Names(),
		"oncall.Deploy":    deployTable.Names(),
		"oncall.Leak":      leakTable.Names(),
		"oncall.Lose":      loseTable.Names(),
		"oncall.Ramp":      rampTable.Names(),
		"oncall.Outcome":   outcomeTable.Names(),
		"oncall.Inject":    injectTable.Names(),
		"oncall.Switch":    switchTable.Names(),
		"oncall.Labels":    engine.ControlNames(),
	} {
		// The class's line may name what it extends: "---@class oncall.Ramp: oncall.Constants".
		_, block, ok := strings.Cut(text, "---@class "+class)
		ok = ok && (strings.HasPrefix(block, "\n") || strings.HasPrefix(block, ":"))
		block, _, _ = strings.Cut(block, "\n\n")
		if !ok {
			t.Errorf("%s has no class %s", scenarios.Annotations, class)
		}
		for _, f := range fields {
			if !strings.Contains(block, "---@field "+f+" ") && !strings.Contains(block, "---@field "+f+"? ") {
				t.Errorf("%s: class %s has no field %s", scenarios.Annotations, class, f)
			}
		}
	}
}

// TestBuiltinsPassTheCheck: every built-in scenario is played on the seeds
// oncall check plays, decisions of every kind included, without a problem.
func TestBuiltinsPassTheCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("every built-in on 20 seeds")
	}
	progs, err := Builtins(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		if l := p.DryRun(DefaultCheckSeeds); len(l) > 0 {
			t.Errorf("%s:\n%s", p.ID(), l.Render())
		}
	}
}
