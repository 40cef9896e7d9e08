package web

import (
	"net/url"
	"strings"
	"testing"
)

// A bad deploy left alone, branched at 09:15 with a rollback: the branch
// pages a few minutes where the shift paged for most of it, on the same
// traffic, and its series cover the whole shift for the charts.
func TestWhatIfRollsBackABadDeploy(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	var wi WhatIf
	ts.doJSON(t, "POST", "/api/whatif", map[string]any{"scenario": "bad-deploy", "seed": 7, "at": 15, "do": []map[string]any{{"control": "rollback"}}}, &wi)
	if wi.At != 15 || wi.Replayed != 0 || wi.Dropped != 0 {
		t.Errorf("at %d, replayed %d, dropped %d", wi.At, wi.Replayed, wi.Dropped)
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
		"at": 100, "do": []map[string]any{{"control": "autoscaling", "value": true}}}, &pilot)
	if pilot.Replayed == 0 || pilot.Outcome.PagingMinutes != pilot.Played.PagingMinutes {
		t.Errorf("the autopilot's shift branched late: replayed %d, paging %d → %d", pilot.Replayed, pilot.Played.PagingMinutes, pilot.Outcome.PagingMinutes)
	}
}

func TestWhatIfErrors(t *testing.T) {
	ts := newTestServer(t, realOptions(t))
	for body, want := range map[string]string{
		`{"scenario": "bad-deploy", "seed": 7, "at": 15}`:                                                "do: give 1 to 16 decisions",
		`{"scenario": "bad-deploy", "seed": 7, "at": 15, "do": [{"control": "rolback"}]}`:                "do[0]: unknown control",
		`{"scenario": "bad-deploy", "seed": 7, "at": 15, "do": [{"control": "shed", "value": 2}]}`:       "do[0]: shed = 2 is out of range",
		`{"scenario": "bad-deploy", "seed": 7, "at": 120, "do": [{"control": "rollback"}]}`:              "at: give the minute to branch at, 0 to 119",
		`{"scenario": "bad-deploy", "seed": 7, "do": [{"control": "rollback"}]}`:                         "at: give the minute to branch at",
		`{"scenario": "bad-deploy", "seed": 7, "at": 1, "whatever": 1, "do": [{"control": "rollback"}]}`: "whatever",
	} {
		rec := ts.do("POST", "/api/whatif", body)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %s; want 400 and %q", body, rec.Code, rec.Body.String(), want)
		}
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
