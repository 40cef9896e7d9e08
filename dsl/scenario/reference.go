package scenario

import (
	"fmt"
	"path"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
)

// A scenario names its reference policy, the answer it teaches, which
// golden record runs and grade compares with: scenario{ reference =
// "my-drill.rules" }, a file beside the scenario (a path relative to the
// scenario's folder, within it), or the rules themselves, written in the
// file:
//
//	reference = [[
//	rule "shed when paged"
//	  when paging && shed == 0
//	  do   set_shed(1)
//	]],
//
// A text on one line that ends in .rules is a file; any other text is the
// rules. The program reads no file: its caller does (Reference.Path).

// Reference is the reference policy a scenario names: a file (File, as
// written, relative to the scenario's folder) or the rules written in the
// scenario (Rules), and where the value stands.
type Reference struct {
	File  string
	Rules string
	Pos   dsl.Pos
	// rules: where the text of the rules starts in the scenario, when it
	// is written as a long string ([[ ... ]]), its line and column, so
	// that the policy's problems point into the scenario's lines.
	line, col int
}

// Named reports whether the scenario names a reference policy.
func (r Reference) Named() bool { return r.File != "" || r.Rules != "" }

// Path is the reference policy's file for a scenario read from
// scenarioFile: File beside it. "" for rules written in the scenario.
func (r Reference) Path(scenarioFile string) string {
	if r.File == "" {
		return ""
	}
	return path.Join(path.Dir(scenarioFile), r.File)
}

// Source is the text of rules written in the scenario as a policy reads
// it: padded with blank lines and spaces to where it stands in the
// scenario when it is written as a long string, so that a problem of the
// rules is at its line and column of the scenario's file.
func (r Reference) Source() []byte {
	if r.Rules == "" {
		return nil
	}
	if r.line < 1 {
		return []byte(r.Rules)
	}
	return []byte(strings.Repeat("\n", r.line-1) + strings.Repeat(" ", r.col-1) + r.Rules)
}

// Reference returns the reference policy the scenario names; its zero
// value when it names none.
func (p *Program) Reference() Reference { return p.decl.reference }

// referenceField reads scenario{ reference = ... }.
var referenceField = table.Field[declaration]{Name: "reference", Read: func(d *declaration, v lua.LValue, in *table.Reading) error {
	s, ok := v.(lua.LString)
	if !ok || strings.TrimSpace(string(s)) == "" {
		return fmt.Errorf(`= %s: it takes the reference policy's file beside the scenario, e.g. reference = "my-drill.rules", or its rules, reference = [[ rule "..." when ... do ... ]]`, luaText(v))
	}
	if err := table.PlainText(string(s)); err != nil {
		return fmt.Errorf("%w", err)
	}
	text := string(s)
	ref := Reference{Pos: in.Place().Value("reference")}
	if !strings.Contains(text, "\n") && strings.HasSuffix(strings.TrimSpace(text), ".rules") {
		file := strings.TrimSpace(text)
		if err := referencePath(file); err != nil {
			return err
		}
		ref.File = file
	} else {
		ref.Rules = text
	}
	d.reference = ref
	return nil
}}

// referencePath checks a reference's file: a relative path with slashes,
// inside the scenario's folder.
func referencePath(file string) error {
	clean := path.Clean(file)
	switch {
	case strings.Contains(file, `\`):
		return fmt.Errorf("= %q: write the path with /, relative to the scenario's folder, e.g. \"policies/my-drill.rules\"", file)
	case path.IsAbs(file) || clean == ".." || strings.HasPrefix(clean, "../"):
		return fmt.Errorf("= %q: the reference policy's file is within the scenario's folder: give its path relative to it, e.g. \"my-drill.rules\"", file)
	}
	return nil
}

// placeRules notes where rules written as a long string start in the
// source: past the opening bracket, and past its line break.
func (p *Program) placeRules(ref *Reference) {
	if ref.Rules == "" || ref.Pos.Line < 1 {
		return
	}
	line := dsl.LineOf(p.src, ref.Pos.Line)
	runes := []rune(line)
	col := ref.Pos.Col - 1
	if col < 0 || col >= len(runes) || runes[col] != '[' {
		return // a quoted string: its escapes move the columns
	}
	k := col + 1
	for k < len(runes) && runes[k] == '=' {
		k++
	}
	if k >= len(runes) || runes[k] != '[' {
		return
	}
	k++
	if k == len(runes) {
		// Lua drops the line break right after the bracket.
		ref.line, ref.col = ref.Pos.Line+1, 1
		return
	}
	ref.line, ref.col = ref.Pos.Line, k+1
}
