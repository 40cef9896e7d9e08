package i18n

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

func TestT(t *testing.T) {
	if got := T("fr", "event.launch.autoscaler", "n", 3); got != "La mise à l’échelle automatique a lancé des instances\u00a0: 3" {
		t.Errorf("T(fr) = %q", got)
	}
	if got := T("de", "event.page"); got != "Page fired" {
		t.Errorf("an unknown language should read English, got %q", got)
	}
	if got := T("bs", "no.such.key"); got != "no.such.key" {
		t.Errorf("a missing key should come back as it is, got %q", got)
	}
	if got := T("en", "event.action.rule.set", "rule", "cool down", "control", "Load shedding"); got != "Rule “cool down” set Load shedding to {value}" {
		t.Errorf("a placeholder without a value should stay, got %q", got)
	}
	for _, tc := range []struct{ msg, want string }{
		{"{n} of {m}", "1 of {m}"},
		{"{{n}} is {n}", "{n} is 1"},
		{"{x{n}}", "{x1}"},
		{"{a b}", "{a b}"},
		{"open {n", "open {n"},
		{"}} {{", "} {"},
	} {
		if got := Fill(tc.msg, map[string]string{"n": "1"}); got != tc.want {
			t.Errorf("Fill(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
	if got := strings.Join(Placeholders("{b} {a} {{c}} {b}"), ","); got != "a,b" {
		t.Errorf("Placeholders = %q", got)
	}
}

func TestCatalogIsACopy(t *testing.T) {
	m := Catalog("bs")
	m["event.page"] = "changed"
	if Catalog("bs")["event.page"] == "changed" {
		t.Fatal("Catalog handed out the package's own map")
	}
	// Bosnian has a plural form more than English ("few"); every other key
	// is in both.
	if len(Catalog("bs")) != len(Catalog("en"))+len(pluralKeys(Catalog("en"))) || len(Keys()) != len(Catalog("en")) {
		t.Errorf("every language has every key: %d in Bosnian, %d in English", len(Catalog("bs")), len(Catalog("en")))
	}
}

func TestPayload(t *testing.T) {
	var p struct {
		Lang, Dir, Name string
		Format          Format
		Messages        map[string]string
	}
	if err := json.Unmarshal(Payload("UR"), &p); err != nil {
		t.Fatal(err)
	}
	if p.Lang != "ur" || p.Dir != "rtl" || p.Name != "اردو" || p.Format.Decimal != "." || p.Messages["event.page"] != "پیج بج گیا" {
		t.Errorf("Payload(ur) = %+v", p)
	}
	if err := json.Unmarshal(Payload("klingon"), &p); err != nil || p.Lang != "en" {
		t.Errorf("an unknown language gets English, got %q (%v)", p.Lang, err)
	}
	var fr struct{ Format Format }
	if err := json.Unmarshal(Payload("fr"), &fr); err != nil || fr.Format != FormatOf("fr") {
		t.Errorf("Payload(fr)'s format = %+v (%v)", fr.Format, err)
	}
	if len(FormatJS()) == 0 {
		t.Error("format.js is not embedded")
	}
}

func TestEventText(t *testing.T) {
	for _, tc := range []struct {
		lang string
		e    engine.Event
		want string
	}{
		{"en", engine.Event{Kind: engine.EventLaunch, By: "autoscaler", Value: 4}, "Autoscaler launched instances: 4"},
		{"en", engine.Event{Kind: engine.EventRemove, By: "min_instances", Value: -2}, "Instances removed down to the floor: 2"},
		{"en", engine.Event{Kind: engine.EventAction, By: "player", Name: "shed", Value: 0.5}, "You set Load shedding to 50 %"},
		{"fr", engine.Event{Kind: engine.EventAction, By: "player", Name: "target_utilization", Value: 0.65}, "Vous avez réglé «\u00a0Utilisation cible\u00a0» sur 65 %"},
		{"bs", engine.Event{Kind: engine.EventAction, By: "player", Name: "rollback"}, "Pritisnuli ste „Vraćanje builda“"},
		{"es", engine.Event{Kind: engine.EventAction, By: "roll back when paged", Name: "feature", Value: 0}, "La regla «roll back when paged» ha cambiado «Recomendaciones» a apagado"},
		{"en", engine.Event{Kind: engine.EventAction, By: "scenario", Name: "ttl_s", Value: 90}, "The scenario set Cache TTL to 90 s"},
		{"id", engine.Event{Kind: engine.EventDeploy, Name: "4.2.0", Value: 2}, "Build 4.2.0 mulai diluncurkan (selama 2 mnt)"},
		{"en", engine.Event{Kind: engine.EventDeploy, Name: "5.3.0", Value: 10, Build: engine.Build{Name: "5.3.0", LeakMSPerMin: 2}}, "Build 5.3.0 starts rolling out (over 10 min)"},
		{"en", engine.Event{Kind: engine.EventScale, Name: "db_capacity", Value: 0.5}, "Database capacity is now 0.5 times its value"},
		{"fr", engine.Event{Kind: engine.EventRamp, Name: "app_ms", Value: 120, Over: 30}, "«\u00a0Temps applicatif par requête\u00a0» va vers 120 ms sur 30 min"},
		{"en", engine.Event{Kind: engine.EventSetConstant, Name: "boot_delay", Value: 8}, "Boot delay is now 8 min"},
		{"fr", engine.Event{Kind: engine.EventSetConstant, Name: "db_capacity", Value: 20000}, "Nouvelle valeur de «\u00a0Capacité de la base de données\u00a0»\u00a0: 20\u202f000 requêtes/s"},
		{"bs", engine.Event{Kind: engine.EventSetConstant, Name: "slo", Value: 0.999}, "Nova vrijednost za „Cilj dostupnosti (SLO)“: 99,9 %"},
		{"en", engine.Event{Kind: engine.EventSetConstant, Name: "instance_price", Value: 0.5}, "Price of an instance-hour is now $0.50/h"},
		{"id", engine.Event{Kind: engine.EventSetConstant, Name: "slo_days", Value: 7}, "Periode SLO sekarang 7 hari"},
		{"en", engine.Event{Kind: engine.EventSetConstant, Name: "app_ms", Value: 62.5}, "Application time per request is now 62.5 ms"},
		{"en", engine.Event{Kind: engine.EventSetConstant, Name: "warmup_rate", Value: 0.2}, "Warm-up speed is now 20 %/min"},
		{"en", engine.Event{Kind: engine.EventSetConstant, Name: "no_such", Value: 1}, "no_such is now 1"},
		{"en", engine.Event{Kind: engine.EventSetControl, Name: "warmup"}, "Someone else pressed Cache warm-up"},
		{"fr", engine.Event{Kind: engine.EventSay, Text: engine.Text{"en": "Build 4.2.0 is rolling out.", "fr": "La version 4.2.0 se déploie."}}, "La version 4.2.0 se déploie."},
		{"ur", engine.Event{Kind: engine.EventSay, Text: engine.Text{"en": "Build 4.2.0 is rolling out."}}, "\u2066Build 4.2.0 is rolling out.\u2069"},
		{"ur", engine.Event{Kind: engine.EventLaunch, By: "autoscaler", Value: 4}, strings.Replace(T("ur", "event.launch.autoscaler"), "{n}", "\u20664\u2069", 1)},
		{"ur", engine.Event{Kind: engine.EventPage}, "پیج بج گیا"},
		{"en", engine.Event{Kind: engine.EventRollbackDone}, "Rollback done: traffic on the builds before the latest deploy"},
		{"fr", engine.Event{Kind: engine.EventDepName, Name: "auth"}, "La dépendance s’appelle désormais auth"},
		{"en", engine.Event{Kind: engine.EventFlush}, "The cache was emptied"},
		{"fr", engine.Event{Kind: engine.EventFlush, Share: 0.5}, "Le cache a perdu 50 % de son contenu"},
		{"en", engine.Event{Kind: engine.EventFlush, Share: 0.125}, "The cache lost 12.5 % of its entries"},
		{"es", engine.Event{Kind: engine.EventLoseInstances, Value: 6, Share: 0.6}, "Instancias perdidas: 6"},
		{"en", engine.Event{Kind: engine.EventLaunchFailed, Value: 3}, "Instances failed to start: 3"},
		{"ur", engine.Event{Kind: engine.EventLaunchFailed, Value: 3}, "انسٹینس شروع نہ ہو سکیں: \u20663\u2069"},
	} {
		if got := EventText(tc.lang, tc.e); got != tc.want {
			t.Errorf("EventText(%s, %v) = %q, want %q", tc.lang, tc.e, got, tc.want)
		}
	}
}

// TestIsolate: in Urdu a value is set apart in the direction of its first
// strong letter: "4.00 $/h", a time or a Latin name left to right, a count
// of minutes in Urdu words right to left, so that it reads number first, on
// the right of its unit; in a left-to-right language it is left as it is.
func TestIsolate(t *testing.T) {
	for _, tc := range []struct{ lang, value, want string }{
		{"ur", "4.00 $/h", "\u20664.00 $/h\u2069"},
		{"ur", "09:16", "\u206609:16\u2069"},
		{"ur", "12", "\u206612\u2069"},
		{"ur", Minutes("ur", 7), "\u2067" + Minutes("ur", 7) + "\u2069"},
		{"ur", "(5 منٹ)", "\u2067(5 منٹ)\u2069"},
		{"ur", "roll back when paged", "\u2066roll back when paged\u2069"},
		{"ur", "", "\u2066\u2069"},
		{"fr", Minutes("fr", 7), Minutes("fr", 7)},
	} {
		if got := Isolate(tc.lang, tc.value); got != tc.want {
			t.Errorf("Isolate(%s, %q) = %q, want %q", tc.lang, tc.value, got, tc.want)
		}
	}
	if got := EventText("ur", engine.Event{Kind: engine.EventDeploy, Name: "4.2.0", Value: 7}); !strings.Contains(got, "\u2067"+Minutes("ur", 7)+"\u2069") || !strings.Contains(got, "\u20664.2.0\u2069") {
		t.Errorf("the Urdu deploy isolates its rollout left to right: %q", got)
	}
}

// TestEveryEventRenders renders every key of EventKeys in every language
// from an event that selects it, so that no message keeps a placeholder
// unfilled.
func TestEveryEventRenders(t *testing.T) {
	events := []engine.Event{
		{Kind: engine.EventDeploy, Name: "bad", Value: 3}, {Kind: engine.EventDeploy, Name: "good"},
		{Kind: engine.EventFlush}, {Kind: engine.EventSetConstant, Name: "db_capacity", Value: 2000},
		{Kind: engine.EventScale, Name: "db_capacity", Value: 0.5}, {Kind: engine.EventRamp, Name: "app_ms", Value: 120, Over: 30},
		{Kind: engine.EventSetControl, Name: "shed", Value: 1}, {Kind: engine.EventSetControl, Name: "rollback"},
		{Kind: engine.EventSay, Text: engine.Text{"en": "hello"}},
		{Kind: engine.EventLaunch, By: "autoscaler", Value: 2}, {Kind: engine.EventLaunch, By: "min_instances", Value: 2},
		{Kind: engine.EventRemove, By: "autoscaler", Value: 2}, {Kind: engine.EventRemove, By: "min_instances", Value: 2},
		{Kind: engine.EventRollbackDone}, {Kind: engine.EventPage}, {Kind: engine.EventResolve},
		{Kind: engine.EventDepName, Name: "auth"},
		{Kind: engine.EventFlush, Share: 0.25}, {Kind: engine.EventLoseInstances, Value: 6, Share: 0.6},
		{Kind: engine.EventLaunchFailed, Value: 3},
	}
	for _, by := range []string{"player", "scenario", "a rule"} {
		events = append(events, engine.Event{Kind: engine.EventAction, By: by, Name: "min_instances", Value: 12},
			engine.Event{Kind: engine.EventAction, By: by, Name: "warmup"})
	}
	covered := map[string]bool{}
	for _, e := range events {
		covered[EventKey(e)] = true
		for _, lang := range Codes() {
			if got := EventText(lang, e); strings.ContainsAny(got, "{}") || got == "" || got == EventKey(e) {
				t.Errorf("EventText(%s, %v) = %q", lang, e, got)
			}
		}
	}
	for _, k := range EventKeys() {
		if !covered[k] {
			t.Errorf("no event of this test selects %q", k)
		}
	}
}

// Every cause's log line renders in every language, with what it names
// filled in and no placeholder left; a scenario's own line is as written.
func TestLogText(t *testing.T) {
	lines := map[string]engine.LogLine{
		engine.LogTimeout:    {Cause: engine.LogTimeout, TimeoutMS: 2000},
		engine.LogOverload:   {Cause: engine.LogOverload},
		engine.LogDatabase:   {Cause: engine.LogDatabase},
		engine.LogBuild:      {Cause: engine.LogBuild, Name: "4.2.1", Message: "NullPointerException in checkout (build 4.2.1)"},
		engine.LogDepTimeout: {Cause: engine.LogDepTimeout, Name: "auth", TimeoutMS: 1500},
		engine.LogDepError:   {Cause: engine.LogDepError, Name: "auth"},
		engine.LogBreaker:    {Cause: engine.LogBreaker, Name: "auth"},
		engine.LogShed:       {Cause: engine.LogShed},
	}
	for _, c := range engine.LogCauses() {
		l, ok := lines[c]
		if !ok {
			t.Fatalf("no line of this test has the cause %q", c)
		}
		for _, lang := range Codes() {
			if got := LogText(lang, l); got == "" || strings.ContainsAny(got, "{}") || got == LogKey(c) {
				t.Errorf("LogText(%s, %s) = %q", lang, c, got)
			}
		}
	}
	for _, tc := range []struct {
		lang string
		l    engine.LogLine
		want string
	}{
		{"en", lines[engine.LogTimeout], "upstream request timeout after 2 s"},
		{"fr", lines[engine.LogDepTimeout], "auth : l’appel a expiré après 1500 ms"},
		{"en", lines[engine.LogBuild], "NullPointerException in checkout (build 4.2.1)"},
		{"es", lines[engine.LogBuild], "NullPointerException in checkout (versión 4.2.1)"},
		{"en", engine.LogLine{Level: "WARN", Source: "cert", Message: "certificate expires in 10 minutes"}, "certificate expires in 10 minutes"},
	} {
		if got := LogText(tc.lang, tc.l); got != tc.want {
			t.Errorf("LogText(%s, %+v) = %q, want %q", tc.lang, tc.l, got, tc.want)
		}
	}
}

func TestControlValue(t *testing.T) {
	for _, tc := range []struct {
		lang string
		c    engine.Control
		v    float64
		want string
	}{
		{"en", engine.Autoscaling, 1, "on"},
		{"ur", engine.Feature, 0, "بند"},
		{"fr", engine.TargetUtilization, 0.6, "60 %"},
		{"bs", engine.Shed, 0.333, "33,3 %"},
		{"en", engine.TTL, 90, "90 s"},
		{"en", engine.MinInstances, 12, "12"},
		{"en", engine.Rollback, 0, ""},
	} {
		if got := ControlValue(tc.lang, tc.c, tc.v); got != tc.want {
			t.Errorf("ControlValue(%s, %s, %v) = %q, want %q", tc.lang, tc.c, tc.v, got, tc.want)
		}
	}
}

func BenchmarkT(b *testing.B) {
	for b.Loop() {
		T("fr", "event.action.rule.set", "rule", "cool down", "control", "Délestage", "value", "50 %")
	}
}

func BenchmarkPayload(b *testing.B) {
	for b.Loop() {
		Payload("ur")
	}
}

func BenchmarkNumber(b *testing.B) {
	for b.Loop() {
		Number("fr", 1234567.891, 2)
	}
}

// FuzzFill: any message fills without panicking, a message without
// placeholders only loses its brace escapes, and filling every placeholder
// with a brace-free value leaves no placeholder behind.
func FuzzFill(f *testing.F) {
	for _, s := range []string{"{n} of {m}", "{{n}}", "{x{n}}", "}}{{", "{", "{é}", "text"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		names := Placeholders(msg)
		values := map[string]string{}
		for _, n := range names {
			values[n] = "v"
		}
		filled := Fill(msg, values)
		if len(names) > 0 && Fill(msg, nil) == filled {
			t.Fatalf("Fill(%q) replaced none of %v", msg, names)
		}
		if got := Placeholders(strings.NewReplacer("{", "{{", "}", "}}").Replace(msg)); len(got) != 0 {
			t.Fatalf("escaped braces read as placeholders %v", got)
		}
	})
}

// TestEnglishHelpIsTheEngines keeps the English explanation of each control
// in one place: the engine's spec (ControlSpec.Doc) is the source, and the
// English catalogue's control.<name>.help must say the same words.
func TestEnglishHelpIsTheEngines(t *testing.T) {
	en := Catalog(Default)
	for _, s := range engine.ControlSpecs() {
		key := "control." + s.Name + ".help"
		if got := en[key]; got != s.Doc {
			t.Errorf("en.json %s = %q;\nthe engine's spec of %s says %q (engine/controls.go is the source: copy its text)", key, got, s.Name, s.Doc)
		}
	}
}
