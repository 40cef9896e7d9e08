package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// meta describes what the page draws: controls, metrics, outcome figures,
// scenarios, policies, languages and limits. What belongs to one shift
// (the tiles' levels, the bounds on its charts, the lines of its timeline)
// comes with the shift.
func (s *Server) meta(w http.ResponseWriter, r *http.Request) {
	type control struct {
		Name    string  `json:"name"`
		Kind    string  `json:"kind"`
		Min     float64 `json:"min"`
		Max     float64 `json:"max"`
		Default float64 `json:"default"`
		Unit    string  `json:"unit"`
		Doc     string  `json:"doc"`
	}
	type metric struct {
		Name     string `json:"name"`
		Unit     string `json:"unit"`
		Decimals int    `json:"decimals"`
		Kind     string `json:"kind"`
		Control  bool   `json:"control,omitempty"`
	}
	type scenario struct {
		ID       string      `json:"id"`
		Title    engine.Text `json:"title"`
		Briefing engine.Text `json:"briefing"`
	}
	kinds := map[engine.ControlKind]string{engine.KindInt: "int", engine.KindBool: "bool", engine.KindFloat: "float", engine.KindAction: "action"}
	mkinds := map[engine.MetricKind]string{engine.Number: "number", engine.Integer: "int", engine.Boolean: "bool"}
	var out struct {
		Controls  []control         `json:"controls"`
		Metrics   []metric          `json:"metrics"`
		Outcomes  []metric          `json:"outcomes"`
		Scenarios []scenario        `json:"scenarios"`
		Policies  []string          `json:"policies"`
		Titles    map[string]string `json:"policy_titles"`
		Autopilot bool              `json:"autopilot"`
		Languages []i18n.Language   `json:"languages"`
		Lang      string            `json:"lang"` // the browser's best match
		Limits    map[string]int    `json:"limits"`
	}
	for _, c := range engine.ControlSpecs() {
		out.Controls = append(out.Controls, control{c.Name, kinds[c.Kind], c.Min, c.Max, c.Default, c.Unit, c.Doc})
	}
	for _, m := range engine.MetricSpecs() {
		out.Metrics = append(out.Metrics, metric{m.Name, m.Unit, m.Decimals, mkinds[m.Kind], m.Control})
	}
	for _, o := range engine.OutcomeSpecs() {
		out.Outcomes = append(out.Outcomes, metric{Name: o.Name, Unit: o.Unit, Decimals: o.Decimals, Kind: "number"})
	}
	for _, id := range s.order {
		sc := s.scenarios[id]
		out.Scenarios = append(out.Scenarios, scenario{id, sc.Title(), sc.Briefing()})
	}
	out.Policies = s.policyNames()
	out.Titles = map[string]string{}
	for _, p := range s.opts.Policies {
		if t := policyTitle(p.Source); t != "" {
			out.Titles[p.Name] = t
		}
	}
	out.Autopilot = s.opts.Compile != nil
	out.Languages = i18n.Languages()
	out.Lang = i18n.Match(r.Header.Get("Accept-Language"))
	out.Limits = map[string]int{"max_step": maxStep, "max_body": maxBody, "max_decisions": maxDecisions}
	writeJSON(w, http.StatusOK, out)
}

// messages serves one language's catalogue.
func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	lang := r.PathValue("lang")
	if _, ok := i18n.Lookup(lang); !ok || lang != strings.ToLower(lang) {
		near := i18n.Nearest(lang)
		fail(w, apiError(http.StatusNotFound, hinted(near, "ui.api.language_unknown", "ui.api.language_unknown_hint"), "lang", strconv.Quote(clip(lang, 20)), "hint", near, "list", strings.Join(i18n.Codes(), ", ")))
		return
	}
	payload := i18n.Payload
	if strings.HasSuffix(r.URL.Path, "/team") {
		payload = i18n.TeamPayload
	}
	serveBytes(w, r, "application/json; charset=utf-8", payload(lang))
}

// policyTitle names a policy for the autopilot's menu: the words of its
// file's first comment before a colon, "# Rollback on page: the simplest
// answer..." is "Rollback on page"; "" when the file does not open so.
func policyTitle(src string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(src), "\n")
	text, ok := strings.CutPrefix(line, "#")
	if !ok {
		return ""
	}
	title, _, found := strings.Cut(text, ":")
	title = strings.TrimSpace(title)
	if !found || title == "" || len(title) > 48 {
		return ""
	}
	return title
}
