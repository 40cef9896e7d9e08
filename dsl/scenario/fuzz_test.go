package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scenarios"
)

// seedBuiltins adds the built-in scenarios to a fuzz test's corpus.
func seedBuiltins(f *testing.F) {
	for _, name := range scenarios.Names() {
		src, err := scenarios.Files.ReadFile(name + ".lua")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
}

// FuzzCompile feeds arbitrary text to Compile: it never panics or hangs (a
// budget of a million steps), and a file that does not load gives
// diagnostics that name it. The corpus starts from the built-ins and every
// hostile case of testdata.
func FuzzCompile(f *testing.F) {
	seedBuiltins(f)
	for _, pattern := range []string{"testdata/hostile/*.lua", "testdata/hostile/memory/*.lua"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			if src, err := os.ReadFile(name); err == nil {
				f.Add(string(src))
			}
		}
	}
	for _, src := range []string{
		"scenario { id = \"a\", title = \"A\", briefing = \"B\", duration = 10 }\nat(3, function() flush_cache() end)",
		"scenario {",
		"while true do end",
		"local s = 'x' for i = 1, 40 do s = s .. s end",
		"error({})",
		"scenario { id = 1, title = {}, briefing = { en = 2 }, page = \"\" }",
		"function surge(t) return -1 end",
	} {
		f.Add(src)
	}
	opts := Options{Limits: budget.Limits{Steps: 1_000_000, Time: 100 * time.Millisecond, Memory: 8 << 20}}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile("fuzz.lua", []byte(src), opts)
		if err != nil {
			var l dsl.List
			if !errors.As(err, &l) || len(l) == 0 {
				t.Fatalf("Compile = %v (%T), want a dsl.List", err, err)
			}
			for _, d := range l {
				if d.Pos.File != "fuzz.lua" || d.Message == "" {
					t.Fatalf("diagnostic %q names no file or says nothing", d.Error())
				}
			}
			return
		}
		if _, _, err := p.Instance(nil, 1); err != nil {
			var l dsl.List
			if !errors.As(err, &l) {
				t.Fatalf("Instance = %v (%T), want a dsl.List", err, err)
			}
		}
	})
}

// FuzzCheck feeds arbitrary text to Check, which plays past the problems
// of a declaration: it never panics or hangs, and every problem names the
// file, says something and has a kind. The corpus is FuzzCompile's.
func FuzzCheck(f *testing.F) {
	seedBuiltins(f)
	files, _ := filepath.Glob("testdata/hostile/*.lua")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("scenario { id = \"a\", title = \"A\", briefing = \"B\", durration = 10, instances = 40, constants = { max_instances = 5 } }\nat(30, function() flush_cache() end)")
	f.Add("scenario { id = \"a\", title = \"A\", briefing = \"B\", page = \"burn_1hh > 1\" }\ngrade { { metric = \"x\", at_most = \"refrence\" } }\noutcome { name = \"x\", unit = 4, value = function(rows) return #rows end }")
	opts := Options{Limits: budget.Limits{Steps: 1_000_000, Time: 100 * time.Millisecond, Memory: 8 << 20}}
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range Check("fuzz.lua", []byte(src), opts, 2) {
			if d.Pos.File != "fuzz.lua" || d.Message == "" || d.Kind == "" {
				t.Fatalf("diagnostic %q names no file, says nothing or has no kind", d.Error())
			}
		}
	})
}
