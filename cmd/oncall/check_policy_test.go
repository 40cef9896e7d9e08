package main

import (
	"strings"
	"testing"
)

func TestRunWithPolicy(t *testing.T) {
	e := newTestEnv(t)
	code := e.run("run", "bad-deploy", "--seed", "7", "--policy", "../../scripts/bad-deploy.rules")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e.err.String())
	}
	want := `fired "roll back a build that raises errors" saw error_rate=0.0235714 new_build=0.142857 rollback_left=0 -> rollback()`
	if !strings.Contains(e.out.String(), want) {
		t.Errorf("the table does not show the fired rule %q:\n%s", want, e.out.String())
	}
}

func TestRunWithBrokenPolicy(t *testing.T) {
	e := newTestEnv(t)
	file := tempFile(t, "broken.rules", "rule \"r\"\n  when burn1h > 2\n  do   set_shed(1.5)\n")
	if code := e.run("run", "--seed", "1", "--policy", file); code != 2 {
		t.Fatalf("exit %d, want 2 (usage): %s", code, e.err.String())
	}
	want := "oncall: --policy " + file + " does not load:\n" +
		file + ":2:8: rule \"r\": unknown name burn1h; did you mean burn_1h?\n" +
		" 2 |   when burn1h > 2\n" +
		"   |        ^\n\n" +
		file + ":3:17: rule \"r\": set_shed(1.5): shed = 1.5 is out of range: it takes 0 to 1\n" +
		" 3 |   do   set_shed(1.5)\n" +
		"   |                 ^\n"
	if got := e.err.String(); got != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
	}
	if code := e.run("run", "--policy", "no-such.rules"); code != 2 || !strings.Contains(e.err.String(), "--policy no-such.rules") {
		t.Errorf("a missing file: exit %d, %s", code, e.err.String())
	}
}

func TestRunWithPolicyThatStops(t *testing.T) {
	e := newTestEnv(t)
	file := tempFile(t, "stops.rules", "rule \"r\"\n  when minute == 4\n  do   set_ttl(60 / booting)\n")
	if code := e.run("run", "--seed", "1", "--policy", file); code != 1 {
		t.Fatalf("exit %d, want 1 (the run failed): %s", code, e.err.String())
	}
	want := `the run stopped at minute 4 (08:04): ` + file + `:3:16: rule "r": set_ttl(+Inf): +Inf is not a number any control takes (a division by zero?); it takes 0 to 3600 s; the rule saw minute=4`
	if !strings.Contains(e.err.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to contain:\n%s", e.err.String(), want)
	}
}

func TestCheckPolicies(t *testing.T) {
	e := newTestEnv(t)
	good := "../../scripts/surge.rules"
	bad := tempFile(t, "bad.rules", "rule \"r\"\n  when paging\n  do   set_shedd(0.5)\n")
	if code := e.run("check", good, bad); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	out := e.out.String()
	if !strings.Contains(out, good+": ok") || !strings.Contains(out, bad+":3:8: rule \"r\": unknown action set_shedd; did you mean set_shed?") {
		t.Errorf("check output:\n%s", out)
	}
}
