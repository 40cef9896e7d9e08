package exprwork

import "fmt"

// MaxDepth is how deep brackets may nest in an expression a user writes,
// and how many prefix operators (!, not, -, +) may stand in a row. expr's
// parser recurses for each; half a million nested brackets overflow Go's
// stack, and a few hundred thousand take a gigabyte of it. Its node limit
// comes too late to help: the parser counts nodes as it leaves them.
const MaxDepth = 32

// Nesting checks the text of an expression before it is parsed: it
// returns the rune offset where brackets nest deeper than MaxDepth, or
// where more than MaxDepth prefix operators stand in a row, and a message
// saying so, for the caller to add its advice to; ok is true when neither happens. Text in quotes is skipped.
//
// It branches on the lexical states of the text (inside quotes and escapes,
// a word that may be not, white space, quotes, prefix operators, opening and
// closing brackets): one scanner over the runes, whose counters of depth and
// run the cases share.
func Nesting(s string) (at int, msg string, ok bool) {
	depth, run := 0, 0
	var quote rune
	escaped := false
	word := -1 // the rune offset where the word being read started
	i := 0
	rs := []rune(s)
	for i = 0; i < len(rs); i++ {
		r := rs[i]
		if quote != 0 {
			switch {
			case escaped:
				escaped = false
			case r == '\\' && quote != '`':
				escaped = true
			case r == quote:
				quote = 0
			}
			continue
		}
		if isWordRune(r) {
			if word < 0 {
				word = i
			}
			continue
		}
		if word >= 0 {
			if string(rs[word:i]) == "not" {
				if run++; run > MaxDepth {
					return word, fmt.Sprintf("more than %d prefix operators (!, not, -, +) in a row", MaxDepth), false
				}
			} else {
				run = 0
			}
			word = -1
		}
		switch r {
		case ' ', '\t', '\n', '\r':
		case '"', '\'', '`':
			quote, run = r, 0
		case '!', '-', '+':
			if run++; run > MaxDepth {
				return i, fmt.Sprintf("more than %d prefix operators (!, not, -, +) in a row", MaxDepth), false
			}
		case '(', '[', '{':
			run = 0
			if depth++; depth > MaxDepth {
				return i, fmt.Sprintf("brackets nested more than %d deep", MaxDepth), false
			}
		case ')', ']', '}':
			run = 0
			depth--
		default:
			run = 0
		}
	}
	return 0, "", true
}

func isWordRune(r rune) bool {
	return r == '_' || r == '$' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80
}
