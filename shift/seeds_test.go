package shift_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/shift"
	"pgregory.net/rapid"
)

func TestParseSeeds(t *testing.T) {
	cases := []struct {
		in   string
		want []uint32
		err  string
	}{
		{in: "1-5", want: []uint32{1, 2, 3, 4, 5}},
		{in: "1,5,9", want: []uint32{1, 5, 9}},
		{in: "1-3,20-22", want: []uint32{1, 2, 3, 20, 21, 22}},
		{in: " 7 , 3-4 ", want: []uint32{7, 3, 4}},
		{in: "0", want: []uint32{0}},
		{in: "4294967294-4294967295", want: []uint32{4294967294, 4294967295}},
		{in: "", err: "no seeds given: write seeds as 1-1000"},
		{in: "1-", err: `"1-": a range takes a seed on each side of the dash`},
		{in: "1,,2", err: "an empty item (two commas in a row, or one at an end)"},
		{in: "1-5,", err: "an empty item (two commas in a row, or one at an end)"},
		{in: "1–5", err: `"1–5": write a range with a plain hyphen: 1-5`},
		{in: "3,10—20", err: `"10—20": write a range with a plain hyphen: 10-20`},
		{in: "10-1", err: `"10-1" runs backwards: write 1-10`},
		{in: "x", err: `"x" is not a seed: it takes a whole number from 0 to 4294967295; write seeds as`},
		{in: "1-x", err: `"1-x": "x" is not a seed: it takes a whole number`},
		{in: "-5", err: "a range takes a seed on each side"},
		{in: "4294967296", err: `"4294967296" is not a seed: it is too large: a seed is a whole number from 0 to 4294967295; write seeds as`},
		{in: "1-3,2", err: "seed 2 appears twice"},
		{in: "0-4294967295", err: "more than 1000000 seeds"},
	}
	for _, c := range cases {
		got, err := shift.ParseSeeds(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseSeeds(%q) error = %v, want it to contain %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseSeeds(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// ParseSeed reads one seed; its errors say what a seed is, and leave the
// flag or field and the text to the caller.
func TestParseSeed(t *testing.T) {
	cases := []struct {
		in   string
		want uint32
		err  string
	}{
		{in: "7", want: 7},
		{in: " 42 ", want: 42},
		{in: "0", want: 0},
		{in: "4294967295", want: 4294967295},
		{in: "", err: "the seed is missing: give a whole number from 0 to 4294967295"},
		{in: "  ", err: "the seed is missing: give a whole number from 0 to 4294967295"},
		{in: "-1", err: "it takes a whole number from 0 to 4294967295"},
		{in: "seven", err: "it takes a whole number from 0 to 4294967295"},
		{in: "1.5", err: "it takes a whole number from 0 to 4294967295"},
		{in: "4294967296", err: "it is too large: a seed is a whole number from 0 to 4294967295"},
		{in: "1-5", err: "it takes one seed, not a set: a whole number from 0 to 4294967295"},
		{in: "1,5,9", err: "it takes one seed, not a set: a whole number from 0 to 4294967295"},
	}
	for _, c := range cases {
		got, err := shift.ParseSeed(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("ParseSeed(%q) error = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseSeed(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	if _, err := shift.ParseSeed(""); !errors.Is(err, shift.ErrNoSeed) {
		t.Errorf("ParseSeed(\"\") error = %v, want ErrNoSeed", err)
	}
}

func TestFormatSeeds(t *testing.T) {
	cases := map[string][]uint32{
		"1-5":        {1, 2, 3, 4, 5},
		"1,5,9":      {1, 5, 9},
		"1-3,20-22":  {1, 2, 3, 20, 21, 22},
		"7,3-4":      {7, 3, 4},
		"4294967295": {4294967295},
		"":           nil,
	}
	for want, in := range cases {
		if got := shift.FormatSeeds(in); got != want {
			t.Errorf("FormatSeeds(%v) = %q, want %q", in, got, want)
		}
	}
}

// A seed set written by FormatSeeds reads back as the same seeds.
func TestFormatSeedsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seeds := rapid.SliceOfNDistinct(rapid.Uint32(), 1, 50, rapid.ID).Draw(t, "seeds")
		back, err := shift.ParseSeeds(shift.FormatSeeds(seeds))
		if err != nil || !slices.Equal(back, seeds) {
			t.Fatalf("%v → %q → %v, %v", seeds, shift.FormatSeeds(seeds), back, err)
		}
	})
}

func FuzzParseSeeds(f *testing.F) {
	for _, s := range []string{"1-1000", "1,5,9", "1-10,20-30", "", "-", "1--2", "4294967295", "9-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seeds, err := shift.ParseSeeds(s)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "seed") && !strings.Contains(msg, "write") {
				t.Fatalf("error %q says neither what a seed set is nor how to write it", err)
			}
			return
		}
		if len(seeds) == 0 || len(seeds) > shift.MaxSeeds {
			t.Fatalf("ParseSeeds(%q) gave %d seeds", s, len(seeds))
		}
		back, err := shift.ParseSeeds(shift.FormatSeeds(seeds))
		if err != nil || !slices.Equal(back, seeds) {
			t.Fatalf("round trip of %q failed: %v", s, err)
		}
	})
}

// A seed that parses is the number written, and a set of one seed is that
// seed: ParseSeed and ParseSeeds agree.
func FuzzParseSeed(f *testing.F) {
	for _, s := range []string{"7", " 42", "", "-1", "4294967296", "1-5", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seed, err := shift.ParseSeed(s)
		if err != nil {
			if !strings.Contains(err.Error(), "seed") && !strings.Contains(err.Error(), "a whole number") {
				t.Fatalf("error %q does not say what a seed is", err)
			}
			return
		}
		set, err := shift.ParseSeeds(s)
		if err != nil || len(set) != 1 || set[0] != seed {
			t.Fatalf("ParseSeed(%q) = %d but ParseSeeds gives %v, %v", s, seed, set, err)
		}
	})
}
