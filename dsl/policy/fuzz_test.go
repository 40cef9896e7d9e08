package policy

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// FuzzCompile feeds arbitrary files to Compile: it must never panic; it
// either loads the file or returns a dsl.List whose every diagnostic names
// the file; a file that loads must run 20 minutes of free play without
// panicking, within a budget of a million steps (it may stop with an
// error), and its conditions evaluated in Go must agree with expr. The
// corpus starts from the shipped policies and every broken and costly case
// of testdata.
func FuzzCompile(f *testing.F) {
	f.Add(fiveRules)
	f.Add(rollbackPolicy)
	var files []string
	for _, pattern := range []string{"testdata/broken/*.rules", "testdata/stops/*.rules", "../../scripts/*.rules", "../../scripts/examples/*.rules"} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("rule \"x\"\n when let a = [1,2]; a[minute % 3] > 0\n do set_shed(0.5)\n")
	f.Add("rule \"x\"\n when 1..3 | all(# > 0)\n do warmup()\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile("fuzz.rules", []byte(src))
		if err != nil {
			var list dsl.List
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty dsl.List: %#v", err)
			}
			for _, d := range list {
				if d.Pos.File != "fuzz.rules" || d.Message == "" {
					t.Fatalf("diagnostic without file or message: %#v", d)
				}
			}
			return
		}
		setup := engine.FreePlay()
		setup.Minutes = 20
		sim, err := engine.New(engine.Options{Setup: setup, Policy: p.Instance(budget.New(budget.Limits{Steps: 1_000_000})), Seed: 1, Noise: true})
		if err != nil {
			t.Fatal(err)
		}
		_ = sim.Run(0)
		// Conditions evaluated in Go agree with expr on every minute.
		rows := sim.Rows()
		in := p.Instance(nil).(*instance)
		for i := range rows {
			in.refresh(rows[:i+1])
			for _, r := range p.rules {
				if r.fast == nil {
					continue
				}
				got := r.fast(in.num)
				in.sync()
				if out, err := in.vm.Run(r.cond, in.env); err == nil && out != got {
					t.Fatalf("minute %d, rule %q: %v in Go, %v in expr", i, r.name, got, out)
				}
			}
		}
	})
}
