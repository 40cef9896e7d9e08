package scripts_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// The stories of the four incidents the scenario API was built for: what
// the learner sees, when the page fires, what fixes each and what does
// not, on seeds 1 to 10.

const storySeeds = 10

// play runs a built-in scenario on a seed with the rules of src (none when
// src is "") and the decisions made by hand.
func play(t *testing.T, id string, seed uint32, src string, ds ...shift.Decision) *engine.Sim {
	t.Helper()
	sc, err := scenario.Builtin(id, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh := shift.Shift{Scenario: sc, Seed: seed, Noise: true, Decisions: ds}
	if src != "" {
		p, err := policy.Compile(id+".rules", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		sh.Policy = p
	}
	sim, err := sh.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sim.Sim
}

// reference returns a built-in scenario's reference policy's source.
func reference(t *testing.T, id string) string {
	t.Helper()
	src, err := scripts.Reference(id)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// firstPage returns the first minute the page holds, or −1.
func firstPage(rows []engine.Row) int {
	for _, r := range rows {
		if r.Paging {
			return r.Minute
		}
	}
	return -1
}

// saidAt returns the minute of the first message the learner sees that
// contains text, or −1.
func saidAt(rows []engine.Row, text string) int {
	for _, r := range rows {
		for _, e := range engine.Learner.Events(r.Events) {
			if e.Kind == engine.EventSay && strings.Contains(e.Text.In("en"), text) {
				return r.Minute
			}
		}
	}
	return -1
}

// The database loses 40 to 50 % of its capacity: past it, requests fail
// however many app instances wait on the database. A policy that only
// scales out leaves error_rate above 1 % in every minute the database is
// over capacity; one that turns the heavy feature off, or sheds and keeps
// answers longer, brings it under 1 % from the minute after the drop.
func TestDatabaseDegradationStory(t *testing.T) {
	const scaleOut = "rule \"scale out when paged\"\n  when paging && min_instances < 30\n  do   set_min_instances(30)\n"
	const shedTTL = "rule \"shed and keep answers longer while the database is hot\"\n  when db_util >= 0.95 && shed < 1\n  do   set_shed(1), set_ttl(300)\n"
	for seed := uint32(1); seed <= storySeeds; seed++ {
		none := play(t, "db-degradation", seed, "").Rows()
		drop := -1
		for _, r := range none {
			if r.DBErrors > 0 {
				drop = r.Minute
				break
			}
		}
		if drop < 0 {
			t.Fatalf("seed %d: the database never passes its capacity", seed)
		}
		if got := engine.Learner.EventsText(none[drop].Events); got != "" {
			t.Errorf("seed %d: the learner sees %q at the drop, which production does not announce", seed, got)
		}
		if page := firstPage(none); page < drop || page > drop+10 {
			t.Errorf("seed %d: the page fires at minute %d, the drop is at %d", seed, page, drop)
		}
		if saidAt(none, "degraded volume is replaced") <= drop {
			t.Errorf("seed %d: no message says the capacity is back", seed)
		}
		over, most := 0, 0
		for _, r := range play(t, "db-degradation", seed, scaleOut).Rows() {
			if r.DBErrors > 0 {
				over++
				most = max(most, r.Serving)
				if r.ErrorRate <= 0.01 {
					t.Errorf("seed %d, %s: error_rate %.4f with %d instances while the database is over capacity: more instances brought it under 1 %%", seed, r.Time(), r.ErrorRate, r.Serving)
				}
			}
		}
		if over < 30 || most < 25 {
			t.Errorf("seed %d: %d minutes over capacity, at most %d instances: the story needs a long overload and a large fleet", seed, over, most)
		}
		for name, src := range map[string]string{"the reference (feature off)": reference(t, "db-degradation"), "shed and a longer TTL": shedTTL} {
			for _, r := range play(t, "db-degradation", seed, src).Rows() {
				if r.Minute > drop && r.ErrorRate >= 0.01 {
					t.Errorf("seed %d, %s, %s: error_rate %.4f (db_errors %.4f): want it under 1 %% once the policy acts", seed, name, r.Time(), r.ErrorRate, r.DBErrors)
				}
			}
		}
	}
}

// learnerTrace writes a run as the learner gets it: CSV and JSON.
func learnerTrace(t *testing.T, sim *engine.Sim) string {
	t.Helper()
	var b bytes.Buffer
	if err := engine.WriteCSV(&b, sim.Rows()); err != nil {
		t.Fatal(err)
	}
	if err := engine.WriteJSON(&b, sim.Trace()); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// spoilers finds in a learner's trace the word bad and every name of a
// constant, which production does not show.
var spoilers = regexp.MustCompile(`(?i)\bbad|\b(` + strings.Join(engine.ConstantNames(), "|") + `)\b`)

// applicationMS is a row's service time without the database's part.
func applicationMS(r *engine.Row) float64 {
	q := 2.0
	if r.Controls.Feature {
		q++
	}
	return r.ServiceMS - (1-r.HitRate)*q*r.QueryMS
}

// A release leaks: the service time rises after its deploy and keeps
// rising; a rollback pressed 20 minutes after the deploy stops it within
// the rollback's 5 minutes plus one; more instances do not; and the
// learner's trace shows the deploy by name, never the word bad nor a
// constant.
func TestMemoryLeakStory(t *testing.T) {
	const scaleOut = "rule \"scale out when slow\"\n  when p99_ms > 500 && min_instances < 40\n  do   set_min_instances(min(40, min_instances + 4))\n  cooldown 5m\n"
	for seed := uint32(1); seed <= storySeeds; seed++ {
		sim := play(t, "memory-leak", seed, "")
		rows := sim.Rows()
		deploy := -1
		for _, r := range rows {
			if r.NewBuild > 0 {
				deploy = r.Minute
				break
			}
		}
		if deploy < 5 || deploy > 95 {
			t.Fatalf("seed %d: the release ships at minute %d, want 13:05 to 14:35", seed, deploy)
		}
		if got := engine.Learner.EventsText(rows[deploy].Events); !regexp.MustCompile(`^deploy 5\.3\.[1-9], rollout ([5-9]|1[0-5]) min$`).MatchString(got) {
			t.Errorf("seed %d: the learner sees %q at the deploy", seed, got)
		}
		before := applicationMS(&rows[deploy-1])
		if a30, a60 := applicationMS(&rows[deploy+30]), applicationMS(&rows[deploy+60]); !(a30 > before+30 && a60 > a30+30) {
			t.Errorf("seed %d: application time %.1f ms before the deploy, %.1f 30 minutes after, %.1f 60 after: want it rising", seed, before, a30, a60)
		}
		if page := firstPage(rows); page < deploy+20 || page > deploy+100 {
			t.Errorf("seed %d: the page fires %d minutes after the deploy", seed, page-deploy)
		}
		if s := spoilers.FindString(learnerTrace(t, sim)); s != "" {
			t.Errorf("seed %d: the learner's trace shows %q", seed, s)
		}
		// Scaling out keeps the fleet from saturating, not a request from
		// being slow.
		out := play(t, "memory-leak", seed, scaleOut).Rows()
		if p := out[deploy+90].P99MS; p < 800 {
			t.Errorf("seed %d: p99 %.0f ms 90 minutes after the deploy with a fleet scaled out: want it still past 800", seed, p)
		}
		// A rollback pressed after minute deploy+20.
		pressed := deploy + 20
		rb := play(t, "memory-leak", seed, "", shift.Decision{Minute: pressed + 1, Action: engine.Action{Control: engine.Rollback}}).Rows()
		for _, r := range rb[pressed+1:] {
			app := applicationMS(&r)
			switch {
			case r.Minute < pressed+6 && !(app > before+10):
				t.Errorf("seed %d, %s: application time %.1f while the rollback prepares: want the leak still there", seed, r.Time(), app)
			case r.Minute >= pressed+6 && (app-70 > 1e-9 || app-70 < -1e-9):
				t.Errorf("seed %d, %s: application time %.3f ms, %d minutes after the rollback was pressed: want the leak gone (70 ms)", seed, r.Time(), app, r.Minute-pressed)
			}
		}
	}
}

// The cache empties minutes before a push notification brings a herd: the
// learner sees the infrastructure team's and marketing's messages, not the
// flush; the database is past its capacity from the push and the page
// fires; more instances leave it there; the reference policy brings the
// failed requests to a fraction of no policy's.
func TestThunderingHerdStory(t *testing.T) {
	const scaleOut = "rule \"scale out when paged\"\n  when paging && min_instances < 30\n  do   set_min_instances(30)\n"
	for seed := uint32(1); seed <= storySeeds; seed++ {
		sim := play(t, "thundering-herd", seed, "")
		rows := sim.Rows()
		restart, push := saidAt(rows, "cache nodes restarted"), saidAt(rows, "push notification went out")
		if restart < 0 || push-restart < 2 || push-restart > 10 {
			t.Fatalf("seed %d: the cache restarts at minute %d, the push goes out at %d", seed, restart, push)
		}
		for _, r := range rows {
			for _, e := range engine.Learner.Events(r.Events) {
				if e.Kind == engine.EventFlush {
					t.Errorf("seed %d: the learner sees the flush", seed)
				}
			}
		}
		if rows[restart].Warm != 0 {
			t.Errorf("seed %d: the cache is %.2f full when its nodes restart", seed, rows[restart].Warm)
		}
		if rows[push].DBErrors == 0 {
			t.Errorf("seed %d: the database keeps up with the herd", seed)
		}
		// The cold cache alone takes the database near its capacity and
		// saturates the fleet: the page may fire before the herd comes.
		if page := firstPage(rows); page < restart || page > push+15 {
			t.Errorf("seed %d: the page fires at minute %d, the cache restarts at %d, the push at %d", seed, page, restart, push)
		}
		hot := func(rs []engine.Row) int {
			n := 0
			for _, r := range rs {
				if r.DBErrors > 0 {
					n++
				}
			}
			return n
		}
		if a, b := hot(rows), hot(play(t, "thundering-herd", seed, scaleOut).Rows()); b < a {
			t.Errorf("seed %d: the database is over capacity %d minutes with no policy, %d scaled out: want no fewer", seed, a, b)
		}
		ref := play(t, "thundering-herd", seed, reference(t, "thundering-herd"))
		if n, r := sim.Outcome().ErrorRequests, ref.Outcome().ErrorRequests; !(r < 0.3*n) {
			t.Errorf("seed %d: the reference fails %.0f requests, no policy %.0f", seed, r, n)
		}
	}
}

// A config push switches a heavy feature on: the learner sees the push
// announced, and requests slow down at once; a rollback finds no build to
// undo (the pipeline says so) and changes nothing; switching the feature
// off brings the latency back within two minutes.
func TestConfigPushStory(t *testing.T) {
	for seed := uint32(1); seed <= storySeeds; seed++ {
		rows := play(t, "config-push", seed, "").Rows()
		push := saidAt(rows, "recommendations v2 enabled for every user")
		if push < 15 || push > 60 {
			t.Fatalf("seed %d: the push is at minute %d, want 13:45 to 14:30", seed, push)
		}
		if got := engine.Learner.EventsText(rows[push].Events); !regexp.MustCompile(`^say "Config push \d{4}: recommendations v2 enabled for every user\."$`).MatchString(got) {
			t.Errorf("seed %d: the learner sees %q at the push", seed, got)
		}
		if rows[push-1].P99MS > 500 || rows[push].P99MS < 500 || !rows[push].Controls.Feature {
			t.Errorf("seed %d: p99 %.0f before the push, %.0f at it", seed, rows[push-1].P99MS, rows[push].P99MS)
		}
		slow := 0
		for _, r := range rows[push:] {
			if r.P99MS > 500 {
				slow++
			}
		}
		if slow < len(rows[push:])-5 {
			t.Errorf("seed %d: %d of the %d minutes after the push are slow with no policy: want all but a few", seed, slow, len(rows[push:]))
		}
		pressed := push + 2
		rb := play(t, "config-push", seed, "", shift.Decision{Minute: pressed + 1, Action: engine.Action{Control: engine.Rollback}}).Rows()
		if saidAt(rb, "no build has shipped today") != pressed+1 {
			t.Errorf("seed %d: the pipeline does not answer the rollback", seed)
		}
		if p := rb[pressed+8].P99MS; p < 500 {
			t.Errorf("seed %d: p99 %.0f ms once the rollback switched: a rollback should change nothing", seed, p)
		}
		off := play(t, "config-push", seed, "", shift.Decision{Minute: pressed + 1, Action: engine.Action{Control: engine.Feature, Value: 0}}).Rows()
		for _, r := range off[pressed+3:] {
			if r.P99MS > 500 {
				t.Errorf("seed %d, %s: p99 %.0f ms with the feature off since %s", seed, r.Time(), r.P99MS, off[pressed+1].Time())
				break
			}
		}
	}
}
