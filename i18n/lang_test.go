package i18n

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"", "en"},
		{"fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"},
		{"de-DE,de;q=0.9", "en"},
		{"de, ur;q=0.5", "ur"},
		{"en;q=0.2, bs-Latn-BA;q=0.8", "bs"},
		{"in", "id"},
		{"ES-419", "es"},
		{"id;q=0, fr;q=0.1", "fr"},
		{"*", "en"},
		{"fr;q=abc, es", "es"},
		{"fr;q=2, es;q=0.5", "es"},
		{"ur;q=0.5, fr;q=0.5", "ur"}, // a tie goes to the earlier
		{";;;,,,q=", "en"},
	} {
		if got := Match(tc.header); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.header, got, tc.want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, s := range []string{"fr-CH, fr;q=0.9", "ur", "", "*;q=0.5", "bs;q=1.0, id;q=0.99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		got := Match(header)
		if _, ok := Lookup(got); !ok {
			t.Fatalf("Match(%q) = %q, not one of %v", header, got, Codes())
		}
	})
}

func TestLookupAndNearest(t *testing.T) {
	for _, code := range Codes() {
		l, ok := Lookup(strings.ToUpper(code))
		if !ok || l.Code != code || l.Name == "" || l.English == "" || (l.Dir != "ltr" && l.Dir != "rtl") {
			t.Errorf("Lookup(%q) = %+v, %v", code, l, ok)
		}
	}
	if l, _ := Lookup("ur"); l.Dir != "rtl" {
		t.Errorf("Urdu is written right to left, got %q", l.Dir)
	}
	if _, ok := Lookup("de"); ok {
		t.Error("Lookup(de) found a language this product does not speak")
	}
	for _, tc := range []struct{ in, want string }{
		{"fre", "fr"}, {"french", "fr"}, {"Español", "es"}, {"spa", "es"}, {"urd", "ur"},
		{"bosnian", "bs"}, {"indo", "id"}, {"fx", "fr"}, {"zzzzzz", ""}, {"", ""},
	} {
		if got := Nearest(tc.in); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
