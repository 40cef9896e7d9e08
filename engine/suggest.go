package engine

import "github.com/oncall-sim/oncall/internal/spell"

// Nearest returns the candidate closest to name, or "" when none is close
// enough to be a likely misspelling: spell.Nearest, for the packages that
// find names through the engine.
func Nearest(name string, candidates []string) string { return spell.Nearest(name, candidates) }

// didYouMean renders a suggestion as a clause to append to a message.
func didYouMean(name string, candidates []string) string { return spell.Suggest(name, candidates) }

// hintFor renders a suggestion already found as didYouMean does.
func hintFor(suggestion string) string { return spell.Hint(suggestion) }
