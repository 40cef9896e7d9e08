package luapattern

import "strings"

// Specials are the characters that make a pattern more than plain text.
const Specials = "^$*+?.([%-"

// Find returns the first match of pat in s at or after init (a byte
// offset), as string.find and string.match look for it: a leading ^
// anchors it at init. It returns the match's start and end, or -1, -1.
func (m *Matcher) Find(s, pat string, init int) (start, end int, err error) {
	anchor := strings.HasPrefix(pat, "^")
	if anchor {
		pat = pat[1:]
	}
	for i := init; ; i++ {
		e, err := m.Match(s, pat, i)
		if err != nil {
			return -1, -1, err
		}
		if e >= 0 {
			return i, e, nil
		}
		if anchor || i >= len(s) {
			return -1, -1, nil
		}
	}
}

// Next is one step of string.gmatch: the first match of pat in s at or
// after from, where a ^ is an ordinary character, and where the next
// search starts (one past an empty match). It returns -1 when there is
// none.
func (m *Matcher) Next(s, pat string, from int) (start, end, next int, err error) {
	for i := from; i <= len(s); i++ {
		e, err := m.Match(s, pat, i)
		if err != nil {
			return -1, -1, -1, err
		}
		if e >= 0 {
			next = e
			if e == i {
				next++
			}
			return i, e, next, nil
		}
	}
	return -1, -1, -1, nil
}

// Gsub replaces at most limit matches of pat in s, as string.gsub does: a
// leading ^ anchors the pattern at the start, so that it replaces at most
// once. repl gives the text of each match from start to end (the captures
// are read with Capture); add is given the pieces of the result in order,
// so that the caller can bound its size as it grows. It returns the number
// of matches replaced.
func (m *Matcher) Gsub(s, pat string, limit int, repl func(start, end int) (string, error), add func(string) error) (int, error) {
	anchor := strings.HasPrefix(pat, "^")
	if anchor {
		pat = pat[1:]
	}
	n, i, kept := 0, 0, 0 // kept: the start of the text copied as it is
	for n < limit {
		e, err := m.Match(s, pat, i)
		if err != nil {
			return n, err
		}
		if e >= 0 {
			n++
			if err := add(s[kept:i]); err != nil {
				return n, err
			}
			r, err := repl(i, e)
			if err != nil {
				return n, err
			}
			if err := add(r); err != nil {
				return n, err
			}
			kept = e // the matched text is not kept
		}
		switch {
		case e > i:
			i = e
		case i < len(s):
			i++ // after an empty match or none, a character kept as it is
		default:
			return n, add(s[kept:])
		}
		if anchor {
			break
		}
	}
	return n, add(s[kept:])
}
