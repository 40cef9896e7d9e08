package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
)

// rule1 writes a one-rule policy.
func rule1(when, do string) string {
	return "rule \"r\"\n  when " + when + "\n  do   " + do + "\n"
}

// brokenAtLoad are policies that must not load, each with the full text of
// every diagnostic it gives.
var brokenAtLoad = []struct {
	name, src, want string
}{
	{"syntax error: unclosed bracket", rule1("paging && (burn_1h > 2", "rollback()"),
		"policy.rules:2:29: rule \"r\": the expression ends too soon: something is missing at its end\n 2 |   when paging && (burn_1h > 2\n   |                             ^"},
	{"syntax error: condition ends too soon", rule1("paging &&", "rollback()"),
		"policy.rules:2:16: rule \"r\": the expression ends too soon: something is missing at its end\n 2 |   when paging &&\n   |                ^"},
	{"syntax error: misspelt keyword", "rule \"r\"\n  whne paging\n  do rollback()\n",
		"policy.rules:1:1: rule \"r\": the rule has no condition: add a line `when <condition>`, e.g. when paging && bad_traffic > 0\n 1 | rule \"r\"\n   | ^\n\npolicy.rules:2:3: rule \"r\": unknown keyword whne; did you mean when?\n 2 |   whne paging\n   |   ^"},
	{"unknown metric, with a suggestion", rule1("burn1h > 2", "rollback()"),
		"policy.rules:2:8: rule \"r\": unknown name burn1h; did you mean burn_1h?\n 2 |   when burn1h > 2\n   |        ^"},
	{"unknown metric in a helper", rule1(`ago("p99", 5) > 500`, "rollback()"),
		"policy.rules:2:12: rule \"r\": ago(\"p99\"): unknown metric; did you mean p99_ms?\n 2 |   when ago(\"p99\", 5) > 500\n   |            ^"},
	{"misspelt action", rule1("paging", "set_shedd(0.5)"),
		"policy.rules:3:8: rule \"r\": unknown action set_shedd; did you mean set_shed? (actions: set_min_instances, set_autoscaling, set_target, set_ttl, warmup, set_shed, set_feature, rollback)\n 3 |   do   set_shedd(0.5)\n   |        ^"},
	{"wrong argument type: number for a switch", rule1("paging", "set_feature(1)"),
		"policy.rules:3:20: rule \"r\": set_feature takes true or false, but this is a whole number (int): write true or false, or a comparison such as db_util < 0.8\n 3 |   do   set_feature(1)\n   |                    ^"},
	{"wrong argument type: float for a count", rule1("paging", "set_min_instances(serving * 1.5)"),
		"policy.rules:3:26: rule \"r\": set_min_instances takes a whole number from 1 to 40, but this is a number (float): round it, e.g. int(ceil(x)) or int(round(x))\n 3 |   do   set_min_instances(serving * 1.5)\n   |                          ^"},
	{"out-of-range constant", rule1("paging", "set_shed(1.5)"),
		"policy.rules:3:17: rule \"r\": set_shed(1.5): shed = 1.5 is out of range: it takes 0 to 1\n 3 |   do   set_shed(1.5)\n   |                 ^"},
	{"infinite constant", rule1("paging", "set_ttl(60 / 0)"),
		"policy.rules:3:16: rule \"r\": set_ttl(+Inf): +Inf is not a number any control takes (a division by zero?); it takes 0 to 3600 s\n 3 |   do   set_ttl(60 / 0)\n   |                ^"},
	{"non-bool condition", rule1("p99_ms", "set_shed(0.5)"),
		"policy.rules:2:8: rule \"r\": the condition must be true or false, but it is a number (float): compare it, e.g. when p99_ms > 0.5\n 2 |   when p99_ms\n   |        ^"},
	{"nested predicates over ranges", rule1("all(1..1000, {all(1..1000, # > 0)})", "rollback()"),
		"policy.rules:2:8: rule \"r\": this expression may take up to 6006003 steps each minute; the limit is 10000: use shorter ranges, with constant bounds, and do not nest predicates over them\n 2 |   when all(1..1000, {all(1..1000, # > 0)})\n   |        ^"},
	{"a range too long", rule1("len(1..100000000) > 0", "rollback()"),
		"policy.rules:2:12: rule \"r\": this expression may take up to 100000006 steps each minute; the limit is 10000: use shorter ranges, with constant bounds, and do not nest predicates over them\n 2 |   when len(1..100000000) > 0\n   |            ^"},
	{"deeply nested brackets", rule1(strings.Repeat("(", 40)+"paging"+strings.Repeat(")", 40), "rollback()"),
		"policy.rules:2:40: rule \"r\": brackets nested more than 32 deep: split the expression into simpler rules\n 2 |   when ((((((((((((((((((((((((((((((((((((((((paging))))))))))))))))))))))))))))))))))))))))\n   |                                        ^"},
	{"enormous expression", rule1("burn_1h"+strings.Repeat("\n    + 1", 2500)+" > 0", "rollback()"),
		"policy.rules:1003:5: rule \"r\": the expression is too large (more than 2000 parts): split it into simpler rules\n 1003 |     + 1\n      |     ^"},
	{"an action in a condition", rule1("rollback()", "set_shed(1)"),
		"policy.rules:2:8: rule \"r\": rollback() is an action, not a value: actions go in the rule's do clause, e.g. do rollback()\n 2 |   when rollback()\n   |        ^"},
	{"the wall clock", rule1(`now().Hour() > 9`, "set_shed(1)"),
		"policy.rules:2:8: rule \"r\": now() is not available in policies: a rule must give the same result on every run, so it cannot read the wall clock; use time, clock, hour or minute\n 2 |   when now().Hour() > 9\n   |        ^"},
	{"text that doubles with each let", rule1(`let a = "xxxxxxxx"; let b = a + a; let c = b + b; len(c) > 0`, "rollback()"),
		"policy.rules:2:36: rule \"r\": + joins text (string) here: a rule adds numbers only, so that nothing it builds can grow without bound; compare text and lists as they are\n 2 |   when let a = \"xxxxxxxx\"; let b = a + a; let c = b + b; len(c) > 0\n   |                                    ^"},
	{"reduce, which could build without bound", rule1(`reduce(1..40, #acc + #acc, "x") != ""`, "rollback()"),
		"policy.rules:2:8: rule \"r\": reduce() is not available in policies: it builds values step by step, which could grow without bound; use sum, count, all or any\n 2 |   when reduce(1..40, #acc + #acc, \"x\") != \"\"\n   |        ^"},
	{"a builtin that builds text", rule1(`toJSON([p99_ms]) != ""`, "rollback()"),
		"policy.rules:2:8: rule \"r\": toJSON() is not available in policies: it builds text or lists from others, which a rule has no use for and which could grow without bound\n 2 |   when toJSON([p99_ms]) != \"\"\n   |        ^"},
	{"since() of a rule that does not exist", rule1(`since("shed") > 10`, "set_shed(1)"),
		"policy.rules:2:14: rule \"r\": since(\"shed\"): no rule of this file has that name\n 2 |   when since(\"shed\") > 10\n   |              ^"},
	{"a helper without its window", rule1(`mean_over("error_rate") > 0.01`, "set_shed(1)"),
		"policy.rules:2:8: rule \"r\": mean_over takes 2 arguments: mean_over(\"metric\", n)\n 2 |   when mean_over(\"error_rate\") > 0.01\n   |        ^"},
	{"a bad cooldown", rule1("paging", "rollback()") + "  cooldown 10 minutes\n",
		"policy.rules:4:13: rule \"r\": cooldown \"10 minutes\": write minutes or hours, e.g. cooldown 10m, cooldown 1h or cooldown 1h30m\n 4 |   cooldown 10 minutes\n   |             ^"},
	{"every problem of a file, not only the first", "rule \"a\"\n  when burn1h > 2\n  do rollback()\n\nrule \"a\"\n  when paging\n  do set_shed(2)\n\nrule \"c\"\n  do warmup()\n",
		"policy.rules:2:8: rule \"a\": unknown name burn1h; did you mean burn_1h?\n 2 |   when burn1h > 2\n   |        ^\n\npolicy.rules:5:1: rule \"a\": a second rule has this name (the first is on line 1): give each rule a name of its own, since traces and since() refer to rules by name\n 5 | rule \"a\"\n   | ^\n\npolicy.rules:7:15: rule \"a\": set_shed(2): shed = 2 is out of range: it takes 0 to 1\n 7 |   do set_shed(2)\n   |               ^\n\npolicy.rules:9:1: rule \"c\": the rule has no condition: add a line `when <condition>`, e.g. when paging && bad_traffic > 0\n 9 | rule \"c\"\n   | ^"},
}

func TestBrokenAtLoad(t *testing.T) {
	for _, tc := range brokenAtLoad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile("policy.rules", []byte(tc.src))
			var list dsl.List
			if !errors.As(err, &list) {
				t.Fatalf("Compile: got %v, want a dsl.List", err)
			}
			if got := list.Render(); got != tc.want {
				t.Errorf("diagnostics:\n%s\n\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// brokenAtRun are policies that load but stop the run, with the full text
// of the error: the minute, the place, the rule and the values it saw.
var brokenAtRun = []struct {
	name, src, want string
}{
	{"index out of range", rule1("[1, 2, 3][minute] > 0 && utilization > 0.1", "set_shed(0.1)"),
		"minute 3 (08:03): policy.rules:2:17: rule \"r\": index out of range: 3 (array length is 3); the rule saw minute=3, utilization=0.511551"},
	{"an infinite value reaching an action", rule1("minute == 4", "set_ttl(60 / booting)"),
		"minute 4 (08:04): policy.rules:3:16: rule \"r\": set_ttl(+Inf): +Inf is not a number any control takes (a division by zero?); it takes 0 to 3600 s; the rule saw minute=4"},
	{"not a number reaching an action", rule1("minute == 4", "set_target(booting / booting)"),
		"minute 4 (08:04): policy.rules:3:19: rule \"r\": set_target(NaN): NaN is not a number any control takes (a division by zero?); it takes 0.1 to 0.95; the rule saw minute=4"},
	{"a computed value out of range", rule1("minute == 2", "set_min_instances(serving * 5)"),
		"minute 2 (08:02): policy.rules:3:26: rule \"r\": set_min_instances(50): min_instances = 50 is out of range: it takes a whole number from 1 to 40; the rule saw minute=2"},
	{"a condition that is not a bool at run time", rule1("[true, 1][minute % 2]", "warmup()"),
		"minute 1 (08:01): policy.rules:2:8: rule \"r\": the condition gave 1, a whole number (int), not true or false; the rule saw minute=1"},
}

func TestBrokenAtRun(t *testing.T) {
	for _, tc := range brokenAtRun {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Compile("policy.rules", []byte(tc.src))
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			setup := engine.FreePlay()
			setup.Minutes = 30
			sim, err := engine.New(engine.Options{Setup: setup, Policy: p.Instance(), Seed: 1, Noise: true})
			if err != nil {
				t.Fatal(err)
			}
			err = sim.Run(0)
			if err == nil {
				t.Fatal("the run did not stop")
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("error:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
