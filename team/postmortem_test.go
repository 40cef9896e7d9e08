package team

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/scripts"
)

// played is a team's shift of bad-deploy on seed 42, played to its end:
// Alex commands, Budi operates, Citra communicates; the facilitator
// fires the database's slowdown; Budi rolls back after the page.
func played(t *testing.T) (*Hubs, *Live) {
	store, c := newMemStore(), newClock()
	h := console(store, c, "A")
	l := get(t, h, "blue")
	ctx := context.Background()
	join(t, l, "m1", "Alex", Commander)
	join(t, l, "m2", "Budi | *ops*", Operations)
	join(t, l, "m3", "Citra", Communications)
	must(t, l, Entry{Kind: Start, By: "m1", Name: "Alex", Role: Commander, Speed: 5})
	for l.state.Minute < 16 {
		c.add(time.Second)
		h.tick(ctx)
	}
	must(t, l, Entry{Kind: Inject, By: "facilitator", Role: Facilitator, Inject: "db-slow"})
	must(t, l, Entry{Kind: Status, By: "m3", Name: "Citra", Role: Communications, State: "investigating", Text: "Errors since the deploy of 4.2.0 [see](http://x)"})
	must(t, l, Entry{Kind: Decision, By: "m2", Name: "Budi | *ops*", Role: Operations, Control: "rollback", Late: 1})
	for !l.state.Over() {
		c.add(time.Second)
		h.tick(ctx)
	}
	must(t, l, Entry{Kind: Status, By: "m3", Name: "Citra", Role: Communications, State: "resolved", Text: "Rolled back to 4.1.9"})
	return h, l
}

func referencePolicy(t *testing.T) *policy.Program {
	src, err := scripts.Files.ReadFile("bad-deploy.rules")
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile("bad-deploy.rules", src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPostmortem: the draft of a played shift tells the page, the
// decision with who made it in which role and the dashboard then, the
// inject by its title, the reference's rollback beside it, and the grade
// of the scenario's criteria; its Markdown is pinned, names and texts
// escaped.
func TestPostmortem(t *testing.T) {
	_, l := played(t)
	v, err := l.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pm, err := Draw(context.Background(), PostmortemOf{View: v, Source: badDeploy, Title: badDeploy.Title(), Criteria: badDeploy.Grading(), Reference: referencePolicy(t), RefName: "bad-deploy"})
	if err != nil {
		t.Fatal(err)
	}
	if !pm.Done || pm.Impact.FirstPage < 0 || pm.FirstDecision < pm.Impact.FirstPage || pm.Grade == nil || pm.Reference == nil {
		t.Fatalf("postmortem %+v", pm)
	}
	var decision, inject, page, refRollback bool
	for _, m := range pm.Timeline {
		switch m.Kind {
		case "decision":
			decision = m.Who == "Budi | *ops*" && m.Role == Operations && m.Control == "rollback" && m.Metrics["error_rate"] > 0
		case "inject":
			inject = m.Title["en"] == "The database loses half its capacity for 20 minutes"
		case "page":
			page = true
		}
	}
	for _, m := range pm.Beside {
		refRollback = refRollback || m.Kind == "decision" && m.Control == "rollback" && m.Rule != ""
	}
	if !decision || !inject || !page || !refRollback {
		t.Errorf("decision %v, inject %v, page %v, the reference's rollback %v", decision, inject, page, refRollback)
	}
	text := pm.Markdown("en")
	if !strings.Contains(text, `Budi \| \*ops\*`) || strings.Contains(text, "[see](") {
		t.Error("a name or a text is not escaped")
	}
	goldentest.New(t, "testdata", ".md").Assert(t, "postmortem", []byte(text))
}
