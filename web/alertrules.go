package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/oncall-sim/oncall/alerts"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/metricsout"
)

// alertRulesRequest is a finished shift, as the debrief sends it, and a
// team's Prometheus rule file to evaluate over it.
type alertRulesRequest struct {
	createRequest
	File  string `json:"file"`  // the file's name, for its diagnostics
	Rules string `json:"rules"` // its text
}

// MaxRuleFile bounds a rule file sent to the debrief: a team's rules are
// a few kilobytes, and the request's body (maxBody) carries the shift too.
const MaxRuleFile = 128 << 10

// ruleWait is how long a request waits for the evaluation before it (a
// rule file is evaluated at a time: one at the bound of alerts'
// DefaultLimits holds some 50 MiB).
const ruleWait = 10 * time.Second

// AlertRules is what a rule file's alerting rules did over a finished
// shift, evaluated as `oncall alerts test` evaluates a run: the shift's
// incidents and, for each alert and then the built-in page, the stretches
// of minutes it fired and its score against the incidents.
type AlertRules struct {
	File      string        `json:"file"`
	Incidents []alerts.Span `json:"incidents"`
	Alerts    []AlertFired  `json:"alerts"`
	Silent    []SilentRule  `json:"silent"`
}

// AlertFired is an alert of the file, or the built-in page, over the shift.
type AlertFired struct {
	Name       string        `json:"name"`
	Builtin    bool          `json:"builtin,omitempty"`
	At         string        `json:"at,omitempty"` // file:line:col of its expression
	Firing     []alerts.Span `json:"firing"`
	Detected   int           `json:"detected"`
	Detection  *float64      `json:"detection_min"` // median minutes to detect; null without a detection
	FalsePages int           `json:"false_pages"`
}

// SilentRule is a selector of a rule that selected no series of the
// shift: the rule cannot fire on it.
type SilentRule struct {
	Rule     string `json:"rule"`
	At       string `json:"at"`
	Selector string `json:"selector"`
}

// alertRulesHandler evaluates a rule file over a finished shift. It
// replays the shift from the request, so that it needs no session. A file
// that does not load is a 422 whose message is its diagnostics, at
// file:line:col with Prometheus' messages, as `oncall alerts test` prints
// them; a rule that passes a bound of the evaluation is a 422 that says
// which.
func (s *Server) alertRulesHandler(w http.ResponseWriter, r *http.Request) {
	var req alertRulesRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	_, sh, err := shiftOf(req.createRequest)
	if err != nil {
		fail(w, err)
		return
	}
	rules, err := loadRules(req.File, req.Rules)
	if err != nil {
		fail(w, err)
		return
	}
	sim, _, _, err := s.finished(r.Context(), sh)
	if err != nil {
		fail(w, err)
		return
	}
	setup := sim.Setup()
	run := metricsout.OfTrace(sim.Trace(), setup, metricsout.DefaultDate, engine.Learner)
	on, err := s.evaluateRules(r.Context(), rules, run, 1-setup.Constants.SLO, setup.Constants.SLODays*1440)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, alertRulesOf(rules.File, on))
}

// loadRules reads a rule file as `oncall alerts test` reads one.
func loadRules(file, src string) (*alerts.Rules, error) {
	switch {
	case strings.TrimSpace(src) == "":
		return nil, apiError(http.StatusBadRequest, "ui.api.rules_missing")
	case len(src) > MaxRuleFile:
		return nil, apiError(http.StatusRequestEntityTooLarge, "ui.api.rules_large", "kb", (len(src)+1023)>>10, "max", MaxRuleFile>>10)
	}
	rules, err := alerts.Load(ruleFileName(file), []byte(src))
	if err != nil {
		return nil, &httpError{status: http.StatusUnprocessableEntity, msg: rendered(err)}
	}
	if len(rules.Alerting()) == 0 {
		return nil, apiError(http.StatusUnprocessableEntity, "ui.api.rules_no_alert", "file", quoted(rules.File, 60))
	}
	return rules, nil
}

// ruleFileName is the name a rule file's diagnostics give it: the base of
// the name sent, printable, at most 60 letters; rules.yml without one.
func ruleFileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, name)
	if name = clip(strings.TrimSpace(name), 60); name == "" {
		return "rules.yml"
	}
	return name
}

// evaluateRules runs the rules over the shift within alerts'
// DefaultLimits, the bounds of `oncall alerts test`, one file at a time.
func (s *Server) evaluateRules(ctx context.Context, rules *alerts.Rules, run metricsout.Run, allowed, period float64) (*alerts.OnShift, error) {
	wait, cancel := context.WithTimeout(ctx, ruleWait)
	defer cancel()
	select {
	case s.ruleSlot <- struct{}{}:
		defer func() { <-s.ruleSlot }()
	case <-wait.Done():
		return nil, apiError(http.StatusServiceUnavailable, "ui.api.rules_busy")
	}
	on, err := alerts.NewEvaluator(rules, alerts.DefaultLimits).Shift(ctx, run, allowed, period)
	var ee *alerts.EvalError
	switch {
	case errors.As(err, &ee):
		return nil, apiError(http.StatusUnprocessableEntity, "ui.api.rules_stopped", "error", ee.Unflagged())
	case err != nil:
		return nil, err
	}
	return on, nil
}

// alertRulesOf is the answer of a shift's evaluation.
func alertRulesOf(file string, on *alerts.OnShift) *AlertRules {
	out := &AlertRules{File: file, Incidents: []alerts.Span{}, Alerts: []AlertFired{}, Silent: []SilentRule{}}
	for _, inc := range on.Incidents {
		out.Incidents = append(out.Incidents, alerts.Span{From: inc.Start, To: inc.End})
	}
	for _, a := range on.Alerts {
		f := AlertFired{Name: a.Name, Builtin: a.Builtin, Firing: a.Firing, Detected: a.Line.Detected,
			Detection: a.Line.DetectionMedian, FalsePages: a.Line.FalsePages}
		if !a.Builtin {
			f.At = a.Pos.String()
		}
		if f.Firing == nil {
			f.Firing = []alerts.Span{}
		}
		out.Alerts = append(out.Alerts, f)
	}
	for _, sl := range on.Silent {
		out.Silent = append(out.Silent, SilentRule{Rule: sl.Rule.Name, At: sl.Rule.Pos.String(), Selector: sl.Selector})
	}
	return out
}
