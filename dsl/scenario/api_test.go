package scenario

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// fataler is what runSource needs of a test: testing.TB or *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// runSource compiles src and runs it on seed, noise on.
func runSource(t fataler, src string, seed uint32) []engine.Row {
	t.Helper()
	p, err := Compile("test.lua", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := runProgram(t, p, seed)
	return rows
}

// runProgram runs a compiled scenario on seed for its whole duration, noise
// on, and returns the rows and the setup it ran from.
func runProgram(t fataler, p *Program, seed uint32) ([]engine.Row, engine.Setup) {
	t.Helper()
	sc, setup, err := p.Instance(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: seed, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(0); err != nil {
		t.Fatal(err)
	}
	return sim.Rows(), setup
}

const header = `scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
`

func TestEventsHappenAtTheirMinuteInOrder(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/api.lua", "TestEventsHappenAtTheirMinuteInOrder"), 1)
	got := map[string]string{}
	for _, r := range rows {
		if len(r.Events) > 0 {
			got[r.Time()] = engine.Instructor.EventsText(r.Events)
		}
	}
	want := map[string]string{
		"09:05": `action min_instances=12 by scenario; launch 2 by min_instances; action feature=false by scenario; set_constant boot_delay=8; say "hello"; flush_cache`,
		"09:20": "deploy bad (error_rate 0.05, cpu 1.25), rollout 4 min",
		"09:23": "deploy good, rollout 1 min",
		"09:30": "action warmup() by scenario",
	}
	for k, w := range want {
		if !strings.Contains(got[k], w) {
			t.Errorf("%s: events %q, want %q", k, got[k], w)
		}
	}
	if rows[5].Warm != 0 || rows[4].Warm == 0 {
		t.Errorf("warm %v at 09:04, %v at 09:05: the flush empties the cache at its minute", rows[4].Warm, rows[5].Warm)
	}
	if rows[21].BadTraffic != 0.5 || rows[23].BadTraffic != 0 {
		t.Errorf("bad traffic %v at 09:21, %v at 09:23", rows[21].BadTraffic, rows[23].BadTraffic)
	}
}

func TestOnMinuteReactsToTheLastMinute(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/api.lua", "TestOnMinuteReactsToTheLastMinute"), 1)
	for _, r := range rows {
		want := 0.0
		if r.Minute >= 11 {
			want = 0.5
		}
		if r.Controls.Shed != want {
			t.Fatalf("%s: shed %v, want %v (set after seeing 09:10, in force from 09:11)", r.Time(), r.Controls.Shed, want)
		}
	}
}

func TestPageRuleFromTheScenario(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/api.lua", "TestPageRuleFromTheScenario"), 1)
	for _, r := range rows {
		if r.Paging != (r.Minute >= 20) {
			t.Fatalf("minute %d: paging %v", r.Minute, r.Paging)
		}
	}
}

func TestRandomDrawsFollowTheScenarioStream(t *testing.T) {
	src := luachunk.Src(t, "testdata/api.lua", "TestRandomDrawsFollowTheScenarioStream")
	say := func(seed uint32) string { return runSource(t, src, seed)[1].Events[0].Text["en"] }
	r := engine.NewRand(engine.ScenarioSeed(9))
	want := fmt.Sprintf("%.17g %.17g %.17g %.17g %.17g %d", r.Uniform(2, 3), r.Exponential(5), r.Normal(10, 2), r.Poisson(4), r.Float64(), 1+int(6*r.Float64()))
	if got := say(9); got != want {
		t.Errorf("draws %q, want %q", got, want)
	}
	if say(9) != say(9) || say(9) == say(10) {
		t.Error("the same seed should draw the same, another seed otherwise")
	}
}

// TestScenarioDrawsNeverShiftTheNoise: whatever a scenario draws, and when,
// the same seed gives the same traffic noise.
func TestScenarioDrawsNeverShiftTheNoise(t *testing.T) {
	plain := map[uint32][]engine.Row{}
	draws := luachunk.Src(t, "testdata/api.lua", "TestScenarioDrawsNeverShiftTheNoise")
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint32Range(0, 20).Draw(t, "seed")
		atLoad := rapid.IntRange(0, 50).Draw(t, "draws at load")
		perMinute := rapid.IntRange(0, 5).Draw(t, "draws a minute")
		src := fmt.Sprintf(draws, atLoad, perMinute)
		if plain[seed] == nil {
			plain[seed] = runSource(t, `scenario { id = "n", title = "N", briefing = "B", duration = 20 }`, seed)
		}
		rows := runSource(t, src, seed)
		for i := range rows {
			if rows[i].Requests != plain[seed][i].Requests {
				t.Fatalf("minute %d: requests %v, %v without draws", i, rows[i].Requests, plain[seed][i].Requests)
			}
		}
	})
}

func TestClockCountsFromTheStart(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/api.lua", "TestClockCountsFromTheStart"), 1)
	if got := rows[1].Events[0].Text["en"]; got != "30 75 0" {
		t.Errorf("clock = %q, want 30 75 0 (minutes from the start, across midnight)", got)
	}
}

func TestDeclarationReadsEveryField(t *testing.T) {
	p, err := Compile("d.lua", []byte(luachunk.Src(t, "testdata/api.lua", "TestDeclarationReadsEveryField")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Setup()
	c := s.Controls
	if s.ID != "d" || s.Start != 630 || s.Minutes != 90 || s.BudgetLeft != 0.5 || s.Warm != 0.25 || s.Instances != 12 ||
		s.Constants.DBCapacity != 3000 || s.Constants.BootDelay != 5 ||
		c.MinInstances != 8 || c.Autoscaling || c.TTL != 120 || c.Shed != 0.2 || c.Feature || c.TargetUtilization != 0.5 {
		t.Errorf("setup = %+v", s)
	}
	if p.Title()["fr"] != "Dé" || p.Briefing()["en"] != "Brief" {
		t.Errorf("title %v, briefing %v", p.Title(), p.Briefing())
	}
	g := p.Grading()
	if len(g) != 2 || g[0].Text() != "cost at most 100" || g[0].Weight != 1 ||
		g[1].Bound != "reference - 0.001" || g[1].Op != "at_least" || g[1].Weight != 3 || g[1].Pos.Line != 7 {
		t.Errorf("grading = %+v", g)
	}
	if v, err := g[1].Check(0.9995, 0.9999, 0.99); v.Score != 1 || err != nil {
		t.Errorf("availability 0.9995 against at_least reference - 0.001, reference 0.9999: %+v, %v", v, err)
	}
	if v, _ := g[1].Check(0.998, 0.9999, 0.9989); v.Score != 0 || !v.Guard {
		t.Errorf("availability 0.998 against 0.9989, no policy meeting it: %+v", v)
	}
}

// TestDocumentedExampleRuns keeps the example of docs/scenarios.md working.
func TestDocumentedExampleRuns(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```lua\n")
	src, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/scenarios.md has no lua example")
	}
	rows := runSource(t, src, 7)
	var said []string
	for _, r := range rows {
		for _, ev := range r.Events {
			if ev.Kind == engine.EventSay {
				said = append(said, r.Time()+" "+ev.Text.In("fr"))
			}
		}
	}
	if len(said) != 2 || said[0] != "10:15 db-2 est sorti du pool." || !strings.HasSuffix(said[1], "db-2 is back.") {
		t.Errorf("timeline: %q", said)
	}
	if got := engine.Learner.EventsText(rows[15].Events); got != `say "db-2 is out of the pool."` {
		t.Errorf("the learner's 10:15: %q, want the message alone", got)
	}
	if got := engine.Learner.EventsText(rows[40].Events); !strings.HasPrefix(got, "deploy 7.1.3, rollout 5 min") {
		t.Errorf("the learner's 10:40: %q", got)
	}
	if l := Check("replica-lost.lua", []byte(src), Options{}, 0); len(l) > 0 {
		t.Errorf("oncall check finds problems in the example:\n%s", l.Render())
	}
}

func TestLoadDirKeepsWhatLoadsAndReportsTheRest(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.lua":      header,
		"b.lua":      "scenario {\n",
		"c.lua":      strings.Replace(header, `id = "t"`, `id = "c"`, 1),
		"x.d.lua":    luachunk.Src(t, "testdata/api.lua", "TestLoadDirKeepsWhatLoadsAndReportsTheRest"),
		"notes.txt":  "not a scenario",
		"sub.lua/ok": "",
	}
	for name, src := range files {
		path := dir + "/" + name
		os.MkdirAll(path[:strings.LastIndex(path, "/")], 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	progs, err := LoadDir(dir, Options{})
	if len(progs) != 2 || progs[0].ID() != "t" || progs[1].ID() != "c" {
		t.Errorf("loaded %d programs", len(progs))
	}
	want := dir + "/b.lua:1: syntax error at the end of the file (a missing `end`, `)` or `}`?)"
	if err == nil || err.Error() != want {
		t.Errorf("LoadDir error %v, want %s", err, want)
	}
}

// Scenarios are chosen by id, so LoadDir leaves out, with the place of the
// id, a file whose id a built-in or an earlier file already has.
func TestLoadDirRefusesAnIDTakenTwice(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.lua": strings.Replace(header, `id = "t"`, `id = "bad-deploy"`, 1),
		"b.lua": header,
		"c.lua": header,
	}
	for name, src := range files {
		if err := os.WriteFile(dir+"/"+name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	progs, err := LoadDir(dir, Options{})
	if len(progs) != 1 || progs[0].File() != dir+"/b.lua" {
		t.Errorf("loaded %d programs, want b.lua alone", len(progs))
	}
	col := strings.Index(header, `"t"`) + 1
	want := fmt.Sprintf(`%[1]s/a.lua:1:%[2]d: scenario{}: id "bad-deploy" is already the id of the built-in scenario bad-deploy: give this scenario an id of its own
%[1]s/c.lua:1:%[2]d: scenario{}: id "t" is already the id of %[1]s/b.lua: give this scenario an id of its own`, dir, col)
	if err == nil || err.Error() != want {
		t.Errorf("LoadDir error:\n%v\nwant:\n%s", err, want)
	}
}

// The budgets are the run's, not each call's: a callback that is slow
// every minute ends the run once their sum is spent, steps or time; the
// time at a check inside the loop (lines 3 and 4) or when the call ends
// (line 5). The time budget is a second, so that a loaded machine, whose
// calls take longer by the clock, still gets past ten minutes, and a fast
// one ends the run long before the week of MaxMinutes.
func TestBudgetsCountTheWholeRun(t *testing.T) {
	slow := luachunk.Src(t, "testdata/api.lua", "TestBudgetsCountTheWholeRun")
	for _, tc := range []struct {
		limits budget.Limits
		loop   int // the work of a minute
		want   string
	}{
		{budget.Limits{Steps: 100_000}, 2000, "on_minute(): the run spent its budget of 100,000 steps"},
		{budget.Limits{Steps: 1 << 40, Time: time.Second}, 5000, "on_minute(): the run spent its time budget of 1s"},
	} {
		p, err := Compile("slow.lua", []byte(fmt.Sprintf(slow, tc.loop)), Options{Limits: tc.limits})
		if err != nil {
			t.Fatal(err)
		}
		sc, setup, err := p.Instance(nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		setup.Minutes = engine.MaxMinutes
		sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		err = sim.Run(0)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !regexp.MustCompile(`slow\.lua:[345]:[0-9]+: `).MatchString(err.Error()) {
			t.Fatalf("run error %v, want %s", err, tc.want)
		}
		if n := len(sim.Rows()); n < 10 {
			t.Errorf("stopped after %d minutes: each minute alone is far within the budget", n)
		} else {
			t.Logf("%s: stopped after %d minutes", tc.want, n)
		}
	}
}

// A function that takes ... has Lua 5.0's arg table, as Lua 5.1 keeps it;
// the file's main chunk has none (compileChunk), and reads ... as 5.1's does.
func TestVarargsKeepTheirArgTable(t *testing.T) {
	rows := runSource(t, luachunk.Src(t, "testdata/api.lua", "TestVarargsKeepTheirArgTable"), 1)
	if got := rows[5].Controls.MinInstances; got != 7 {
		t.Fatalf("min_instances at 09:05 = %d, want 3 + 4 + 0", got)
	}
}
