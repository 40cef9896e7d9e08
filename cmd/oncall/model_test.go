package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// modelItems are what the model page must say in a language: the line of
// constants item by item, the note on assumptions, the randomness line, the
// disclaimer, the original waiting-time formula with why E replaces it and
// where the two agree, and the departures.
var modelItems = map[string][]string{
	"en": {
		"16 workers/instance", "app time 50 ms", "+20 ms and +1 query with the feature on",
		"database 4,000 queries/s", "20,000 hot objects", "cache refill τ = 30 min",
		"warm-up job +12 %/min for 6 min, +600 queries/s", "timeout 2 s", "30 % low-priority traffic",
		"bad build +5 % errors, ×1.25 CPU", "rollback 5 min", "$0.40/h per instance",
		"scale-in by ≤ 20 % of the fleet after 10 min of quiet", "up to 40 instances",
		"boot delay 3 min", "base demand 1,000 req/s",
		"Constants marked as assumptions are illustrative calibrations.",
		"Randomness: a seeded mulberry32 generator; distributions used — uniform, exponential (inverse CDF), normal (Box–Muller), Poisson (Knuth). The seed is shown and can be shared.",
		"Educational model — not for operational decisions.",
		"P(W > t) = C·e^(−θt)", "failed = 1 − N/a at or above it", "E replaces both",
		"The two agree above capacity, from about 1 % of overload on, and far below it",
		"Saturation.", "Database overload.", "A scenario's own values.",
	},
	"fr": {
		"16 workers/instance", "temps applicatif 50 ms", "+20 ms et +1 requête de base avec la fonctionnalité activée",
		"base de données 4000 requêtes/s", "20\u202f000 objets populaires", "remplissage du cache τ = 30 min",
		"préchauffage +12 %/min pendant 6 min, +600 requêtes/s", "expiration 2 s", "30 % de trafic de faible priorité",
		"mauvaise version +5 % d’erreurs, ×1,25 de CPU", "retour arrière 5 min", "0,40 $/h par instance",
		"réduction du parc de ≤ 20 % après 10 min de calme", "au plus 40 instances",
		"délai de démarrage 3 min", "demande de base 1000 req/s",
		"Les constantes signalées comme hypothèses sont des calibrations illustratives.",
		"mulberry32", "uniforme, exponentielle (fonction de répartition inverse), normale (Box–Muller), de Poisson (Knuth). La graine est affichée et partageable.",
		"Modèle éducatif — non destiné aux décisions opérationnelles.",
		"P(W > t) = C·e^(−θt)", "part des échecs = 1 − N/a", "E les remplace toutes deux",
		"Les deux concordent au-dessus de la capacité, à partir d’environ 1 % de surcharge, et loin en dessous",
		"Saturation.", "Surcharge de la base de données.", "Les valeurs propres d’un scénario.",
	},
}

func TestModelSaysEverything(t *testing.T) {
	e := newTestEnv(t)
	for lang, items := range modelItems {
		if code := e.run("model", "--lang", lang); code != 0 {
			t.Fatalf("--lang %s: exit %d: %s", lang, code, e.err.String())
		}
		for _, want := range items {
			if !strings.Contains(e.out.String(), want) {
				t.Errorf("--lang %s: the model page lacks %q", lang, want)
			}
		}
	}
}

// The English page prints each relation's formula filled with the defaults,
// then its text, then its sources.
func TestModelEnglish(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	if !strings.HasPrefix(out, "The on-call model: every relation, with its source\n") {
		t.Errorf("title: %q", strings.SplitN(out, "\n", 2)[0])
	}
	for _, want := range []string{
		"admitted = requests × (1 − 0.3·shed)\n    Shedding rejects a share of the 30 % low-priority traffic",
		"error_rate = 1 − (1 − timeouts − failed)(1 − db_errors)(1 − dep_errors)(1 − Σ share·error_rate); the bad build's error_rate = 0.05\n",
		"hits the bad build's 5 % of errors. [6]\n",
		"burn = error_rate/0.001, budget_left −= burn/43,200\n",
		"E = 1/(e^(θD)/(ρB) + (e^(θD) − 1)/(1 − ρ) + 1), θ = (N − a)/S, D = 2 s\n",
		engine.DefaultPageRule + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.ContainsAny(out, "{}") {
		t.Error("a placeholder is left unfilled")
	}
	for _, s := range engine.Sources() {
		if !strings.Contains(out, s.Text) {
			t.Errorf("source %d is missing", s.N)
		}
	}
	if m := regexp.MustCompile(`[0-9]\*`).FindString(out); m != "" {
		t.Errorf("the defaults' page marks a value as changed: %q", m)
	}
}

func TestModelFrench(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model", "--lang", "fr"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	for _, want := range []string{
		"Le modèle de garde\u00a0: chaque relation, avec sa source\n",
		"λ(t) = base × (1 + 0,25·sin(2π(h − 6)/24)) × surge(t), base = 1000 req/s\n    La demande suit l’heure de la journée", // French digits in the formulas too
		"plafonné à 250 ms",
		"\nApproximations\n  - Additionner les quantiles",
		"\nSources\n",
		"  [6] Hypothèse\u00a0: le nombre de workers",
		"  [1] Beyer, Jones, Petoff, Murphy (eds.), Site Reliability Engineering", // titles stay as they are
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the French model page lacks %q", want)
		}
	}
	for _, r := range engine.Relations() {
		if !strings.Contains(r.Text, "{") && strings.Contains(out, r.Text) {
			t.Errorf("relation %s is still in English", r.ID)
		}
	}
}

// Every language prints a page of the same shape, with a scenario or not.
func TestModelEveryLanguage(t *testing.T) {
	e := newTestEnv(t)
	for _, args := range [][]string{{"model"}, {"model", "--scenario", "surge", "--seed", "3"}} {
		if code := e.run(args...); code != 0 {
			t.Fatal(e.err.String())
		}
		lines := strings.Count(e.out.String(), "\n")
		for _, lang := range []string{"bs", "id", "es", "ur", "fr", "UR", "fr-CA"} {
			if code := e.run(append(args, "--lang", lang)...); code != 0 {
				t.Fatalf("--lang %s: exit %d: %s", lang, code, e.err.String())
			}
			if got := strings.Count(e.out.String(), "\n"); got != lines {
				t.Errorf("%v --lang %s: %d lines, English has %d", args, lang, got, lines)
			}
		}
	}
}

// The cache flush draws its database's capacity and its fleet from the
// seed: without a seed the page gives the ranges over the sampled seeds,
// marked as differing from the default; with seed 7 the capacity that seed
// draws (4,250 queries/s) wherever the capacity appears, and nowhere the
// default 4,000.
func TestModelScenarioCacheFlush(t *testing.T) {
	e := newTestEnv(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--scenario", "cache-flush"}, []string{
			"Database capacity: 3,410 queries/s–4,590 queries/s* (default 4,000 queries/s)\n",
			"Minimum instances: 9–12* (default 10)\n",
			"A range (low–high) is what the scenario draws from its stream over seeds 1 to 200.\n",
			"ρ_db = db_load/3,410–4,590*\n",
		}},
		{[]string{"--scenario", "cache-flush", "--seed", "7"}, []string{
			"Database capacity: 4,250 queries/s (3,410 queries/s–4,590 queries/s)* (default 4,000 queries/s)\n",
			"ρ_db = db_load/4,250*\n",
			"database 4,250 queries/s*",
		}},
	} {
		if code := e.run(append([]string{"model"}, c.args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, e.err.String())
		}
		out := e.out.String()
		for _, want := range append(c.want, "Values in force: Cache flush (cache-flush)\n", "Cache TTL: 90 s* (default 60 s)\n", "* differs from the model's default.\n") {
			if !strings.Contains(out, want) {
				t.Errorf("%v: the page lacks %q", c.args, want)
			}
		}
		if strings.Contains(out, "db_load/4,000") {
			t.Errorf("%v: the page prints the default capacity", c.args)
		}
	}
	if code := e.run("model", "--scenario", "cache-flush", "--seed", "7", "--lang", "fr"); code != 0 {
		t.Fatal(e.err.String())
	}
	if out := e.out.String(); !strings.Contains(out, "Capacité de la base de données\u00a0: 4250 requêtes/s (3410 requêtes/s–4590 requêtes/s)* (par défaut 4000 requêtes/s)") {
		t.Errorf("the French page lacks the database's capacity:\n%s", out)
	}
}

// The bad deploy's build is a build with properties: the page, the
// learner's, shows it as production announces it, by name and rollout,
// and nothing of what it does (the model's bad build keeps its defaults).
func TestModelScenarioBadDeployShowsTheBuildByName(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model", "--scenario", "bad-deploy", "--seed", "7"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	if !strings.Contains(out, "At 09:10: Build 4.2.0 starts rolling out (over 7 min)\n") {
		t.Errorf("the page lacks the deploy:\n%s", out)
	}
	for _, spoiler := range []string{"16.5", "0.165", "1.44"} {
		if strings.Contains(out, spoiler) {
			t.Errorf("the page shows what seed 7's build does (%s):\n%s", spoiler, out)
		}
	}
}

// A scenario that draws from its stream shows the range over the sampled
// seeds, and with --seed the value that seed draws, within the range.
func TestModelScenarioDraws(t *testing.T) {
	drill := tempFile(t, "drill.lua", luachunk.Src(t, "testdata/model.lua", "TestModelScenarioDraws"))
	e := newTestEnv(t)
	if code := e.run("model", "--scenario", drill); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	// The learner's page leaves the capacity the scenario sets quietly out.
	if out := e.out.String(); strings.Contains(out, "3,000") || strings.Contains(out, "10:30") {
		t.Errorf("the learner's page shows the quiet change:\n%s", out)
	}
	if code := e.run("model", "--scenario", drill, "--reveal"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	for _, want := range []string{
		"A range (low–high) is what the scenario draws from its stream over seeds 1 to 200.\n",
		"Error rate of a bad build: 10 %–20 %* (default 5 %)\n",
		"Database capacity: 4,000 queries/s → 3,000 queries/s (10:30)* (default 4,000 queries/s)\n",
		"At 10:30: Database capacity is now 3,000 queries/s\n",
		"the bad build's error_rate = 0.1–0.2*",
		"ρ_db = db_load/4,000 → 3,000 (10:30)*",
		"page = burn_5m >= 20*\n",
		"Page rule of the scenario: burn_5m >= 20*\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if code := e.run("model", "--scenario", drill, "--seed", "7"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out = e.out.String()
	if !strings.Contains(out, "Seed 7: the values below are those this seed draws.\n") {
		t.Error("the page does not name the seed")
	}
	// The value seed 7 draws, beside the range, and alone in the formula.
	i := strings.Index(out, "Error rate of a bad build: ")
	if i < 0 {
		t.Fatalf("no bad build rate:\n%s", out)
	}
	line := out[i : i+strings.IndexByte(out[i:], '\n')]
	var pct int
	if _, err := fmt.Sscanf(line, "Error rate of a bad build: %d %%", &pct); err != nil || pct < 10 || pct > 20 ||
		!strings.HasSuffix(line, " % (10 %–20 %)* (default 5 %)") {
		t.Errorf("seed 7's rate: %q", line)
	}
	if share := strconv.FormatFloat(float64(pct)/100, 'f', -1, 64); !strings.Contains(out, "the bad build's error_rate = "+share+"*") {
		t.Errorf("the formula does not print seed 7's rate %s", share)
	}
}

// A surge drawn from the stream: its peak and time, as a range over seeds
// and, with a seed, that seed's.
func TestModelScenarioSurge(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model", "--scenario", "surge"); code != 0 {
		t.Fatal(e.err.String())
	}
	if out := e.out.String(); !strings.Contains(out, "Demand surge: surge(t) peaks at ×2.21–3.20* at ") || !strings.Contains(out, "Boot delay: 8 min* (default 3 min)") ||
		!strings.Contains(out, "a launched instance serves after 8* minutes") {
		t.Errorf("the surge's page:\n%s", out)
	}
	e.run("model", "--scenario", "surge", "--seed", "7")
	first := e.out.String()
	e.run("model", "--scenario", "surge", "--seed", "7")
	if e.out.String() != first {
		t.Error("the same seed gave two pages")
	}
	if !strings.Contains(first, "Demand surge: surge(t) peaks at ×2.57 (2.21–3.20)* at 09:52 (07:44–10:43).") {
		t.Errorf("seed 7's surge:\n%s", first)
	}
}

func TestModelUsageErrors(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"model", "--lang", "fre"}, `--lang "fre" is not a language of oncall; did you mean fr? (languages: en, bs, id, es, ur, fr)`},
		{[]string{"model", "--lang", "de"}, `--lang "de" is not a language of oncall (languages: en, bs, id, es, ur, fr)`},
		{[]string{"model", "--seed", "3"}, "--seed 3: a seed picks a run of a scenario; give --scenario too"},
		{[]string{"model", "--scenario", "surge", "--seed", "x"}, `--seed "x": it takes a whole number from 0 to 4294967295`},
		{[]string{"model", "--scenario", "surj"}, "surj"},
		{[]string{"model", "--runs", "5"}, "--runs 5: it counts the simulated minutes of --validate; add --validate"},
		{[]string{"model", "--validate", "--scenario", "surge"}, "--validate checks the queue formulas alone, whatever the scenario: drop --scenario surge"},
		{[]string{"model", "--validate", "--runs", "3"}, "--validate --runs 3 --seed 1: runs = 3: a confidence interval takes at least 5 replications"},
	} {
		if code := e.run(tc.args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if !strings.Contains(e.err.String(), tc.want) {
			t.Errorf("%v: %q, want %q", tc.args, e.err.String(), tc.want)
		}
	}
}

// --validate prints the tables of docs/model.md for the seeds it is given.
func TestModelValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 5 minutes of every cell (seconds)")
	}
	e := newTestEnv(t)
	if code := e.run("model", "--validate", "--runs", "5", "--seed", "11"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	for _, want := range []string{
		"Simulated: 5 measured minutes a cell, each from a steady state drawn on its own stream, seeds 11 to 15",
		"| ρ | N | p99 model (ms) | p99 exact M/M/N |",
		"| 0.5 | 16 | 345 | 345 |",
		"| 1.5 | 640 | 0 | – | 0.333 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the check lacks %q:\n%s", want, out)
		}
	}
}

// failingWriter refuses every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A model page that could not be written is a failure, not a success.
func TestModelWriteError(t *testing.T) {
	e := newTestEnv(t)
	e.Stdout = failingWriter{}
	if code := Main([]string{"model"}, &e.Env); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(e.err.String(), "writing the model: no space left on device") {
		t.Errorf("stderr: %q", e.err.String())
	}
}

// The instructor's page (--reveal) shows what the bad deploy's build does:
// the range of its error rate over the sampled seeds and, with --seed, the
// value that seed draws; the learner's page names the build alone.
func TestModelRevealShowsTheBuild(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model", "--scenario", "bad-deploy", "--reveal"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if out := e.out.String(); !strings.Contains(out, "Build 4.2.0: ships at 09:10, rolls out over 2 min–8 min; fails 8.2 %–19.9 %* of the requests it serves, CPU ×1.25–1.75*") {
		t.Errorf("the instructor's page lacks the build's ranges:\n%s", out)
	}
	e = newTestEnv(t)
	if code := e.run("model", "--scenario", "bad-deploy", "--reveal", "--seed", "7"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if out := e.out.String(); !strings.Contains(out, "fails 16.5 % (8.2 %–19.9 %)* of the requests it serves, CPU ×1.44 (1.25–1.75)*") {
		t.Errorf("the instructor's page lacks seed 7's build:\n%s", out)
	}
	e = newTestEnv(t)
	if code := e.run("model", "--scenario", "bad-deploy", "--seed", "7"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	if out := e.out.String(); strings.Contains(out, "Build 4.2.0:") {
		t.Errorf("the learner's page says what the build does:\n%s", out)
	}
}
