package scenario

import (
	"regexp"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
)

// Lua tells where an error happened by its line. A diagnostic's caret
// stands under what the error is about, which its message names: a name
// the script does not define, a field, the function that refused its
// argument. locate finds it on the line; failing that, the caret stands
// under the line's first token, so that every problem has a column.

var (
	unknownName   = regexp.MustCompile(`^unknown name ([A-Za-z_][A-Za-z0-9_]*)`)
	notAvailable  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))? is not available`)
	libraryMiss   = regexp.MustCompile(`^([a-z]+)\.([A-Za-z_][A-Za-z0-9_]*): the [a-z]+ library has no `)
	rowField      = regexp.MustCompile(`^row\.([A-Za-z_][A-Za-z0-9_]*): unknown metric`)
	indexKey      = regexp.MustCompile(`with key '([A-Za-z_][A-Za-z0-9_]*)'`)
	calledAPI     = regexp.MustCompile(`^((?:rng|string|table|math)\.[a-z_]+|[a-z_]+)(?:\(|\{| takes|:)`)
	happensDuring = regexp.MustCompile(`^([a-z_]+)(?:\(\)|\{\}) (?:happens|cannot)`)
)

// locate returns where on line the error of msg is about.
func (p *Program) locate(line int, msg string) (dsl.Pos, bool) {
	ps := p.places()
	if m := unknownName.FindStringSubmatch(msg); m != nil {
		return ps.name(line, m[1])
	}
	if m := notAvailable.FindStringSubmatch(msg); m != nil {
		if m[2] != "" {
			return ps.field(line, m[2])
		}
		return ps.name(line, m[1])
	}
	if m := libraryMiss.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.field(line, m[2]); ok {
			return pos, true
		}
	}
	if m := rowField.FindStringSubmatch(msg); m != nil {
		return ps.field(line, m[1])
	}
	if m := indexKey.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.field(line, m[1]); ok {
			return pos, true
		}
	}
	if m := happensDuring.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.name(line, m[1]); ok {
			return pos, true
		}
	}
	if m := calledAPI.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.callArg(line, m[1], 1); ok {
			return pos, true
		}
	}
	if strings.Contains(p.lineText(line), "error(") {
		if pos, ok := ps.name(line, "error"); ok {
			return pos, true
		}
	}
	return ps.first(line)
}

// lineText returns line n of the file.
func (p *Program) lineText(n int) string { return dsl.LineOf(p.src, n) }

// placed gives a column to the diagnostics of l that have a line of the
// file but none.
func (p *Program) placed(l dsl.List) dsl.List {
	for i := range l {
		d := &l[i]
		if d.Pos.File != p.file || d.Pos.Line < 1 || d.Pos.Col > 0 || d.Snippet == "" {
			continue
		}
		if pos, ok := p.locate(d.Pos.Line, d.Message); ok {
			d.Pos.Col = pos.Col
		}
	}
	return l
}
