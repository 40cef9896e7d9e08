package metricsout

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/oncall-sim/oncall/engine"
)

// dashboard is what the test reads of the Grafana dashboard: every query
// of a panel, an annotation or a variable.
type dashboard struct {
	Panels []struct {
		Title   string `json:"title"`
		Type    string `json:"type"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query any    `json:"query"`
		} `json:"list"`
	} `json:"templating"`
	Annotations struct {
		List []struct {
			Name string `json:"name"`
			Expr string `json:"expr"`
		} `json:"list"`
	} `json:"annotations"`
}

// grafanaVars stand for the dashboard's variables, as Grafana replaces
// them before it sends a query.
var grafanaVars = strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$scenario", ".*", "$seed", ".*")

// labelValues is Grafana's label_values(selector, label) of a variable.
var labelValues = regexp.MustCompile(`^label_values\((.*), *[a-z_]+\)$`)

// TestDashboardQueriesExportedMetrics parses every query of the Grafana
// dashboard of docs/grafana/ with Prometheus' parser and checks that each
// metric it names is one the export writes; every panel has a query, and
// the dashboard has its Prometheus data source as a variable.
func TestDashboardQueriesExportedMetrics(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "grafana", "oncall.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("docs/grafana/oncall.json: %v", err)
	}
	exported := map[string]bool{}
	for _, f := range Families(engine.Instructor) {
		exported[f.SampleName()] = true
	}
	used := map[string]bool{}
	check := func(where, q string) {
		expr, err := parser.NewParser(parser.Options{}).ParseExpr(grafanaVars.Replace(q))
		if err != nil {
			t.Errorf("%s: %q: %v", where, q, err)
			return
		}
		n := 0
		parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
			vs, ok := node.(*parser.VectorSelector)
			if !ok {
				return nil
			}
			n++
			for _, m := range vs.LabelMatchers {
				if m.Name == labels.MetricName && m.Type == labels.MatchEqual {
					used[m.Value] = true
					if !exported[m.Value] {
						t.Errorf("%s: %q names %s, which the export does not have", where, q, m.Value)
					}
				}
			}
			return nil
		})
		if n == 0 {
			t.Errorf("%s: %q selects no metric", where, q)
		}
	}
	panels := 0
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		panels++
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			check("panel "+p.Title, tg.Expr)
		}
	}
	for _, a := range d.Annotations.List {
		check("annotation "+a.Name, a.Expr)
	}
	datasource := false
	for _, v := range d.Templating.List {
		switch v.Type {
		case "datasource":
			datasource = datasource || v.Query == "prometheus"
		case "query":
			q, _ := v.Query.(map[string]any)
			text, _ := q["query"].(string)
			m := labelValues.FindStringSubmatch(text)
			if m == nil {
				t.Errorf("variable %s: %q is not label_values(selector, label)", v.Name, text)
				continue
			}
			check("variable "+v.Name, m[1])
		}
	}
	if !datasource {
		t.Error("the dashboard has no Prometheus data-source variable")
	}
	// The console's dashboard rows: every tile and chart of the console
	// has its panel, by the family its column is exported in.
	for _, name := range engine.MetricsShown(engine.OnTile | engine.InChart) {
		found := false
		for _, f := range Families(engine.Instructor) {
			for _, n := range f.From {
				found = found || n == name && used[f.SampleName()]
			}
		}
		if !found {
			t.Errorf("the console shows %s, and no panel of the dashboard reads it", name)
		}
	}
	t.Logf("%d panels, %d metrics", panels, len(used))
}
