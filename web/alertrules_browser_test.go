package web

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/oncall-sim/oncall/alerts"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
)

// band is a lane's stretch as a chart draws it.
type band struct {
	Name     string
	From, To int
}

const bandsJS = `[...document.querySelectorAll("#chart-0 rect.band")].map(r => ({name: r.dataset.name, from: +r.dataset.from, to: +r.dataset.to}))`

// reportOf is what `oncall alerts test RULES --scenario sc --seeds seed`
// reports of a rule file: a line an alert, then the built-in page's.
func reportOf(t *testing.T, file, sc string, seed uint32) []alerts.Line {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := alerts.Load(filepath.Base(file), src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.Builtin(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := alerts.Test(context.Background(), rules, alerts.Options{Scenarios: []alerts.Scenario{{Name: sc, Source: p}}, Seeds: []uint32{seed}})
	if err != nil {
		t.Fatal(err)
	}
	return r.Lines
}

// checkMarks holds the stretches the charts mark for an alert to what
// the report says of it: the incident detected when a mark falls in it,
// after the minutes of its detection, still marked for the minutes of its
// reset after it; a mark that begins outside every incident, a false page.
func checkMarks(t *testing.T, bands []band, l alerts.Line, incs []alerts.Incident, minutes int) {
	t.Helper()
	fired := make([]bool, minutes)
	for _, b := range bands {
		if b.Name == l.Alert {
			for m := b.From; m <= b.To && m < minutes; m++ {
				fired[m] = true
			}
		}
	}
	in := make([]bool, minutes)
	detected := 0
	for _, inc := range incs {
		first := -1
		for m := inc.Start; m <= inc.End; m++ {
			in[m] = true
			if fired[m] && first < 0 {
				first = m
			}
		}
		if first < 0 {
			continue
		}
		detected++
		reset := 0
		for m := inc.End + 1; fired[inc.End] && m < minutes && fired[m]; m++ {
			reset++
		}
		if l.DetectionMedian == nil || float64(first-inc.Start) != *l.DetectionMedian || float64(reset) != *l.ResetMedian {
			t.Errorf("%s: marked from minute %d of the incident %d-%d, %d minutes after it; alerts test says detection %v, reset %v",
				l.Alert, first, inc.Start, inc.End, reset, ptr(l.DetectionMedian), ptr(l.ResetMedian))
		}
	}
	falsePages := 0
	for m := range fired {
		if fired[m] && !in[m] && (m == 0 || !fired[m-1]) {
			falsePages++
		}
	}
	if detected != l.Detected || falsePages != l.FalsePages {
		t.Errorf("%s: the marks detect %d incidents with %d false pages, alerts test %d with %d (marks %v)", l.Alert, detected, falsePages, l.Detected, l.FalsePages, bands)
	}
}

func ptr(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestBrowserAlertRules: on a French page, a cache flush played to its end
// with nobody acting; the debrief takes docs/alerts/multiwindow.yml and
// then naive.yml, and the charts mark the minutes each alert fired and
// those of the built-in page where `oncall alerts test` says they fire on
// that run (the Workbook's page catches the incident in a minute or two
// and resets minutes after it; the naive page misses it and pages once it
// is over). A file with a PromQL error shows its diagnostic at
// file:line:col. The trace downloads as OpenMetrics dated today.
func TestBrowserAlertRules(t *testing.T) {
	ctx := browser(t)
	const sc, seed = "cache-flush", 2
	url, _ := serve(t, realOptions(t))
	run(t, ctx, chromedp.Navigate(url+"/?lang=fr"), startShift(sc, "2"),
		setValue("speed", "60"), click("autopause"), click("playbtn"),
		wait(`window.oncall.shift().done && document.getElementById("ar-file") !== null`), idle)
	if got, want := eval[string](t, ctx, `document.querySelector("#alertrules h4").textContent`), i18n.T("fr", "ui.rules.title"); got != want {
		t.Errorf("the panel is headed %q, want %q", got, want)
	}
	p, err := scenario.Builtin(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sim, err := shift.Shift{Scenario: p, Seed: seed, Noise: true}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	incs := alerts.Incidents(sim.Rows(), 1-sim.Setup().Constants.SLO, sim.Setup().Constants.SLODays*1440)
	if len(incs) != 1 {
		t.Fatalf("%s, seed %d has %d incidents: the test wants one", sc, seed, len(incs))
	}
	for _, f := range []string{"multiwindow.yml", "naive.yml"} {
		file, _ := filepath.Abs("../docs/alerts/" + f)
		run(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#ar-file"), []string{file}),
			wait(`(r => r && r.ans && r.file === "`+f+`")(window.oncall.shift().rules)`), idle)
		bands := eval[[]band](t, ctx, bandsJS)
		lines := reportOf(t, file, sc, seed)
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines in the report, want the alert's and the page's", f, len(lines))
		}
		for _, l := range lines {
			checkMarks(t, bands, l, incs, len(sim.Rows()))
		}
		if rows := eval[int](t, ctx, `document.querySelectorAll("#alertrules tbody tr").length`); rows != 2 {
			t.Errorf("%s: the debrief lists %d alerts, want 2", f, rows)
		}
		saveShot(t, ctx, "alertrules-"+strings.TrimSuffix(f, ".yml")+".png")
	}
	if eval[int](t, ctx, `document.querySelectorAll("#charts figure rect.band").length`) <= eval[int](t, ctx, bandsJS+`.length`) {
		t.Error("only the first chart marks the alerts")
	}

	broken := filepath.Join(t.TempDir(), "broken.yml")
	if err := os.WriteFile(broken, []byte("groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: oncall_error_ratio > > 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#ar-file"), []string{broken}),
		wait(`document.getElementById("ar-diag") !== null`), idle)
	diag := text(t, ctx, "ar-diag")
	if !strings.Contains(diag, `broken.yml:5:36: group "g", rule 1, "A": could not parse expression: parse error: unexpected <op:>>`) || !strings.Contains(diag, "^") {
		t.Errorf("the diagnostics of a broken file read:\n%s", diag)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#charts rect.band").length`); n != 0 {
		t.Errorf("a broken file leaves %d marks on the charts", n)
	}
	href := eval[string](t, ctx, `document.getElementById("openmetrics").getAttribute("href")`)
	if want := "format=openmetrics&start=" + time.Now().UTC().Format(time.DateOnly); !strings.Contains(href, want) && !strings.Contains(href, "format=openmetrics&start="+time.Now().UTC().Add(-time.Minute).Format(time.DateOnly)) {
		t.Errorf("the OpenMetrics download is %q, want it to carry %q", href, want)
	}
	noMessage(t, ctx)
}
