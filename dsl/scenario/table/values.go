package table

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/spell"
)

// The readers of single values a scenario passes to the API: each checks a
// Lua value and says, when it is wrong, what is wrong as the message goes on
// after the field's name ("= 2 is out of range: it takes 0 to 1").

// languages are the languages of the console, English first; "en" is
// required.
func languages() []string { return i18n.Codes() }

// entry is one key and value of a table.
type entry struct {
	key   string // "" for a list item
	index int
	value lua.LValue
}

// entries lists a table's entries: named ones by name, then list items in
// order, so that what the script declares never depends on the order of a
// Lua hash.
//
// It walks the table with Next, which hands out the keys the table keeps,
// where ForEach would box each key again: a declaration is read in every
// run.
func entries(t *lua.LTable) []entry {
	var named, items []entry
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		switch k := k.(type) {
		case lua.LString:
			named = append(named, entry{key: string(k), value: v})
		case lua.LNumber:
			items = append(items, entry{index: int(k), value: v})
		default:
			items = append(items, entry{index: math.MaxInt, value: v})
		}
	}
	slices.SortFunc(named, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	slices.SortStableFunc(items, func(a, b entry) int { return cmp.Compare(a.index, b.index) })
	return append(named, items...)
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// ID reads a scenario's id.
func ID(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok || !idPattern.MatchString(string(s)) {
		return "", fmt.Errorf("= %s: an id is 1 to 64 lower-case letters, digits and -, starting with a letter or digit, e.g. \"cache-flush\"", sandbox.Text(v))
	}
	return string(s), nil
}

// Text reads a text in several languages: a string (English) or a
// table keyed by language. A wrong language points at its entry.
func Text(v lua.LValue) (engine.Text, error) {
	switch v := v.(type) {
	case lua.LString:
		if strings.TrimSpace(string(v)) == "" {
			return nil, fmt.Errorf("is empty: write the English text, or a table { en = \"...\", fr = \"...\" }")
		}
		if err := PlainText(string(v)); err != nil {
			return nil, fmt.Errorf("%q: %v", string(v), err)
		}
		return engine.Text{"en": string(v)}, nil
	case *lua.LTable:
		return textTable(v)
	}
	return nil, fmt.Errorf("takes a string or a table { en = \"...\", fr = \"...\" }, not %s", sandbox.Text(v))
}

func textTable(t *lua.LTable) (engine.Text, error) {
	text := engine.Text{}
	for _, kv := range entries(t) {
		if kv.key == "" {
			return nil, fmt.Errorf("takes a text by language, e.g. { en = \"...\", fr = \"...\" }, not a list")
		}
		if !slices.Contains(languages(), kv.key) {
			return nil, AtInnerKey(kv.key, fmt.Errorf("has an unknown language %s%s (languages: %s)", kv.key, spell.Suggest(kv.key, languages()), strings.Join(languages(), ", ")))
		}
		s, ok := kv.value.(lua.LString)
		if !ok || strings.TrimSpace(string(s)) == "" {
			return nil, AtInnerValue(kv.key, fmt.Errorf("%s = %s: a text is a non-empty string", kv.key, sandbox.Text(kv.value)))
		}
		if err := PlainText(string(s)); err != nil {
			return nil, AtInnerValue(kv.key, fmt.Errorf("%s = %q: %v", kv.key, string(s), err))
		}
		text[kv.key] = string(s)
	}
	if text["en"] == "" {
		return nil, fmt.Errorf("needs an English text (en), which every other language falls back to")
	}
	return text, nil
}

// Title reads a title: a text of one line in every language, without
// tabs, for it is a cell of the scenario list.
func Title(v lua.LValue) (engine.Text, error) {
	t, err := Text(v)
	if err != nil {
		return nil, err
	}
	for _, lang := range languages() {
		if s := t[lang]; strings.ContainsAny(s, "\n\t") {
			return nil, AtInnerValue(lang, fmt.Errorf("%s = %q: a title is one line, without tabs", lang, s))
		}
	}
	return t, nil
}

// PlainText refuses control characters but for line breaks and tabs: texts
// of a scenario, an untrusted file, reach terminals (oncall scenarios, the
// trace's events), where an escape sequence could rewrite the screen.
func PlainText(s string) error {
	for _, c := range s {
		if unicode.IsControl(c) && c != '\n' && c != '\t' {
			return fmt.Errorf("holds the control character %U: write plain text", c)
		}
	}
	return nil
}

// TimeOfDay reads "HH:MM" as a minute of the day.
func TimeOfDay(v lua.LValue) (int, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return 0, fmt.Errorf("= %s: a time of day is a string \"HH:MM\", e.g. \"09:10\"", sandbox.Text(v))
	}
	m, ok := clockMinute(string(s))
	if !ok {
		return 0, fmt.Errorf("= %q: a time of day is \"HH:MM\" from \"00:00\" to \"23:59\", e.g. \"09:10\"", string(s))
	}
	return m, nil
}

// clockMinute reads "H:MM" or "HH:MM", hours 0 to 23, as a minute of the
// day; by hand, for it runs in every run's declaration and in clock().
func clockMinute(s string) (int, bool) {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || colon > 2 || len(s) != colon+3 {
		return 0, false
	}
	h, m := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == colon:
			continue
		case c < '0' || c > '9':
			return 0, false
		case i < colon:
			h = 10*h + int(c-'0')
		default:
			m = 10*m + int(c-'0')
		}
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	return 60*h + m, true
}

var durationPattern = regexp.MustCompile(`^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?:in)?)?$`)

// Duration reads "2h", "90m", "1h30m", "1d" or a number of minutes.
func Duration(v lua.LValue) (int, error) {
	var minutes float64
	switch v := v.(type) {
	case lua.LNumber:
		minutes = float64(v)
	case lua.LString:
		s := strings.ReplaceAll(string(v), " ", "")
		m := durationPattern.FindStringSubmatch(s)
		if m == nil || s == "" {
			return 0, fmt.Errorf("= %q: write a duration as \"2h\", \"90m\", \"1h30m\" or \"1d\", or a number of minutes", string(v))
		}
		for i, unit := range []float64{1440, 60, 1} {
			if m[i+1] == "" {
				continue // Atoi would allocate its error
			}
			n, _ := strconv.Atoi(m[i+1])
			minutes += float64(n) * unit
		}
	default:
		return 0, fmt.Errorf("= %s: write a duration as \"2h\", \"90m\", \"1h30m\" or a number of minutes", sandbox.Text(v))
	}
	if minutes != math.Trunc(minutes) || minutes < 1 || minutes > engine.MaxMinutes {
		return 0, fmt.Errorf("= %s minutes is out of range: it takes 1 minute to %d (a week)", fmtNum(minutes), engine.MaxMinutes)
	}
	return int(minutes), nil
}

// Number reads a number.
func Number(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok {
		return 0, fmt.Errorf("= %s: it takes a number", sandbox.Text(v))
	}
	return float64(n), nil
}

// Share reads a number from 0 to 1.
func Share(v lua.LValue) (float64, error) {
	n, err := Number(v)
	if err == nil && !(n >= 0 && n <= 1) {
		err = fmt.Errorf("= %s is out of range: it takes 0 to 1", fmtNum(n))
	}
	return n, err
}

// WholeNumber returns a reader of a whole number from lo to hi; note says what
// the ends mean, when they mean something.
func WholeNumber(lo, hi int, note string) func(lua.LValue) (int, error) {
	return func(v lua.LValue) (int, error) {
		n, err := Number(v)
		if err == nil && (n != math.Trunc(n) || n < float64(lo) || n > float64(hi)) {
			err = fmt.Errorf("= %s is out of range: it takes a whole number from %d to %d%s", fmtNum(n), lo, hi, note)
		}
		return int(n), err
	}
}

// Control reads name = value for a control: a number, or a boolean for
// a switch. Actions take no value.
func Control(name string, v lua.LValue) (engine.Control, float64, error) {
	c, err := engine.LookupControl(name)
	if err != nil {
		return 0, 0, err
	}
	spec := c.Spec()
	switch spec.Kind {
	case engine.KindAction:
		return 0, 0, fmt.Errorf("%s is an action, not a setting: call %s() during the run, e.g. inside at() or on_minute", name, name)
	case engine.KindBool:
		b, ok := v.(lua.LBool)
		if !ok {
			return 0, 0, fmt.Errorf("%s = %s: it takes true or false", name, sandbox.Text(v))
		}
		return c, b2f(bool(b)), nil
	}
	n, ok := v.(lua.LNumber)
	if !ok {
		return 0, 0, fmt.Errorf("%s = %s: it takes %s", name, sandbox.Text(v), spec.Range())
	}
	return c, float64(n), spec.Check(float64(n))
}

// DepName reads the dependency's label, dep_name = "auth".
func DepName(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return "", fmt.Errorf("dep_name = %s: it takes the dependency's name as a string, e.g. dep_name = \"auth\"", sandbox.Text(v))
	}
	var c engine.Constants
	if err := c.SetDepName(string(s)); err != nil {
		return "", err
	}
	return string(s), nil
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
