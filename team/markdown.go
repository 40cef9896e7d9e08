package team

import (
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// ImpactFigures are the outcome figures a postmortem's impact sets beside
// the reference's, in order.
var ImpactFigures = []string{"error_requests", "budget_used", "paging_minutes", "minutes_to_mitigate", "cost", "availability"}

// Markdown writes the postmortem in a language of the catalogue: the
// draft's line, a summary, the impact beside the reference's, the
// timeline with the dashboard's figures, the reference's timeline, the
// grade, the members, and the headings the team fills in. Every text a
// person wrote (names, notes, status updates, messages) is escaped, so
// that it reads as written and makes no link, table or heading.
func (pm *Postmortem) Markdown(lang string) string {
	w := &mdWriter{lang: lang, labels: pm.Labels}
	title := pm.Title.In(lang)
	w.line("# " + w.t("ui.team.pm.title", "team", md(pm.Name), "title", md(title)))
	w.line("")
	w.line("_" + w.t("ui.team.pm.draft", "team", md(pm.Name), "title", md(title), "seed", fmt.Sprint(pm.Seed), "start", pm.Start, "end", pm.End) + "_")
	if !pm.Done {
		w.line("")
		w.line("_" + w.t("ui.team.pm.under_way", "n", i18n.Number(lang, float64(pm.Played), 0), "total", i18n.Number(lang, float64(pm.Minutes), 0)) + "_")
	}
	w.section("ui.team.pm.summary")
	w.line(strings.Join(pm.Summary(lang), " "))
	w.section("ui.team.pm.impact")
	pm.impact(w)
	w.section("ui.team.pm.timeline")
	w.moments(pm.Timeline, false)
	if pm.RefName != "" {
		w.line("")
		w.line("## " + w.t("ui.team.pm.beside", "policy", md(pm.RefName)))
		w.line("")
		w.moments(pm.Beside, true)
	}
	if g := pm.Grade; g != nil {
		w.section("ui.team.pm.grade")
		pm.grade(w, g)
	}
	w.section("ui.team.pm.members")
	for _, m := range pm.Members {
		left := ""
		if m.Left {
			left = " " + w.t("ui.team.pm.left")
		}
		w.line("- " + md(m.Name) + ", " + w.t("ui.team.role."+string(m.Role)) + left)
	}
	for _, k := range []string{"ui.team.pm.well", "ui.team.pm.better", "ui.team.pm.actions"} {
		w.section(k)
		w.line("_" + w.t("ui.team.pm.fill") + "_")
	}
	return w.b.String()
}

// Summary is the postmortem's summary in a language, a sentence each:
// who played what, the page, the team's first decision after it, the
// budget used beside the reference's, the injects, what stopped the run.
func (pm *Postmortem) Summary(lang string) []string {
	w := &mdWriter{lang: lang, labels: pm.Labels}
	var out []string
	var names []string
	for _, m := range pm.Members {
		if !m.Left {
			names = append(names, md(m.Name))
		}
	}
	out = append(out, w.t("ui.team.pm.played", "team", md(pm.Name), "members", strings.Join(names, ", "), "title", md(pm.Title.In(lang)), "seed", fmt.Sprint(pm.Seed), "start", pm.Start, "end", pm.End))
	o := pm.Impact
	if o.FirstPage < 0 {
		out = append(out, w.t("ui.team.pm.no_page"))
	} else {
		out = append(out, w.t("ui.team.pm.paged", "time", pm.clock(o.FirstPage), "n", i18n.Minutes(lang, o.PagingMinutes)))
		if pm.FirstDecision >= 0 {
			out = append(out, w.t("ui.team.pm.first", "time", pm.clock(pm.FirstDecision)))
		} else {
			out = append(out, w.t("ui.team.pm.no_first"))
		}
	}
	if pm.Reference != nil {
		out = append(out, w.t("ui.team.pm.budget_ref", "used", i18n.Percent(lang, o.BudgetUsed, 2), "reference", i18n.Percent(lang, pm.Reference.BudgetUsed, 2), "policy", md(pm.RefName)))
	} else {
		out = append(out, w.t("ui.team.pm.budget", "used", i18n.Percent(lang, o.BudgetUsed, 2)))
	}
	var injects []string
	for _, m := range pm.Timeline {
		if m.Kind == string(Inject) {
			injects = append(injects, md(m.Title.In(lang))+" ("+m.Time+")")
		}
	}
	if len(injects) > 0 {
		out = append(out, w.t("ui.team.pm.injects", "list", strings.Join(injects, "; ")))
	}
	if pm.Stopped != "" {
		out = append(out, w.t("ui.team.pm.stopped", "reason", md(pm.Stopped)))
	}
	return out
}

// clock is the time of day at minute m of the shift.
func (pm *Postmortem) clock(m int) string { return engine.ClockString(pm.StartMinute + m) }

func (pm *Postmortem) impact(w *mdWriter) {
	head := []string{"", w.t("ui.team.pm.col_team")}
	if pm.Reference != nil {
		head = append(head, w.t("ui.team.pm.col_reference", "policy", md(pm.RefName)))
	}
	w.row(head...)
	w.rule(len(head))
	for _, name := range ImpactFigures {
		spec := engine.FigureSpec(name)
		cells := []string{w.t(i18n.OutcomeLabelKey(name)), figure(w.lang, name, spec.Get(&pm.Impact))}
		if pm.Reference != nil {
			cells = append(cells, figure(w.lang, name, spec.Get(pm.Reference)))
		}
		w.row(cells...)
	}
}

// figure writes an outcome figure by its unit, as the postmortem shows it.
func figure(lang, name string, v float64) string {
	spec := engine.FigureSpec(name)
	switch spec.Unit {
	case "share":
		return i18n.Percent(lang, v, 2)
	case "$":
		return i18n.Money(lang, v)
	case "min":
		return i18n.Minutes(lang, int(v))
	case "ms":
		return i18n.Number(lang, v, 0) + " ms"
	case "s":
		return i18n.Number(lang, v, 0) + " s"
	}
	return i18n.Number(lang, v, min(spec.Decimals, 2))
}

func (pm *Postmortem) grade(w *mdWriter, g *Grade) {
	w.row(w.t("ui.team.pm.col_criterion"), w.t("ui.team.pm.col_bound"), w.t("ui.team.pm.col_team"), w.t("ui.team.pm.col_reference", "policy", md(pm.RefName)), w.t("ui.team.pm.col_points"))
	w.rule(5)
	for _, c := range g.Criteria {
		op := w.t("ui.team.pm.at_most")
		if c.Op == "at_least" {
			op = w.t("ui.team.pm.at_least")
		}
		w.row(w.t(i18n.OutcomeLabelKey(c.Metric)), op+" "+figure(w.lang, c.Metric, c.Limit), figure(w.lang, c.Metric, c.Value), figure(w.lang, c.Metric, c.Reference),
			i18n.Number(w.lang, c.Points, 2)+" / "+i18n.Number(w.lang, c.Weight, 0))
	}
	w.line("")
	w.line(w.t("ui.team.pm.score", "score", i18n.Number(w.lang, g.Score, 2), "max", i18n.Number(w.lang, g.Max, 0)))
}

// What says what a moment is, in a language: a control and a switch of
// the scenario's own by the labels the scenario gives them (labels, by
// name; nil: the catalogue's words).
func (m Moment) What(lang string, labels i18n.Labels) string {
	w := &mdWriter{lang: lang, labels: labels}
	if key, ok := plainMoments[m.Kind]; ok {
		return w.t(key)
	}
	switch Kind(m.Kind) {
	case Decision:
		return m.decision(w)
	case Status:
		return w.t("ui.team.pm.what_status", "state", w.t("ui.team.state."+m.State), "text", md(m.Text))
	case Note:
		return w.t("ui.team.pm.what_note", "text", md(m.Text))
	case Message:
		return w.t("ui.team.pm.what_message", "text", md(m.Text))
	case Inject:
		return w.t("ui.team.pm.what_inject", "title", md(m.Title.In(lang)))
	case Assign:
		return w.t("ui.team.pm.what_role", "member", md(m.Member), "role", w.t("ui.team.role."+string(m.Role)))
	case Join:
		return w.t("ui.team.pm.what_join", "member", md(m.Member), "role", w.t("ui.team.role."+string(m.Role)))
	case Leave:
		return w.t("ui.team.pm.what_leave", "member", md(m.Member))
	case Speed:
		return w.t("ui.team.pm.what_speed", "n", i18n.Number(lang, float64(m.Speed), 0))
	}
	switch engine.EventKind(m.Kind) {
	case engine.EventDeploy:
		return w.t("ui.team.pm.what_deploy", "build", md(m.Build))
	case engine.EventSay:
		return md(m.Title.In(lang))
	}
	return md(m.Kind)
}

// plainMoments are the moments said in words alone, by kind.
var plainMoments = map[string]string{
	string(Start): "ui.team.pm.what_start", string(Pause): "ui.team.pm.what_pause", string(Step): "ui.team.pm.what_step",
	string(engine.EventPage): "ui.team.pm.what_page", string(engine.EventResolve): "ui.team.pm.what_resolve",
	string(engine.EventRollbackDone): "ui.team.pm.what_rollback",
}

// decision says a decision: the control (a switch of the scenario's own,
// or a control it relabels, by its label), its value, and how late it
// came.
func (m Moment) decision(w *mdWriter) string {
	a, err := engine.ActionNamed(m.Control, m.Value)
	if err != nil {
		return md(m.Control)
	}
	s := md(w.labels.Label(w.lang, m.Control))
	if v := i18n.ControlValue(w.lang, a.Control, m.Value); v != "" {
		s += " = " + v
	}
	if m.Late > 0 {
		s += " " + w.t("ui.team.pm.late", "n", i18n.Minutes(w.lang, m.Late))
	}
	return s
}

// mdWriter writes Markdown in a language, a control by the label its
// scenario gives it.
type mdWriter struct {
	lang   string
	labels i18n.Labels
	b      strings.Builder
}

func (w *mdWriter) t(key string, args ...string) string {
	vals := make([]any, len(args))
	for i, a := range args {
		if i%2 == 1 {
			a = i18n.Isolate(w.lang, a)
		}
		vals[i] = a
	}
	return i18n.T(w.lang, key, vals...)
}

func (w *mdWriter) line(s string) { w.b.WriteString(s + "\n") }

func (w *mdWriter) section(key string) {
	w.line("")
	w.line("## " + w.t(key))
	w.line("")
}

func (w *mdWriter) row(cells ...string) { w.line("| " + strings.Join(cells, " | ") + " |") }

func (w *mdWriter) rule(n int) { w.line("|" + strings.Repeat("---|", n)) }

// moments writes a timeline as a table, the dashboard's figures of each
// moment beside it; the reference's names the rule that decided.
func (w *mdWriter) moments(ms []Moment, reference bool) {
	head := []string{w.t("ui.team.pm.col_time"), w.t("ui.team.pm.col_who"), w.t("ui.team.pm.col_role"), w.t("ui.team.pm.col_what")}
	if reference {
		head = []string{w.t("ui.team.pm.col_time"), w.t("ui.team.pm.col_rule"), w.t("ui.team.pm.col_what")}
	}
	for _, name := range MomentMetrics {
		head = append(head, w.t(i18n.MetricLabelKey(name)))
	}
	w.row(head...)
	w.rule(len(head))
	for _, m := range ms {
		cells := []string{m.Time, md(m.Who), ""}
		if m.Role != "" && m.Kind != string(Assign) && m.Kind != string(Join) {
			cells[2] = w.t("ui.team.role." + string(m.Role))
		}
		if reference {
			cells = []string{m.Time, md(m.Rule)}
		}
		cells = append(cells, m.What(w.lang, w.labels))
		for _, name := range MomentMetrics {
			v, ok := m.Metrics[name]
			switch {
			case !ok:
				cells = append(cells, "")
			case name == "paging":
				cells = append(cells, w.t(map[bool]string{true: "switch.on", false: "switch.off"}[v == 1]))
			default:
				cells = append(cells, metricText(w.lang, name, v))
			}
		}
		w.row(cells...)
	}
}

// metricText writes a metric's value by its unit.
func metricText(lang, name string, v float64) string {
	spec, err := engine.LookupMetric(name)
	if err != nil {
		return i18n.Number(lang, v, 2)
	}
	switch spec.Unit {
	case "share":
		return i18n.Percent(lang, v, 2)
	case "×":
		return i18n.Burn(lang, v)
	case "ms":
		return i18n.Number(lang, v, 0) + " ms"
	}
	return i18n.Number(lang, v, 0)
}

// md escapes a text for Markdown: what would make a link, an emphasis, a
// table's cell, a heading or HTML reads as written, on one line.
func md(s string) string {
	var b strings.Builder
	for _, r := range CleanText(s) {
		if strings.ContainsRune("\\`*_{}[]<>#|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
