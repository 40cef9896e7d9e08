package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/i18n"
)

type errorAnswer struct {
	Error string         `json:"error"`
	Key   string         `json:"key"`
	Args  map[string]any `json:"args"`
	At    string         `json:"at"`
}

// askIn sends a page's request naming a language (none for "") and decodes
// the error it gets.
func askIn(t *testing.T, ts *testServer, lang, method, path, body string, status int) errorAnswer {
	t.Helper()
	req := pageRequest(method, path, body)
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	rec := ts.send(req)
	if rec.Code != status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, rec.Code, status, rec.Body)
	}
	var a errorAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, rec.Body)
	}
	return a
}

// TestErrorsInTheRequestsLanguage: the console's errors are written in the
// language the request asks for, the English for a client that asks for
// none, with the key and the values beside the text.
func TestErrorsInTheRequestsLanguage(t *testing.T) {
	ts := newTestServer(t, Options{})
	gone := map[string]string{
		"":   "session abc is gone (the server restarted or the shift sat idle): the page rebuilds it from its decisions",
		"en": "session abc is gone (the server restarted or the shift sat idle): the page rebuilds it from its decisions",
		"fr": "la session abc n’existe plus (le serveur a redémarré ou la garde est restée inactive) : la page la reconstruit à partir de ses décisions",
		"bs": "sesija abc više ne postoji (server je ponovo pokrenut ili je smjena mirovala): stranica je obnavlja iz njenih odluka",
		"ur": "سیشن \u2066abc\u2069 ختم ہو گیا (سرور دوبارہ شروع ہوا یا شفٹ بیکار پڑی رہی): صفحہ اسے اس کے فیصلوں سے دوبارہ بناتا ہے",
	}
	for lang, want := range gone {
		a := askIn(t, ts, lang, "POST", "/api/sessions/abc/step", `{"minutes":1}`, http.StatusNotFound)
		if a.Error != want {
			t.Errorf("Accept-Language %q: %q, want %q", lang, a.Error, want)
		}
		if a.Key != "ui.api.gone" || a.Args["id"] != "abc" {
			t.Errorf("Accept-Language %q: key %q, args %v", lang, a.Key, a.Args)
		}
	}
	// A browser's own list, the best match first.
	if a := askIn(t, ts, "de-DE,es;q=0.8,en;q=0.5", "POST", "/api/sessions", `{"seed":1}`, http.StatusBadRequest); !strings.HasPrefix(a.Error, "falta el escenario: indique uno de bad-deploy") {
		t.Errorf("Spanish after German: %q", a.Error)
	}
	// The place in the request stays as it is, before the translated text.
	a := askIn(t, ts, "fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"decisions":[{"minute":3,"control":"shed","value":2}]}`, http.StatusBadRequest)
	if want := "decisions[0]: shed = 2 est hors limites : il prend de 0 à 1"; a.Error != want || a.At != "decisions[0]: " || a.Key != "ui.api.range" {
		t.Errorf("a refused decision in French: %+v, want %q", a, want)
	}
	if a := askIn(t, ts, "", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"decisions":[{"minute":3,"control":"shed","value":2}]}`, http.StatusBadRequest); a.Error != "decisions[0]: shed = 2 is out of range: it takes 0 to 1" {
		t.Errorf("a refused decision in English: %q", a.Error)
	}
	// A misspelt scenario, with and without a suggestion.
	if a := askIn(t, ts, "id", "POST", "/api/sessions", `{"scenario":"bad-deplyo","seed":1}`, http.StatusBadRequest); a.Error != `skenario tidak dikenal "bad-deplyo"; maksud Anda bad-deploy? (konsol memiliki bad-deploy, free-play)` {
		t.Errorf("Indonesian hint: %q", a.Error)
	}
}

// TestErrorNumbersInTheLanguagesDigits: a count in an error is written with
// the language's grouping, French "10 000", English "10,000".
func TestErrorNumbersInTheLanguagesDigits(t *testing.T) {
	e := apiError(http.StatusBadRequest, "ui.api.decisions_many", "n", 12000, "max", maxDecisions)
	for lang, want := range map[string]string{
		"en": "12,000 decisions: a shift carries at most 10,000",
		"fr": "12\u202f000 décisions : une garde en porte au plus 10\u202f000",
		"bs": "12.000 odluka: smjena nosi najviše 10.000",
		"es": "12\u202f000 decisiones: un turno admite como máximo 10\u202f000",
	} {
		if got := inLang(lang, e); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if e.msg != "12,000 decisions: a shift carries at most 10,000" {
		t.Errorf("the English text: %q", e.msg)
	}
}

// TestEveryAPIErrorIsTranslated: every ui.api.* key has a text of its own
// in every language (the catalogue's tests hold the placeholders).
func TestEveryAPIErrorIsTranslated(t *testing.T) {
	n := 0
	for _, k := range i18n.Keys() {
		if !strings.HasPrefix(k, "ui.api.") {
			continue
		}
		n++
		for _, lang := range i18n.Codes() {
			if lang != i18n.Default && i18n.T(lang, k) == i18n.T(i18n.Default, k) && !strings.HasPrefix(i18n.T(lang, k), "format = ") {
				t.Errorf("%s: %s is the English text", lang, k)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d keys ui.api.*: is the prefix right?", n)
	}
}
