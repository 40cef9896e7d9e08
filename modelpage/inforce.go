package modelpage

import (
	"slices"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// inForce writes the part of the page about the scenario: the seeds, its
// start, what it changes, its events, its surge and its page rule.
func (b *builder) inForce(seed *uint32) *InForce {
	t := func(key string, args ...any) string { return i18n.T(b.lang, key, args...) }
	d := b.d
	title := d.src.Title().In(b.lang)
	f := &InForce{Scenario: d.src.ID(), Heading: t(i18n.KeyScenario, "title", title+" ("+d.src.ID()+")"), Seed: seed,
		Hidden: b.hidden, Legend: t(i18n.KeyScenarioLegend)}
	line := func(s string) { f.Lines = append(f.Lines, s) }
	line(b.startLine())
	f.Lines = append(f.Lines, b.valueLines()...)
	f.Lines = append(f.Lines, b.eventLines()...)
	f.Lines = append(f.Lines, b.buildLines()...)
	if s := b.surgeLine(); s != "" {
		line(s)
	}
	if b.pageRule != "" {
		line(t(i18n.KeyScenarioPage, "rule", b.pageRule+"*"))
	}
	// Which seed, and what a range means, where it matters.
	var head []string
	switch {
	case seed != nil && b.hidden:
		head = append(head, t(i18n.KeyScenarioHidden, "seed", *seed))
		if br, ok := d.src.(briefer); ok && br.Briefing().In(b.lang) != "" {
			head = append(head, t(i18n.KeyScenarioBriefing, "briefing", br.Briefing().In(b.lang)))
		}
	case seed != nil:
		head = append(head, t(i18n.KeyScenarioSeed, "seed", *seed))
	}
	if b.varied {
		head = append(head, t(i18n.KeyScenarioSeeds, "first", d.first, "last", d.last))
	}
	f.Lines = append(head, f.Lines...)
	return f
}

// valueLines writes each control and constant the scenario sets away from
// its default, with the default.
func (b *builder) valueLines() []string {
	var lines []string
	value := func(label string, fig figure, one func(float64) string) {
		b.varied = b.varied || fig.varies()
		if fig.changed() {
			lines = append(lines, i18n.T(b.lang, i18n.KeyScenarioValue, "label", label, "value", fig.render(one, true), "default", one(fig.def)))
		}
	}
	for _, s := range engine.ControlSpecs() {
		if s.Kind != engine.KindAction {
			value(i18n.T(b.lang, i18n.ControlLabelKey(s.Name)), b.d.controlFigure(s.Control, b.chosen),
				func(v float64) string { return i18n.ControlValue(b.lang, s.Control, v) })
		}
	}
	for _, s := range engine.ConstantSpecs() {
		q, _ := engine.LookupQuantity(s.Name)
		value(i18n.T(b.lang, i18n.ConstantLabelKey(s.Name)), b.d.quantityFigure(q, b.chosen), b.quantityValue(q))
	}
	return lines
}

// eventLines writes the scenario's events with their time: the chosen
// seed's, or those every sampled seed shares; when they differ from seed to
// seed, a line says so.
func (b *builder) eventLines() []string {
	d := b.d
	events, start := d.runs[0].events, d.runs[0].setup.Start
	var lines []string
	switch {
	case b.chosen != nil:
		events, start = b.chosen.events, b.chosen.setup.Start
	case !d.sameEvents() && b.hidden:
		events = nil
		lines = append(lines, i18n.T(b.lang, i18n.KeyScenarioEventsLater))
	case !d.sameEvents():
		events = nil
		lines = append(lines, i18n.T(b.lang, i18n.KeyScenarioEventsVary))
	}
	b.varied = b.varied || !d.sameEvents()
	for _, e := range events {
		lines = append(lines, i18n.T(b.lang, i18n.KeyScenarioEvent, "time", engine.ClockString(start+e.minute), "event", i18n.EventText(b.lang, e.ev)))
	}
	return lines
}

// startLine writes when the scenario starts, for how long, and the state
// it starts in.
func (b *builder) startLine() string {
	d, c := b.d, b.chosen
	free := engine.FreePlay()
	share := func(v float64) string { return i18n.Percent(b.lang, v, decimals(v*100)) }
	clock := d.setupFigure(0, func(s engine.Setup) float64 { return float64(s.Start) }, c)
	clock.noMark = true
	minutes := d.setupFigure(0, func(s engine.Setup) float64 { return float64(s.Minutes) }, c)
	minutes.noMark = true
	budget := d.setupFigure(free.BudgetLeft, func(s engine.Setup) float64 { return s.BudgetLeft }, c)
	warm := d.setupFigure(free.Warm, func(s engine.Setup) float64 { return s.Warm }, c)
	instances := d.setupFigure(float64(free.Controls.MinInstances), func(s engine.Setup) float64 {
		if s.Instances == 0 {
			return float64(s.Controls.MinInstances)
		}
		return float64(s.Instances)
	}, c)
	for _, f := range []figure{clock, minutes, budget, warm, instances} {
		b.varied = b.varied || f.varies()
	}
	return i18n.T(b.lang, i18n.KeyScenarioStart,
		"start", clock.render(func(v float64) string { return engine.ClockString(int(v)) }, true),
		"duration", minutes.render(func(v float64) string { return i18n.Minutes(b.lang, int(v)) }, true),
		"budget", budget.render(share, true),
		"warm", warm.render(share, true),
		"instances", instances.render(func(v float64) string { return i18n.Number(b.lang, v, 0) }, true))
}

// surgeLine writes the surge's peak and when it is first reached, or ""
// when no run has a surge.
func (b *builder) surgeLine() string {
	peakOf := func(r *run) (float64, float64) {
		peak, at := 1.0, 0
		for m, v := range r.surge {
			if v > peak {
				peak, at = v, m
			}
		}
		return peak, float64(r.setup.Start + at)
	}
	peak, when := figure{def: 1}, figure{noMark: true}
	for i := range b.d.runs {
		p, w := peakOf(&b.d.runs[i])
		peak.all = append(peak.all, series{{0, p}})
		when.all = append(when.all, series{{0, w}})
	}
	if b.chosen != nil {
		p, w := peakOf(b.chosen)
		peak.chosen, when.chosen = series{{0, p}}, series{{0, w}}
	}
	if !slices.ContainsFunc(append(peak.all, peak.chosen), func(s series) bool { return len(s) > 0 && s[0].v != 1 }) {
		return ""
	}
	b.varied = b.varied || peak.varies() || when.varies()
	return i18n.T(b.lang, i18n.KeyScenarioSurge,
		"peak", peak.render(func(v float64) string { return i18n.Number(b.lang, v, 2) }, true),
		"time", when.render(func(v float64) string { return engine.ClockString(int(v)) }, true))
}

// buildLines writes, for the instructor, what each build the scenario
// deploys does: when it ships, its rollout, the share of its requests it
// fails, its CPU factor and its leak, each as the chosen seed draws it and
// over the sampled seeds. The learner's page has no such line: production
// shows a deploy by its name. A build is followed by its place among the
// deploys (the first, the second, ...) in every run that ships as many.
func (b *builder) buildLines() []string {
	d := b.d
	if d.view != engine.Instructor {
		return nil
	}
	n := len(d.runs[0].builds)
	for _, r := range d.runs[1:] {
		n = min(n, len(r.builds))
	}
	if b.chosen != nil {
		n = min(n, len(b.chosen.builds))
	}
	var lines []string
	for k := range n {
		prop := func(def float64, get func(timedEvent, *run) float64) figure {
			return d.figureOf(def, func(r *run) series {
				return series{{r.setup.Start, get(r.builds[k], r)}}
			}, b.chosen)
		}
		at := prop(0, func(e timedEvent, r *run) float64 { return float64(r.setup.Start + e.minute) })
		at.noMark = true
		rollout := prop(0, func(e timedEvent, _ *run) float64 { return e.ev.Value })
		rollout.noMark = true
		errs := prop(0, func(e timedEvent, _ *run) float64 { return e.ev.Build.ErrorRate })
		cpu := prop(1, func(e timedEvent, _ *run) float64 { return 1 + e.ev.Build.ExtraCPU })
		leak := prop(0, func(e timedEvent, _ *run) float64 { return e.ev.Build.LeakMSPerMin })
		for _, f := range []figure{at, rollout, errs, cpu, leak} {
			b.varied = b.varied || f.varies()
		}
		name := d.runs[0].builds[k].ev.Name
		if b.chosen != nil {
			name = b.chosen.builds[k].ev.Name
		}
		lines = append(lines, i18n.T(b.lang, i18n.KeyScenarioBuild,
			"build", name,
			"time", at.render(func(v float64) string { return engine.ClockString(int(v)) }, true),
			"rollout", rollout.render(func(v float64) string { return i18n.Minutes(b.lang, int(v)) }, true),
			"error_rate", errs.render(func(v float64) string { return i18n.Percent(b.lang, v, decimals(v*100)) }, true),
			"cpu", cpu.render(func(v float64) string { return i18n.Number(b.lang, v, decimals(v)) }, true),
			"leak", leak.render(func(v float64) string { return i18n.Number(b.lang, v, decimals(v)) }, true)))
	}
	return lines
}
