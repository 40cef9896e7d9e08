package i18n

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// PluralSep joins a plural message's key and one of its forms in the
// catalogue: "unit.days#one", "unit.days#few", "unit.days#other".
const PluralSep = "#"

// formOrder is CLDR's order of the plural categories; the names are CLDR's.
var formOrder = []string{"zero", "one", "two", "few", "many", "other"}

var formNames = map[plural.Form]string{
	plural.Zero: "zero", plural.One: "one", plural.Two: "two",
	plural.Few: "few", plural.Many: "many", plural.Other: "other",
}

// PluralForm returns the CLDR cardinal plural category of the whole number
// n in lang ("one", "few", "other", ...), by the rules of golang.org/x/text:
// English and Spanish say "1 day" and "2 days", French "0 jour" and
// "1 jour", Bosnian "1 dan", "2 dana", "5 dana" and "21 dan", Indonesian
// has one form.
func PluralForm(lang string, n int) string {
	if n < 0 {
		n = -n
	}
	tag := language.Make(canonical(lang))
	return formNames[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]
}

// pluralFormOf returns the category of v written with d decimals, from the
// digits Number writes (CLDR's operands i, v, w, f and t): French "1,5 jour",
// English "1.0 days".
func pluralFormOf(lang string, v float64, d int) string {
	// The digits Number writes, rounded as it rounds, without grouping.
	plain := Format{Decimal: ".", MinGroupDigits: math.MaxInt}
	_, digits := plain.split(v, d)
	whole, frac, _ := strings.Cut(digits, ".")
	trimmed := strings.TrimRight(frac, "0")
	i, err := strconv.Atoi(whole)
	if err != nil || i > 1e9 { // the rules look at the last digits only
		i = 1e9 + i%1000
	}
	f, _ := strconv.Atoi("0" + frac)
	t, _ := strconv.Atoi("0" + trimmed)
	tag := language.Make(canonical(lang))
	return formNames[plural.Cardinal.MatchPlural(tag, i, len(frac), len(trimmed), f, t)]
}

// PluralForms returns the forms a catalogue needs in lang for the whole
// numbers it counts, in CLDR's order: what PluralForm answers for 0 to
// 1000 and for a million.
func PluralForms(lang string) []string {
	seen := map[string]bool{PluralForm(lang, 1_000_000): true}
	for n := 0; n <= 1000; n++ {
		seen[PluralForm(lang, n)] = true
	}
	var forms []string
	for _, f := range formOrder {
		if seen[f] {
			forms = append(forms, f)
		}
	}
	return forms
}

// PluralBase splits a catalogue key into its message and its plural form:
// "unit.days#one" is ("unit.days", "one"); a key of one text has no form.
func PluralBase(key string) (base, form string) {
	base, form, _ = strings.Cut(key, PluralSep)
	return base, form
}

// N returns the plural message key in lang for the count n, its "{n}"
// written in lang's digits and the other placeholders filled from args as T
// does: N("bs", "unit.days", 2) is "2 dana". The form is PluralForm's; a
// form the language's catalogue lacks falls back to "other", then to
// English.
func N(lang, key string, n int, args ...any) string {
	return nOf(lang, key, float64(n), 0, args...)
}

// nOf is N for a number written with d decimals.
func nOf(lang, key string, v float64, d int, args ...any) string {
	args = append([]any{"n", Number(lang, v, d)}, args...)
	form := key + PluralSep + pluralFormOf(lang, v, d)
	if c := bundle(); hasIn(c, lang, form) || !hasIn(c, lang, key+PluralSep+"other") {
		return T(lang, form, args...)
	}
	return T(lang, key+PluralSep+"other", args...)
}

// hasIn reports whether lang's catalogue (not English's) holds key.
func hasIn(c *catalogue, lang, key string) bool {
	_, ok := c.messages[canonical(lang)][key]
	return ok
}

// pluralKeys returns the plural messages of a set of keys, each once, sorted.
func pluralKeys(keys map[string]string) []string {
	var out []string
	for k := range keys {
		if base, form := PluralBase(k); form != "" && !slices.Contains(out, base) {
			out = append(out, base)
		}
	}
	slices.Sort(out)
	return out
}
