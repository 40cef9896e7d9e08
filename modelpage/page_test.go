package modelpage

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// texts returns every text of a page, for checks that hold for all.
func texts(p Page) []string {
	out := []string{p.Title, p.Intro, p.ConstantsTitle, p.Constants, p.DeparturesTitle, p.ApproximationsTitle, p.Randomness, p.SourcesTitle, p.Disclaimer}
	for _, r := range p.Relations {
		out = append(out, r.Formula, r.Text)
	}
	out = append(out, p.Departures...)
	out = append(out, p.Approximations...)
	for _, s := range p.Sources {
		out = append(out, s.Text)
	}
	return out
}

// Every placeholder of every text is filled, in every language.
func TestBuildFillsEveryPlaceholder(t *testing.T) {
	for _, lang := range i18n.Codes() {
		p := Build(lang)
		if len(p.Relations) != len(engine.Relations()) || len(p.Sources) != len(engine.Sources()) {
			t.Errorf("%s: %d relations, %d sources", lang, len(p.Relations), len(p.Sources))
		}
		for _, s := range texts(p) {
			if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "{}") {
				t.Errorf("%s: text %q", lang, s)
			}
		}
	}
}

// The formulas print the defaults as numbers, the texts as the language
// writes them.
func TestBuildValues(t *testing.T) {
	en, fr := Build("en"), Build("fr")
	for _, tc := range []struct {
		p    Page
		i    int
		want string
	}{
		{en, 2, "admitted = requests × (1 − 0.3·shed)"},
		{en, 17, "burn = error_rate/0.001, budget_left −= burn/43,200"},
		{fr, 17, "burn = error_rate/0.001, budget_left −= burn/43,200"},
	} {
		if got := tc.p.Relations[tc.i].Formula; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.p.Lang, got, tc.want)
		}
	}
	if got := fr.Relations[17].Text; !strings.Contains(got, "1/43\u202f200 du budget d’erreurs") {
		t.Errorf("French burn text: %q", got)
	}
}

// The page travels as JSON to the web console.
func TestPageJSON(t *testing.T) {
	b, err := json.Marshal(Build("en"))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"relations":`, `"constants":`, `"departures":`, `"randomness":`, `"disclaimer":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestDecimals(t *testing.T) {
	for v, want := range map[float64]int{16: 0, 0.3: 1, 0.05: 2, 0.999: 3, 0.001: 3, 1.0 / 3: 6} {
		if got := decimals(v); got != want {
			t.Errorf("decimals(%v) = %d, want %d", v, got, want)
		}
	}
}
