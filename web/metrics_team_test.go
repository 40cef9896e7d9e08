package web

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/oncall-sim/oncall/internal/promtooltest"
)

// scrape reads the console's /metrics in the format accept asks for.
func (ts *testServer) scrape(t *testing.T, accept string) string {
	t.Helper()
	req := pageRequest("GET", "/metrics", "")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := ts.send(req)
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// TestMetricsScrapesALiveTeamGameDay: a team game day's console serves
// its live team shifts on /metrics, labelled by team, game day, scenario
// and seed, so that the team's own Prometheus scrapes it: promtool check
// metrics finds no problem in the scrape, whose figures are the team's
// last minute; a team that has not played a minute has no series yet.
func TestMetricsScrapesALiveTeamGameDay(t *testing.T) {
	ts := teamServer(t, memoryStore(t))
	if text := ts.scrape(t, ""); strings.Contains(text, "oncall_") {
		t.Fatalf("a console without team game days scrapes series:\n%.500s", text)
	}
	var d teamDayJSON
	ts.doJSON(t, "POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 42, "teams": []string{"Blue", "Rouge"}}, &d)
	tok := d.Teams[0].Token
	cmd := ts.join(t, tok, "Alex", "commander")
	for range 8 { // under the rate limit of ten actions a second, the join counted
		ts.act(cmd, "POST", "/api/teams/"+tok+"/act", `{"kind":"step"}`)
	}
	ts.doJSON(t, "GET", "/api/facilitate/"+d.Facilitator, nil, nil) // the facilitator's console holds every team
	var st struct {
		Rows []struct {
			Serving   float64 `json:"serving"`
			ErrorRate float64 `json:"error_rate"`
			Requests  float64 `json:"requests"`
		}
	}
	ts.doJSON(t, "GET", "/api/teams/"+tok, nil, &st)
	if len(st.Rows) != 8 {
		t.Fatalf("the team played %d minutes", len(st.Rows))
	}
	last := st.Rows[len(st.Rows)-1]
	labels := fmt.Sprintf(`team="Blue",gameday=%q,scenario="bad-deploy",seed="42"`, d.ID)
	text := ts.scrape(t, "")
	for _, want := range []string{
		fmt.Sprintf(`oncall_instances{%s,state="serving"} %v`, labels, last.Serving),
		fmt.Sprintf(`oncall_error_ratio{%s} %v`, labels, last.ErrorRate),
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("the scrape lacks %s:\n%.3000s", want, text)
		}
	}
	if strings.Contains(text, `team="Rouge"`) {
		t.Errorf("a team that has not played a minute has series:\n%.3000s", text)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if f := fams["oncall_requests_total"]; f == nil || len(f.Metric) != 1 || f.Metric[0].GetCounter().GetValue() <= last.Requests {
		t.Errorf("oncall_requests_total counts the requests of every minute so far: %v", f)
	}
	check := promtooltest.Command(t, "check", "metrics")
	check.Stdin = strings.NewReader(text)
	if out, err := check.CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
	om := ts.scrape(t, "application/openmetrics-text;version=1.0.0")
	if !strings.HasSuffix(om, "# EOF\n") || !strings.Contains(om, `oncall_instances{`+labels+`,state="serving"}`) {
		t.Errorf("the OpenMetrics scrape:\n%.3000s", om)
	}
}
