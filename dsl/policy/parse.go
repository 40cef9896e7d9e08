package policy

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Limits on what a policy file may hold. They keep loading and evaluation
// bounded whatever the file says.
const (
	MaxSourceBytes = 64 << 10          // a policy file's size
	MaxRules       = 200               // rules in a file
	MaxDepth       = exprwork.MaxDepth // brackets nested in one expression
	MaxNodes       = exprwork.MaxNodes // syntax-tree nodes in one expression
	MaxWork        = exprwork.MaxWork  // estimated steps of one expression's evaluation
)

// keywords start the lines of a rule.
var keywords = []string{"rule", "when", "do", "cooldown"}

// clause is one expression of a rule (a condition or a list of actions) as
// it stands in the file: its text with the keyword blanked out, so that line
// k and column c of the text are line first+k-1 and column c of the file.
type clause struct {
	first int    // file line of the clause's first line
	text  string // the expression, lines joined by "\n"
	expr  string // the text given to expr (actions are wrapped in brackets)
	pre   int    // lines expr sees before the text
}

// ruleSrc is one rule as written, before compiling.
type ruleSrc struct {
	name     string
	pos      dsl.Pos // the keyword rule
	when     *clause
	do       []*clause
	cooldown int // minutes; 0 when none
	cdPos    dsl.Pos
}

// parser reads the line structure of a policy file; the expressions
// themselves are left to expr.
type parser struct {
	file  string
	src   string
	errs  dsl.List
	rules []*ruleSrc
	cur   *ruleSrc // the rule being read
	open  *clause  // the clause continuation lines extend
}

func (p *parser) add(line, col int, context, format string, args ...any) {
	p.errs.Add(p.src, dsl.Pos{File: p.file, Line: line, Col: col}, context, format, args...)
	p.errs[len(p.errs)-1].Kind = KindSyntax
}

// parseFile splits a policy file into rules. Every problem of the file's
// structure is collected, not only the first.
func parseFile(file, src string) ([]*ruleSrc, dsl.List) {
	p := &parser{file: file, src: src}
	for i, raw := range strings.Split(src, "\n") {
		p.line(i+1, strings.TrimRight(raw, "\r"))
	}
	p.finish()
	return p.rules, p.errs
}

// line reads line n of the file.
func (p *parser) line(n int, line string) {
	trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
	if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "//") {
		if p.open != nil {
			p.open.text += "\n" // keep line numbers aligned
		}
		return
	}
	indent := utf8.RuneCountInString(line) - utf8.RuneCountInString(trimmed)
	word, rest := splitWord(trimmed)
	col := indent + 1
	switch word {
	case "rule", "when", "do":
		p.keyword(n, col, word, line, rest)
	case "cooldown":
		if p.cur == nil {
			p.open = nil
			p.add(n, col, "", "cooldown outside a rule: it goes after a rule's do")
			return
		}
		p.keyword(n, col, word, line, rest)
	default:
		if p.open != nil && indent > 0 && !looksLikeKeyword(word) {
			p.open.text += "\n" + line
			return
		}
		p.unexpected(n, col, word, trimmed)
		if kw := spell.Nearest(word, keywords); kw != "" && word != "" {
			// A misspelt keyword is read as the one it stands for, so
			// that what follows it is checked too, and its rule does
			// not lack a condition.
			p.keyword(n, col, kw, line, rest)
		}
	}
}

// keyword reads the rest of line n, whose keyword is kw.
func (p *parser) keyword(n, col int, kw, line, rest string) {
	switch kw {
	case "rule":
		p.open = nil
		p.startRule(n, col, rest)
	case "when", "do":
		p.clauseLine(n, col, kw, line, rest)
	case "cooldown":
		p.open = nil
		if p.cur != nil {
			p.cooldownLine(p.cur, n, col, line, rest)
		}
	}
}

// startRule reads `rule "name"` and makes it the current rule.
func (p *parser) startRule(n, col int, rest string) {
	p.cur = p.ruleLine(n, col, rest)
	if p.cur == nil {
		return
	}
	for _, r := range p.rules {
		if r.name == p.cur.name {
			p.add(n, col, quoteRule(p.cur.name), "a second rule has this name (the first is on line %d): give each rule a name of its own, since traces and since() refer to rules by name", r.pos.Line)
		}
	}
	p.rules = append(p.rules, p.cur)
	if len(p.rules) == MaxRules+1 {
		p.add(n, col, "", "more than %d rules: split the policy or merge rules", MaxRules)
	}
}

// clauseLine starts a when or do clause of the current rule.
func (p *parser) clauseLine(n, col int, word, line, rest string) {
	if p.cur == nil {
		p.add(n, col, "", "%s outside a rule: start a rule with rule \"its name\" on the line before", word)
		p.open = nil
		return
	}
	c := &clause{first: n, text: blankPrefix(line, len(line)-len(rest))}
	p.open = c
	if word == "do" {
		p.cur.do = append(p.cur.do, c)
		return
	}
	if p.cur.when != nil {
		p.add(n, col, quoteRule(p.cur.name), "a second when: a rule has one condition (its first is on line %d); join them with && or ||", p.cur.when.first)
	}
	p.cur.when = c
}

// unexpected reports a line that starts with no keyword and continues no
// clause.
func (p *parser) unexpected(n, col int, word, trimmed string) {
	msg := "expected rule, when, do or cooldown at the start of a line, found " + strconv.Quote(firstToken(trimmed))
	if hint := spell.Suggest(word, keywords); hint != "" && word != "" {
		msg = "unknown keyword " + word + hint
	} else if p.open != nil {
		msg += " (a condition or action that goes on over several lines continues on indented lines)"
	}
	ctx := ""
	if p.cur != nil {
		ctx = quoteRule(p.cur.name)
	}
	p.add(n, col, ctx, "%s", msg)
}

// finish reports what the rules lack once the file is read.
func (p *parser) finish() {
	for _, r := range p.rules {
		if r.when == nil {
			p.add(r.pos.Line, r.pos.Col, quoteRule(r.name), "the rule has no condition: add a line `when <condition>`, e.g. when paging && new_build > 0")
		}
		if len(r.do) == 0 {
			p.add(r.pos.Line, r.pos.Col, quoteRule(r.name), "the rule has no action: add a line `do <actions>`, e.g. do rollback()")
		}
	}
	if len(p.rules) == 0 && len(p.errs) == 0 {
		p.add(0, 0, "", "the file has no rule: a policy is a list of rules, each `rule \"name\"` followed by `when <condition>` and `do <actions>`")
	}
}

// ruleLine reads `rule "name"`.
func (p *parser) ruleLine(n, col int, rest string) *ruleSrc {
	arg := strings.TrimSpace(rest)
	argCol := col + 4 + (utf8.RuneCountInString(rest) - utf8.RuneCountInString(strings.TrimLeftFunc(rest, unicode.IsSpace)))
	q, err := strconv.QuotedPrefix(arg)
	if err != nil || !strings.HasPrefix(q, `"`) {
		p.add(n, argCol, "", "a rule needs a name in double quotes, e.g. rule \"roll back when paged\"")
		// Its when and do are checked all the same, under the name as
		// written (the rule does not load).
		name := strings.Trim(strings.TrimSpace(strings.SplitN(arg, "#", 2)[0]), `"'`)
		if name == "" {
			name = fmt.Sprintf("on line %d", n)
		}
		return &ruleSrc{name: name, pos: dsl.Pos{File: p.file, Line: n, Col: col}}
	}
	name, _ := strconv.Unquote(q)
	if strings.TrimSpace(name) == "" {
		p.add(n, argCol, "", "the rule's name is empty: say what the rule does, e.g. rule \"shed when saturated\"")
		return &ruleSrc{name: fmt.Sprintf("on line %d", n), pos: dsl.Pos{File: p.file, Line: n, Col: col}}
	}
	if tail := strings.TrimSpace(arg[len(q):]); tail != "" && !strings.HasPrefix(tail, "#") && !strings.HasPrefix(tail, "//") {
		p.add(n, argCol+utf8.RuneCountInString(q)+1, quoteRule(name), "unexpected %q after the rule's name: put the condition on its own line, `when ...`", tail)
	}
	return &ruleSrc{name: name, pos: dsl.Pos{File: p.file, Line: n, Col: col}}
}

// cooldownLine reads `cooldown 10m`.
func (p *parser) cooldownLine(r *ruleSrc, n, col int, line, rest string) {
	arg := strings.TrimSpace(rest)
	if i := strings.Index(arg, "#"); i >= 0 {
		arg = strings.TrimSpace(arg[:i])
	}
	argCol := col + 9 + (utf8.RuneCountInString(rest) - utf8.RuneCountInString(strings.TrimLeftFunc(rest, unicode.IsSpace)))
	if r.cooldown != 0 {
		p.add(n, col, quoteRule(r.name), "a second cooldown (the first is on line %d): a rule has one", r.cdPos.Line)
		return
	}
	mins, ok := parseDuration(arg)
	if !ok {
		p.add(n, argCol, quoteRule(r.name), "cooldown %q: write minutes or hours, e.g. cooldown 10m, cooldown 1h or cooldown 1h30m", arg)
		return
	}
	if mins < 1 || mins > engine.MaxMinutes {
		p.add(n, argCol, quoteRule(r.name), "cooldown %s is out of range: it takes 1m to %dm (a week)", arg, engine.MaxMinutes)
		return
	}
	r.cooldown, r.cdPos = mins, dsl.Pos{File: p.file, Line: n, Col: col}
}

// parseDuration reads 10m, 2h, 1h30m as minutes: hours, then minutes,
// each at most once.
func parseDuration(s string) (int, bool) {
	total, units := 0, "hm"
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i > 6 || i == len(s) {
			return 0, false
		}
		u := strings.IndexByte(units, s[i])
		if u < 0 {
			return 0, false
		}
		v, _ := strconv.Atoi(s[:i])
		if units[u] == 'h' {
			v *= 60
		}
		total += v
		units = units[u+1:]
		s = s[i+1:]
	}
	return total, units != "hm"
}

// splitWord returns the line's first word (letters, digits, _) and the rest.
func splitWord(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i < len(s) && !unicode.IsSpace(rune(s[i])) && s[i] != '"' && s[i] != '#' {
		return "", s // e.g. `rule(`: not a keyword
	}
	return s[:i], s[i:]
}

// looksLikeKeyword reports whether a continuation line starts with a
// misspelt keyword rather than an expression.
func looksLikeKeyword(word string) bool {
	if word == "" || isKnownName(word) {
		return false
	}
	return spell.Nearest(word, keywords) != ""
}

// firstToken returns the start of a line for a message.
func firstToken(s string) string {
	if i := strings.IndexFunc(s, unicode.IsSpace); i > 0 {
		s = s[:i]
	}
	if len(s) > 20 {
		s = s[:20] + "…"
	}
	return s
}

// blankPrefix returns line with its first n bytes replaced by one space per
// rune, so that columns in the rest stay where they are.
func blankPrefix(line string, n int) string {
	return strings.Repeat(" ", utf8.RuneCountInString(line[:n])) + line[n:]
}

func quoteRule(name string) string { return "rule " + strconv.Quote(name) }
