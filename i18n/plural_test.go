package i18n

import (
	"slices"
	"strings"
	"testing"
)

// checkPluralForms holds a language's plural messages to CLDR: each message
// the English file has in plural forms has, in the file name of lang, exactly
// the forms the language's rules reach (PluralForms), each with English's
// placeholders, and no other key carries a form.
func checkPluralForms(t *testing.T, name, lang string, en, m map[string]string) {
	t.Helper()
	want := PluralForms(lang)
	for _, base := range pluralKeys(en) {
		var have []string
		for _, f := range formOrder {
			text, ok := m[base+PluralSep+f]
			if !ok {
				continue
			}
			have = append(have, f)
			if ph, enPh := Placeholders(text), Placeholders(en[base+PluralSep+"other"]); !slices.Equal(ph, enPh) {
				t.Errorf("catalog/%s: %s%s%s has placeholders %v, English has %v", name, base, PluralSep, f, ph, enPh)
			}
			if strings.TrimSpace(text) == "" {
				t.Errorf("catalog/%s: %s%s%s is empty", name, base, PluralSep, f)
			}
		}
		if !slices.Equal(have, want) {
			t.Errorf("catalog/%s: %q has the forms %v; CLDR's rules for %s call for %v", name, base, have, lang, want)
		}
		if _, ok := m[base]; ok {
			t.Errorf("catalog/%s: %q is a plural message in English: write its forms (%s#one ...), not one text", name, base, base)
		}
	}
	for k := range m {
		if base, form := PluralBase(k); form != "" && !slices.Contains(pluralKeys(en), base) {
			t.Errorf("catalog/%s: %q has a plural form but the English file has no forms of %q", name, k, base)
		}
	}
}

// TestPluralForms pins the CLDR categories of the six languages at the
// counts where they differ: Bosnian's three forms (1 and 21 one, 2 to 4
// and 22 few, 5 to 20 other), French's 0 and 1 singular, Indonesian's one
// form, English, Spanish and Urdu singular at 1 only.
func TestPluralForms(t *testing.T) {
	counts := []int{0, 1, 2, 5, 11, 12, 21, 22, 25, 101, 111}
	want := map[string]string{
		"en": "other one other other other other other other other other other",
		"es": "other one other other other other other other other other other",
		"ur": "other one other other other other other other other other other",
		"fr": "one one other other other other other other other other other",
		"id": "other other other other other other other other other other other",
		"bs": "other one few other other other one few other one other",
	}
	for lang, w := range want {
		var got []string
		for _, n := range counts {
			got = append(got, PluralForm(lang, n))
		}
		if g := strings.Join(got, " "); g != w {
			t.Errorf("%s at %v:\n got %s\nwant %s", lang, counts, g, w)
		}
	}
	forms := map[string][]string{"en": {"one", "other"}, "bs": {"one", "few", "other"}, "id": {"other"}, "fr": {"one", "other"}}
	for lang, w := range forms {
		if got := PluralForms(lang); !slices.Equal(got, w) {
			t.Errorf("PluralForms(%s) = %v, want %v", lang, got, w)
		}
	}
}

// TestDaysInEveryLanguage writes "{n} days" at 1, 2, 5 and 21 in every
// language, and with a decimal where the rules read the digits (French
// "1,5 jour", English "1.5 days").
func TestDaysInEveryLanguage(t *testing.T) {
	want := map[string][]string{
		"en": {"1 day", "2 days", "5 days", "21 days", "1.5 days"},
		"bs": {"1 dan", "2 dana", "5 dana", "21 dan", "1,5 dana"},
		"es": {"1 día", "2 días", "5 días", "21 días", "1.5 días"},
		"fr": {"1 jour", "2 jours", "5 jours", "21 jours", "1,5 jour"},
		"id": {"1 hari", "2 hari", "5 hari", "21 hari", "1,5 hari"},
		"ur": {"1 دن", "2 دن", "5 دن", "21 دن", "1.5 دن"},
	}
	for _, lang := range Codes() {
		w, ok := want[lang]
		if !ok {
			t.Fatalf("no expected days for %s", lang)
		}
		var got []string
		for _, n := range []int{1, 2, 5, 21} {
			got = append(got, N(lang, KeyUnitDays, n))
		}
		got = append(got, nOf(lang, KeyUnitDays, 1.5, 1))
		if !slices.Equal(got, w) {
			t.Errorf("%s: got %q, want %q", lang, got, w)
		}
	}
}
