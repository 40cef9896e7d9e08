package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/golden/goldentest"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/luachunk"
)

// One run of oncall check reports every mistake of a scenario and of a
// policy that hold a mistake of every kind: declaration, grading,
// callbacks, surge and outcome functions; syntax, names, types, actions,
// limits and what a rule that loads does in a run. Each mistake stands on
// the line after a comment that names its kind (--! kind, #! kind); each
// must have a problem of that kind on that line, with a column, and the
// whole output is kept in testdata/check/every-mistake.golden
// (GOLDIE_UPDATE=1 rewrites it).
func TestCheckFindsEveryMistakeAtOnce(t *testing.T) {
	files := []string{"testdata/check/every-mistake.lua", "testdata/check/every-mistake.rules"}
	e := newTestEnv(t)
	if code := e.run(append([]string{"check"}, files...)...); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, e.err.String())
	}
	out := e.out.String()
	printed := map[string]bool{} // "file:line" of each problem printed with a column
	head := regexp.MustCompile(`^(testdata/check/[a-z-]+\.[a-z]+):(\d+):(\d+): `)
	for _, line := range strings.Split(out, "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			printed[m[1]+":"+m[2]] = true
		}
	}
	kinds := map[string]int{}
	want := 0
	for _, file := range files {
		// What the command printed, by kind: checkFile is its path.
		found := map[string]string{}
		for _, d := range checkFile(&e.Env, file, budget.Limits{}, nil, scenariosKnown{unloaded: files[:1]}) {
			found[fmt.Sprintf("%s:%d", file, d.Pos.Line)] = d.Kind
		}
		for _, m := range mistakes(t, file) {
			want++
			kinds[m.kind]++
			at := fmt.Sprintf("%s:%d", file, m.line)
			if !printed[at] {
				t.Errorf("%s: no problem with a column for the %s mistake there", at, m.kind)
			}
			if found[at] != m.kind {
				t.Errorf("%s: a problem of kind %q, want %q", at, found[at], m.kind)
			}
		}
	}
	// Each kind marked is counted in the summary, as many times as marked.
	summary := e.err.String()
	for kind, n := range kinds {
		if !strings.Contains(summary, fmt.Sprintf("%d %s", n, kind)) {
			t.Errorf("the summary %q does not count %d %s", summary, n, kind)
		}
	}
	if !strings.HasPrefix(summary, fmt.Sprintf("oncall: %d problems in 2 of 2 files (", want)) {
		t.Errorf("the summary %q does not count the %d mistakes marked", summary, want)
	}
	goldentest.New(t, "testdata/check", "").Assert(t, "every-mistake", []byte(out+summary))
}

// mistake is a line of a test file marked with the kind of its mistake.
type mistake struct {
	line int
	kind string
}

// mistakes reads the marks of a file: a comment "--! kind" or "#! kind"
// names the kind of the mistake on the next line.
func mistakes(t *testing.T, file string) []mistake {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []mistake
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		for _, mark := range []string{"--! ", "#! "} {
			if kind, ok := strings.CutPrefix(text, mark); ok {
				out = append(out, mistake{line: n + 1, kind: kind})
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("%s: only %d mistakes marked", file, len(out))
	}
	return out
}

// check --seeds plays a scenario on the seeds given instead of 0 to 19,
// and names the seed where a problem is met: here an at() that only a
// draw of a later seed puts after the end of the run.
func TestCheckOnTheSeedsGiven(t *testing.T) {
	// The largest first draw of seeds 0 to 19, and a later seed that
	// draws more.
	top := 0.0
	for s := range uint32(scenario.DefaultCheckSeeds) {
		top = max(top, engine.NewRand(engine.ScenarioSeed(s)).Float64())
	}
	late := uint32(scenario.DefaultCheckSeeds)
	for engine.NewRand(engine.ScenarioSeed(late)).Float64() <= top {
		late++
	}
	path := tempFile(t, "late.lua", fmt.Sprintf(luachunk.Src(t, "testdata/check.lua", "TestCheckOnTheSeedsGiven"), top))
	e := newTestEnv(t)
	if code := e.run("check", path); code != 0 {
		t.Fatalf("seeds 0 to 19: exit %d: %s%s", code, e.out.String(), e.err.String())
	}
	if code := e.run("check", path, "--seeds", fmt.Sprintf("0-%d", late+3)); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, e.err.String())
	}
	want := fmt.Sprintf("%s:3:4: at(75): minute 75 is after the end of the run (60 minutes) (on seed %d while loading, of seeds 0 to %d)\n", path, late, late+3)
	if !strings.HasPrefix(e.out.String(), want) {
		t.Errorf("stdout:\n%s\nwant it to start with:\n%s", e.out.String(), want)
	}
	if code := e.run("check", path, "--seeds", "7-x"); code != 2 || !strings.HasPrefix(e.err.String(), "oncall: --seeds: ") {
		t.Errorf("a wrong set: exit %d, %s", code, e.err.String())
	}
}
