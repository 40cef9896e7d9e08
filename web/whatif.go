package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/whatif"
)

// whatIfRequest is a finished shift, as the debrief sends it, with the
// steps of its branch and who decides at the other minutes.
type whatIfRequest struct {
	createRequest
	Steps []whatIfStep `json:"steps"`
	Then  string       `json:"then"` // "nothing" (or absent), "recorded" or "reference"
}

// whatIfStep is a minute of a branch and the decisions taken then.
type whatIfStep struct {
	At *int       `json:"at"`
	Do []Decision `json:"do"` // their minutes are not read: they take effect at At
}

// maxWhatIf bounds the decisions of a step (one a control is plenty), and
// maxSteps the minutes of a branch.
const (
	maxWhatIf = 16
	maxSteps  = 32
)

// WhatIf is the branch of a finished shift (package whatif, as `oncall run
// --replay` branches a trace): the decisions that took effect before its
// first step replayed (the player's and the autopilot's alike), each
// step's decisions taken at its minute, and at the other minutes from the
// first step on nobody, the recorded decisions or the reference policy
// deciding. Series are the branch's, for the charts, as the debrief's
// reference; Played and Outcome set the two outcomes side by side.
type WhatIf struct {
	At       int                  `json:"at"`       // the first step's minute
	Then     string               `json:"then"`     // who decided at the other minutes
	Replayed int                  `json:"replayed"` // recorded decisions before At
	Kept     int                  `json:"kept"`     // recorded decisions from At on kept (then recorded)
	Dropped  int                  `json:"dropped"`  // recorded decisions from At on left out
	Series   map[string][]float64 `json:"series"`
	Played   engine.Outcome       `json:"played"`
	Outcome  engine.Outcome       `json:"outcome"`
}

// whatIfHandler answers a branch of a finished shift. It replays the shift
// from the request, so that it needs no session.
func (s *Server) whatIfHandler(w http.ResponseWriter, r *http.Request) {
	var req whatIfRequest
	if err := readJSON(r, &req); err != nil {
		fail(w, err)
		return
	}
	_, sh, err := shiftOf(req.createRequest)
	if err != nil {
		fail(w, err)
		return
	}
	wi, err := s.whatIf(r, sh, req)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, wi)
}

func (s *Server) whatIf(r *http.Request, sh Shift, req whatIfRequest) (*WhatIf, error) {
	steps, err := readSteps(req.Steps)
	if err != nil {
		return nil, err
	}
	then, err := s.then(req.Then, sh.Scenario)
	if err != nil {
		return nil, err
	}
	sim, sc, _, err := s.finished(r.Context(), sh)
	if err != nil {
		return nil, err
	}
	played := shift.Shift{Scenario: sc, Seed: sh.Seed, Noise: sh.Noise, Decisions: shift.Recorded(sim.Rows()), Limits: s.limits}
	res, err := whatif.Run(r.Context(), whatif.Plan{Played: played, Steps: steps, Then: then})
	if err != nil {
		return nil, whatIfError(sh, err)
	}
	wi := &WhatIf{At: res.At, Then: cmp.Or(req.Then, "nothing"), Replayed: res.Replayed, Kept: res.Kept, Dropped: res.Dropped,
		Series: map[string][]float64{}, Played: res.Played.Outcome(), Outcome: res.Branch.Outcome()}
	brows := res.Branch.Rows()
	for _, name := range seriesNames {
		spec, _ := engine.LookupMetric(name)
		vs := make([]float64, len(brows))
		for i := range brows {
			vs[i] = spec.Get(&brows[i])
		}
		wi.Series[name] = vs
	}
	return wi, nil
}

// readSteps reads the steps of a branch: 1 to maxSteps, each at a minute
// with at most maxWhatIf decisions, the player's.
func readSteps(in []whatIfStep) ([]whatif.Step, error) {
	if len(in) == 0 || len(in) > maxSteps {
		return nil, apiError(http.StatusBadRequest, "ui.api.whatif_steps", "max", maxSteps)
	}
	steps := make([]whatif.Step, len(in))
	for i, st := range in {
		where := fmt.Sprintf("steps[%d].", i)
		if st.At == nil {
			return nil, at(where, apiError(http.StatusBadRequest, "ui.api.whatif_at_missing"))
		}
		if len(st.Do) > maxWhatIf {
			return nil, at(where, apiError(http.StatusBadRequest, "ui.api.whatif_do", "max", maxWhatIf))
		}
		steps[i].Minute = *st.At
		for j, d := range st.Do {
			a, err := d.action("player")
			if err != nil {
				return nil, at(fmt.Sprintf("%sdo[%d]: ", where, j), err)
			}
			steps[i].Actions = append(steps[i].Actions, a)
		}
	}
	return steps, nil
}

// then reads who decides at a branch's other minutes: nobody, the
// recorded decisions, or the scenario's reference policy.
func (s *Server) then(name, scenario string) (whatif.Then, error) {
	switch name {
	case "", "nothing":
		return whatif.Then{Who: whatif.Nobody}, nil
	case "recorded":
		return whatif.Then{Who: whatif.Recorded}, nil
	case "reference":
		if !slices.Contains(s.policyNames(), scenario) {
			return whatif.Then{}, apiError(http.StatusBadRequest, "ui.api.whatif_no_reference", "scenario", quoted(scenario, 40))
		}
		p, err := s.policy(&Autopilot{Policy: scenario, Until: -1})
		if err != nil {
			return whatif.Then{}, err
		}
		return whatif.Then{Who: whatif.Policy, Policy: p, Name: scenario}, nil
	}
	return whatif.Then{}, apiError(http.StatusBadRequest, "ui.api.whatif_then", "then", quoted(name, 20))
}

// whatIfError gives an error of a branch the status and words of the
// request's field it comes from.
func whatIfError(sh Shift, err error) error {
	var se *whatif.StepError
	var de *whatif.DecisionError
	var we *whatif.Error
	switch {
	case errors.As(err, &se) && se.Err == whatif.ErrTwice:
		return at(fmt.Sprintf("steps[%d].", se.Step), apiError(http.StatusBadRequest, "ui.api.whatif_twice", "minute", se.Minute))
	case errors.As(err, &se) && se.Err == whatif.ErrMinute:
		return at(fmt.Sprintf("steps[%d].", se.Step), apiError(http.StatusBadRequest, "ui.api.whatif_at", "last", se.Last))
	case errors.As(err, &de) && de.Step >= 0:
		return at(fmt.Sprintf("steps[%d].do[%d]: ", de.Step, de.Index), de.Err)
	case errors.As(err, &we) && !we.Branch:
		return shiftError(sh, we.Err)
	case errors.As(err, &we):
		return wrapped("ui.api.branch", shiftError(sh, we.Err))
	}
	return wrapped("ui.api.branch", err)
}
