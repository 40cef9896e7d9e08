package luachunk

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Chunk is one script of a chunk file.
type Chunk struct {
	Name string         // its name, the first word of its separator; "" for none
	File string         // the name the script is compiled under: the chunk file's base name
	At   int            // the line of the chunk file where it starts
	Src  string         // the script
	Line int            // the line of the script that must fail, 0: none
	Want *regexp.Regexp // what its error must match, nil: none
}

// WantMarker opens the expected error of a line.
const WantMarker = "-- ### "

// Read reads the chunks of the chunk file at path (from the test's
// package: "testdata/api.lua").
func Read(tb testing.TB, path string) []Chunk {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	name := filepath.Base(path)
	var out []Chunk
	cur := Chunk{File: name, At: 1}
	n := 0 // the script's lines so far
	end := func() {
		if !note(cur.Src) {
			out = append(out, cur)
		}
	}
	for i, line := range strings.SplitAfter(string(data), "\n") {
		if sep := strings.TrimRight(line, "\n"); sep == "---" || strings.HasPrefix(sep, "--- ") {
			end()
			cur, n = Chunk{File: name, At: i + 2}, 0
			if f := strings.Fields(sep[3:]); len(f) > 0 {
				cur.Name = strings.TrimSuffix(f[0], ":")
			}
			continue
		}
		n++
		cur.Src += line
		if j := strings.Index(line, WantMarker); j >= 0 {
			pat, err := strconv.Unquote(strings.TrimSpace(line[j+len(WantMarker):]))
			if err != nil {
				tb.Fatalf("%s:%d: the expected error is a Go string of a regexp: %v", path, i+1, err)
			}
			if cur.Want != nil {
				tb.Fatalf("%s:%d: a chunk expects one error", path, i+1)
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				tb.Fatalf("%s:%d: the expected error: %v", path, i+1, err)
			}
			cur.Line, cur.Want = n, re
		}
	}
	end()
	return out
}

// note reports whether src is only blank lines and Lua comments: a note to
// the reader, not a chunk.
func note(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--") {
			return false
		}
	}
	return true
}

// Check reports what is wrong with err as the chunk's outcome.
func (c Chunk) Check(tb testing.TB, err error) {
	tb.Helper()
	switch {
	case c.Want == nil && err != nil:
		tb.Errorf("%s:%d: the chunk failed: %v", c.File, c.At, err)
	case c.Want == nil:
	case err == nil:
		tb.Errorf("%s:%d: no error, want one at line %d matching %q", c.File, c.At+c.Line-1, c.Line, c.Want)
	case !strings.Contains(err.Error(), c.File+":"+strconv.Itoa(c.Line)+":") || !c.Want.MatchString(err.Error()):
		tb.Errorf("%s:%d: %v, want an error at %s:%d matching %q", c.File, c.At+c.Line-1, err, c.File, c.Line, c.Want)
	}
}

// Src returns the script of the chunk named name in the chunk file at path.
func Src(tb testing.TB, path, name string) string {
	tb.Helper()
	for _, c := range Read(tb, path) {
		if c.Name == name {
			return c.Src
		}
	}
	tb.Fatalf("%s has no chunk %q", path, name)
	return ""
}
