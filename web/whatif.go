package web

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// whatIfRequest is a finished shift, as the debrief sends it, with the
// minute to branch it at and the decisions to take then.
type whatIfRequest struct {
	createRequest
	At *int       `json:"at"`
	Do []Decision `json:"do"` // their minutes are not read: they take effect at At
}

// maxWhatIf bounds the decisions of a branch: one a control is plenty.
const maxWhatIf = 16

// WhatIf is the branch of a finished shift at a minute: the decisions that
// took effect before it replayed (the player's and the autopilot's alike),
// the decisions asked for taken then, and nobody deciding after, as
// `oncall run --replay` branches a trace. Series are the branch's, for the
// charts, as the debrief's reference; Played and Outcome set the two
// outcomes side by side.
type WhatIf struct {
	At       int                  `json:"at"`
	Replayed int                  `json:"replayed"` // decisions before At
	Dropped  int                  `json:"dropped"`  // decisions from At on, left out
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
	if len(req.Do) == 0 || len(req.Do) > maxWhatIf {
		return nil, apiError(http.StatusBadRequest, "ui.api.whatif_do", "max", maxWhatIf)
	}
	do := make([]engine.Action, len(req.Do))
	for i, d := range req.Do {
		a, err := d.action("player")
		if err != nil {
			return nil, at(fmt.Sprintf("do[%d]: ", i), err)
		}
		do[i] = a
	}
	sim, sc, _, err := s.finished(r.Context(), sh)
	if err != nil {
		return nil, err
	}
	rows := sim.Rows()
	if req.At == nil || *req.At < 0 || *req.At >= len(rows) {
		return nil, apiError(http.StatusBadRequest, "ui.api.whatif_at", "last", len(rows)-1)
	}
	minute := *req.At
	played := shift.Shift{Scenario: sc, Seed: sh.Seed, Noise: sh.Noise, Decisions: shift.Recorded(rows), Limits: s.limits}
	branch, first := played.Branch(minute, do)
	bsim, err := branch.Run(r.Context())
	if err != nil {
		var e *shift.Error
		if errors.As(err, &e) && e.Kind == shift.DecisionRefused && e.Decision >= first {
			return nil, at(fmt.Sprintf("do[%d]: ", e.Decision-first), e.Err)
		}
		return nil, wrapped("ui.api.branch", shiftError(sh, err))
	}
	wi := &WhatIf{At: minute, Replayed: first, Dropped: len(played.Decisions) - first, Series: map[string][]float64{}, Played: sim.Outcome(), Outcome: bsim.Outcome()}
	brows := bsim.Rows()
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
