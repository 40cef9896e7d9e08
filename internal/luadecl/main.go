// Command luadecl writes scenarios/oncall.d.lua, the Lua language server's
// annotations for scenarios, from the tables that define what a scenario
// can name: the engine's specs of constants, controls, actions, metrics and
// outcomes, i18n's languages and the scenario API's list of globals. The
// words around them (the API's functions and tables) are in
// oncall.d.lua.tmpl. `go generate ./scenarios` runs it; its test fails when
// the committed file is not what it writes.
package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

//go:embed oncall.d.lua.tmpl
var layout string

func main() {
	out := flag.String("o", "oncall.d.lua", "the file to write")
	flag.Parse()
	b, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "luadecl:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "luadecl:", err)
		os.Exit(1)
	}
}

// generate returns the annotation file.
func generate() ([]byte, error) {
	tmpl, err := template.New("oncall.d.lua.tmpl").Option("missingkey=error").Parse(layout)
	if err != nil {
		return nil, err
	}
	defaults := engine.DefaultConstants()
	data := map[string]string{
		"Languages":   languages(),
		"Constants":   constants(defaults),
		"Controls":    controls(),
		"Labels":      labels(),
		"Actions":     actions(),
		"Row":         row(),
		"Outcomes":    outcomes(),
		"MaxDepName":  strconv.Itoa(engine.MaxDepName),
		"During":      duringTheRun,
		"MaxSwitches": strconv.Itoa(engine.MaxSwitches),
		"DepName":     defaults.DepName,
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, err
	}
	if err := declaresAPI(buf.String()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// declaresAPI checks that every global of the scenario API is declared, as
// a function or as a table.
func declaresAPI(text string) error {
	var missing []string
	for _, name := range scenario.API() {
		if !strings.Contains(text, "\nfunction "+name+"(") && !strings.Contains(text, "\n"+name+" = {}") {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("oncall.d.lua.tmpl declares no %s: add a function (or a table) for each, with its text", strings.Join(missing, ", "))
	}
	return nil
}

// languages lists the fields of oncall.Text: English, which every text
// needs, then the others.
func languages() string {
	var lines []string
	for _, l := range i18n.Languages() {
		opt := "?"
		if l.Code == i18n.Default {
			opt = ""
		}
		lines = append(lines, "---@field "+l.Code+opt+" string "+l.English)
	}
	return strings.Join(lines, "\n")
}

func constants(defaults engine.Constants) string {
	var lines []string
	for _, s := range engine.ConstantSpecs() {
		typ := "number"
		if s.Integer {
			typ = "integer"
		}
		lines = append(lines, fmt.Sprintf("---@field %s? %s %s, %s; %s to %s (default %s)",
			s.Name, typ, sentence(s.Doc), s.Unit, num(s.Min), num(s.Max), num(s.Get(&defaults))))
	}
	return strings.Join(lines, "\n")
}

func controls() string {
	var lines []string
	for _, s := range engine.ControlSpecs() {
		if s.Kind == engine.KindAction {
			continue
		}
		lines = append(lines, fmt.Sprintf("---@field %s? %s %s Takes %s (default %s).",
			s.Name, luaType(s.Kind), s.Doc, s.Range(), controlValue(s)))
	}
	return strings.Join(lines, "\n")
}

// actions declares a function for each action, which a scenario calls as
// someone else's decision.
func actions() string {
	var blocks []string
	for _, s := range engine.ControlSpecs() {
		if s.Kind != engine.KindAction {
			continue
		}
		blocks = append(blocks, fmt.Sprintf("---Someone else presses %s(), as the console's button does. %s %s\nfunction %s() end\n", s.Name, s.Doc, duringTheRun, s.Name))
	}
	return strings.Join(blocks, "\n")
}

// duringTheRun says where a function that changes the run may be called,
// as the scenario API checks it (dsl/scenario's needEvent).
const duringTheRun = "Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value."

// labels lists the fields of oncall.Labels: every control and action, by
// its name, which a scenario may give a label of its own.
func labels() string {
	var lines []string
	for _, s := range engine.ControlSpecs() {
		lines = append(lines, fmt.Sprintf("---@field %s? string|oncall.Text", s.Name))
	}
	return strings.Join(lines, "\n")
}

func row() string {
	var lines []string
	for _, s := range engine.MetricSpecs() {
		typ := map[engine.MetricKind]string{engine.Number: "number", engine.Integer: "integer", engine.Boolean: "boolean"}[s.Kind]
		line := "---@field " + s.Name + " " + typ + " " + sentence(s.Doc)
		if s.Unit != "" {
			line += " (" + s.Unit + ")"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func outcomes() string {
	var lines []string
	for _, s := range engine.OutcomeSpecs() {
		lines = append(lines, fmt.Sprintf("---| %q # %s", s.Name, s.Doc))
	}
	return strings.Join(lines, "\n")
}

func luaType(k engine.ControlKind) string {
	switch k {
	case engine.KindBool:
		return "boolean"
	case engine.KindInt:
		return "integer"
	}
	return "number"
}

func controlValue(s engine.ControlSpec) string {
	if s.Kind == engine.KindBool {
		return strconv.FormatBool(s.Default == 1)
	}
	return num(s.Default)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// sentence starts a spec's text with a capital letter, as a hover line; a
// symbol such as λ stays as it is.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r >= utf8.RuneSelf {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
