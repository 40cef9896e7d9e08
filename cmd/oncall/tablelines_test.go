package main

import (
	"strings"
	"testing"
)

// TestEveryTableEndsItsLines runs every command that prints a table for a
// person (a run's minutes and outcome, a what-if, a batch's summary and
// its rules' coverage, a comparison, a grade, alerts test, the scenarios,
// the game days) and wants each line to end with its last character, not
// with the padding of an aligned column.
func TestEveryTableEndsItsLines(t *testing.T) {
	e := newTestEnv(t)
	pol := tempFile(t, "floor.rules", floorPolicy)
	shed := tempFile(t, "shed.rules", shedPolicy)
	trace := record(t, e, "bad-deploy", "--seed", "7")
	for _, args := range [][]string{
		{"run", "bad-deploy", "--seed", "1"},
		{"run", "bad-deploy", "--seed", "1", "-p", pol, "--full", "--minutes", "40"},
		{"run", "free-play", "--seed", "1", "--minutes", "5"}, // did not page: no unit
		{"run", "canary", "--seed", "1"},                      // the scenario's own figures
		{"run", "bad-deploy", "--replay", trace, "--at", "09:15", "--do", "rollback"},
		{"batch", "bad-deploy", "-p", pol, "--seeds", "1-3"},
		{"batch", "bad-deploy", "-p", pol, "--vs", shed, "--seeds", "1-3"},
		{"grade", "-p", pol, "--scenario", "bad-deploy", "--reference", "../../golden/testdata/reference/bad-deploy.json"},
		{"alerts", "test", "../../docs/alerts/naive.yml", "--scenario", "bad-deploy", "--scenario", "config-push", "--seeds", "1-2"},
		{"scenarios"},
		{"gameday", "list", "--data", classDB(t)},
	} {
		code := e.run(args...)
		if code != 0 && args[0] != "grade" {
			t.Errorf("%v: exit %d: %s", args, code, e.err.String())
			continue
		}
		lines := 0
		for _, text := range []string{e.out.String(), e.err.String()} {
			for i, line := range strings.Split(text, "\n") {
				lines++
				if strings.TrimRight(line, " \t") != line {
					t.Errorf("%v: line %d ends in white space: %q", args, i+1, line)
				}
			}
		}
		if lines < 4 {
			t.Errorf("%v printed %d lines: no table", args, lines)
		}
	}
}
