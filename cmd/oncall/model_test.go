package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// The English model page is the engine's own text, unchanged by the catalogue.
func TestModelEnglish(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model"); code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	out := e.out.String()
	if !strings.HasPrefix(out, "The on-call model: every relation, with its source\n") {
		t.Errorf("title: %q", strings.SplitN(out, "\n", 2)[0])
	}
	for _, r := range engine.Relations() {
		if !strings.Contains(out, r.Formula+"\n    "+r.Text+" [") {
			t.Errorf("relation %s is not printed as formula, then its text", r.ID)
		}
	}
	for _, s := range engine.Sources() {
		if !strings.Contains(out, s.Text) {
			t.Errorf("source %d is missing", s.N)
		}
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
		"λ(t) = base × (1 + 0.25·sin(2π(h − 6)/24)) × surge(t)\n    La demande suit l’heure de la journée",
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
		if strings.Contains(out, r.Text) {
			t.Errorf("relation %s is still in English", r.ID)
		}
	}
}

// Every language prints a page of the same shape: one line per relation,
// formula and explanation, the approximations and the sources.
func TestModelEveryLanguage(t *testing.T) {
	e := newTestEnv(t)
	if code := e.run("model"); code != 0 {
		t.Fatal(e.err.String())
	}
	lines := strings.Count(e.out.String(), "\n")
	for _, lang := range []string{"bs", "id", "es", "ur", "fr", "UR", "fr-CA"} {
		if code := e.run("model", "--lang", lang); code != 0 {
			t.Fatalf("--lang %s: exit %d: %s", lang, code, e.err.String())
		}
		if got := strings.Count(e.out.String(), "\n"); got != lines {
			t.Errorf("--lang %s: %d lines, English has %d", lang, got, lines)
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
