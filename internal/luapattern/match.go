package luapattern

import "fmt"

// Limits of a match.
const (
	MaxCaptures = 32  // captures in one pattern, as in Lua
	MaxDepth    = 200 // nested calls of the matcher, as Lua 5.2 has it
	StepBatch   = 1024

	// ClassBytesPerStep is what a step is worth of a bracket class read:
	// reading its bytes takes about as long as a step.
	ClassBytesPerStep = 16
)

const (
	capUnfinished = -1
	capPosition   = -2
)

// Error is a malformed pattern or a capture misused; its message is
// Lua's.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// stopped carries the error of the step function out of the matcher.
type stopped struct{ err error }

// Matcher matches patterns. Its zero value counts steps for nothing; set
// Step to be told of them. A Matcher is not safe for concurrent use.
type Matcher struct {
	// Step is told the steps done, every StepBatch of them and when a call
	// ends; an error it returns stops the match and is returned.
	Step func(n int64) error

	src     string
	pat     string
	level   int
	capture [MaxCaptures]struct{ init, len int }
	depth   int
	steps   int64
}

// Match tries pattern pat on s at position init (a byte offset), pat
// without its leading ^ (an anchor is the caller's loop). It returns where
// the match ends, or -1.
func (m *Matcher) Match(s, pat string, init int) (end int, err error) {
	m.src, m.pat, m.level, m.depth = s, pat, 0, 0
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case *Error:
				end, err = -1, r
			case stopped:
				end, err = -1, r.err
			default:
				panic(r)
			}
		}
	}()
	end = m.match(init, 0)
	return end, m.flush()
}

// flush tells Step of the steps not told yet.
func (m *Matcher) flush() error {
	if m.steps == 0 || m.Step == nil {
		m.steps = 0
		return nil
	}
	n := m.steps
	m.steps = 0
	return m.Step(n)
}

// step counts n steps, telling Step every StepBatch.
func (m *Matcher) step(n int) {
	m.steps += int64(n)
	if m.steps >= StepBatch {
		if err := m.flush(); err != nil {
			panic(stopped{err})
		}
	}
}

// Steps counts n steps done outside the matcher in the same call, such as
// the bytes a replacement copies; they are told with the matcher's.
func (m *Matcher) Steps(n int) error {
	m.steps += int64(n)
	if m.steps >= StepBatch {
		return m.flush()
	}
	return nil
}

// Done tells Step of the steps left at the end of a call.
func (m *Matcher) Done() error { return m.flush() }

// Level is the number of captures of the last match.
func (m *Matcher) Level() int { return m.level }

// Value is a capture: its text, or for a position capture its position,
// from 1.
type Value struct {
	Text  string
	Pos   int
	IsPos bool
}

// Captures returns the captures of the last match, which ran from start to
// end, as string.find and string.match give them: the whole match when
// the pattern has none and whole is set (string.match), else none.
func (m *Matcher) Captures(start, end int, whole bool) ([]Value, error) {
	n := m.level
	if n == 0 && whole {
		n = 1
	}
	out := make([]Value, n)
	for i := range out {
		text, pos, isPos, err := m.Capture(i, start, end)
		if err != nil {
			return nil, err
		}
		out[i] = Value{text, pos, isPos}
	}
	return out, nil
}

// Capture returns capture i of the last match of s, which ran from start
// to end: its text, or for a position capture its position (from 1) and
// true. Capture 0 of a pattern without captures is the whole match.
func (m *Matcher) Capture(i, start, end int) (text string, pos int, isPos bool, err error) {
	if i >= m.level {
		if i == 0 {
			return m.src[start:end], 0, false, nil
		}
		return "", 0, false, &Error{"invalid capture index"}
	}
	c := m.capture[i]
	switch c.len {
	case capUnfinished:
		return "", 0, false, &Error{"unfinished capture"}
	case capPosition:
		return "", c.init + 1, true, nil
	}
	return m.src[c.init : c.init+c.len], 0, false, nil
}

func fail(format string, args ...any) {
	panic(&Error{fmt.Sprintf(format, args...)})
}

// at is the byte of the pattern at p, or 0 past its end, as a C string
// reads.
func (m *Matcher) at(p int) byte {
	if p < len(m.pat) {
		return m.pat[p]
	}
	return 0
}

// match is lstrlib.c's match: where the pattern from p matches s from i,
// or -1.
//
// It branches as lstrlib.c's match does, on the pattern items (captures, the
// anchor $, escapes, a single class and its repeat ?, *, + or -): the
// grammar of Lua patterns, kept as the C source has it so that the two read
// side by side.
func (m *Matcher) match(i, p int) int {
	m.depth++
	if m.depth > MaxDepth {
		fail("pattern too complex")
	}
	defer func() { m.depth-- }()
	for {
		m.step(1)
		if p == len(m.pat) {
			return i
		}
		switch m.pat[p] {
		case '(':
			if m.at(p+1) == ')' {
				return m.startCapture(i, p+2, capPosition)
			}
			return m.startCapture(i, p+1, capUnfinished)
		case ')':
			return m.endCapture(i, p+1)
		case '$':
			if p+1 == len(m.pat) {
				if i == len(m.src) {
					return i
				}
				return -1
			}
		case '%':
			if ni, np, ok := m.escape(i, p); ok {
				if ni < 0 {
					return -1
				}
				i, p = ni, np
				continue
			}
		}
		ep := m.classEnd(p)
		ok := i < len(m.src) && m.single(m.src[i], p, ep)
		switch m.at(ep) {
		case '?':
			if ok {
				if res := m.match(i+1, ep+1); res >= 0 {
					return res
				}
			}
			p = ep + 1
			continue
		case '*', '+', '-':
			return m.repeat(i, p, ep, ok)
		}
		if !ok {
			return -1
		}
		i++
		p = ep
	}
}

// escape matches the items that start with % and are not a class: %b, %f
// and back references. ok is false for a class (%a, %%, ...); i is -1 when
// the item does not match.
func (m *Matcher) escape(i, p int) (ni, np int, ok bool) {
	switch c := m.at(p + 1); {
	case c == 'b':
		return m.matchBalance(i, p+2), p + 4, true
	case c == 'f':
		p += 2
		if m.at(p) != '[' {
			fail("missing '[' after '%%f' in pattern")
		}
		ep := m.classEnd(p)
		var prev, cur byte
		if i > 0 {
			prev = m.src[i-1]
		}
		if i < len(m.src) {
			cur = m.src[i]
		}
		if m.matchBracket(prev, p, ep-1) || !m.matchBracket(cur, p, ep-1) {
			return -1, ep, true
		}
		return i, ep, true
	case c >= '0' && c <= '9':
		return m.matchCapture(i, c), p + 2, true
	}
	return i, p, false
}

// repeat matches an item repeated (*, + or - after it, at ep), ok telling
// whether the item matches at i.
func (m *Matcher) repeat(i, p, ep int, ok bool) int {
	switch m.pat[ep] {
	case '*':
		return m.maxExpand(i, p, ep)
	case '+':
		if !ok {
			return -1
		}
		return m.maxExpand(i+1, p, ep)
	}
	return m.minExpand(i, p, ep)
}

func (m *Matcher) maxExpand(i, p, ep int) int {
	n := 0
	for i+n < len(m.src) && m.single(m.src[i+n], p, ep) {
		n++
	}
	m.step(n)
	for ; n >= 0; n-- {
		if res := m.match(i+n, ep+1); res >= 0 {
			return res
		}
	}
	return -1
}

func (m *Matcher) minExpand(i, p, ep int) int {
	for {
		if res := m.match(i, ep+1); res >= 0 {
			return res
		}
		if i < len(m.src) && m.single(m.src[i], p, ep) {
			i++
		} else {
			return -1
		}
	}
}

func (m *Matcher) startCapture(i, p, what int) int {
	if m.level >= MaxCaptures {
		fail("too many captures")
	}
	m.capture[m.level].init, m.capture[m.level].len = i, what
	m.level++
	res := m.match(i, p)
	if res < 0 {
		m.level--
	}
	return res
}

func (m *Matcher) endCapture(i, p int) int {
	l := m.captureToClose()
	m.capture[l].len = i - m.capture[l].init
	res := m.match(i, p)
	if res < 0 {
		m.capture[l].len = capUnfinished
	}
	return res
}

func (m *Matcher) captureToClose() int {
	for l := m.level - 1; l >= 0; l-- {
		if m.capture[l].len == capUnfinished {
			return l
		}
	}
	fail("invalid pattern capture")
	return 0
}

func (m *Matcher) matchCapture(i int, c byte) int {
	l := int(c) - '1'
	if l < 0 || l >= m.level || m.capture[l].len == capUnfinished {
		fail("invalid capture index")
	}
	n := m.capture[l].len
	if n == capPosition {
		return -1 // as in Lua 5.1, where its length reads as a huge size
	}
	m.step(n)
	init := m.capture[l].init
	if len(m.src)-i >= n && m.src[init:init+n] == m.src[i:i+n] {
		return i + n
	}
	return -1
}

func (m *Matcher) matchBalance(i, p int) int {
	if p+1 >= len(m.pat) {
		fail("unbalanced pattern")
	}
	if i >= len(m.src) || m.src[i] != m.pat[p] {
		return -1
	}
	b, e := m.pat[p], m.pat[p+1]
	cont := 1
	start := i
	for i++; i < len(m.src); i++ {
		switch m.src[i] {
		case e:
			if cont--; cont == 0 {
				m.step(i - start)
				return i + 1
			}
		case b:
			cont++
		}
	}
	m.step(i - start)
	return -1
}

// classEnd returns where the single-character class at p ends; a
// bracket class charges its length.
func (m *Matcher) classEnd(p int) int {
	c := m.pat[p]
	p++
	switch c {
	case '%':
		if p >= len(m.pat) {
			fail("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		start := p
		if m.at(p) == '^' {
			p++
		}
		for {
			if p >= len(m.pat) {
				fail("malformed pattern (missing ']')")
			}
			c := m.pat[p]
			p++
			if c == '%' && p < len(m.pat) {
				p++
			}
			if m.at(p) == ']' {
				m.step((p - start) / ClassBytesPerStep)
				return p + 1
			}
		}
	}
	return p
}

// single reports whether c matches the class from p to ep.
func (m *Matcher) single(c byte, p, ep int) bool {
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.pat[p+1])
	case '[':
		return m.matchBracket(c, p, ep-1)
	}
	return m.pat[p] == c
}

// matchBracket matches c against the set [...] from p (its '[') to ec
// (its ']'), charging the set's length: a class of a megabyte tried on
// each character of a text is a million comparisons each.
func (m *Matcher) matchBracket(c byte, p, ec int) bool {
	m.step((ec - p) / ClassBytesPerStep)
	sig := true
	if m.at(p+1) == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case m.pat[p] == '%':
			p++
			if matchClass(c, m.pat[p]) {
				return sig
			}
		case m.at(p+1) == '-' && p+2 < ec:
			p += 2
			if m.pat[p-2] <= c && c <= m.pat[p] {
				return sig
			}
		case m.pat[p] == c:
			return sig
		}
	}
	return !sig
}

// matchClass matches c against the class letter cl (%a, %D, ...), or the
// character cl itself when it names no class. An upper-case letter is the
// complement of its class.
func matchClass(c, cl byte) bool {
	in, ok := inClass(c, cl|0x20)
	if !ok {
		return cl == c
	}
	if 'A' <= cl && cl <= 'Z' {
		return !in
	}
	return in
}

// inClass reports whether c is in the class of the lower-case letter cl;
// ok is false when cl names no class.
//
// It branches on the class letters of Lua patterns (%a, %c, %d, %l, %p,
// %s, %u, %w, %x, %z), a case each as lstrlib.c's match_class has them.
func inClass(c, cl byte) (in, ok bool) {
	switch cl {
	case 'a':
		return isAlpha(c), true
	case 'c':
		return c < 0x20 || c == 0x7f, true
	case 'd':
		return isDigit(c), true
	case 'l':
		return 'a' <= c && c <= 'z', true
	case 'p':
		return isPunct(c), true
	case 's':
		return c == ' ' || ('\t' <= c && c <= '\r'), true
	case 'u':
		return 'A' <= c && c <= 'Z', true
	case 'w':
		return isAlpha(c) || isDigit(c), true
	case 'x':
		return isDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'f'), true
	case 'z':
		return c == 0, true
	}
	return false, false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isPunct(c byte) bool {
	return (0x21 <= c && c <= 0x2f) || (0x3a <= c && c <= 0x40) || (0x5b <= c && c <= 0x60) || (0x7b <= c && c <= 0x7e)
}
