package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/luachunk"
	"github.com/oncall-sim/oncall/scenarios"
)

// seedChunks adds the chunks of testdata/seeds.lua named name to a fuzz
// test's corpus.
func seedChunks(f *testing.F, name string) {
	n := 0
	for _, c := range luachunk.Read(f, "testdata/seeds.lua") {
		if c.Name == name {
			f.Add(c.Src)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("testdata/seeds.lua has no chunk %s", name)
	}
}

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
	seedChunks(f, "FuzzCompile")
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
	seedChunks(f, "FuzzCheck")
	opts := Options{Limits: budget.Limits{Steps: 1_000_000, Time: 100 * time.Millisecond, Memory: 8 << 20}}
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range Check("fuzz.lua", []byte(src), opts, 2) {
			if d.Pos.File != "fuzz.lua" || d.Message == "" || d.Kind == "" {
				t.Fatalf("diagnostic %q names no file, says nothing or has no kind", d.Error())
			}
		}
	})
}
