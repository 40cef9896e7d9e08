package web

import (
	"encoding/json"
	"errors"
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

// TestRequestErrorsInTheReadersLanguage: what the decoder, the seed, the
// engine's controls and the routes refuse is written in the language the
// request asks for, Urdu with the request's own words isolated left to
// right.
func TestRequestErrorsInTheReadersLanguage(t *testing.T) {
	ts := newTestServer(t, Options{})
	var st struct{ ID string }
	ts.doJSON(t, "POST", "/api/sessions", map[string]any{"scenario": "bad-deploy", "seed": 1}, &st)
	sid := "/api/sessions/" + st.ID
	const controls = "min_instances, autoscaling, target_utilization, ttl_s, warmup, shed, feature, rollback, breaker, pause_rollout, resume_rollout"
	cases := []struct {
		lang, method, path, body string
		status                   int
		key, want                string
	}{
		{"fr", "POST", "/api/sessions", `{"scenario":x}`, 400, "ui.api.json_char", "JSON mal formé : caractère inattendu 'x' à l’octet 13"},
		{"ur", "POST", "/api/sessions", `{"scenario":x}`, 400, "ui.api.json_char", "غلط JSON: بائٹ \u206613\u2069 پر غیر متوقع حرف \u2066'x'\u2069"},
		{"fr", "POST", "/api/sessions", `[1]`, 400, "ui.api.json_object", "JSON mal formé : un objet JSON est attendu, pas un tableau JSON"},
		{"ur", "POST", "/api/sessions", `[1]`, 400, "ui.api.json_object", "غلط JSON: ایک JSON آبجیکٹ درکار ہے، JSON فہرست نہیں"},
		{"fr", "POST", "/api/sessions", `{"scenario":`, 400, "ui.api.json_eof", "JSON mal formé : le corps s’arrête au milieu d’une valeur"},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"sead":2}`, 400, "ui.api.json_unknown", `JSON mal formé : champ inconnu "sead"`},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"decisions":[{"minute":0,"control":"shed","value":null}]}`, 400, "ui.api.json_value", "JSON mal formé : une valeur est un nombre, true ou false, pas null"},
		{"fr", "POST", sid + "/step", `{"minutes":"ten"}`, 400, "ui.api.json_field", `JSON mal formé : le champ "minutes" prend un nombre entier, pas une chaîne JSON`},
		{"ur", "POST", sid + "/step", `{"minutes":1.5}`, 400, "ui.api.json_field", "غلط JSON: فیلڈ \u2066\"minutes\"\u2069 میں مکمل عدد آتا ہے، JSON عدد \u20661.5\u2069 نہیں"},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":"seven"}`, 400, "ui.api.json_number", `JSON mal formé : "seven" à la place d’un nombre`},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":-1}`, 400, "ui.api.seed_bad", "seed = -1 : elle prend un nombre entier de 0 à 4294967295"},
		{"ur", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":4294967296}`, 400, "ui.api.seed_large", "seed = \u20664294967296\u2069: یہ بہت بڑا ہے: بیج 0 سے 4294967295 تک کا کوئی مکمل عدد ہوتا ہے"},
		{"fr", "POST", sid + "/decide", `{"control":"shedd","value":0.5}`, 400, "ui.api.control_unknown_hint", `commande inconnue "shedd" ; vouliez-vous dire shed ? (commandes : ` + controls + ")"},
		{"ur", "POST", sid + "/decide", `{"control":"zzzzzzzz","value":0.5}`, 400, "ui.api.control_unknown", "نامعلوم کنٹرول \u2066\"zzzzzzzz\"\u2069 (کنٹرول: \u2066" + controls + "\u2069)"},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":2,"control":"rolback"}]}`, 400, "ui.api.control_unknown_hint", `decisions[0]: commande inconnue "rolback" ; vouliez-vous dire rollback ? (commandes : ` + controls + ")"},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"d":"3:rollback,5:rolback"}`, 400, "ui.api.link_decision", `d: décision 2 "5:rolback" : commande inconnue "rolback" ; vouliez-vous dire rollback ? (commandes : ` + controls + ")"},
		{"ur", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"d":"5:shed"}`, 400, "ui.api.link_decision", "\u2066d: \u2069فیصلہ \u20661\u2069 \u2066\"5:shed\"\u2069: \u2066shed\u2069 کو ایک قدر چاہیے: \u20660\u2069 سے \u20661\u2069 تک"},
		{"", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"d":"5:shed=half"}`, 400, "ui.api.link_decision", `d: decision 1 "5:shed=half": shed = "half" is not a number: it takes 0 to 1`},
		{"es", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"d":"5:min_instances=99"}`, 400, "ui.api.link_decision", `d: decisión 1 "5:min_instances=99": min_instances = 99 está fuera de rango: admite un número entero de 1 a 40`},
		{"fr", "GET", "/api/i18n/fx", ``, 404, "ui.api.language_unknown_hint", `langue inconnue "fx" ; vouliez-vous dire fr ? (la console parle en, bs, id, es, ur, fr)`},
		{"ur", "GET", "/static/nothing.js", ``, 404, "ui.api.no_file", "\u2066/static/nothing.js\u2069: ایسی کوئی فائل نہیں"},
		{"fr", "GET", "/static/../server.go", ``, 400, "ui.api.dotdot", "/static/../server.go : un chemin avec .. mène hors de la console"},
		{"fr", "POST", "/api/whatif", `{"scenario":"bad-deploy","seed":7,"steps":[]}`, 400, "ui.api.whatif_steps", `steps : donnez de 1 à 32 minutes où bifurquer, chacune avec les décisions à prendre alors, p. ex. [{"at": 15, "do": [{"control": "rollback"}]}]`},
		{"es", "POST", "/api/whatif", `{"scenario":"bad-deploy","seed":7,"steps":[{"at":15,"do":[{"control":"rollback"}]},{"at":15}]}`, 400, "ui.api.whatif_twice", `steps[1].at: el minuto 15 aparece dos veces: indique cada minuto una vez, con todas sus decisiones`},
		{"fr", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":121}`, 400, "ui.api.replay_minute", "minute = 121 est hors limites : la garde bad-deploy dure 120 minutes (de 0 à 120)"},
		{"ur", "POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1,"minute":5,"decisions":[{"minute":3,"control":"rollback"},{"minute":2,"control":"rollback"}]}`, 400, "ui.api.order", "\u2066decisions[1]: \u2069minute = \u20662\u2069 ترتیب سے باہر ہے: فیصلے اسی ترتیب سے آتے ہیں جس میں کیے گئے، منٹ \u20663\u2069 سے \u20665\u2069 تک"},
		{"ur", "POST", sid + "/decide", `{"control":"ttl_s","value":4000}`, 400, "ui.api.range_s", "\u2066ttl_s\u2069 = \u20664000\u2069 حد سے باہر ہے: یہ \u20660\u2069 سے \u20663600\u2069 سیکنڈ تک لیتا ہے"},
		{"", "POST", sid + "/decide", `{"control":"ttl_s","value":4000}`, 400, "ui.api.range_s", "ttl_s = 4,000 is out of range: it takes 0 to 3,600 s"},
		{"fr", "GET", "/api/model?scenario=bad-deplyo", ``, 400, "ui.api.scenario_unknown_hint", `scénario inconnu "bad-deplyo" ; vouliez-vous dire bad-deploy ? (la console a bad-deploy, free-play)`},
		{"fr", "GET", "/admin", ``, 404, "ui.api.no_page", "/admin : cette page n’existe pas ; la console est à /"},
		{"ur", "GET", "/admin", ``, 404, "ui.api.no_page", "\u2066/admin\u2069: ایسا کوئی صفحہ نہیں؛ کنسول / پر ہے"},
		{"fr", "GET", "/api/nothing", ``, 404, "ui.api.no_endpoint", "/api/nothing : ce point d’accès n’existe pas (l’API a meta, model, i18n/{lang}, trace, debrief, whatif, alertrules, gamedays, gamedays/{id}, gamedays/{id}/results, sessions, sessions/{id}, sessions/{id}/decide, sessions/{id}/step, sessions/{id}/takeover, i18n/{lang}/team, teamdays, facilitate/{token}, facilitate/{token}/act, facilitate/{token}/events, facilitate/{token}/postmortems, teams/{token}, teams/{token}/join, teams/{token}/act, teams/{token}/events, teams/{token}/postmortem, teams/{token}/trace, teamtrace)"},
		{"fr", "GET", "/api/sessions", ``, 405, "ui.api.method", "GET /api/sessions : cette adresse accepte POST"},
		{"fr", "POST", sid, `{}`, 405, "ui.api.method", "POST " + sid + " : cette adresse accepte GET ou DELETE"},
		{"ur", "POST", sid, `{}`, 405, "ui.api.method", "\u2066POST\u2069 \u2066" + sid + "\u2069: یہ پتہ \u2066GET\u2069 یا \u2066DELETE\u2069 لیتا ہے"},
		{"", "POST", sid, `{}`, 405, "ui.api.method", "POST " + sid + ": this address takes GET or DELETE"},
		{"ur", "DELETE", "/api/sessions/nope", ``, 404, "ui.api.gone_already", "سیشن \u2066nope\u2069 پہلے ہی ختم ہو چکا ہے"},
		{"fr", "GET", "/api/model?seed=x", ``, 400, "ui.api.model_seed_alone", "seed=x : une graine choisit une garde d’un scénario ; donnez aussi scenario="},
		{"fr", "GET", "/api/model?scenario=bad-deploy&seed=x", ``, 400, "ui.api.model_seed", `seed="x" : elle prend un nombre entier de 0 à 4294967295`},
	}
	for _, c := range cases {
		a := askIn(t, ts, c.lang, c.method, c.path, c.body, c.status)
		if a.Error != c.want || a.Key != c.key {
			t.Errorf("%s %s %s in %q:\n got %q (%s)\nwant %q (%s)", c.method, c.path, c.body, c.lang, a.Error, a.Key, c.want, c.key)
		}
	}
}

// TestWrappedErrorsInTheReadersLanguage: a sentence that says where an
// error comes from ("the reference policy: …") writes the error inside it
// in the reader's language too, keeping its status.
func TestWrappedErrorsInTheReadersLanguage(t *testing.T) {
	inner := apiError(http.StatusUnprocessableEntity, "ui.api.run_stopped", "scenario", "bad-deploy", "seed", "3", "reason", "policy.rules:2:5: boom")
	e := wrapped("ui.api.reference", inner)
	if e.status != http.StatusUnprocessableEntity {
		t.Errorf("status %d, want 422", e.status)
	}
	for lang, want := range map[string]string{
		"en": "the reference policy: scenario bad-deploy, seed 3: the run stopped: policy.rules:2:5: boom",
		"fr": "la politique de référence : scénario bad-deploy, graine 3 : l’exécution s’est arrêtée : policy.rules:2:5: boom",
		"ur": "حوالہ جاتی پالیسی: " + inLang("ur", inner),
	} {
		if got := inLang(lang, e); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if !strings.Contains(inLang("ur", inner), "\u2066bad-deploy\u2069") {
		t.Errorf("the Urdu inner error: %q", inLang("ur", inner))
	}
	if plain := wrapped("ui.api.branch", errors.New("what the engine said")); plain.status != http.StatusBadRequest || inLang("es", plain) != "la rama: what the engine said" {
		t.Errorf("an error without a key: %d %q", plain.status, inLang("es", plain))
	}
}
