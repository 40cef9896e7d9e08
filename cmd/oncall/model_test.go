package main

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
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
		"error_rate = 1 − (1 − timeouts − failed)(1 − db_errors)(1 − 0.05·bad)\n",
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
		"λ(t) = base × (1 + 0.25·sin(2π(h − 6)/24)) × surge(t), base = 1,000 req/s\n    La demande suit l’heure de la journée",
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

// Every language prints a page of the same shape.
func TestModelEveryLanguage(t *testing.T) {
	e := newTestEnv(t)
	for _, args := range [][]string{{"model"}} {
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

func TestModelUnknownLanguage(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ lang, want string }{
		{"fre", `--lang "fre" is not a language of oncall; did you mean fr? (languages: en, bs, id, es, ur, fr)`},
		{"de", `--lang "de" is not a language of oncall (languages: en, bs, id, es, ur, fr)`},
	} {
		if code := e.run("model", "--lang", tc.lang); code != 2 {
			t.Errorf("--lang %s: exit %d, want 2", tc.lang, code)
		}
		if !strings.Contains(e.err.String(), tc.want) {
			t.Errorf("--lang %s: %q, want %q", tc.lang, e.err.String(), tc.want)
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
