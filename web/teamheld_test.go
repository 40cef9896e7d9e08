package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTeamReplicasCountInMemory: the console's replica of a team's shift
// is counted in the console's held total (--max-memory's), weighed as a
// session's run is; once its game day is deleted (as oncall gameday
// delete does, on the store), the console lets go of it: the total goes
// back, the scrape no longer has the team, and its link is a 404.
func TestTeamReplicasCountInMemory(t *testing.T) {
	store := memoryStore(t)
	ts := teamServer(t, store)
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 11, "teams": []string{"Blue"}}, &d)
	tok := d.Teams[0].Token
	cmd := ts.join(t, tok, "Alex", "commander")
	for range 6 {
		ts.act(cmd, "POST", "/api/teams/"+tok+"/act", `{"kind":"step"}`)
	}
	shifts := ts.TeamShifts()
	if len(shifts) != 1 || len(shifts[0].Rows) != 6 {
		t.Fatalf("the console's team shifts: %+v", shifts)
	}
	held, _ := weigh(shifts[0].Rows)
	if got := ts.HeldMemory(); held == 0 || got != held {
		t.Errorf("the console holds %d, want the replica's run, %d", got, held)
	}
	if err := store.Delete(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ts.HeldMemory() != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a minute after its game day was deleted, the console still holds %d", ts.HeldMemory())
		}
	}
	if text := ts.scrape(t, ""); strings.Contains(text, `team="Blue"`) {
		t.Errorf("the scrape still has the deleted team:\n%.1000s", text)
	}
	if rec := ts.do("GET", "/api/teams/"+tok, ""); rec.Code != http.StatusNotFound {
		t.Errorf("the deleted team's link: %d %s", rec.Code, rec.Body)
	}
}
