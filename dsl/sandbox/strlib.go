package sandbox

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/internal/luapattern"
)

// meterStrings replaces the string functions whose work grows with their
// input by versions that charge it to the run's budget as they go and
// bound the strings they build: rep, format, find, match, gmatch and gsub
// are written here (patterns by luapattern, which counts its steps; format
// reads Lua's directives only, so that its result's size is known piece by
// piece), and upper, lower, reverse, byte and char charge their input
// before they run. Each run's view of the table is the string metatable,
// so method calls are metered too.
func meterStrings(L *lua.LState, conf Config) {
	mod := L.G.Global.RawGetString("string").(*lua.LTable)
	mod.RawSetString("gfind", lua.LNil)
	set := func(name string, fn lua.LGFunction) { mod.RawSetString(name, L.NewFunction(fn)) }
	set("dump", func(L *lua.LState) int {
		L.RaiseError("string.dump is not available: a %s cannot load code", conf.noun())
		return 0
	})
	set("rep", strRep)
	set("format", strFormat)
	set("find", func(L *lua.LState) int { return strFind(L, "string.find", true) })
	set("match", func(L *lua.LState) int { return strFind(L, "string.match", false) })
	set("gmatch", strGmatch)
	set("gsub", strGsub)
	for _, name := range []string{"upper", "lower", "reverse"} {
		orig := mod.RawGetString(name).(*lua.LFunction)
		set(name, func(L *lua.LState) int {
			meterOf(L).chargeBytes(L, len(L.CheckString(1)))
			return callOriginal(L, orig)
		})
	}
	byteFn := mod.RawGetString("byte").(*lua.LFunction)
	set("byte", func(L *lua.LState) int {
		s := L.CheckString(1)
		i := posRelative(L.OptInt(2, 1), len(s))
		j := posRelative(L.OptInt(3, i), len(s))
		meterOf(L).charge(L, int64(max(0, min(j, len(s))-max(i, 1)+1)))
		return callOriginal(L, byteFn)
	})
	charFn := mod.RawGetString("char").(*lua.LFunction)
	set("char", func(L *lua.LState) int {
		meterOf(L).charge(L, int64(L.GetTop()))
		return callOriginal(L, charFn)
	})
}

// callOriginal calls a library function of gopher-lua with the arguments
// on the stack, and returns its results.
func callOriginal(L *lua.LState, fn *lua.LFunction) int {
	top := L.GetTop()
	L.Insert(fn, 1)
	L.Call(top, lua.MultRet)
	return L.GetTop()
}

// posRelative is Lua's posrelat: a negative position counts from the end.
func posRelative(pos, n int) int {
	if pos < 0 {
		pos += n + 1
	}
	return max(pos, 0)
}

// strRep is string.rep(s, n): the size of the result is checked before it
// is built, and charged.
func strRep(L *lua.LState) int {
	m := meterOf(L)
	s, n := L.CheckString(1), L.CheckInt(2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	m.guardString("string.rep", int64(math.Min(float64(n)*float64(len(s)), math.MaxInt64/2)))
	m.chargeBytes(L, n*len(s))
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// matcher returns the run's pattern matcher, which charges its steps to
// the run. One serves every call: each match starts afresh, and its
// captures are read before the script runs again (a gsub's replacement
// function, a gmatch loop's body), which may match in its turn.
func (m *Meter) matcher() *luapattern.Matcher {
	if m.patterns == nil {
		m.patterns = &luapattern.Matcher{Step: func(n int64) error { return m.bud.Charge(m.party, n) }}
	}
	return m.patterns
}

// patternError stops the script on a pattern's error: a malformed pattern
// with Lua's message, a spent budget with the budget's.
func (m *Meter) patternError(L *lua.LState, fn string, err error) {
	if err == nil {
		return
	}
	var pe *luapattern.Error
	if errors.As(err, &pe) {
		L.RaiseError("%s: %s", fn, pe.Msg)
	}
	m.Fail(err)
	L.RaiseError("%v", err)
}

// pushCaptures pushes the values of a match's captures.
func pushCaptures(L *lua.LState, caps []luapattern.Value) {
	for _, c := range caps {
		L.Push(captureValue(c))
	}
}

func captureValue(c luapattern.Value) lua.LValue {
	if c.IsPos {
		return lua.LNumber(c.Pos)
	}
	return lua.LString(c.Text)
}

// strFind is string.find (find set) and string.match, as Lua 5.1 has them.
func strFind(L *lua.LState, fn string, find bool) int {
	m := meterOf(L)
	s, p := L.CheckString(1), L.CheckString(2)
	init := min(max(posRelative(L.OptInt(3, 1), len(s))-1, 0), len(s))
	if find && (lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(p, luapattern.Specials)) {
		m.chargeBytes(L, len(s)-init+len(p))
		if i := strings.Index(s[init:], p); i >= 0 {
			L.Push(lua.LNumber(init + i + 1))
			L.Push(lua.LNumber(init + i + len(p)))
			return 2
		}
		L.Push(lua.LNil)
		return 1
	}
	mt := m.matcher()
	start, end, err := mt.Find(s, p, init)
	m.patternError(L, fn, err)
	if start < 0 {
		L.Push(lua.LNil)
		return 1
	}
	caps, err := mt.Captures(start, end, !find)
	m.patternError(L, fn, err)
	if find {
		L.Push(lua.LNumber(start + 1))
		L.Push(lua.LNumber(end))
		pushCaptures(L, caps)
		return 2 + len(caps)
	}
	pushCaptures(L, caps)
	return len(caps)
}

// strGmatch is string.gmatch: each call of its iterator finds the next
// match, none kept ahead.
func strGmatch(L *lua.LState) int {
	s, p := L.CheckString(1), L.CheckString(2)
	from := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		m := meterOf(L)
		m.charge(L, callSteps)
		mt := m.matcher()
		start, end, next, err := mt.Next(s, p, from)
		m.patternError(L, "string.gmatch", err)
		if start < 0 {
			return 0
		}
		from = next
		caps, err := mt.Captures(start, end, true)
		m.patternError(L, "string.gmatch", err)
		pushCaptures(L, caps)
		return len(caps)
	}))
	return 1
}

// strGsub is string.gsub: its result grows piece by piece within the limit
// of one string, its bytes charged as they are written.
func strGsub(L *lua.LState) int {
	m := meterOf(L)
	s, p := L.CheckString(1), L.CheckString(2)
	repl := L.Get(3)
	switch repl.(type) {
	case lua.LString, lua.LNumber, *lua.LTable, *lua.LFunction:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	limit := L.OptInt(4, len(s)+1)
	mt := m.matcher()
	var b strings.Builder
	uncharged := 0
	add := func(piece string) error {
		if n := b.Len() + len(piece); n > m.maxStr {
			return tooLong(int64(n), m.maxStr)
		}
		b.WriteString(piece)
		if uncharged += len(piece); uncharged >= bytesPerStep {
			err := mt.Steps(uncharged / bytesPerStep)
			uncharged %= bytesPerStep
			return err
		}
		return nil
	}
	value := func(start, end int) (string, error) {
		var v lua.LValue
		switch r := repl.(type) {
		case lua.LString, lua.LNumber:
			return expandRepl(mt, lua.LVAsString(r), s, start, end, b.Len(), m.maxStr)
		case *lua.LTable:
			caps, err := mt.Captures(start, end, true)
			if err != nil {
				return "", err
			}
			v = L.GetTable(r, captureValue(caps[0]))
		case *lua.LFunction:
			caps, err := mt.Captures(start, end, true)
			if err != nil {
				return "", err
			}
			m.charge(L, callSteps)
			L.Push(r)
			pushCaptures(L, caps)
			L.Call(len(caps), 1)
			v = L.Get(-1)
			L.Pop(1)
		}
		switch v := v.(type) {
		case lua.LString:
			return string(v), nil
		case lua.LNumber:
			return v.String(), nil
		}
		if !lua.LVAsBool(v) {
			return s[start:end], nil // nil or false: the match is kept
		}
		return "", &luapattern.Error{Msg: fmt.Sprintf("invalid replacement value (a %s)", v.Type())}
	}
	n, err := mt.Gsub(s, p, limit, value, add)
	if err == nil {
		err = mt.Done()
	}
	m.patternError(L, "string.gsub", err)
	L.Push(lua.LString(b.String()))
	L.Push(lua.LNumber(n))
	return 2
}

// expandRepl writes gsub's replacement string for one match: %0 the match,
// %1 to %9 its captures, % before anything else that character. With used
// bytes of the result written, it stops past limit.
func expandRepl(mt *luapattern.Matcher, repl, s string, start, end, used, limit int) (string, error) {
	if strings.IndexByte(repl, '%') < 0 {
		return repl, nil
	}
	var b strings.Builder
	for i := 0; i < len(repl) && used+b.Len() <= limit; i++ {
		c := repl[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		switch {
		case i == len(repl):
			b.WriteByte(0) // as Lua, which reads the string's terminating zero
		case repl[i] == '0':
			b.WriteString(s[start:end])
		case '1' <= repl[i] && repl[i] <= '9':
			text, pos, isPos, err := mt.Capture(int(repl[i]-'1'), start, end)
			if err != nil {
				return "", err
			}
			if isPos {
				text = strconv.Itoa(pos)
			}
			b.WriteString(text)
		default:
			b.WriteByte(repl[i])
		}
	}
	if used+b.Len() > limit {
		return "", tooLong(int64(used+b.Len()), limit)
	}
	return b.String(), nil
}

// tooLong is the error of a string over the limit of one string.
func tooLong(n int64, limit int) error {
	return &luapattern.Error{Msg: fmt.Sprintf("the result would be more than %s, over the limit of %s for one string (1/64 of the memory budget)", bytesText(n), bytesText(int64(limit)))}
}
