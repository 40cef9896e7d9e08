package modelpage

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// texts returns every text of a page, for checks that hold for all.
func texts(p Page) []string {
	out := []string{p.Title, p.Intro, p.ConstantsTitle, p.Constants, p.DeparturesTitle, p.ApproximationsTitle, p.Randomness, p.SourcesTitle, p.Disclaimer}
	for _, r := range p.Relations {
		out = append(out, r.Formula, r.Text)
	}
	out = append(out, p.Departures...)
	out = append(out, p.Approximations...)
	for _, s := range p.Sources {
		out = append(out, s.Text)
	}
	if p.InForce != nil {
		out = append(out, p.InForce.Heading, p.InForce.Legend)
		out = append(out, p.InForce.Lines...)
	}
	return out
}

// Every placeholder of every text is filled, in every language, for the
// defaults and for each built-in scenario.
func TestBuildFillsEveryPlaceholder(t *testing.T) {
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	draws := []*Draws{nil}
	for _, p := range progs {
		d, err := Sample(p, 20, budget.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		draws = append(draws, d)
	}
	seven := uint32(7)
	for _, lang := range i18n.Codes() {
		for _, d := range draws {
			for _, seed := range []*uint32{nil, &seven} {
				if d == nil && seed != nil {
					continue
				}
				p, err := Build(lang, d, seed)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Relations) != len(engine.Relations()) || len(p.Sources) != len(engine.Sources()) {
					t.Errorf("%s: %d relations, %d sources", lang, len(p.Relations), len(p.Sources))
				}
				for _, s := range texts(p) {
					if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "{}") {
						t.Errorf("%s, %v: text %q", lang, d != nil, s)
					}
				}
			}
			if d != nil {
				for _, s := range texts(BuildHidden(lang, d, 7)) {
					if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "{}") {
						t.Errorf("%s, %s, seed 7 hidden: text %q", lang, d.ID(), s)
					}
				}
			}
		}
	}
}

// The page of a shift being played keeps its seed's draws back: it is the
// page of the scenario over the sampled seeds, word for word, with two
// lines before it, the seed's, which says its draws stay hidden, and the
// briefing. Every built-in scenario, in every language.
func TestBuildHiddenShowsNoDraw(t *testing.T) {
	progs, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, prog := range progs {
		d, err := Sample(prog, 20, budget.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range i18n.Codes() {
			all, err := Build(lang, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			hidden := BuildHidden(lang, d, 7)
			head := []string{i18n.T(lang, i18n.KeyScenarioHidden, "seed", 7), i18n.T(lang, i18n.KeyScenarioBriefing, "briefing", prog.Briefing().In(lang))}
			if got := hidden.InForce.Lines[:2]; !slices.Equal(got, head) {
				t.Errorf("%s, %s: the hidden page starts %q, want %q", prog.ID(), lang, got, head)
			}
			if !hidden.InForce.Hidden || hidden.InForce.Seed == nil || *hidden.InForce.Seed != 7 {
				t.Errorf("%s, %s: the hidden page's part says seed %v, hidden %v", prog.ID(), lang, hidden.InForce.Seed, hidden.InForce.Hidden)
			}
			hidden.InForce.Lines, hidden.InForce.Seed, hidden.InForce.Hidden = hidden.InForce.Lines[2:], nil, false
			if !d.sameEvents() {
				// Where the events differ from seed to seed, the line that says
				// so points to the timeline rather than to a choice of seed.
				i := slices.Index(all.InForce.Lines, i18n.T(lang, i18n.KeyScenarioEventsVary))
				all.InForce.Lines[i] = i18n.T(lang, i18n.KeyScenarioEventsLater)
			}
			a, _ := json.Marshal(all)
			h, _ := json.Marshal(hidden)
			if string(a) != string(h) {
				t.Errorf("%s, %s: the hidden page differs from the page over the seeds:\n%s\n%s", prog.ID(), lang, a, h)
			}
		}
	}
}

// The surge's player, mid-shift, reads the range of the surge's peak and
// of its time, never seed 7's ×2.57 at 09:52, which the page for seed 7
// shows once the shift is over.
func TestBuildHiddenSurge(t *testing.T) {
	prog, err := scenario.Builtin("surge", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Sample(prog, DefaultSeeds, budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	seven := uint32(7)
	shown, err := Build("en", d, &seven)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(shown.InForce.Lines, "\n")
	if !strings.Contains(lines, "surge(t) peaks at ×2.57 (2.21–3.20)* at 09:52 (07:44–10:43)") {
		t.Fatalf("seed 7's page:\n%s", lines)
	}
	hidden := BuildHidden("en", d, 7)
	all := strings.Join(texts(hidden), "\n")
	for _, draw := range []string{"2.57", "09:52"} {
		if strings.Contains(all, draw) {
			t.Errorf("the page of a shift on seed 7 shows its draw %s:\n%s", draw, strings.Join(hidden.InForce.Lines, "\n"))
		}
	}
	if lines := strings.Join(hidden.InForce.Lines, "\n"); !strings.Contains(lines, "surge(t) peaks at ×2.21–3.20* at 07:44–10:43") ||
		!strings.Contains(lines, "Seed 7, a shift being played: what this seed draws stays hidden until the shift ends.") ||
		!strings.Contains(lines, "Briefing: "+prog.Briefing().In("en")) {
		t.Errorf("the page of a shift on seed 7:\n%s", lines)
	}
}

// fixed is a scenario written in Go: its bad build's error rate depends on
// the seed, its database capacity drops at minute 30, and seed 13 fails.
type fixed struct{}

func (fixed) ID() string         { return "fixed" }
func (fixed) Title() engine.Text { return engine.Text{"en": "Fixed", "fr": "Fixé"} }
func (fixed) Instance(_ *budget.Meter, seed uint32) (engine.Scenario, engine.Setup, error) {
	if seed == 13 {
		return nil, engine.Setup{}, errors.New("no such luck")
	}
	s := engine.FreePlay()
	s.ID, s.Minutes, s.BudgetLeft = "fixed", 60, 0.5
	s.Constants.BadErrorRate = 0.10 + float64(seed%5)/100
	return events{30: {{Kind: engine.EventSetConstant, Name: "db_capacity", Value: 3000}}}, s, nil
}

// events is a scenario of events at minutes, no surge.
type events map[int][]engine.Event

func (e events) Events(m int) ([]engine.Event, error) { return e[m], nil }
func (events) Surge(int) (float64, error)             { return 1, nil }
func (events) Observe(*engine.Row) error              { return nil }

// sampleFixed samples the fixed scenario on seeds 1 to 5.
func sampleFixed(t *testing.T) *Draws {
	t.Helper()
	d, err := SampleView(fixed{}, 5, budget.Limits{}, engine.Instructor)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Over the sampled seeds: the ranges, the change an event makes, and the
// formulas and texts that print them.
func TestBuildInForce(t *testing.T) {
	p, err := Build("en", sampleFixed(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := p.InForce
	if f == nil || f.Scenario != "fixed" || f.Heading != "Values in force: Fixed (fixed)" || f.Seed != nil {
		t.Fatalf("in force: %+v", f)
	}
	want := []string{
		"A range (low–high) is what the scenario draws from its stream over seeds 1 to 5.",
		"Starts at 08:00 for 60 min, with 50 %* of the error budget left, the cache 100 % full and 10 instances serving.",
		"Database capacity: 4,000 queries/s → 3,000 queries/s (08:30)* (default 4,000 queries/s)",
		"Error rate of a bad build: 10 %–14 %* (default 5 %)",
		"At 08:30: Database capacity is now 3,000 queries/s",
	}
	if strings.Join(f.Lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(f.Lines, "\n"), strings.Join(want, "\n"))
	}
	rel := relation(t, p, "errors")
	if !rel.Changed || !strings.Contains(rel.Formula, "the bad build's error_rate = 0.1–0.14*") || !strings.Contains(rel.Text, "10 %–14 %*") {
		t.Errorf("errors: %+v", rel)
	}
	if rel := relation(t, p, "cache_age"); rel.Changed {
		t.Errorf("cache_age marked changed: %+v", rel)
	}
}

// With a seed: that seed's value, beside the range, in the language asked.
func TestBuildInForceSeed(t *testing.T) {
	three := uint32(3)
	p, err := Build("fr", sampleFixed(t), &three)
	if err != nil {
		t.Fatal(err)
	}
	if got := relation(t, p, "errors").Formula; !strings.Contains(got, "error_rate du build défectueux = 0,13*") {
		t.Errorf("seed 3's formula: %q", got)
	}
	if got := p.InForce.Lines[0]; got != "Graine 3\u00a0: les valeurs ci-dessous sont celles que tire cette graine." {
		t.Errorf("seed line: %q", got)
	}
	if !strings.Contains(strings.Join(p.InForce.Lines, "\n"), "Taux d’erreur d’une mauvaise version\u00a0: 13 % (10 %–14 %)* (par défaut 5 %)") {
		t.Errorf("French lines:\n%s", strings.Join(p.InForce.Lines, "\n"))
	}
}

// A seed the scenario cannot run on is an error naming it.
func TestSampleErrors(t *testing.T) {
	thirteen := uint32(13)
	if _, err := Build("en", sampleFixed(t), &thirteen); err == nil || err.Error() != "scenario fixed, seed 13: no such luck" {
		t.Errorf("a seed that fails: %v", err)
	}
	if _, err := Sample(fixed{}, 20, budget.Limits{}); err == nil || !strings.Contains(err.Error(), "seed 13") {
		t.Errorf("sampling past a failing seed: %v", err)
	}
	if _, err := Sample(fixed{}, 0, budget.Limits{}); err == nil {
		t.Error("sampling no seed at all succeeded")
	}
}

// A scenario file's callbacks are checked against the values in force as
// in any run: a scale{} past a constant's range is the file's error, at
// its line, not the engine's.
func TestSampleErrorsNameTheLine(t *testing.T) {
	p, err := scenario.Compile("drill.lua", []byte(luachunk.Src(t, "testdata/page.lua", "TestSampleErrorsNameTheLine")), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Sample(p, 1, budget.Limits{})
	if err == nil || !strings.Contains(err.Error(), "drill.lua:2:") || !strings.Contains(err.Error(), "scale{}: max_instances = 30") {
		t.Errorf("got %v, want the scale{} of drill.lua:2", err)
	}
}

func relation(t *testing.T, p Page, id string) Relation {
	t.Helper()
	for _, r := range p.Relations {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no relation %s", id)
	return Relation{}
}

// The formulas print the defaults as numbers, the texts as the language
// writes them.
//
// The formulas are written in the page's language too: its words and its
// digits, French "0,001" and "43 200".
func TestBuildValues(t *testing.T) {
	en, err := Build("en", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := Build("fr", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    Page
		id   string
		want string
	}{
		{en, "shedding", "admitted = requests × (1 − 0.3·shed)"},
		{en, "burn", "burn = error_rate/0.001, budget_left −= burn/43,200"},
		{fr, "burn", "burn = error_rate/0,001, budget_left −= burn/43\u202f200"},
		{fr, "query_time", "query = 5 ms/(1 − ρ_db), plafonné à 250 ms, ρ_db = db_load/4000"},
		{fr, "p99", "p99 = S·ln 100 + max(0 ; ln(C/0,01))/θ, plafonné à 2 s"},
	} {
		if got := relation(t, tc.p, tc.id).Formula; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.p.Lang, got, tc.want)
		}
	}
	if got := relation(t, fr, "burn").Text; !strings.Contains(got, "1/43\u202f200 du budget d’erreurs") {
		t.Errorf("French burn text: %q", got)
	}
	for _, r := range en.Relations {
		if r.Changed {
			t.Errorf("the defaults mark %s as changed", r.ID)
		}
	}
}

// The page travels as JSON to the web console.
func TestPageJSON(t *testing.T) {
	p, err := Build("en", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"relations":`, `"constants":`, `"departures":`, `"randomness":`, `"disclaimer":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	if strings.Contains(string(b), `"in_force"`) {
		t.Error("the defaults' page has a scenario part")
	}
}

func TestFigureRender(t *testing.T) {
	one := func(v float64) string { return formulaNumber("en", "")(v) }
	for _, tc := range []struct {
		name string
		f    figure
		want string
	}{
		{"default", figure{def: 0.05, all: []series{{{0, 0.05}}, {{0, 0.05}}}}, "0.05"},
		{"changed", figure{def: 0.05, all: []series{{{0, 0.15}}}}, "0.15*"},
		{"drawn", figure{def: 0.05, all: []series{{{0, 0.1}}, {{0, 0.2}}, {{0, 0.15}}}}, "0.1–0.2*"},
		{"an event", figure{def: 4000, all: []series{{{540, 4000}, {600, 3000}}}}, "4,000 → 3,000 (10:00)*"},
		{"chosen", figure{def: 0.05, all: []series{{{0, 0.1}}, {{0, 0.2}}}, chosen: series{{0, 0.12}}}, "0.12*"},
		{"unmarked", figure{def: 1, noMark: true, all: []series{{{0, 2}}}}, "2"},
	} {
		if got := tc.f.render(one, false); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	f := figure{def: 0.05, all: []series{{{0, 0.1}}, {{0, 0.2}}}, chosen: series{{0, 0.12}}}
	if got := f.render(one, true); got != "0.12 (0.1–0.2)*" {
		t.Errorf("chosen with its range: %q", got)
	}
}

func TestDecimals(t *testing.T) {
	for v, want := range map[float64]int{16: 0, 0.3: 1, 0.05: 2, 0.999: 3, 0.001: 3, 1.0 / 3: 6} {
		if got := decimals(v); got != want {
			t.Errorf("decimals(%v) = %d, want %d", v, got, want)
		}
	}
}

// BenchmarkSample measures what the model page of a scenario costs the
// first time: the surge, six hours, on every seed of DefaultSeeds.
func BenchmarkSample(b *testing.B) {
	p, err := scenario.Builtin("surge", scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Sample(p, DefaultSeeds, budget.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// The learner's page, the console's, leaves out what the scenario does
// quietly: the capacity it lowers at 08:30 shows neither as a value nor as
// an event.
func TestBuildInForceLeavesOutQuietEvents(t *testing.T) {
	d, err := Sample(fixed{}, 5, budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build("en", d, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(p.InForce.Lines, "\n")
	if strings.Contains(lines, "Database capacity") || strings.Contains(lines, "08:30") {
		t.Errorf("the learner's page shows the quiet change:\n%s", lines)
	}
	if !strings.Contains(lines, "Error rate of a bad build: 10 %–14 %*") {
		t.Errorf("the learner's page lacks what the scenario sets up:\n%s", lines)
	}
}

// TestFormulasHaveNoEnglishWords: no formula of another language keeps a
// word of the English formula's prose; identifiers (error_rate, admitted,
// pause_rollout()) stay as the trace names them.
func TestFormulasHaveNoEnglishWords(t *testing.T) {
	words := []string{"capped", "with the feature", "during", "minutes", " days", "else", "when", "after", "twice",
		"the ", "for each", "until", "held by", "then", "serves", "quiet", "breaker", "open:", "busy", "capacity", "error budget"}
	for _, lang := range i18n.Codes() {
		if lang == i18n.Default {
			continue
		}
		p, err := Build(lang, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Relations {
			en := i18n.T(i18n.Default, i18n.FormulaKey(r.ID))
			for _, w := range words {
				if strings.Contains(en, w) && strings.Contains(r.Formula, w) {
					t.Errorf("%s: the formula of %s keeps the English %q: %s", lang, r.ID, w, r.Formula)
				}
			}
		}
	}
}

// With retries off (0, the model's default) the page says so, in every
// language: no "up to 0 times", no e′^0. A scenario that turns them on
// reads the relation with its value, and no longer claims that retries
// alone keep an overload alive.
func TestBuildRetriesOff(t *testing.T) {
	for _, lang := range i18n.Codes() {
		p, err := Build(lang, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := relation(t, p, "retries")
		if r.Formula != i18n.T(lang, i18n.FormulaKey(i18n.OffID("retries"))) || r.Text != i18n.T(lang, i18n.RelationKey(i18n.OffID("retries"))) {
			t.Errorf("%s, retries off: %q, %q", lang, r.Formula, r.Text)
		}
		if strings.Contains(r.Formula, "^0") || strings.Contains(r.Text, " 0 ") {
			t.Errorf("%s, retries off, says 0 badly: %q, %q", lang, r.Formula, r.Text)
		}
	}
	prog, err := scenario.Builtin("retry-storm", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Sample(prog, 5, budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build("en", d, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := relation(t, p, "retries")
	if !strings.HasPrefix(r.Formula, "A = 1 + e′ + e′² + … + e′^4*,") || !strings.Contains(r.Text, "at most 1 + 4* times") || !strings.Contains(r.Text, "alone they do not keep it going") {
		t.Errorf("retry storm: %q, %q", r.Formula, r.Text)
	}
}
