package expect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write puts files in a temporary folder and returns its path.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const goodFile = `# a comment
scenario bad-deploy
seeds 1-20
policy rollback = rollback.rules
policy scale:
  rule "the largest fleet"
    when min_instances < 40
    do   set_min_instances(40)

claim the page fires 5 to 15 minutes after the deploy
  every none.first_page - none.deploy_minute >= 5 && none.first_page - none.deploy_minute <= 15
claim rolling back saves most of the budget
  median rollback.budget_used / none.budget_used <= 0.2
claim rolling back when paged scores 90 % or more
  grade rollback >= 90 %
grade scale < rollback
grade none is worse than none
`

const rollbackRules = "rule \"roll back when paged\"\n  when paging && rollback_left == 0\n  do   rollback()\n"

func TestParseGood(t *testing.T) {
	dir := write(t, map[string]string{"t.claims": goodFile, "rollback.rules": rollbackRules})
	f, err := Load(filepath.Join(dir, "t.claims"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Scenario != "bad-deploy" || len(f.Seeds) != 20 || f.Seeds[0] != 1 {
		t.Errorf("scenario %q, seeds %v", f.Scenario, f.Seeds)
	}
	if len(f.Policies) != 2 || f.Policies[0].Source != rollbackRules || f.Policies[1].Line != 6 || !strings.HasPrefix(f.Policies[1].Source, "rule \"the largest fleet\"\n  when") {
		t.Errorf("policies %+v", f.Policies)
	}
	var kinds []string
	for _, c := range f.Claims {
		kinds = append(kinds, c.Kind+"@"+c.Pos.String())
	}
	want := []string{"every@" + f.Path + ":10", "median@" + f.Path + ":12", "grade@" + f.Path + ":14", "grade@" + f.Path + ":16", "grade@" + f.Path + ":17"}
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Errorf("claims %v, want %v", kinds, want)
	}
	if c := f.Claims[3]; c.Text != "grade scale < rollback" || c.pol != "scale" || c.other != "rollback" || c.op != "<" {
		t.Errorf("a grade against a policy reads %+v", c)
	}
	if c := f.Claims[2]; c.bound != 90 || c.op != ">=" {
		t.Errorf("a grade against a percent reads %+v", c)
	}
}

// Every existing claims file of the built-ins still reads, its scenario
// named by its file.
func TestBuiltinClaimsRead(t *testing.T) {
	paths, _ := filepath.Glob("../scenarios/*.claims")
	if len(paths) < 7 {
		t.Fatalf("%d claims files", len(paths))
	}
	for _, p := range paths {
		f, err := Load(p)
		if err != nil {
			t.Error(err)
			continue
		}
		if want := strings.TrimSuffix(filepath.Base(p), Ext); f.Scenario != want {
			t.Errorf("%s: scenario %s", p, f.Scenario)
		}
	}
}

// A file that does not read names file:line:col and says what to do.
func TestParseErrors(t *testing.T) {
	const head = "scenario bad-deploy\nseeds 1-20\n"
	const claim = "claim x\n  every none.cost > 0\n"
	cases := []struct{ src, want string }{
		{head + "claim x\n", `t.claims:3:1: claim "x" has no check`},
		{head + "claim x\n  always none.cost > 0\n", `t.claims:4:3: a check starts with every, median or grade, not "always"`},
		{head + "polcy p = x.rules\n" + claim, `t.claims:3:1: "polcy": a line is scenario, seeds, policy, claim, grade`},
		{head + "policy none = x.rules\n" + claim, `t.claims:3:8: none is no policy`},
		{head + "policy p = nowhere.rules\n" + claim, `t.claims:3:12: policy p: nowhere.rules: no such file`},
		{head + "policy p:\nclaim x\n  every true\n", `t.claims:3:8: policy p has no rules`},
		{head + "policy 9lives = x.rules\n" + claim, `t.claims:3:8: policy name "9lives"`},
		{head + "seeds 1-30\n" + claim, `t.claims:3:1: a second seeds line`},
		{head + "claim x\n  every cost > 0\n", `t.claims:4:9: cost is a figure of a run: name the run, e.g. none.cost`},
		{head + "claim x\n  every costs > 0\n", `t.claims:4:9: unknown name costs; a check reads POLICY.figure`},
		{head + "claim x\n  every none.cots > 0\n", `t.claims:4:14: none.cots: no figure cots; did you mean cost?`},
		{head + "claim x\n  every nobody.cost > 0\n", `t.claims:4:3: claim "x" reads policy nobody, which the file does not name`},
		{head + "claim x\n  every none.cost + 1\n", `t.claims:4:9: every takes a comparison`},
		{head + "claim x\n  every none.cost > \n", `t.claims:4:`},
		{head + "claim x\n  median none.cost\n", `t.claims:4:10: median takes EXPR OP NUMBER`},
		{head + "claim x\n  median none.cost <= many\n", `t.claims:4:23: "many" is not a number`},
		{head + "claim x\n  median none.cost > 1 <= 2\n", `t.claims:4:10: median compares a number`},
		{head + "claim x\n  grade none about 90 %\n", `t.claims:4:14: grade takes POLICY OP NUMBER`},
		{head + "claim x\n  grade none >= 190 %\n", `t.claims:4:17: 190 %: a grade is 0 to 100 %`},
		{head + "claim x\n  every none.cost > 0\n  every none.cost > 1\n", `t.claims:5:1: claim "x" has one check`},
		{head + "  every none.cost > 0\n", `t.claims:3:1: an indented line belongs`},
		{"scenario bad-deploi\nseeds 1-20\n" + claim, `t.claims:1:10: scenario "bad-deploi" is not a built-in`},
		{"scenario bad-deploy\nscenario surge\nseeds 1-20\n" + claim, `t.claims:2:1: a second scenario line`},
		{"scenario nowhere.lua\nseeds 1-20\n" + claim, `t.claims:1:10: scenario nowhere.lua: no such file`},
		{"scenario bad-deploy\nseeds 5-1\n" + claim, `t.claims:2:7: seeds:`},
		{"scenario bad-deploy\n" + claim, `t.claims: no seeds line`},
		{"seeds 1-20\n" + claim, `t.claims: no scenario line`},
		{head, `t.claims: no claim`},
		{head + "policy reference = r.rules\n" + claim, `t.claims:3:1: bad-deploy is a built-in and has its own reference policy`},
		{"scenario s.lua\nseeds 1-20\ngrade none <= 20 %\n", `t.claims:1:1: a grade is against the scenario's reference`},
		{head + "policy p = r.rules\npolicy p = r.rules\n" + claim, `t.claims:4:8: policy p is already named at line 3`},
		// Hostile checks stop at load, as a policy's condition does: a
		// range of a billion numbers, nesting that expr's parser would
		// recurse into, a list grown by +, a builtin that reads the clock.
		{head + "claim x\n  every len(1..1000000000) > 0\n", `t.claims:4:14: the check may take up to`},
		{head + "claim x\n  every " + strings.Repeat("(", 500) + "none.cost" + strings.Repeat(")", 500) + " > 0\n", `t.claims:4:`},
		{head + "claim x\n  every len([1] + [2]) > 0\n", `t.claims:4:`},
		{head + "claim x\n  every now().Year() > 0\n", `t.claims:4:`},
	}
	for _, c := range cases {
		dir := write(t, map[string]string{"t.claims": c.src, "s.lua": "", "r.rules": rollbackRules, "x.rules": rollbackRules})
		_, err := Load(filepath.Join(dir, "t.claims"))
		if err == nil {
			t.Errorf("%q reads", c.src)
			continue
		}
		if got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)); !strings.HasPrefix(got, c.want) {
			t.Errorf("%q:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// A claim that is false fails with its figures on the worst seeds; the
// same claim the right way round holds.
func TestFlippedClaimFails(t *testing.T) {
	const head = "scenario bad-deploy\nseeds 1-20\npolicy rollback = examples/rollback-on-page.rules\n"
	cases := []struct {
		check string
		held  bool
		want  []string
	}{
		{"every none.first_page - none.deploy_minute >= 5 && none.first_page - none.deploy_minute <= 15", true, []string{"holds on all 20 seeds"}},
		{"every none.first_page - none.deploy_minute < 5", false, []string{"false on 20 of 20 seeds: 1-20", "seed 1: none.first_page = ", ", none.deploy_minute = 10"}},
		{"median rollback.budget_used / none.budget_used <= 0.2", true, []string{"the median of rollback.budget_used / none.budget_used is 0.1"}},
		{"median rollback.budget_used / none.budget_used > 0.2", false, []string{", not > 0.2", "seed ", ": rollback.budget_used / none.budget_used = 0.", "rollback.budget_used = "}},
	}
	for _, c := range cases {
		dir := write(t, map[string]string{"t.claims": head + "claim the claim\n  " + c.check + "\n"})
		f, err := Load(filepath.Join(dir, "t.claims"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.Run(context.Background(), Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := r.Write(&b, false); err != nil {
			t.Fatal(err)
		}
		cr := r.Claims[0]
		got := cr.Measured + "\n" + strings.Join(cr.Worst, "\n")
		if cr.Held != c.held {
			t.Errorf("%s: held %v, want %v:\n%s", c.check, cr.Held, c.held, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q not in\n%s", c.check, w, got)
			}
		}
		if !c.held && (!strings.Contains(b.String(), "FAIL "+f.Path+":4: the claim\n") || len(cr.Worst) != worstShown) {
			t.Errorf("%s: the failure reads\n%s", c.check, b.String())
		}
	}
}

// A grade claim grades against the reference recorded on the file's
// seeds: one that does not hold shows the criteria missed and their worst
// seeds; a policy that does not parse scores 0 with its diagnostic at its
// place in the test file.
func TestGradeClaims(t *testing.T) {
	src := `scenario bad-deploy
seeds 1-10
policy rollback = examples/rollback-on-page.rules
policy broken:
  rule "roll back"
    when paging &&
    do   rollback()
grade rollback >= 90 %
grade reference == 100 %
grade rollback > none
grade none >= 50 %
grade none is worse than none
grade broken == 0 %
grade broken >= 10 %
`
	dir := write(t, map[string]string{"t.claims": src})
	f, err := Load(filepath.Join(dir, "t.claims"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Run(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		held bool
		text string
	}{
		{true, "rollback scores 100.0 %"},
		{true, "reference scores 100.0 %"},
		{true, "rollback scores 100.0 %, none 0.0 %"},
		{false, "none scores 0.0 %, not >= 50 %\nbudget_used at most reference + 0.03: 0 of "},
		{false, "none scores 0.0 % and is not flagged worse than no policy"},
		{true, "broken scores 0.0 %"},
		{false, "broken scores 0.0 %, not >= 10 %\n" + f.Path + ":6:18: rule \"roll back\": "},
	}
	for i, w := range want {
		c := r.Claims[i]
		got := c.Measured + "\n" + strings.Join(c.Worst, "\n")
		if c.Held != w.held || !strings.HasPrefix(got, w.text) {
			t.Errorf("%s: held %v:\n%s\nwant held %v and it to start with\n%s", c.Claim.Text, c.Held, got, w.held, w.text)
		}
	}
	if !strings.Contains(strings.Join(r.Claims[3].Worst, "\n"), "\n  seed ") {
		t.Errorf("no worst seed:\n%s", strings.Join(r.Claims[3].Worst, "\n"))
	}
}

// The example of docs/goldens.md reads and holds.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/goldens.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## Test files: `oncall test`")
	_, block, ok2 := strings.Cut(sec, "```text\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/goldens.md has no example test file under its Test files section")
	}
	dir := write(t, map[string]string{"drill.claims": block})
	f, err := Load(filepath.Join(dir, "drill.claims"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Run(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.Write(&b, true); err != nil {
		t.Fatal(err)
	}
	if r.Failed() > 0 || len(r.Claims) != 6 {
		t.Errorf("the example of docs/goldens.md:\n%s", b.String())
	}
}

// A claim that reads a policy that does not load, or whose run stops,
// fails with the diagnostic, at its place in the test file.
func TestPoliciesThatFail(t *testing.T) {
	src := `scenario bad-deploy
seeds 1-3
policy broken:
  rule "x"
    when paging &&
    do   rollback()
policy quota:
  rule "too many"
    when paging
    do   set_min_instances(serving * 100)
claim a
  every broken.cost > 0
claim b
  every quota.cost > 0
claim c
  every none.cost > 0
`
	dir := write(t, map[string]string{"t.claims": src})
	f, err := Load(filepath.Join(dir, "t.claims"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Run(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"policy broken does not load\n" + f.Path + ":5:18: rule \"x\": the expression ends too soon",
		"the run of quota on seed 1 stopped\nminute 15 (09:15): " + f.Path + ":10:26: rule \"too many\": set_min_instances(1100): min_instances = 1100 is out of range",
	}
	for i, w := range want {
		c := r.Claims[i]
		if got := c.Measured + "\n" + strings.Join(c.Worst, "\n"); c.Held || !strings.HasPrefix(got, w) {
			t.Errorf("%s: held %v:\n%s\nwant it to start with\n%s", c.Claim.Text, c.Held, got, w)
		}
	}
	if !r.Claims[2].Held || r.Passed() != 1 || r.Failed() != 2 {
		t.Errorf("a claim of no policy beside them: %+v; %d passed, %d failed", r.Claims[2], r.Passed(), r.Failed())
	}
}
