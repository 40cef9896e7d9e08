package spell

// Nearest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a likely misspelling (at most a third of the
// longer name's letters differ). Of candidates equally close, the first wins.
func Nearest(name string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := distance(name, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(len(name), len(best))/3 + 1
	if best == "" || bestD > limit {
		return ""
	}
	return best
}

// Suggest renders the nearest candidate as a clause to append to a message,
// "; did you mean shed?", or "" when none is close.
func Suggest(name string, candidates []string) string {
	return Hint(Nearest(name, candidates))
}

// Hint renders a suggestion found by other means (a prefix of a name, an
// alias) as Suggest does: "; did you mean fr?", or "" for no suggestion.
func Hint(suggestion string) string {
	if suggestion == "" {
		return ""
	}
	return "; did you mean " + suggestion + "?"
}

// distance is the edit distance between a and b, in bytes, where two
// neighbours swapped count as one edit ("sya" is one edit from "say", as
// a slip of the fingers is): the optimal string alignment distance.
func distance(a, b string) int {
	before := make([]int, len(b)+1) // the row before prev, for a swap
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(b)]
}
