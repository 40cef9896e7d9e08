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
