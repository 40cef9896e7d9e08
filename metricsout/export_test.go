package metricsout

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/promtooltest"
	"github.com/oncall-sim/oncall/shift"
)

// runOf runs a built-in scenario on a seed and returns it as the view
// exports it.
func runOf(t testing.TB, name string, seed uint32, minutes int, v engine.View) Run {
	t.Helper()
	p, err := scenario.Builtin(name, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sim, err := shift.Shift{Scenario: p, Seed: seed, Noise: true, Minutes: minutes}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return OfTrace(sim.Trace(), sim.Setup(), DefaultDate, v)
}

func TestEveryMetricIsExported(t *testing.T) {
	for _, v := range []engine.View{engine.Learner, engine.Instructor} {
		from := map[string]bool{}
		for _, f := range Families(v) {
			for _, n := range f.From {
				from[n] = true
			}
		}
		for _, s := range v.Metrics() {
			if s.Name != "minute" && !from[s.Name] {
				t.Errorf("view %v: the column %s is in no family of the export", v, s.Name)
			}
		}
	}
	// A quiet column stays out of the learner's export.
	for _, f := range Families(engine.Learner) {
		for _, n := range f.From {
			if s, _ := engine.LookupMetric(n); s.Quiet {
				t.Errorf("the learner's export has %s, made of the quiet column %s", f.Name, n)
			}
		}
	}
}

func TestEveryFamilyReadsTheEngine(t *testing.T) {
	names := map[string]bool{}
	for _, f := range Families(engine.Instructor) {
		if names[f.SampleName()] {
			t.Errorf("two families named %s", f.SampleName())
		}
		names[f.SampleName()] = true
		for _, n := range f.From {
			if _, err := engine.LookupMetric(n); err != nil {
				t.Errorf("%s reads %v", f.Name, err)
			}
		}
		if f.Unit != "" && !strings.HasSuffix(f.Name, "_"+f.Unit) {
			t.Errorf("%s has the unit %s but does not end with it", f.Name, f.Unit)
		}
		if !regexp.MustCompile(`^oncall_[a-z0-9_]+$`).MatchString(f.Name) || strings.HasSuffix(f.Name, "_total") {
			t.Errorf("%s is not a family name by Prometheus' conventions", f.Name)
		}
	}
}

func TestGenericNamesByUnit(t *testing.T) {
	for _, c := range []struct {
		spec       engine.MetricSpec
		name, unit string
		scale      float64
	}{
		{engine.MetricSpec{Name: "wasted_share", Unit: "share"}, "oncall_wasted_ratio", "ratio", 1},
		{engine.MetricSpec{Name: "dep_ms_seen", Unit: "ms"}, "oncall_dep_ms_seen_seconds", "seconds", 0.001},
		{engine.MetricSpec{Name: "queue_ms", Unit: "ms"}, "oncall_queue_seconds", "seconds", 0.001},
		{engine.MetricSpec{Name: "ttl_s", Unit: "s"}, "oncall_ttl_seconds", "seconds", 1},
		{engine.MetricSpec{Name: "warmup_left", Unit: "min"}, "oncall_warmup_left_seconds", "seconds", 60},
		{engine.MetricSpec{Name: "min_instances", Unit: "instances"}, "oncall_min_instances", "", 1},
		{engine.MetricSpec{Name: "feature", Kind: engine.Boolean}, "oncall_feature", "", 1},
	} {
		name, unit, scale := genericName(c.spec)
		if name != c.name || unit != c.unit || scale != c.scale {
			t.Errorf("%s (%s): %s %q ×%g, want %s %q ×%g", c.spec.Name, c.spec.Unit, name, unit, scale, c.name, c.unit, c.scale)
		}
	}
}

// TestCountersAccumulate checks the counters against the run's outcome,
// which sums the same minutes its own way.
func TestCountersAccumulate(t *testing.T) {
	run := runOf(t, "bad-deploy", 7, 0, engine.Learner)
	o := engine.Summarize(0, run.Rows)
	last := map[string]float64{}
	for _, fs := range Build(run) {
		for _, s := range fs.Series {
			if len(s.Labels) == 2 && len(s.V) > 0 {
				last[fs.Family.SampleName()] = s.V[len(s.V)-1]
			}
			if fs.Family.Type == Counter && len(s.T) != len(run.Rows)-int((s.T[0]-run.Start.UnixMilli())/60000) {
				t.Errorf("%s%v: %d samples from its first, want one a minute", fs.Family.Name, s.Labels, len(s.T))
			}
		}
	}
	for name, want := range map[string]float64{
		"oncall_requests_total":         o.Requests,
		"oncall_request_failures_total": o.ErrorRequests,
		"oncall_requests_shed_total":    o.ShedRequests,
		"oncall_cost_dollars_total":     o.Cost,
	} {
		if got := last[name]; math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("%s ends at %v, the outcome says %v", name, got, want)
		}
	}
}

// TestOpenMetricsLoadsInPromtool turns a run's OpenMetrics into TSDB
// blocks with promtool, dumps them and finds every sample of the run,
// value for value.
func TestOpenMetricsLoadsInPromtool(t *testing.T) {
	promtooltest.Path(t)
	run := runOf(t, "bad-deploy", 7, 0, engine.Learner)
	var om bytes.Buffer
	if err := WriteOpenMetrics(&om, run); err != nil {
		t.Fatal(err)
	}
	n := loadBack(t, om.Bytes(), run)
	t.Logf("%d samples of %d minutes read back from promtool's blocks", n, len(run.Rows))
}

// loadBack turns an exposition of the runs into TSDB blocks with
// promtool, dumps them and finds every sample of every run, value for
// value, and no other; it returns the number of samples.
func loadBack(t *testing.T, om []byte, runs ...Run) int {
	t.Helper()
	if !bytes.HasSuffix(om, []byte("# EOF\n")) {
		t.Fatal("the OpenMetrics text does not end with # EOF")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run.om")
	if err := os.WriteFile(file, om, 0o644); err != nil {
		t.Fatal(err)
	}
	promtooltest.Run(t, "tsdb", "create-blocks-from", "openmetrics", file, filepath.Join(dir, "data"))
	// dump reads a data folder as Prometheus leaves it, with its write-ahead log.
	if err := os.Mkdir(filepath.Join(dir, "data", "wal"), 0o755); err != nil {
		t.Fatal(err)
	}
	from, to := int64(math.MaxInt64), int64(math.MinInt64)
	for _, run := range runs {
		from = min(from, run.Start.UnixMilli())
		to = max(to, run.Start.UnixMilli()+int64(len(run.Rows))*60000)
	}
	dump := promtooltest.Run(t, "tsdb", "dump", "--min-time="+strconv.FormatInt(from, 10),
		"--max-time="+strconv.FormatInt(to, 10), filepath.Join(dir, "data"))
	got := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(dump))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() { // {__name__="x", a="b"} value time
		line := sc.Text()
		i := strings.LastIndexByte(line, '}')
		if i < 0 {
			continue
		}
		f := strings.Fields(line[i+1:])
		if len(f) != 2 {
			t.Fatalf("a line of the dump reads %q", line)
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			t.Fatal(err)
		}
		got[dumpKey(line[:i+1])+" "+f[1]] = v
	}
	n := 0
	for _, run := range runs {
		for _, fs := range Build(run) {
			for _, s := range fs.Series {
				var ls []string
				for _, l := range s.Labels {
					ls = append(ls, l.Name+"="+strconv.Quote(l.Value))
				}
				sort.Strings(ls)
				key := strings.Join(append([]string{"__name__=" + strconv.Quote(fs.Family.SampleName())}, ls...), ",")
				for j := range s.T {
					n++
					k := "{" + key + "} " + strconv.FormatInt(s.T[j], 10)
					v, ok := got[k]
					switch {
					case !ok:
						t.Fatalf("the blocks lack %s", k)
					case v != s.V[j]:
						t.Fatalf("%s is %v in the blocks, %v in the run", k, v, s.V[j])
					}
				}
			}
		}
	}
	if n != len(got) {
		t.Errorf("the blocks hold %d samples, the runs %d", len(got), n)
	}
	return n
}

// dumpKey sorts the labels of a line of promtool tsdb dump by name, as
// Prometheus orders them, after __name__, with no spaces.
func dumpKey(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	parts := strings.Split(s, ", ")
	var name string
	var rest []string
	for _, p := range parts {
		if strings.HasPrefix(p, "__name__=") {
			name = p
		} else {
			rest = append(rest, p)
		}
	}
	sort.Strings(rest)
	return "{" + strings.Join(append([]string{name}, rest...), ",") + "}"
}

// TestScrapePassesPromtool checks a scrape of two live shifts with
// promtool check metrics, which finds no problem in it.
func TestScrapePassesPromtool(t *testing.T) {
	a := runOf(t, "bad-deploy", 7, 40, engine.Learner)
	b := runOf(t, "slow-dependency", 3, 50, engine.Learner)
	a.Labels = append([]Label{{"team", "blue"}}, a.Labels...)
	b.Labels = append([]Label{{"team", "red"}}, b.Labels...)
	var buf bytes.Buffer
	if err := WriteScrape(&buf, expfmt.NewFormat(expfmt.TypeTextPlain), a, b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), " 17676") {
		t.Error("a scrape has timestamps")
	}
	if !strings.Contains(buf.String(), `oncall_instances{team="red",scenario="slow-dependency",seed="3",state="serving"}`) {
		t.Errorf("the scrape lacks the red team's serving instances:\n%s", buf.String())
	}
	cmd := promtooltest.Command(t, "check", "metrics")
	cmd.Stdin = &buf
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}
