package scripts_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/scenarios"
	"github.com/oncall-sim/oncall/shift"
)

// A built-in scenario's lesson is a list of claims, kept as data beside it
// in scenarios/<id>.claims, each checked on the seeds the file names (at
// least 20, which no other test uses) by TestStoryClaims. A file reads:
//
//	seeds 9101-9120
//	policy warm = ladder/thundering-herd/textbook.rules   (a file of scripts/)
//	policy fast:                                          (or rules, indented)
//	  rule "warm up at once"
//	    when warm < 0.8 && warmup_left == 0
//	    do   warmup()
//	claim most of no policy's failed requests are the app's, not the database's
//	  median none.db_error_requests / none.error_requests <= 0.1
//
// Every claim has one check, indented below it: "every EXPR" holds on every
// seed; "median EXPR" compares the median over the seeds of a number. An
// expression (expr) reads each run's outcome figures by name
// (none.error_requests, reference.budget_used, warm.recommendations) and,
// from its trace, db_error_requests (the requests the database failed) and
// app_error_requests (the rest: the app's timeouts and overload). No
// policy and the scenario's reference policy are always there, as none and
// reference.

// claimFile is a parsed claims file.
type claimFile struct {
	path     string
	seeds    []uint32
	policies map[string]string // name → rules source
	order    []string
	claims   []claim
}

type claim struct {
	line  int
	text  string
	kind  string // "every" or "median"
	check string
	prog  *vm.Program
}

func parseClaims(path string, src string) (*claimFile, error) {
	f := &claimFile{path: path, policies: map[string]string{}}
	lines := strings.Split(src, "\n")
	fail := func(i int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, i+1, fmt.Sprintf(format, args...))
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#"):
		case word == "seeds":
			seeds, err := shift.ParseSeeds(rest)
			if err != nil {
				return nil, fail(i, "seeds: %v", err)
			}
			f.seeds = seeds
		case word == "policy":
			name, file, isFile := strings.Cut(rest, "=")
			name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(name), ":"))
			if name == "" || name == "none" || name == "reference" {
				return nil, fail(i, "a policy needs a name other than none and reference: policy NAME = FILE, or policy NAME: and its rules indented")
			}
			if isFile {
				src, err := os.ReadFile(strings.TrimSpace(file))
				if err != nil {
					return nil, fail(i, "policy %s: %v", name, err)
				}
				f.policies[name] = string(src)
			} else {
				var b strings.Builder
				for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "  ") || strings.TrimSpace(lines[i+1]) == "") {
					i++
					b.WriteString(strings.TrimPrefix(lines[i], "  ") + "\n")
				}
				if strings.TrimSpace(b.String()) == "" {
					return nil, fail(i, "policy %s has no rules: indent them below it", name)
				}
				f.policies[name] = b.String()
			}
			f.order = append(f.order, name)
		case word == "claim":
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "  ") {
				return nil, fail(i, "claim %q has no check: indent one below it, every EXPR or median EXPR OP NUMBER", rest)
			}
			c := claim{line: i + 1, text: rest}
			i++
			c.kind, c.check, _ = strings.Cut(strings.TrimSpace(lines[i]), " ")
			if c.kind != "every" && c.kind != "median" {
				return nil, fail(i, "a check starts with every or median, not %q", c.kind)
			}
			f.claims = append(f.claims, c)
		default:
			return nil, fail(i, "%q: a line is seeds, policy, claim, a comment or blank", word)
		}
	}
	if len(f.seeds) < 20 {
		return nil, fmt.Errorf("%s: %d seeds; a story is checked on at least 20", path, len(f.seeds))
	}
	if len(f.claims) == 0 {
		return nil, fmt.Errorf("%s: no claim", path)
	}
	return f, nil
}

// figures are a run's outcome figures by name, and the split of its failed
// requests between the database and the app.
func figures(sim *engine.Sim) map[string]float64 {
	o := sim.Outcome()
	m := make(map[string]float64)
	for _, s := range engine.OutcomeSpecs() {
		m[s.Name] = s.Get(&o)
	}
	var db float64
	for _, r := range sim.Rows() {
		db += r.Admitted * 60 * r.DBErrors
	}
	m["db_error_requests"] = db
	m["app_error_requests"] = o.ErrorRequests - db
	return m
}

func medianOf(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// checkClaims runs the file's policies on its seeds and returns, for each
// claim, whether it holds and what was measured.
func checkClaims(t *testing.T, id string, f *claimFile) []string {
	t.Helper()
	runs := make([]map[string]any, len(f.seeds))
	for i, seed := range f.seeds {
		env := map[string]any{
			"none":      figures(play(t, id, seed, "")),
			"reference": figures(play(t, id, seed, reference(t, id))),
		}
		for _, name := range f.order {
			env[name] = figures(play(t, id, seed, f.policies[name]))
		}
		runs[i] = env
	}
	var failures []string
	for _, c := range f.claims {
		prog, err := expr.Compile(c.check, expr.Env(runs[0]))
		if err != nil {
			t.Fatalf("%s:%d: claim %q: %v", f.path, c.line, c.text, err)
		}
		var vals []float64
		held, missed := 0, []uint32{}
		for i, env := range runs {
			out, err := expr.Run(prog, env)
			if err != nil {
				t.Fatalf("%s:%d: claim %q, seed %d: %v", f.path, c.line, c.text, f.seeds[i], err)
			}
			switch v := out.(type) {
			case bool:
				if v {
					held++
				} else {
					missed = append(missed, f.seeds[i])
				}
			case float64:
				vals = append(vals, v)
			default:
				t.Fatalf("%s:%d: claim %q: the check gives %T; every takes a comparison, median a number compared", f.path, c.line, c.text, out)
			}
		}
		switch {
		case c.kind == "every" && len(missed) > 0:
			failures = append(failures, fmt.Sprintf("%s:%d: claim %q is false on seeds %s", f.path, c.line, c.text, shift.FormatSeeds(missed)))
		case c.kind == "every":
			t.Logf("%s:%d: %q holds on all %d seeds", f.path, c.line, c.text, held)
		case c.kind == "median":
			failures = append(failures, checkMedian(t, f, c, runs)...)
		}
	}
	return failures
}

// checkMedian checks "median EXPR OP NUMBER": the median of EXPR over the
// seeds compared.
func checkMedian(t *testing.T, f *claimFile, c claim, runs []map[string]any) []string {
	t.Helper()
	var op string
	var lhs, rhs string
	for _, o := range []string{"<=", ">=", "<", ">"} {
		if i := strings.LastIndex(c.check, " "+o+" "); i >= 0 {
			op, lhs, rhs = o, c.check[:i], c.check[i+len(o)+2:]
			break
		}
	}
	if op == "" {
		t.Fatalf("%s:%d: claim %q: median takes EXPR OP NUMBER (<=, >=, < or >)", f.path, c.line, c.text)
	}
	var bound float64
	if _, err := fmt.Sscan(rhs, &bound); err != nil {
		t.Fatalf("%s:%d: claim %q: %q is not a number", f.path, c.line, c.text, rhs)
	}
	prog, err := expr.Compile(lhs, expr.Env(runs[0]), expr.AsFloat64())
	if err != nil {
		t.Fatalf("%s:%d: claim %q: %v", f.path, c.line, c.text, err)
	}
	vals := make([]float64, len(runs))
	for i, env := range runs {
		out, err := expr.Run(prog, env)
		if err != nil {
			t.Fatalf("%s:%d: claim %q, seed %d: %v", f.path, c.line, c.text, f.seeds[i], err)
		}
		vals[i] = out.(float64)
	}
	m := medianOf(vals)
	ok := map[string]bool{"<=": m <= bound, ">=": m >= bound, "<": m < bound, ">": m > bound}[op]
	lo, hi := slices.Min(vals), slices.Max(vals)
	if !ok {
		return []string{fmt.Sprintf("%s:%d: claim %q is false: the median of %s is %.4g (seeds range %.4g to %.4g), not %s %s", f.path, c.line, c.text, lhs, m, lo, hi, op, rhs)}
	}
	t.Logf("%s:%d: %q holds: the median of %s is %.4g (%.4g to %.4g)", f.path, c.line, c.text, lhs, m, lo, hi)
	return nil
}

// TestStoryClaims checks every claim of every built-in's claims file, and
// that every built-in with a lesson has one.
func TestStoryClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every story on its seeds")
	}
	for _, id := range scenarios.Names() {
		if id == "free-play" {
			continue // no incident, no lesson to claim
		}
		t.Run(id, func(t *testing.T) {
			path := filepath.Join("..", "scenarios", id+".claims")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%s has no claims file: %v", id, err)
			}
			f, err := parseClaims(path, string(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, msg := range checkClaims(t, id, f) {
				t.Error(msg)
			}
		})
	}
}

// A claims file that does not read names its file and line.
func TestClaimsFileErrors(t *testing.T) {
	const seeds = "seeds 9101-9120\n"
	cases := []struct{ src, want string }{
		{seeds + "claim x\n", `s.claims:2: claim "x" has no check`},
		{seeds + "claim x\n  always none.cost > 0\n", `s.claims:3: a check starts with every or median, not "always"`},
		{seeds + "polcy p = x.rules\n", `s.claims:2: "polcy": a line is seeds, policy, claim`},
		{seeds + "policy none = x.rules\n", `s.claims:2: a policy needs a name other than none and reference`},
		{seeds + "policy p:\nclaim x\n  every true\n", `s.claims:2: policy p has no rules`},
		{"seeds 1-5\nclaim x\n  every true\n", `s.claims: 5 seeds; a story is checked on at least 20`},
		{seeds, `s.claims: no claim`},
	}
	for _, c := range cases {
		if _, err := parseClaims("s.claims", c.src); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}
