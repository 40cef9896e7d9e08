package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/web"
)

// LimitFlags are the budgets of each run of a scenario's and a policy's
// code, for an instructor who runs students' files: check, run, batch,
// grade and play take them. Their defaults are budget's, far above what
// the built-in scenarios and reference policies take.
type LimitFlags struct {
	StepBudget   int64         `name:"step-budget" default:"${step_budget}" group:"budget" help:"Steps the code of each run may take: the scenario's Lua, its page rule and the policy's rules together (default ${step_budget})." placeholder:"N"`
	TimeBudget   time.Duration `name:"time-budget" default:"${time_budget}" group:"budget" help:"Time that code may take in each run (default ${time_budget})." placeholder:"DURATION"`
	MemoryBudget byteSize      `name:"memory-budget" default:"${memory_budget}" group:"budget" help:"Memory the scenario may hold and the run may keep in its trace, e.g. 256MiB (default ${memory_budget}); one string may take 1/64 of it." placeholder:"SIZE"`
}

// limitVars are the defaults the flags show, from budget.
var limitVars = kong.Vars{
	"step_budget":   strconv.FormatInt(budget.DefaultSteps, 10),
	"time_budget":   budget.DefaultTime.String(),
	"memory_budget": strconv.Itoa(budget.DefaultMemory>>20) + "MiB",
	// What one shift of the console may hold and answer.
	"session_memory": strconv.Itoa(web.DefaultSessionMemory>>20) + "MiB",
}

// limitGroup titles the flags in --help.
var limitGroup = kong.Group{Key: "budget", Title: "Budget of each run (for files from students or strangers; see docs/scenarios.md):"}

// limits checks the flags and returns the budgets they set.
func (f LimitFlags) limits() (budget.Limits, error) {
	switch {
	case f.StepBudget < 1:
		return budget.Limits{}, usageError("--step-budget %d: it takes a number of steps, 1 or more (default %s)", f.StepBudget, limitVars["step_budget"])
	case f.TimeBudget <= 0:
		return budget.Limits{}, usageError("--time-budget %v: it takes a duration above 0, e.g. 5s (default %s)", f.TimeBudget, limitVars["time_budget"])
	case f.MemoryBudget < 1<<20:
		return budget.Limits{}, usageError("--memory-budget %s: it takes 1MiB or more (default %s)", budget.BytesText(int64(f.MemoryBudget)), limitVars["memory_budget"])
	}
	return budget.Limits{Steps: f.StepBudget, Time: f.TimeBudget, Memory: int64(f.MemoryBudget)}, nil
}

// byteSize is a size in bytes written as 64MiB, 1GiB, 500MB or 1048576.
type byteSize int64

// Decode implements kong.MapperValue.
func (b *byteSize) Decode(ctx *kong.DecodeContext) error {
	var text string
	if err := ctx.Scan.PopValueInto("size", &text); err != nil {
		return err
	}
	n, err := parseBytes(text)
	if err != nil {
		return fmt.Errorf("--%s %s: %v", ctx.Value.Name, text, err)
	}
	*b = byteSize(n)
	return nil
}

var byteUnits = []struct {
	suffix string
	size   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1},
}

// parseBytes reads a size: a whole number of bytes, or of a unit (KiB, MiB,
// GiB; KB, MB, GB).
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	unit := int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, unit = strings.TrimSpace(rest), u.size
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<50)/unit {
		return 0, fmt.Errorf("a size is a whole number of bytes or of KiB, MiB, GiB (KB, MB, GB), e.g. 256MiB")
	}
	return n * unit, nil
}
