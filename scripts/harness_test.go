package scripts_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// TestPoliciesMinuteByMinute tests the shipped policies the way promtool
// tests alert rules: on a scenario and a seed, these rules fire at these
// minutes with these actions, and no others.
func TestPoliciesMinuteByMinute(t *testing.T) {
	for _, tc := range []struct {
		file, scenario string
		seed           uint32
		from, to       int
		want           []policy.Expect
	}{
		{"bad-deploy.rules", "bad-deploy", 7, 0, 0, []policy.Expect{
			// The build starts at 09:10 (minute 10); on seed 7 it rolls out
			// over 7 minutes and fails 16.5 % of what it serves, so its first
			// seventh already fails 2.4 % of requests, and the rollback is
			// pressed at once.
			{Minute: 10, Rule: "roll back a build that raises errors", Actions: "rollback()"},
		}},
		{"examples/rollback-on-page.rules", "bad-deploy", 7, 0, 0, []policy.Expect{
			// Waiting for the page costs eight minutes of a bad build.
			{Minute: 18, Rule: "roll back when paged", Actions: "rollback()"},
		}},
		{"cache-flush.rules", "cache-flush", 7, 0, 70, []policy.Expect{
			{Minute: 60, Rule: "degrade while the cache is cold", Actions: "set_feature(false)"},
			{Minute: 60, Rule: "longer TTL while the cache refills", Actions: "set_ttl(300)"},
			{Minute: 61, Rule: "warm the cache when the database has room", Actions: "warmup()"},
			{Minute: 69, Rule: "restore the feature and the TTL", Actions: "set_feature(true), set_ttl(90)"},
		}},
		{"free-play.rules", "free-play", 7, 0, 0, nil}, // a quiet day: nothing fires
		{"examples/autoscaler.rules", "surge", 3, 0, 90, []policy.Expect{
			{Minute: 0, Rule: "turn the built-in autoscaler off", Actions: "set_autoscaling(false)"},
			// The surge starts; each step waits for the last one's 8 minutes of boot.
			{Minute: 70, Rule: "scale out", Actions: "set_min_instances(12)"},
			{Minute: 79, Rule: "scale out", Actions: "set_min_instances(20)"},
			{Minute: 88, Rule: "scale out", Actions: "set_min_instances(28)"},
		}},
		{"examples/shed-under-saturation.rules", "surge", 10, 0, 0, []policy.Expect{
			{Minute: 155, Rule: "shed half of the low-priority traffic", Actions: "set_shed(0.5)"},
			{Minute: 158, Rule: "shed all of it when that was not enough", Actions: "set_shed(1)"},
			{Minute: 176, Rule: "stop shedding", Actions: "set_shed(0)"},
		}},
		// On seed 1 the database has room enough (4,470 queries/s) that
		// its load never averages 85 %: nothing fires. On seed 2 it does.
		{"examples/protect-the-database.rules", "cache-flush", 1, 0, 0, nil},
		{"examples/protect-the-database.rules", "cache-flush", 2, 0, 0, []policy.Expect{
			{Minute: 62, Rule: "degrade when the database is hot", Actions: "set_feature(false), set_ttl(180)"},
			{Minute: 78, Rule: "restore when the database has room", Actions: "set_feature(true)"},
		}},
	} {
		t.Run(fmt.Sprintf("%s seed %d", tc.file, tc.seed), func(t *testing.T) {
			src, err := scripts.Files.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			p, err := policy.Compile(tc.file, src)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Builtin(tc.scenario, scenario.Options{})
			if err != nil {
				t.Fatal(err)
			}
			inst, setup, err := sc.Instance(nil, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(policy.Test{
				Name: tc.file + " on " + tc.scenario, Scenario: inst, Setup: setup, Seed: tc.seed, Noise: true,
				From: tc.from, To: tc.to, Want: tc.want,
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// TestSameTraceByteForByte: the same Lua scenario, seed and policy give the
// same trace, byte for byte, run after run.
func TestSameTraceByteForByte(t *testing.T) {
	src, err := scripts.Reference("surge")
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile("surge.rules", src)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Builtin("surge", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(seed uint32) []byte {
		sim, err := shift.Shift{Scenario: sc, Seed: seed, Noise: true, Policy: p}.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return []byte(learnerTrace(t, sim.Sim))
	}
	first := run(3)
	if !bytes.Contains(first, []byte(`"rule": "scale out ahead of demand"`)) {
		t.Fatal("the trace should record the policy's firings")
	}
	for range 3 {
		if !bytes.Equal(first, run(3)) {
			t.Fatal("the same scenario, seed and policy gave another trace")
		}
	}
	if bytes.Equal(first, run(4)) {
		t.Error("another seed gave the same trace")
	}
}
