package shift

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxSeeds is the most seeds one set may hold. A million runs of a two-hour
// scenario take minutes; more is almost surely a typo (1-10000000).
const MaxSeeds = 1_000_000

// SeedsExample is shown with every error about a seed set.
const SeedsExample = "write seeds as 1-1000, 1,5,9 or 1-10,20-30"

// seedRange says what a seed is, in every error about one.
const seedRange = "a whole number from 0 to 4294967295"

// ErrNoSeed is ParseSeed's error for an empty text.
var ErrNoSeed = errors.New("the seed is missing: give " + seedRange)

// ParseSeed's other errors, for a caller that words them itself (the web
// console, in its reader's language): a set where one seed goes, a number
// above 4294967295, and anything else that is not a whole number.
var (
	ErrSeedSet   = errors.New("it takes one seed, not a set: " + seedRange)
	ErrSeedLarge = errors.New("it is too large: a seed is " + seedRange)
	ErrSeedText  = errors.New("it takes " + seedRange)
)

// ParseSeed reads one seed, 0 to 4294967295; spaces around it do not count.
// Its errors say what is wrong and what a seed is, without the text: the
// caller names the flag or the field and quotes what was given.
func ParseSeed(text string) (uint32, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, ErrNoSeed
	}
	v, err := parseNumber(s)
	if err != nil && strings.ContainsAny(strings.TrimPrefix(s, "-"), ",-–—") {
		return 0, ErrSeedSet
	}
	return v, err
}

// parseNumber reads a seed written as a number, nothing around it.
func parseNumber(s string) (uint32, error) {
	v, err := strconv.ParseUint(s, 10, 32)
	switch {
	case err == nil:
		return uint32(v), nil
	case errors.Is(err, strconv.ErrRange):
		return 0, ErrSeedLarge
	}
	return 0, ErrSeedText
}

// ParseSeeds reads a seed set: single seeds and inclusive ranges separated by
// commas ("1-1000", "1,5,9", "1-10,20-30"). Seeds are 0 to 4294967295, in the
// order written; a seed may appear only once.
func ParseSeeds(text string) ([]uint32, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("no seeds given: %s", SeedsExample)
	}
	var seeds []uint32
	seen := make(map[uint32]bool)
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		lo, hi, err := parseItem(item)
		if err != nil {
			return nil, err
		}
		if uint64(len(seeds))+uint64(hi-lo)+1 > MaxSeeds {
			return nil, fmt.Errorf("%q makes more than %d seeds: run fewer at once", text, MaxSeeds)
		}
		for s := uint64(lo); s <= uint64(hi); s++ {
			if seen[uint32(s)] {
				return nil, fmt.Errorf("seed %d appears twice in %q: list each seed once", s, text)
			}
			seen[uint32(s)] = true
			seeds = append(seeds, uint32(s))
		}
	}
	return seeds, nil
}

// parseItem reads one seed or one range.
func parseItem(item string) (lo, hi uint32, err error) {
	if item == "" {
		return 0, 0, fmt.Errorf("an empty item (two commas in a row, or one at an end): %s", SeedsExample)
	}
	// A range copied from typeset text has an en or em dash.
	if plain := strings.NewReplacer("–", "-", "—", "-").Replace(item); plain != item {
		return 0, 0, fmt.Errorf("%q: write a range with a plain hyphen: %s", item, plain)
	}
	a, b, isRange := strings.Cut(item, "-")
	lo, err = itemSeed(a, item)
	if err != nil || !isRange {
		return lo, lo, err
	}
	hi, err = itemSeed(b, item)
	if err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("the range %q runs backwards: write %d-%d", item, hi, lo)
	}
	return lo, hi, nil
}

// itemSeed reads one side of an item; the error quotes the item, and the
// side when the item is a range.
func itemSeed(s, item string) (uint32, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("%q: a range takes a seed on each side of the dash; %s", item, SeedsExample)
	}
	v, err := parseNumber(s)
	if err == nil {
		return v, nil
	}
	where := ""
	if s != item {
		where = fmt.Sprintf("%q: ", item)
	}
	return 0, fmt.Errorf("%s%q is not a seed: %v; %s", where, s, err, SeedsExample)
}

// FormatSeeds writes a seed set in the shortest form ParseSeeds reads back:
// runs of consecutive seeds as ranges, in the given order.
func FormatSeeds(seeds []uint32) string {
	var b strings.Builder
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j] != ^uint32(0) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(seeds[i]), 10))
		if j > i {
			b.WriteString("-" + strconv.FormatUint(uint64(seeds[j]), 10))
		}
		i = j + 1
	}
	return b.String()
}
