package scenario

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A chunk file holds scripts for tests, as starlark-go keeps its test
// files: chunks separated by a line "---", or "--- name" to name the chunk
// that follows (chunkSrc finds it by that name), each a whole file of its
// own, whose lines count from its first. A line that the script must fail on
// ends with a Lua comment giving the error, as a Go string of a regexp:
//
//	deploy { build = "4.4.0", hold_at = 0 } -- ### "hold_at = 0 is out of range"
//
// readChunks reads them; the test runs each and checks that its error
// names the line of that comment and matches the regexp.

// chunk is one script of a chunk file.
type chunk struct {
	name string         // its name, from its separator; "" for none
	file string         // the name the script is compiled under: the chunk file's
	at   int            // the line of the chunk file where it starts
	src  string         // the script
	line int            // the line of the script that must fail, 0: none
	want *regexp.Regexp // what its error must match, nil: none
}

// wantMarker opens the expected error of a line.
const wantMarker = "-- ### "

// readChunks reads the chunks of a chunk file of testdata.
func readChunks(t *testing.T, name string) []chunk {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out []chunk
	cur := chunk{file: name, at: 1}
	n := 0 // the script's lines so far
	end := func() {
		if strings.TrimSpace(cur.src) != "" {
			out = append(out, cur)
		}
	}
	for i, line := range strings.SplitAfter(string(data), "\n") {
		if sep := strings.TrimRight(line, "\n"); sep == "---" || strings.HasPrefix(sep, "--- ") {
			end()
			cur, n = chunk{name: strings.TrimSpace(sep[3:]), file: name, at: i + 2}, 0
			continue
		}
		n++
		cur.src += line
		if j := strings.Index(line, wantMarker); j >= 0 {
			pat, err := strconv.Unquote(strings.TrimSpace(line[j+len(wantMarker):]))
			if err != nil {
				t.Fatalf("%s:%d: the expected error is a Go string of a regexp: %v", name, i+1, err)
			}
			if cur.want != nil {
				t.Fatalf("%s:%d: a chunk expects one error", name, i+1)
			}
			cur.line, cur.want = n, regexp.MustCompile(pat)
		}
	}
	end()
	return out
}

// check reports what is wrong with err as the chunk's outcome.
func (c chunk) check(t *testing.T, err error) {
	t.Helper()
	switch {
	case c.want == nil && err != nil:
		t.Errorf("%s:%d: the chunk failed: %v", c.file, c.at, err)
	case c.want == nil:
	case err == nil:
		t.Errorf("%s:%d: no error, want one at line %d matching %q", c.file, c.at+c.line-1, c.line, c.want)
	case !strings.Contains(err.Error(), c.file+":"+strconv.Itoa(c.line)+":") || !c.want.MatchString(err.Error()):
		t.Errorf("%s:%d: %v, want an error at %s:%d matching %q", c.file, c.at+c.line-1, err, c.file, c.line, c.want)
	}
}

// chunkSrc returns the script of the chunk named name in a chunk file.
func chunkSrc(t *testing.T, file, name string) string {
	t.Helper()
	for _, c := range readChunks(t, file) {
		if c.name == name {
			return c.src
		}
	}
	t.Fatalf("testdata/%s has no chunk %q", file, name)
	return ""
}
