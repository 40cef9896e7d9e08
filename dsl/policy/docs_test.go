package policy

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// TestDocsListEveryName: docs/policies.md lists every variable, helper and
// action a rule can use.
func TestDocsListEveryName(t *testing.T) {
	b, err := os.ReadFile("../../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, v := range Variables() {
		if !strings.Contains(doc, "| `"+v.Name+"` | "+v.Type.String()+" |") {
			t.Errorf("docs/policies.md does not list variable %s (%s)", v.Name, v.Type)
		}
	}
	for _, h := range Helpers() {
		if !strings.Contains(doc, "`"+h.Signature+"`") {
			t.Errorf("docs/policies.md does not list helper %s", h.Signature)
		}
	}
	for _, a := range Actions() {
		if !strings.Contains(doc, "`"+a.Name+"(") {
			t.Errorf("docs/policies.md does not list action %s", a.Name)
		}
	}
}

// TestEveryControlHasAnAction: each control and action of the engine has
// exactly one action function, so that a control added to the engine
// cannot be missing from the rules (CONTRIBUTING.md, "Add a control").
func TestEveryControlHasAnAction(t *testing.T) {
	count := map[engine.Control]int{}
	for _, a := range Actions() {
		count[a.Control]++
	}
	for _, s := range engine.ControlSpecs() {
		if count[s.Control] != 1 {
			t.Errorf("control %s has %d action functions in Actions(); want 1", s.Name, count[s.Control])
		}
	}
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the variables table of docs/policies.md from Variables()")

// TestDocsVariablesTable: the table of variables in docs/policies.md is
// written from Variables() (the engine's metric specs and the time of day),
// so that a metric added to the engine needs no line written by hand here.
// `go test ./dsl/policy -run DocsVariablesTable -update-docs` rewrites it.
func TestDocsVariablesTable(t *testing.T) {
	const path = "../../docs/policies.md"
	const head = "| name | type | unit | meaning |\n|---|---|---|---|\n"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	before, rest, ok := strings.Cut(doc, head)
	if !ok {
		t.Fatalf("docs/policies.md has no table of variables (a line %q)", strings.SplitN(head, "\n", 2)[0])
	}
	table, after, _ := strings.Cut(rest, "\n\n")
	var sb strings.Builder
	for i, v := range Variables() {
		if i > 0 {
			sb.WriteByte('\n')
		}
		unit := " "
		if v.Unit != "" {
			unit = " " + v.Unit + " "
		}
		fmt.Fprintf(&sb, "| `%s` | %s |%s| %s |", v.Name, v.Type, unit, v.Doc)
	}
	want := sb.String()
	if *updateDocs {
		if err := os.WriteFile(path, []byte(before+head+want+"\n\n"+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, wl := strings.Split(table, "\n"), strings.Split(want, "\n")
	for i := range max(len(got), len(wl)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("docs/policies.md, variable %d of the table is stale: run go test ./dsl/policy -run DocsVariablesTable -update-docs\n have %s\n want %s", i+1, g, w)
		}
	}
}

// actionCells are what the table of actions in docs/policies.md must say
// of an action, from the engine's spec of its control: how it is called
// (the argument's name is the page's) and the argument it takes.
func actionCells(a ActionFunc) (call *regexp.Regexp, argument string) {
	if a.Switch {
		return regexp.MustCompile("^`" + a.Name + `\(id, [a-z]+\)` + "`$"), "a switch's id in quotes, then bool"
	}
	if a.NoArg {
		return regexp.MustCompile("^`" + a.Name + `\(\)` + "`$"), "—"
	}
	call = regexp.MustCompile("^`" + a.Name + `\([a-z]+\)` + "`$")
	s := a.Control.Spec()
	switch a.Arg {
	case Bool:
		return call, "bool"
	case Int:
		return call, "int, " + strconv.FormatFloat(s.Min, 'g', -1, 64) + " to " + strconv.FormatFloat(s.Max, 'g', -1, 64)
	}
	return call, a.Arg.String() + ", " + s.Range()
}

// TestDocsActionsTable holds the table of actions in docs/policies.md to
// Actions(), which the engine's table of controls makes: one row an
// action, in its order, each called by its name with an argument when it
// takes one, the argument's type and range as the control's spec says,
// and an effect in the page's words.
func TestDocsActionsTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	const head = "| action | argument | effect |\n|---|---|---|\n"
	_, rest, ok := strings.Cut(string(b), head)
	if !ok {
		t.Fatalf("docs/policies.md has no table of actions (a line %q)", strings.SplitN(head, "\n", 2)[0])
	}
	table, _, _ := strings.Cut(rest, "\n\n")
	rows := strings.Split(table, "\n")
	as := Actions()
	if len(rows) != len(as) {
		t.Errorf("docs/policies.md: the table of actions has %d rows, Actions() %d (the engine's controls and actions)", len(rows), len(as))
	}
	for i := range min(len(rows), len(as)) {
		cells := strings.Split(strings.Trim(rows[i], "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if len(cells) != 3 {
			t.Errorf("docs/policies.md, action %d: %d cells, want 3 (call, argument, effect)", i+1, len(cells))
			continue
		}
		call, argument := actionCells(as[i])
		if !call.MatchString(cells[0]) {
			t.Errorf("docs/policies.md, action %d is %s; Actions() has %s there (%s)", i+1, cells[0], as[i].Name, call)
		}
		if cells[1] != argument {
			t.Errorf("docs/policies.md, action %s takes %q; the engine's spec says %q", as[i].Name, cells[1], argument)
		}
		if cells[2] == "" {
			t.Errorf("docs/policies.md, action %s: say what it does", as[i].Name)
		}
	}
}
