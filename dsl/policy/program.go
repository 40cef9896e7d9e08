package policy

import (
	"github.com/expr-lang/expr/vm"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
)

// Program is a compiled policy. It is read-only once compiled, so any number
// of runs may share it; each takes its own Instance.
type Program struct {
	file  string
	src   string
	rules []*rule
	slots []slot         // the helper calls of every rule, computed each minute
	env   map[string]any // every name a rule can read, with its zero value
	times []any          // "HH:MM" of each minute of the day, boxed once, when a rule reads time

	envVars  []envVar       // the names the rules read, refreshed each minute
	index    map[string]int // envVars by name
	base     int            // the machine variable of envVars[0]
	needsMap bool           // some program reads the map environment too
	// constants: a rule reads a constant in force, which each minute's
	// refresh then reads from the run.
	constants bool
	// small: a minute costs less than budget.CheckEvery steps at most, and
	// is charged at once, at its end (a policy of a few rules pays a charge
	// a minute, not one a rule and helper).
	small bool
	left  int // the rules of the file that have problems, left out (loaded.go)
	// switches are the scenario's switches the rules name, where they
	// name them (switch.go).
	switches []switchUse
}

// rule is one compiled rule.
type rule struct {
	name     string
	pos      dsl.Pos
	cond     *vm.Program
	fast     fastCond // the condition in Go, when it is simple enough; see fast.go
	when     *clause
	seen     []seenRef // the variables and helper values the condition reads, for the trace
	actions  []action
	cooldown int
	steps    int64 // of an evaluation of the condition, estimated from above
}

// action is one compiled action of a rule.
type action struct {
	fn       ActionFunc
	arg      *vm.Program // nil when the value is constant or there is none
	value    float64     // the constant value
	pos      dsl.Pos
	clause   *clause
	argStart int    // rune offset of the argument in the clause, for run-time messages
	steps    int64  // of an evaluation of a computed argument, estimated from above
	switchID string // switch(): the scenario's switch it turns on or off
}

// slotKind says which helper a slot computes.
type slotKind int

const (
	slotAgo slotKind = iota
	slotMean
	slotMax
	slotMin
	slotRising
	slotFalling
	slotSince
)

// slot is one distinct helper call, e.g. mean_over("error_rate", 10). The
// call is replaced at load by a name no rule can write, whose value is
// computed in Go once a minute: a helper then costs expr a variable load.
type slot struct {
	key   string // "#0", "#1", ...: short to hash, and no rule can write it
	label string // the call as written, e.g. mean_over("db_util",5), for the trace
	kind  slotKind
	typ   Type
	get   func(*engine.Row) float64
	n     int   // window or look-back, minutes
	rule  int   // since(): index of the rule
	first place // where the file calls it first, for a run that stops while computing it
}

// place is where a rule of the file writes something.
type place struct {
	rule string
	pos  dsl.Pos
}

// NamesUnread implements shift.NamesUnread: the rules read the rows'
// metrics, not their firings nor who decided their actions.
func (p *Program) NamesUnread() {}

// Rules returns the rule names in file order.
func (p *Program) Rules() []string {
	names := make([]string, len(p.rules))
	for i, r := range p.rules {
		names[i] = r.name
	}
	return names
}

// File returns the name the program was compiled from.
func (p *Program) File() string { return p.file }

// programs returns the rule's compiled expressions.
func (r *rule) programs() []*vm.Program {
	ps := []*vm.Program{r.cond}
	for _, a := range r.actions {
		if a.arg != nil {
			ps = append(ps, a.arg)
		}
	}
	return ps
}

// seenRef is a name a condition reads: its key in the environment and the
// label the trace shows.
type seenRef struct{ key, label string }
