package exprwork

import "github.com/expr-lang/expr/conf"

// Disabled lists the expr builtins that untrusted expressions (a policy's
// rules, a scenario's page rule) may not call: they read the wall clock (a
// run must give the same result every time) or build values without bound.
//
// Text and lists can only be as large as the file makes them: the builtins
// that build text or lists from others (joining, formatting, encoding) are
// out, and so is reduce, since a let or a reduce applying them to their own
// result doubles it each time, beyond any memory.
func Disabled() []string {
	return []string{
		"now", "date", "timezone", "duration", // the wall clock
		"repeat", "replace", "join", "concat", "flatten", "string", "reduce", // text and lists built from others
		"toJSON", "fromJSON", "toBase64", "fromBase64", "toPairs", "fromPairs",
	}
}

// IsDisabled reports whether a builtin is one of Disabled.
func IsDisabled(name string) bool {
	for _, b := range Disabled() {
		if b == name {
			return true
		}
	}
	return false
}

// Restrict takes the Disabled builtins out of a configuration.
func Restrict(cfg *conf.Config) {
	for _, name := range Disabled() {
		cfg.Disabled[name] = true
		delete(cfg.Builtins, name)
	}
}

// ReadsTheClock reports whether a disabled builtin is disabled for reading
// the wall clock, rather than for building values.
func ReadsTheClock(name string) bool {
	switch name {
	case "now", "date", "timezone", "duration":
		return true
	}
	return false
}
