package scenario

import (
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// library is what every run of one program shares, built once when the
// program compiles and never written afterwards: the sandbox's libraries
// (dsl/sandbox), the scenario API in their globals, and what the runs
// read of it. The API's shared functions find their run through the
// calling state (runOf), never through a capture.
type library struct {
	box      *sandbox.Library
	errfunc  *lua.LFunction // the error handler of every call into Lua
	row      *lua.LFunction // __index of on_minute's row: unknown metrics are errors
	rowNames []lua.LString  // the row's keys, in the order of engine.MetricSpecs
}

// sandboxConfig are what the sandbox's messages say of a scenario: its
// name, and where the scenario API takes the place of what the sandbox
// removes.
var sandboxConfig = sandbox.Config{
	Noun: "scenario",
	Instead: map[string]string{
		"os":    `the time of day is clock("HH:MM") and now()`,
		"print": `use say{en = "..."} to put a line on the player's timeline`,
	},
	Party: budget.Scenario,
}

// newLibrary opens the sandbox's libraries and adds the scenario API; rng
// becomes a read-only view like the standard libraries.
func newLibrary() *library {
	box := sandbox.Open(sandboxConfig)
	L, g := box.L, box.L.G.Global
	lib := &library{box: box}
	registerAPI(L, g)
	box.Seal("rng")
	lib.errfunc = L.NewFunction(func(L *lua.LState) int { return runOf(L).whereError(L) })
	names := []string{"time"}
	for _, s := range engine.MetricSpecs() {
		lib.rowNames = append(lib.rowNames, lua.LString(s.Name))
		names = append(names, s.Name)
	}
	// A misspelt metric is an error that names it, not a nil that fails
	// later in a comparison.
	lib.row = L.NewFunction(func(L *lua.LState) int {
		key := lua.LVAsString(L.Get(2))
		L.RaiseError("row.%s: unknown metric%s (metrics: the columns of a trace, e.g. burn_1h, error_rate, db_util)", key, spell.Suggest(key, names))
		return 0
	})
	return lib
}

// runOf returns the run a shared Go function was called for: the calling
// state's context is its run's meter, whose Host is the run.
func runOf(L *lua.LState) *run { return sandbox.HostOf(L).(*run) }

// Random implements sandbox.Host: math.random draws from the scenario stream.
func (r *run) Random() float64 { return r.rng.Float64() }

// newSandbox returns a Lua state for one run on the library's globals, with
// the run's meter installed: one that a clean run of the program gave back
// (reuse.go), or a fresh one.
func (p *Program) newSandbox(bud *budget.Meter, r *run) (*sandbox.State, *sandbox.Meter) {
	box := p.reusedSandbox()
	if box == nil {
		box = p.lib.box.NewState()
	}
	return box, box.Start(bud, r, r.roots, p.cat)
}

// luaText shows a Lua value in a message.
func luaText(v lua.LValue) string { return sandbox.Text(v) }

func bytesText(n int64) string { return budget.BytesText(n) }

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
