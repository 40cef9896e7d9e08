package policy

import (
	"os"
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
