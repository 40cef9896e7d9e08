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
	InForce             *InForce    `json:"in_force,omitempty"`
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
	Changed bool   `json:"changed,omitempty"` // a value in it differs from the default
}

// Reference is one source of the page.
type Reference struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// InForce is the part of the page about the scenario whose values are in
// force: what it changes from the defaults, its events, its surge.
type InForce struct {
	Scenario string   `json:"scenario"`
	Heading  string   `json:"heading"`
	Seed     *uint32  `json:"seed,omitempty"`
	Hidden   bool     `json:"hidden,omitempty"` // the seed's draws are kept back (BuildHidden)
	Lines    []string `json:"lines"`
	Legend   string   `json:"legend"`
}

// Build returns the model page in lang: the model's defaults when d is nil,
// else the values in force for d's scenario, for the seed *seed when it is
// given (one more run of the scenario) and over d's seeds otherwise.
func Build(lang string, d *Draws, seed *uint32) (Page, error) {
	b := &builder{lang: lang, d: d}
	if d == nil {
		b.d = defaults()
	} else if seed != nil {
		r, err := runOnce(d.src, *seed, d.limits, d.view)
		if err != nil {
			return Page{}, err
		}
		b.chosen = &r
	}
	return b.page(seed), nil
}

// BuildHidden returns the model page of d's scenario as the player of a
// shift on seed sees it until the shift ends: what the scenario sets for
// every seed, its briefing, and the range of each value it draws over d's
// seeds, never what seed draws (when the surge peaks, how large it is, the
// database's capacity of the day), which the shift is there to find out.
// A line names the seed and says that its draws stay hidden; Build with
// the seed shows them once the shift is over.
func BuildHidden(lang string, d *Draws, seed uint32) Page {
	b := &builder{lang: lang, d: d, hidden: true}
	return b.page(&seed)
}

// page writes the page from the values the builder gathers, the scenario's
// part for seed when d is a scenario's.
func (b *builder) page(seed *uint32) Page {
	lang := b.lang
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
		id := r.ID
		if off, ok := r.Off(); ok && b.zero[off.When] {
			id = i18n.OffID(r.ID) // "clients do not retry", not "up to 0 times"
		}
		rel := Relation{ID: r.ID, Sources: r.Sources,
			Formula: t(i18n.FormulaKey(id), b.formulaArgs...),
			Text:    t(i18n.RelationKey(id), b.textArgs...)}
		for _, n := range append(engine.PlaceholderNames(r.Formula), engine.PlaceholderNames(r.Text)...) {
			rel.Changed = rel.Changed || b.changed[n]
		}
		if r.ID == "page" && b.pageRule != "" {
			rel.Formula, rel.Changed = "page = "+b.pageRule+"*", true
		}
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
	if b.d.src != nil {
		p.InForce = b.inForce(seed)
	}
	return p
}

// defaults are the draws of free play: the model's defaults, one run that
// is never made.
func defaults() *Draws {
	setup := engine.FreePlay()
	return &Draws{first: 1, last: 1, runs: []run{{
		setup:  setup,
		consts: []snapshot{{0, setup.Constants}},
		ctls:   []ctlSnapshot{{0, setup.Controls}},
	}}}
}

// builder gathers the values the page prints.
type builder struct {
	lang        string
	d           *Draws
	chosen      *run
	formulaArgs []any           // quantity, its value as a formula writes it, …
	textArgs    []any           // quantity, its value in the page's language, …
	changed     map[string]bool // quantities that differ from the default
	zero        map[string]bool // quantities that are 0 throughout
	pageRule    string
	varied      bool // some value of the scenario differs from seed to seed
	hidden      bool // the chosen seed's draws are kept back (BuildHidden)
}

// fill renders every quantity, for the formulas and for the texts.
func (b *builder) fill() {
	b.changed, b.zero = map[string]bool{}, map[string]bool{}
	for _, q := range engine.Quantities() {
		f := b.d.quantityFigure(q, b.chosen)
		b.zero[q.Name] = f.zero()
		b.formulaArgs = append(b.formulaArgs, q.Name, f.render(formulaNumber(b.lang, q.Unit), false))
		b.textArgs = append(b.textArgs, q.Name, f.render(b.quantityValue(q), false))
		b.changed[q.Name] = f.changed()
	}
	if pr, ok := b.d.src.(pageRuler); ok {
		b.pageRule = pr.PageRule()
	}
}

// quantityValue writes a quantity's value as the page's language does,
// with its unit: "30 %", "4.000 upita/s", "2 s".
func (b *builder) quantityValue(q engine.Quantity) func(float64) string {
	spec := engine.ConstantSpec{Name: q.Name, Unit: q.Unit}
	return func(v float64) string { return i18n.ConstantValue(b.lang, spec, v) }
}

// formulaNumber writes a number as the formulas do: bare, in the
// language's digits ("0,05" in French, whose formulas separate a
// function's arguments with a semicolon), the fewest decimals that show
// it, dollars with cents.
func formulaNumber(lang, unit string) func(float64) string {
	return func(v float64) string {
		if unit == "$/h" {
			return i18n.Number(lang, v, 2)
		}
		return i18n.Number(lang, v, decimals(v))
	}
}

// decimals is the number of decimals v needs to show exactly, at most 6.
func decimals(v float64) int {
	s := strings.TrimRight(strconv.FormatFloat(v, 'f', 6, 64), "0")
	return len(s) - 1 - strings.IndexByte(s, '.')
}
