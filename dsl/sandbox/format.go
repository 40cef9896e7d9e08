package sandbox

import (
	"fmt"
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// strFormat is string.format with Lua 5.1's directives only: %c %d %i %o
// %u %x %X %e %E %f %g %G %q %s and %%, with the flags -+ #0, a width and
// a precision of at most two digits each. gopher-lua hands the format to
// Go's fmt, which also reads Go's own directives: %[1]s a thousand times
// repeats one argument a thousand times, a result that no check of the
// arguments foresees. Here each piece is bounded before it is written, the
// whole within the limit of one string, and its bytes are charged (a
// floating-point number a step per byte, for its digits take time). The
// numbers are written as gopher-lua writes them (by Go's fmt), so that
// what a script printed before reads the same.
func strFormat(L *lua.LState) int {
	m := meterOf(L)
	f := L.CheckString(1)
	var b strings.Builder
	arg := 1
	grow := func(bound int) {
		if n := b.Len() + bound; n > m.maxStr {
			m.guardString("string.format", int64(n))
		}
	}
	for i := 0; i < len(f); i++ {
		if j := strings.IndexByte(f[i:], '%'); j != 0 {
			if j < 0 {
				j = len(f) - i
			}
			grow(j)
			b.WriteString(f[i : i+j])
			i += j - 1
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			grow(1)
			b.WriteByte('%')
			continue
		}
		spec, conv, next := scanFormat(L, f, i)
		i = next
		arg++
		var piece string
		switch conv {
		case 'c':
			grow(100)
			piece = fmt.Sprintf("%"+spec+"s", string([]byte{byte(toInt(L.CheckNumber(arg)))}))
		case 'd', 'i':
			grow(100 + 30)
			piece = fmt.Sprintf("%"+spec+"d", toInt(L.CheckNumber(arg)))
		case 'o', 'u', 'x', 'X':
			if conv == 'u' {
				conv = 'd'
			}
			grow(100 + 30)
			piece = fmt.Sprintf("%"+spec+string(conv), uint64(toInt(L.CheckNumber(arg))))
		case 'e', 'E', 'f', 'g', 'G':
			grow(100 + 420) // the widest field, the longest number and its precision
			piece = fmt.Sprintf("%"+spec+string(conv), float64(L.CheckNumber(arg)))
			// Writing a large number at a long precision takes microseconds
			// (4 µs for %99.99f of 1e300): a step per byte written.
			m.charge(L, int64(len(piece)))
		case 'q':
			s := L.CheckString(arg)
			grow(4*len(s) + 2)
			piece = luaQuote(s)
		case 's':
			s := formatString(L, arg)
			grow(len(s) + 100)
			piece = fmt.Sprintf("%"+spec+"s", s)
		default:
			L.RaiseError("string.format: invalid option '%%%c' to 'format': Lua's options are %%c %%d %%i %%o %%u %%x %%X %%e %%E %%f %%g %%G %%q %%s and %%%%", conv)
		}
		b.WriteString(piece)
	}
	m.chargeBytes(L, b.Len())
	L.Push(lua.LString(b.String()))
	return 1
}

// scanFormat reads the flags, width and precision of the directive at f[i]
// (after its %) and returns them, its letter and the index of the letter.
func scanFormat(L *lua.LState, f string, i int) (spec string, conv byte, at int) {
	start := i
	for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
		i++
	}
	if i-start > 5 {
		L.RaiseError("string.format: invalid format (repeated flags)")
	}
	for _, part := range []bool{false, true} {
		if part {
			if i >= len(f) || f[i] != '.' {
				break
			}
			i++
		}
		digits := i
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i-digits > 2 {
			L.RaiseError("string.format: invalid format %q (width or precision too long: at most 99)", f)
		}
	}
	if i >= len(f) {
		L.RaiseError("string.format: invalid option '%%' to 'format' at the end of %q: write %%%% for a percent sign", f)
	}
	return f[start:i], f[i], i
}

// toInt is the integer C's cast gives for the finite numbers, and a
// defined one for the others.
func toInt(n lua.LNumber) int64 {
	switch x := float64(n); {
	case math.IsNaN(x):
		return 0
	case x >= math.MaxInt64:
		return math.MaxInt64
	case x <= math.MinInt64:
		return math.MinInt64
	default:
		return int64(x)
	}
}

// formatString reads the argument of %s: a string, or a number written as
// tostring writes it.
func formatString(L *lua.LState, arg int) string {
	switch v := L.Get(arg).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return v.String()
	}
	L.ArgError(arg, "string expected, got "+typeName(L, arg))
	return ""
}

func typeName(L *lua.LState, arg int) string {
	if arg > L.GetTop() {
		return "no value"
	}
	return L.Get(arg).Type().String()
}

// luaQuote is %q as Lua 5.1 writes it: between double quotes, with ", \
// and line breaks escaped by a backslash, \r as \r and zero bytes as \000.
func luaQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
