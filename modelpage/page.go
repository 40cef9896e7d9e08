package modelpage

import (
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// Page is the model page in one language, every text ready to show.
type Page struct {
	Lang                string      `json:"lang"`
	Title               string      `json:"title"`
	Intro               string      `json:"intro"`
	Relations           []Relation  `json:"relations"`
	ConstantsTitle      string      `json:"constants_title"`
	Constants           string      `json:"constants"`
	DeparturesTitle     string      `json:"departures_title"`
	Departures          []string    `json:"departures"`
	ApproximationsTitle string      `json:"approximations_title"`
	Approximations      []string    `json:"approximations"`
	Randomness          string      `json:"randomness"`
	SourcesTitle        string      `json:"sources_title"`
	Sources             []Reference `json:"sources"`
	Disclaimer          string      `json:"disclaimer"`
}

// Relation is one relation as the page prints it: the formula with the
// values in force, its explanation in the page's language, its sources.
type Relation struct {
	ID      string `json:"id"`
	Formula string `json:"formula"`
	Text    string `json:"text"`
	Sources []int  `json:"sources"`
}

// Reference is one source of the page.
type Reference struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// Build returns the model page in lang, with the model's defaults.
func Build(lang string) Page {
	b := &builder{lang: lang}
	b.fill()
	t := func(key string, args ...any) string { return i18n.T(lang, key, args...) }
	p := Page{
		Lang:                lang,
		Title:               t(i18n.KeyModelTitle),
		Intro:               t(i18n.KeyModelIntro),
		ConstantsTitle:      t(i18n.KeyModelConstants),
		Constants:           t(i18n.KeyModelConstantsLine, b.textArgs...),
		DeparturesTitle:     t(i18n.KeyModelDepartures),
		ApproximationsTitle: t(i18n.KeyModelApproximations),
		Randomness:          t(i18n.KeyModelRandomness),
		SourcesTitle:        t(i18n.KeyModelSources),
		Disclaimer:          t(i18n.KeyModelDisclaimer),
	}
	for _, r := range engine.Relations() {
		rel := Relation{ID: r.ID, Sources: r.Sources,
			Formula: engine.FillTemplate(r.Formula, func(n string) string { return b.formula[n] }),
			Text:    t(i18n.RelationKey(r.ID), b.textArgs...)}
		p.Relations = append(p.Relations, rel)
	}
	for _, k := range []string{i18n.KeyDepartureSaturation, i18n.KeyDepartureDBOverload, i18n.KeyDepartureScenario} {
		p.Departures = append(p.Departures, t(k, b.textArgs...))
	}
	for i := range engine.Approximations {
		p.Approximations = append(p.Approximations, t(i18n.ApproximationKey(i)))
	}
	for _, s := range engine.Sources() {
		text := s.Text
		if i18n.TranslatedSource(s) {
			text = t(i18n.SourceKey(s.N))
		}
		p.Sources = append(p.Sources, Reference{s.N, text})
	}
	return p
}

// builder gathers the values the page prints.
type builder struct {
	lang     string
	formula  map[string]string // quantity → its value as a formula writes it
	textArgs []any             // quantity, its value in the page's language, …
}

// fill renders every quantity, for the formulas and for the texts.
func (b *builder) fill() {
	b.formula = map[string]string{}
	c := engine.DefaultConstants()
	for _, q := range engine.Quantities() {
		v := q.Value(&c)
		b.formula[q.Name] = formulaNumber(q.Unit)(v)
		b.textArgs = append(b.textArgs, q.Name, b.quantityValue(q)(v))
	}
}

// quantityValue writes a quantity's value as the page's language does,
// with its unit: "30 %", "4.000 upita/s", "2 s".
func (b *builder) quantityValue(q engine.Quantity) func(float64) string {
	spec := engine.ConstantSpec{Name: q.Name, Unit: q.Unit}
	return func(v float64) string { return i18n.ConstantValue(b.lang, spec, v) }
}

// formulaNumber writes a number as the formulas do, in every language:
// English digits, the fewest decimals that show it, dollars with cents.
func formulaNumber(unit string) func(float64) string {
	return func(v float64) string {
		if unit == "$/h" {
			return i18n.Number("en", v, 2)
		}
		return i18n.Number("en", v, decimals(v))
	}
}

// decimals is the number of decimals v needs to show exactly, at most 6.
func decimals(v float64) int {
	s := strings.TrimRight(strconv.FormatFloat(v, 'f', 6, 64), "0")
	return len(s) - 1 - strings.IndexByte(s, '.')
}
