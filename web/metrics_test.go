package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/metricsout"
	"github.com/oncall-sim/oncall/shift"
)

// twoTeams is a test double of a game day's live shifts: two teams on
// free play, part way through.
type twoTeams []metricsout.Run

func (t twoTeams) LiveShifts() []metricsout.Run { return t }

func TestMetricsServesTheLiveShifts(t *testing.T) {
	var live twoTeams
	for i, team := range []string{"blue", "red"} {
		sim, err := shift.Shift{Scenario: shift.SourceFunc(freePlay), Seed: uint32(7 + i), Noise: true, Minutes: 30 + i}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		run := metricsout.OfTrace(sim.Trace(), sim.Setup(), metricsout.DefaultDate, engine.Learner)
		run.Labels = append([]metricsout.Label{{Name: "team", Value: team}}, run.Labels...)
		live = append(live, run)
	}
	s, err := New(Options{Live: live})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, c := range []struct{ accept, ctype, end string }{
		{"", "text/plain; version=0.0.4", ""},
		{"application/openmetrics-text;version=1.0.0", "application/openmetrics-text", "# EOF\n"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/metrics", nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text := string(body)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctype) || !strings.HasSuffix(text, c.end) {
			t.Fatalf("%q: %d %s:\n%.500s", c.accept, resp.StatusCode, resp.Header.Get("Content-Type"), text)
		}
		for _, want := range []string{`oncall_instances{team="blue",scenario="free-play",seed="7",state="serving"} 10`,
			`oncall_requests_total{team="red",scenario="free-play",seed="8"}`} {
			if !strings.Contains(text, want) {
				t.Errorf("%q: the scrape lacks %s:\n%.2000s", c.accept, want, text)
			}
		}
	}
}

// freePlay is free play, with no script.
func freePlay(*budget.Meter, uint32) (engine.Scenario, engine.Setup, error) {
	return nil, engine.FreePlay(), nil
}
