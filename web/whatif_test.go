package web

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// branchStep is a step of a what-if request: a minute and its decisions.
func branchStep(at int, do ...map[string]any) map[string]any {
	if do == nil {
		do = []map[string]any{}
	}
	return map[string]any{"at": at, "do": do}
}

// A bad deploy left alone, branched at 09:15 with a rollback: the branch
// pages a few minutes where the shift paged for most of it, on the same
// traffic, and its series cover the whole shift for the charts.
func TestWhatIfRollsBackABadDeploy(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	var wi WhatIf
	ts.doJSON(t, "POST", "/api/whatif", map[string]any{"scenario": "bad-deploy", "seed": 7, "steps": []any{branchStep(15, map[string]any{"control": "rollback"})}}, &wi)
	if wi.At != 15 || wi.Then != "nothing" || wi.Replayed != 0 || wi.Dropped != 0 {
		t.Errorf("at %d, then %q, replayed %d, dropped %d", wi.At, wi.Then, wi.Replayed, wi.Dropped)
	}
	if wi.Played.PagingMinutes < 60 || wi.Outcome.PagingMinutes > 15 {
		t.Errorf("paging minutes: played %d, what if %d", wi.Played.PagingMinutes, wi.Outcome.PagingMinutes)
	}
	if wi.Outcome.Availability <= wi.Played.Availability || wi.Outcome.Requests != wi.Played.Requests {
		t.Errorf("availability %v → %v, requests %v → %v", wi.Played.Availability, wi.Outcome.Availability, wi.Played.Requests, wi.Outcome.Requests)
	}
	for _, name := range seriesNames {
		if len(wi.Series[name]) != wi.Played.Minutes {
			t.Errorf("series %s: %d minutes, want %d", name, len(wi.Series[name]), wi.Played.Minutes)
		}
	}
	// The autopilot's decisions before the minute are replayed, those
	// after it dropped.
	var pilot WhatIf
	ts.doJSON(t, "POST", "/api/whatif", map[string]any{"scenario": "bad-deploy", "seed": 7, "autopilot": map[string]any{"policy": "bad-deploy", "until": -1},
		"steps": []any{branchStep(100, map[string]any{"control": "autoscaling", "value": true})}}, &pilot)
	if pilot.Replayed == 0 || pilot.Outcome.PagingMinutes != pilot.Played.PagingMinutes {
		t.Errorf("the autopilot's shift branched late: replayed %d, paging %d → %d", pilot.Replayed, pilot.Played.PagingMinutes, pilot.Outcome.PagingMinutes)
	}
}

// The player's own decisions after the branch carry on with then
// "recorded", are dropped with "nothing", and the reference policy takes
// over with "reference": a shift that rolled back at 09:25, branched at
// 09:12 with nothing decided, pages as long as no policy with "nothing",
// as the shift played with "recorded", and less with the reference.
func TestWhatIfThen(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	branch := func(then string) WhatIf {
		var wi WhatIf
		ts.doJSON(t, "POST", "/api/whatif", map[string]any{"scenario": "bad-deploy", "seed": 7, "d": "25:rollback", "then": then, "steps": []any{branchStep(12)}}, &wi)
		return wi
	}
	nothing, recorded, ref := branch("nothing"), branch("recorded"), branch("reference")
	if nothing.Dropped != 1 || nothing.Kept != 0 || recorded.Kept != 1 || recorded.Dropped != 0 || ref.Dropped != 1 {
		t.Errorf("kept and dropped: nothing %d/%d, recorded %d/%d, reference %d/%d", nothing.Kept, nothing.Dropped, recorded.Kept, recorded.Dropped, ref.Kept, ref.Dropped)
	}
	if recorded.Outcome.BudgetUsed != recorded.Played.BudgetUsed {
		t.Errorf("then recorded with nothing changed: budget %v, the shift's %v", recorded.Outcome.BudgetUsed, recorded.Played.BudgetUsed)
	}
	if !(ref.Outcome.BudgetUsed < recorded.Outcome.BudgetUsed && recorded.Outcome.BudgetUsed < nothing.Outcome.BudgetUsed) {
		t.Errorf("budget used: reference %v, recorded %v, nothing %v: want the reference least and nobody most", ref.Outcome.BudgetUsed, recorded.Outcome.BudgetUsed, nothing.Outcome.BudgetUsed)
	}
}

func TestWhatIfErrors(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	for body, want := range map[string]string{
		`{"scenario": "bad-deploy", "seed": 7}`:                                                                                "steps: give 1 to 32 minutes to branch at",
		`{"scenario": "bad-deploy", "seed": 7, "steps": [{"at": 15, "do": [{"control": "rolback"}]}]}`:                         "steps[0].do[0]: unknown control",
		`{"scenario": "bad-deploy", "seed": 7, "steps": [{"at": 15, "do": [{"control": "shed", "value": 2}]}]}`:                "steps[0].do[0]: shed = 2 is out of range",
		`{"scenario": "bad-deploy", "seed": 7, "steps": [{"at": 15, "do": []}, {"at": 120, "do": [{"control": "rollback"}]}]}`: "steps[1].at: give a minute of the shift, 0 to 119",
		`{"scenario": "bad-deploy", "seed": 7, "steps": [{"do": [{"control": "rollback"}]}]}`:                                  "steps[0].at: give the minute of the step",
		`{"scenario": "bad-deploy", "seed": 7, "steps": [{"at": 3, "do": []}, {"at": 3, "do": []}]}`:                           "steps[1].at: minute 3 is given twice",
		`{"scenario": "bad-deploy", "seed": 7, "then": "later", "steps": [{"at": 3, "do": []}]}`:                               "is not nothing, recorded or reference",
		`{"scenario": "bad-deploy", "seed": 7, "whatever": 1, "steps": [{"at": 3, "do": []}]}`:                                 "whatever",
	} {
		rec := ts.do("POST", "/api/whatif", body)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %.300s; want 400 and %q", body, rec.Code, rec.Body.String(), want)
		}
	}
	// A scenario the console has no reference policy for cannot play on
	// with it.
	o := realOptions(t)
	o.Policies = slices.DeleteFunc(o.Policies, func(p PolicySource) bool { return p.Name == "bad-deploy" })
	rec := newTestServer(t, o).do("POST", "/api/whatif", `{"scenario": "bad-deploy", "seed": 7, "then": "reference", "steps": [{"at": 3, "do": []}]}`)
	if want := `has no reference policy to play on`; rec.Code != 400 || !strings.Contains(rec.Body.String(), want) {
		t.Errorf("no reference: %d %.300s; want 400 and %q", rec.Code, rec.Body.String(), want)
	}
}

// The autopilot's rules read the constants the scenario puts in force:
// surge boots new instances in 8 minutes, not the model's 3.
func TestAutopilotReadsTheScenariosConstants(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	src := "rule \"slow boots\"\n  when boot_delay == 8 && max_instances == 40\n  do   set_shed(0.1)\n"
	rec := ts.do("GET", "/api/trace?scenario=surge&seed=1&format=json&minute=3&source="+url.QueryEscape(src), "")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"rule": "slow boots"`) {
		t.Errorf("%d: the rule did not fire on surge's boot_delay of 8:\n%.600s", rec.Code, rec.Body.String())
	}
}
