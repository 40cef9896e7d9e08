package i18n

import (
	"sort"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/internal/spell"
)

// Language is one language of the product.
type Language struct {
	Code    string `json:"code"`    // ISO 639-1: "en", "bs", "id", "es", "ur", "fr"
	Name    string `json:"name"`    // its own name for itself, as a language menu shows it
	English string `json:"english"` // its name in English, for messages and hints
	Dir     string `json:"dir"`     // "ltr" or "rtl", for the page's dir attribute
}

// Default is the language used when nothing better matches.
const Default = "en"

// languages is a function rather than a variable so that no caller can change
// the list under another.
func languages() [6]Language {
	return [...]Language{
		{"en", "English", "English", "ltr"},
		{"bs", "Bosanski", "Bosnian", "ltr"},
		{"id", "Bahasa Indonesia", "Indonesian", "ltr"},
		{"es", "Español", "Spanish", "ltr"},
		{"ur", "اردو", "Urdu", "rtl"},
		{"fr", "Français", "French", "ltr"},
	}
}

// Languages returns the six languages, English first, then in the order of
// the seeds.
func Languages() []Language {
	ls := languages()
	return ls[:]
}

// Codes returns the language codes in the order of Languages.
func Codes() []string {
	ls := languages()
	codes := make([]string, len(ls))
	for i, l := range ls {
		codes[i] = l.Code
	}
	return codes
}

// Lookup finds a language by its code, ignoring case and any region or
// script subtag ("fr-CA" and "FR" are French).
func Lookup(code string) (Language, bool) {
	primary := strings.ToLower(strings.TrimSpace(code))
	if i := strings.IndexAny(primary, "-_"); i >= 0 {
		primary = primary[:i]
	}
	if primary == "in" { // Indonesian's code before 1989, still sent by old systems
		primary = "id"
	}
	for _, l := range languages() {
		if l.Code == primary {
			return l, true
		}
	}
	return Language{}, false
}

// Match picks the best of the six languages for an HTTP Accept-Language
// header ("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5"): the supported language with
// the highest weight, the earlier one on a tie; English when none matches.
// A wildcard does not choose a language: it leaves the default. Malformed
// parts are skipped.
func Match(acceptLanguage string) string {
	type choice struct {
		code  string
		q     float64
		order int
	}
	var choices []choice
	for i, part := range strings.Split(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(part, ";")
		l, ok := Lookup(tag)
		if !ok {
			continue
		}
		q, ok := weight(params)
		if !ok || q <= 0 {
			continue
		}
		choices = append(choices, choice{l.Code, q, i})
	}
	if len(choices) == 0 {
		return Default
	}
	sort.SliceStable(choices, func(i, j int) bool { return choices[i].q > choices[j].q })
	return choices[0].code
}

// weight reads the q parameter of one Accept-Language entry; 1 when absent.
func weight(params string) (float64, bool) {
	q := 1.0
	for _, p := range strings.Split(params, ";") {
		name, value, found := strings.Cut(strings.TrimSpace(p), "=")
		if !found || strings.TrimSpace(strings.ToLower(name)) != "q" {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || v < 0 || v > 1 {
			return 0, false
		}
		q = v
	}
	return q, true
}

// Nearest suggests the language closest to a misspelt code or name, or ""
// when none is close: a prefix of a language's English or native name
// ("fre", "Español"), else the code nearest by edit distance ("fe" → "fr").
func Nearest(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" {
		return ""
	}
	if len(t) >= 3 {
		for _, l := range languages() {
			if strings.HasPrefix(strings.ToLower(l.English), t) || strings.HasPrefix(strings.ToLower(l.Name), t) {
				return l.Code
			}
		}
	}
	return spell.Nearest(t, Codes())
}
