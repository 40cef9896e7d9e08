package source

import (
	"regexp"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
)

// Lua tells where an error happened by its line. A diagnostic's caret
// stands under what the error is about, which its message names: a name
// the script does not define, a field, the function that refused its
// argument. Locate finds it on the line; failing that, the caret stands
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

// Locate returns where on line the error of msg is about.
func (ps *Places) Locate(line int, msg string) (dsl.Pos, bool) {
	if m := unknownName.FindStringSubmatch(msg); m != nil {
		return ps.Name(line, m[1])
	}
	if m := notAvailable.FindStringSubmatch(msg); m != nil {
		if m[2] != "" {
			return ps.Field(line, m[2])
		}
		return ps.Name(line, m[1])
	}
	if m := libraryMiss.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.Field(line, m[2]); ok {
			return pos, true
		}
	}
	if m := rowField.FindStringSubmatch(msg); m != nil {
		return ps.Field(line, m[1])
	}
	if m := indexKey.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.Field(line, m[1]); ok {
			return pos, true
		}
	}
	if m := happensDuring.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.Name(line, m[1]); ok {
			return pos, true
		}
	}
	if m := calledAPI.FindStringSubmatch(msg); m != nil {
		if pos, ok := ps.CallArg(line, m[1], 1); ok {
			return pos, true
		}
	}
	if strings.Contains(ps.lineText(line), "error(") {
		if pos, ok := ps.Name(line, "error"); ok {
			return pos, true
		}
	}
	return ps.First(line)
}

// lineText returns line n of the file.
func (ps *Places) lineText(n int) string {
	if ps == nil || ps.toks == nil {
		return ""
	}
	return dsl.LineOf(ps.toks.src, n)
}
