package i18n

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// fileKeys reads one catalogue file from disk (the same files are embedded);
// a missing file is empty.
func fileKeys(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("catalog", name))
	if os.IsNotExist(err) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("catalog/%s: %v", name, err)
	}
	return m
}

func TestCatalogueLoads(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

// TestEveryLanguageHasEveryKey holds each file of every language to the
// English one: the same keys, no empty text, the same placeholders.
func TestEveryLanguageHasEveryKey(t *testing.T) {
	for _, file := range Files("%s") {
		en := fileKeys(t, strings.Replace(file, "%s", "en", 1))
		for _, code := range Codes() {
			name := strings.Replace(file, "%s", code, 1)
			m := fileKeys(t, name)
			for k, enText := range en {
				if _, form := PluralBase(k); form != "" {
					continue // the forms differ by language: checked below
				}
				text, ok := m[k]
				switch {
				case !ok:
					t.Errorf("catalog/%s: key %q is missing (English: %q)", name, k, enText)
				case strings.TrimSpace(text) == "":
					t.Errorf("catalog/%s: key %q is empty", name, k)
				case !slices.Equal(Placeholders(text), Placeholders(enText)):
					t.Errorf("catalog/%s: key %q has placeholders %v, English has %v", name, k, Placeholders(text), Placeholders(enText))
				}
			}
			for k := range m {
				if _, form := PluralBase(k); form != "" {
					continue
				}
				if _, ok := en[k]; !ok {
					t.Errorf("catalog/%s: key %q is not in the English file: remove it or add it there", name, k)
				}
			}
			checkPluralForms(t, name, code, en, m)
		}
	}
}

// TestKeysFollowTheEngine checks that the model's keys are exactly those the
// engine's tables call for plus the named keys, both ways: a control, metric,
// outcome, relation or event added to the engine needs its texts, and a key
// left over from one removed is an error.
func TestKeysFollowTheEngine(t *testing.T) {
	want := append(DerivedKeys(), NamedKeys()...)
	sort.Strings(want)
	if dup := duplicates(want); len(dup) > 0 {
		t.Fatalf("keys derived twice: %v", dup)
	}
	got := sortedKeys(fileKeys(t, "en.json"))
	got = slices.Compact(slices.Sorted(func(yield func(string) bool) { // a plural message is one key
		for _, k := range got {
			base, _ := PluralBase(k)
			if !yield(base) {
				return
			}
		}
	}))
	for _, k := range want {
		if _, ok := slices.BinarySearch(got, k); !ok {
			t.Errorf("catalog/en.json lacks %q, which the engine's tables call for", k)
		}
	}
	for _, k := range got {
		if _, ok := slices.BinarySearch(want, k); !ok {
			t.Errorf("catalog/en.json has %q, which no table of the engine and no named key calls for", k)
		}
	}
	for _, name := range []string{"ui.en.json", "team.en.json"} {
		for k := range fileKeys(t, name) {
			if !strings.HasPrefix(k, "ui.") {
				t.Errorf("catalog/%s: key %q must start with \"ui.\"", name, k)
			}
		}
	}
}

// TestEnglishMatchesTheEngine keeps the English texts that the engine also
// holds identical to it, so that `oncall model` reads the same from either.
func TestEnglishMatchesTheEngine(t *testing.T) {
	for _, r := range engine.Relations() {
		if got := T("en", FormulaKey(r.ID)); got != r.Formula {
			t.Errorf("%s: catalogue %q, engine %q", FormulaKey(r.ID), got, r.Formula)
		}
		if got := T("en", RelationKey(r.ID)); got != r.Text {
			t.Errorf("%s: catalogue %q, engine %q", RelationKey(r.ID), got, r.Text)
		}
		if o, ok := r.Off(); ok {
			if got := T("en", FormulaKey(OffID(r.ID))); got != o.Formula {
				t.Errorf("%s: catalogue %q, engine %q", FormulaKey(OffID(r.ID)), got, o.Formula)
			}
			if got := T("en", RelationKey(OffID(r.ID))); got != o.Text {
				t.Errorf("%s: catalogue %q, engine %q", RelationKey(OffID(r.ID)), got, o.Text)
			}
		}
	}
	for _, s := range engine.Sources() {
		if TranslatedSource(s) && T("en", SourceKey(s.N)) != s.Text {
			t.Errorf("%s differs from the engine's source %d", SourceKey(s.N), s.N)
		}
	}
	for i, a := range engine.Approximations {
		if got := T("en", ApproximationKey(i)); got != a {
			t.Errorf("%s: catalogue %q, engine %q", ApproximationKey(i), got, a)
		}
	}
	for _, s := range engine.ControlSpecs() {
		// The catalogue may say more than the engine's one line (the seeds'
		// second sentence on rollback), never something else.
		if got := T("en", ControlHelpKey(s.Name)); !strings.HasPrefix(got, s.Doc) {
			t.Errorf("%s: catalogue %q does not start with the engine's %q", ControlHelpKey(s.Name), got, s.Doc)
		}
	}
}

// TestNamedKeysAreUsed scans the repository's code (Go outside this
// package's declarations, the web console's files) for every named key and
// every ui.* key's family, so that no text is kept that nothing shows.
func TestNamedKeysAreUsed(t *testing.T) {
	var code strings.Builder
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && strings.HasPrefix(name, ".") || name == "testdata" || path == filepath.Join(root, "i18n") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".js", ".html":
			if strings.HasSuffix(path, "_test.go") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			code.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	text := code.String()
	// The named keys are used by their constant (i18n.KeyModelTitle) or by
	// their text ("model.title"), from Go or from the page's script.
	consts := map[string]string{KeyIntro: "KeyIntro", KeyModelTitle: "KeyModelTitle", KeyModelIntro: "KeyModelIntro",
		KeyModelApproximations: "KeyModelApproximations", KeyModelSources: "KeyModelSources",
		KeyModelRandomness: "KeyModelRandomness", KeyModelDisclaimer: "KeyModelDisclaimer",
		KeyModelConstants: "KeyModelConstants", KeyModelConstantsLine: "KeyModelConstantsLine",
		KeyModelDepartures: "KeyModelDepartures", KeyDepartureSaturation: "KeyDepartureSaturation",
		KeyDepartureDBOverload: "KeyDepartureDBOverload", KeyDepartureScenario: "KeyDepartureScenario",
		KeyScenario: "KeyScenario", KeyScenarioStart: "KeyScenarioStart", KeyScenarioSeed: "KeyScenarioSeed",
		KeyScenarioSeeds: "KeyScenarioSeeds", KeyScenarioLegend: "KeyScenarioLegend", KeyScenarioValue: "KeyScenarioValue",
		KeyScenarioEvent: "KeyScenarioEvent", KeyScenarioEventsVary: "KeyScenarioEventsVary", KeyScenarioBuild: "KeyScenarioBuild",
		KeyScenarioSurge: "KeyScenarioSurge", KeyScenarioPage: "KeyScenarioPage",
		KeySwitchOn: "KeySwitchOn", KeySwitchOff: "KeySwitchOff", KeyUnitQueries: "KeyUnitQueries", KeyUnitDays: "KeyUnitDays",
		KeyScenarioHidden: "KeyScenarioHidden", KeyScenarioBriefing: "KeyScenarioBriefing", KeyScenarioEventsLater: "KeyScenarioEventsLater"}
	for _, k := range NamedKeys() {
		c, ok := consts[k]
		if !ok {
			t.Fatalf("named key %q has no constant in the table of this test", k)
		}
		used := strings.Contains(text, "i18n."+c) || regexp.MustCompile(`["'`+"`"+`]`+regexp.QuoteMeta(k)+`["'`+"`"+`]`).MatchString(text)
		if !used && !usedInside(k) {
			t.Errorf("key %q is used by no code: use it (i18n.%s or %q) or remove it", k, c, k)
		}
	}
}

// usedInside reports the named keys this package itself uses: the switch
// words in ControlValue, the units in ConstantValue.
func usedInside(key string) bool {
	return key == KeySwitchOn || key == KeySwitchOff || key == KeyUnitQueries || key == KeyUnitDays
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func duplicates(sorted []string) []string {
	var d []string
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			d = append(d, sorted[i])
		}
	}
	return d
}
