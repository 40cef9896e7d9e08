package main

import (
	"testing"
)

// A switch of the scenario's own replays as any decision: a trace whose
// policy turned the managed rules off and on again (waf-rules), branched
// where nothing is left to change, is the shift played, figure for
// figure; so is a share link that turns them off by hand; and turned off
// from the start in a branch of the shift left alone, they save the
// budget the release spends.
func TestWhatIfReplaysASwitch(t *testing.T) {
	e := newTestEnv(t)
	pol := record(t, e, "waf-rules", "--seed", "4", "--policy", "../../scripts/waf-rules.rules")
	same := whatIf(t, e, "waf-rules", "--replay", pol, "--at", "15:55", "--do", `switch("waf-rules", true)`)
	if same.Replayed < 2 || same.Dropped != 0 || len(same.Steps) != 1 || len(same.Steps[0].Do) != 1 || same.Steps[0].Do[0] != `switch("waf-rules", true)` {
		t.Errorf("replayed %d, dropped %d, steps %+v: the policy turned the rules off and on before 15:55", same.Replayed, same.Dropped, same.Steps)
	}
	for _, f := range same.Figures {
		if f.Played != f.WhatIf {
			t.Errorf("%s: played %v, what if %v: the switch's decisions replay as they were", f.Name, f.Played, f.WhatIf)
		}
	}
	link := whatIf(t, e, "waf-rules", "--replay", "?scenario=waf-rules&seed=4&d=40:switch.waf-rules=false", "--at", "15:55", "--do", "set_autoscaling(true)")
	if link.Replayed != 1 {
		t.Errorf("the link's switch was not replayed: %+v", link)
	}
	for _, f := range link.Figures {
		if f.Played != f.WhatIf {
			t.Errorf("link: %s: played %v, what if %v", f.Name, f.Played, f.WhatIf)
		}
	}
	none := record(t, e, "waf-rules", "--seed", "4")
	off := whatIf(t, e, "waf-rules", "--replay", none, "--at", "13:31", "--do", `switch("waf-rules", false)`)
	if p, w := off.figure(t, "budget_used"); w >= p/10 {
		t.Errorf("budget_used played %v, with the rules off from 13:31 %v: want a tenth at most", p, w)
	}
}
