package scenario

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// languages are the languages of the console; "en" is required.
var languages = []string{"en", "bs", "id", "es", "ur", "fr"}

// scenarioFields are the fields of scenario{...}.
var scenarioFields = []string{"id", "title", "briefing", "start", "duration", "budget_left", "warm", "instances", "constants", "controls", "page"}

// declaration is what scenario{...} and grade{...} said.
type declaration struct {
	pos      dsl.Pos // the scenario{ call
	setup    engine.Setup
	title    engine.Text
	briefing engine.Text
	pageSrc  string
	pagePos  dsl.Pos // of the page string's opening quote
	grading  []Criterion
	gradePos dsl.Pos
	atPos    map[int]dsl.Pos // where each minute's first at() was called
	atText   map[int]string
	diags    dsl.List
}

// diagAt builds a diagnostic at pos with its source line.
func (p *Program) diagAt(pos dsl.Pos, context, msg string) dsl.Diagnostic {
	return dsl.Diagnostic{Pos: pos, Context: context, Message: msg, Snippet: dsl.LineOf(p.src, pos.Line)}
}

// fieldPos finds, from line `from` on, the value of key (then of each
// nested key after it) in the source, e.g. constants = { boot_delay = 8 }.
// Tables carry no positions at run time, so this reads the text; when the
// table was built some other way it falls back to the line of the call.
func fieldPos(file, src string, from int, keys ...string) dsl.Pos {
	pos, _ := findField(file, src, from, keys...)
	return pos
}

// keyPos is fieldPos at the last key's name rather than its value.
func keyPos(file, src string, from int, keys ...string) dsl.Pos {
	_, pos := findField(file, src, from, keys...)
	return pos
}

func findField(file, src string, from int, keys ...string) (value, key dsl.Pos) {
	lines := strings.Split(src, "\n")
	line, col, keyCol := from, 0, 0
	for _, k := range keys {
		re := regexp.MustCompile(`(^|[^.\w])(` + regexp.QuoteMeta(k) + `)\s*=\s*`)
		found := false
		for l := line; l >= 1 && l <= len(lines) && l < from+500; l++ {
			text, off := lines[l-1], 0
			if l == line && col > 0 {
				off = len(prefixRunes(text, col-1))
			}
			if loc := re.FindStringSubmatchIndex(text[off:]); loc != nil && !strings.HasPrefix(text[off+loc[1]:], "=") {
				line, col = l, len([]rune(text[:off+loc[1]]))+1
				keyCol = len([]rune(text[:off+loc[4]])) + 1
				found = true
				break
			}
		}
		if !found {
			return dsl.Pos{File: file, Line: from}, dsl.Pos{File: file, Line: from}
		}
	}
	return dsl.Pos{File: file, Line: line, Col: col}, dsl.Pos{File: file, Line: line, Col: keyCol}
}

// prefixRunes returns the first n runes of s.
func prefixRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// nthPos finds the n-th (from 0) occurrence of `key =` from line `from`.
func nthPos(file, src string, from, n int, key string) dsl.Pos {
	lines := strings.Split(src, "\n")
	re := regexp.MustCompile(`(^|[^.\w])` + regexp.QuoteMeta(key) + `\s*=`)
	for l := from; l >= 1 && l <= len(lines); l++ {
		for _, loc := range re.FindAllStringIndex(lines[l-1], -1) {
			if n == 0 {
				start := loc[0]
				if start > 0 || !strings.HasPrefix(lines[l-1], key) {
					start++
				}
				return dsl.Pos{File: file, Line: l, Col: len([]rune(lines[l-1][:start])) + 1}
			}
			n--
		}
	}
	return dsl.Pos{File: file, Line: from}
}

// declare implements scenario{...}.
func (r *run) declare(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("scenario{...} declares the scenario: call it once, at the top of the file")
	}
	if r.decl != nil {
		L.RaiseError("scenario{...} is called twice (first at line %d): declare the scenario once", r.decl.pos.Line)
	}
	t, ok := L.Get(1).(*lua.LTable)
	if !ok {
		L.RaiseError("scenario takes a table: scenario{ id = \"my-drill\", title = { en = \"My drill\" }, ... }, not %s", luaText(L.Get(1)))
	}
	line := r.callerLine()
	d := &declaration{
		pos:   dsl.Pos{File: r.p.file, Line: line},
		setup: engine.FreePlay(),
		atPos: map[int]dsl.Pos{}, atText: map[int]string{},
	}
	d.setup.ID = ""
	r.decl = d
	bad := func(pos dsl.Pos, format string, args ...any) {
		d.diags = append(d.diags, r.p.diagAt(pos, "scenario{}", fmt.Sprintf(format, args...)))
	}
	at := func(keys ...string) dsl.Pos { return fieldPos(r.p.file, r.p.src, line, keys...) }
	for _, kv := range sortedFields(t) {
		key, v := kv.key, kv.value
		if key == "" {
			bad(d.pos, "scenario{} takes named fields (%s), not a list", strings.Join(scenarioFields, ", "))
			continue
		}
		var err error
		switch key {
		case "id":
			err = r.setID(d, v)
		case "title":
			if d.title, err = textValue(v); err == nil {
				err = oneLine(d.title)
			}
		case "briefing":
			d.briefing, err = textValue(v)
		case "start":
			d.setup.Start, err = timeOfDay(v)
		case "duration":
			d.setup.Minutes, err = duration(v)
		case "budget_left":
			d.setup.BudgetLeft, err = share(v)
		case "warm":
			d.setup.Warm, err = share(v)
		case "instances":
			var n float64
			n, err = number(v)
			if err == nil && (n != math.Trunc(n) || n < 0 || n > 40) {
				err = fmt.Errorf("%s is out of range: it takes a whole number from 0 to 40 (0: min_instances)", fmtNum(n))
			}
			d.setup.Instances = int(n)
		case "constants":
			r.setConstants(d, v, line, bad)
			continue
		case "controls":
			r.setControls(d, v, line, bad)
			continue
		case "page":
			s, ok := v.(lua.LString)
			if !ok || strings.TrimSpace(string(s)) == "" {
				err = fmt.Errorf("takes an expression over the metrics as a string, e.g. page = \"burn_1h >= 14.4 && burn_5m >= 14.4\", not %s", luaText(v))
			} else {
				d.pageSrc, d.pagePos = string(s), at(key)
			}
		default:
			bad(keyPos(r.p.file, r.p.src, line, key), "unknown field %s%s (fields: %s)", key, spell.Suggest(key, scenarioFields), strings.Join(scenarioFields, ", "))
			continue
		}
		if err != nil {
			bad(at(key), "%s %v", key, err)
		}
	}
	if d.setup.ID == "" && t.RawGetString("id") == lua.LNil {
		bad(d.pos, "id is missing: name the scenario, e.g. id = \"my-drill\" (lower-case letters, digits and -)")
	}
	if t.RawGetString("title") == lua.LNil {
		bad(d.pos, "title is missing: title = { en = \"...\" } (other languages: %s)", strings.Join(languages[1:], ", "))
	}
	if t.RawGetString("briefing") == lua.LNil {
		bad(d.pos, "briefing is missing: briefing = { en = \"what the player faces\" }")
	}
	sort.SliceStable(d.diags, func(i, j int) bool {
		a, b := d.diags[i].Pos, d.diags[j].Pos
		return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
	})
	if len(d.diags) == 0 {
		if err := d.setup.Validate(); err != nil {
			for _, msg := range strings.Split(err.Error(), "\n") {
				bad(d.pos, "%s", msg)
			}
		}
	}
	return 0
}

func (r *run) setID(d *declaration, v lua.LValue) error {
	s, ok := v.(lua.LString)
	if !ok || !idPattern.MatchString(string(s)) {
		return fmt.Errorf("= %s: an id is 1 to 64 lower-case letters, digits and -, starting with a letter or digit, e.g. \"cache-flush\"", luaText(v))
	}
	d.setup.ID = string(s)
	return nil
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

func (r *run) setConstants(d *declaration, v lua.LValue, line int, bad func(dsl.Pos, string, ...any)) {
	t, ok := v.(*lua.LTable)
	if !ok {
		bad(fieldPos(r.p.file, r.p.src, line, "constants"), "constants takes a table of constants, e.g. constants = { boot_delay = 8 }, not %s", luaText(v))
		return
	}
	for _, kv := range sortedFields(t) {
		pos := func() dsl.Pos { return fieldPos(r.p.file, r.p.src, line, "constants", kv.key) }
		spec, err := engine.LookupConstant(kv.key)
		if err != nil {
			bad(keyPos(r.p.file, r.p.src, line, "constants", kv.key), "%v", err)
			continue
		}
		n, err := number(kv.value)
		if err != nil {
			bad(pos(), "constant %s %v", kv.key, err)
			continue
		}
		if err := d.setup.Constants.Set(spec.Name, n); err != nil {
			bad(pos(), "%v", err)
		}
	}
}

func (r *run) setControls(d *declaration, v lua.LValue, line int, bad func(dsl.Pos, string, ...any)) {
	t, ok := v.(*lua.LTable)
	if !ok {
		bad(fieldPos(r.p.file, r.p.src, line, "controls"), "controls takes a table of starting values, e.g. controls = { min_instances = 12 }, not %s", luaText(v))
		return
	}
	for _, kv := range sortedFields(t) {
		pos := func() dsl.Pos { return fieldPos(r.p.file, r.p.src, line, "controls", kv.key) }
		c, val, err := controlValue(kv.key, kv.value)
		if err != nil {
			if _, unknown := engine.LookupControl(kv.key); unknown != nil {
				pos = func() dsl.Pos { return keyPos(r.p.file, r.p.src, line, "controls", kv.key) }
			}
			bad(pos(), "%v", err)
			continue
		}
		if err := d.setup.Controls.Set(c, val); err != nil {
			bad(pos(), "%v", err)
		}
	}
}

// controlValue reads name = value for a control: a number, or a boolean for
// a switch. Actions take no value.
func controlValue(name string, v lua.LValue) (engine.Control, float64, error) {
	c, err := engine.LookupControl(name)
	if err != nil {
		return 0, 0, err
	}
	spec := c.Spec()
	switch spec.Kind {
	case engine.KindAction:
		return 0, 0, fmt.Errorf("%s is an action, not a setting: call %s() inside at() or on_minute", name, name)
	case engine.KindBool:
		b, ok := v.(lua.LBool)
		if !ok {
			return 0, 0, fmt.Errorf("%s = %s: it takes true or false", name, luaText(v))
		}
		return c, b2f(bool(b)), nil
	}
	n, ok := v.(lua.LNumber)
	if !ok {
		return 0, 0, fmt.Errorf("%s = %s: it takes %s", name, luaText(v), spec.Range())
	}
	return c, float64(n), spec.Check(float64(n))
}

type field struct {
	key   string // "" for a positional item
	index int
	value lua.LValue
}

// sortedFields lists a table's fields: named ones by name, then positional
// ones in order, so that what the script declares never depends on the
// order of a Lua hash.
//
// It walks the table with Next, which hands out the keys the table keeps,
// where ForEach would box each key again: a declaration is read in every
// run.
func sortedFields(t *lua.LTable) []field {
	var named, items []field
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		switch k := k.(type) {
		case lua.LString:
			named = append(named, field{key: string(k), value: v})
		case lua.LNumber:
			items = append(items, field{index: int(k), value: v})
		default:
			items = append(items, field{index: math.MaxInt, value: v})
		}
	}
	slices.SortFunc(named, func(a, b field) int { return strings.Compare(a.key, b.key) })
	slices.SortStableFunc(items, func(a, b field) int { return cmp.Compare(a.index, b.index) })
	return append(named, items...)
}

// textValue reads a text in several languages: a string (English) or a
// table keyed by language.
func textValue(v lua.LValue) (engine.Text, error) {
	switch v := v.(type) {
	case lua.LString:
		if strings.TrimSpace(string(v)) == "" {
			return nil, fmt.Errorf("is empty: write the English text, or a table { en = \"...\", fr = \"...\" }")
		}
		if err := plainText(string(v)); err != nil {
			return nil, fmt.Errorf("%q: %v", string(v), err)
		}
		return engine.Text{"en": string(v)}, nil
	case *lua.LTable:
		text := engine.Text{}
		for _, kv := range sortedFields(v) {
			if kv.key == "" {
				return nil, fmt.Errorf("takes a text by language, e.g. { en = \"...\", fr = \"...\" }, not a list")
			}
			if !contains(languages, kv.key) {
				return nil, fmt.Errorf("has an unknown language %s%s (languages: %s)", kv.key, spell.Suggest(kv.key, languages), strings.Join(languages, ", "))
			}
			s, ok := kv.value.(lua.LString)
			if !ok || strings.TrimSpace(string(s)) == "" {
				return nil, fmt.Errorf("%s = %s: a text is a non-empty string", kv.key, luaText(kv.value))
			}
			if err := plainText(string(s)); err != nil {
				return nil, fmt.Errorf("%s = %q: %v", kv.key, string(s), err)
			}
			text[kv.key] = string(s)
		}
		if text["en"] == "" {
			return nil, fmt.Errorf("needs an English text (en), which every other language falls back to")
		}
		return text, nil
	}
	return nil, fmt.Errorf("takes a string or a table { en = \"...\", fr = \"...\" }, not %s", luaText(v))
}

// plainText refuses control characters but for line breaks and tabs: texts
// of a scenario, an untrusted file, reach terminals (oncall scenarios, the
// trace's events), where an escape sequence could rewrite the screen.
func plainText(s string) error {
	for _, c := range s {
		if unicode.IsControl(c) && c != '\n' && c != '\t' {
			return fmt.Errorf("holds the control character %U: write plain text", c)
		}
	}
	return nil
}

// oneLine refuses a title that spans lines or has tabs: it is a cell of the
// scenario list.
func oneLine(t engine.Text) error {
	for _, lang := range languages {
		if s := t[lang]; strings.ContainsAny(s, "\n\t") {
			return fmt.Errorf("%s = %q: a title is one line, without tabs", lang, s)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// timeOfDay reads "HH:MM" as a minute of the day.
func timeOfDay(v lua.LValue) (int, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return 0, fmt.Errorf("= %s: a time of day is a string \"HH:MM\", e.g. \"09:10\"", luaText(v))
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

// duration reads "2h", "90m", "1h30m", "1d" or a number of minutes.
func duration(v lua.LValue) (int, error) {
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
		return 0, fmt.Errorf("= %s: write a duration as \"2h\", \"90m\", \"1h30m\" or a number of minutes", luaText(v))
	}
	if minutes != math.Trunc(minutes) || minutes < 1 || minutes > engine.MaxMinutes {
		return 0, fmt.Errorf("= %s minutes is out of range: it takes 1 minute to %d (a week)", fmtNum(minutes), engine.MaxMinutes)
	}
	return int(minutes), nil
}

func number(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok {
		return 0, fmt.Errorf("= %s: it takes a number", luaText(v))
	}
	return float64(n), nil
}

func share(v lua.LValue) (float64, error) {
	n, err := number(v)
	if err == nil && !(n >= 0 && n <= 1) {
		err = fmt.Errorf("= %s is out of range: it takes 0 to 1", fmtNum(n))
	}
	return n, err
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
