package scenario

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
)

// takes says, for each function of the scenario API, how many arguments
// it takes and what they are, as its refusal of more writes it: an
// argument a function does not take is an error at its place, never
// silently dropped (flush_cache(0.5, 2), rollback("now")).
var takes = map[string]struct {
	n    int
	what string
}{
	"scenario":        {1, `one table, scenario{ id = "my-drill", ... }`},
	"grade":           {1, `one table of criteria, grade{ { metric = "budget_used", at_most = "reference + 0.01" } }`},
	"outcome":         {1, `one table, outcome{ name = "...", value = function(rows) ... end }`},
	"inject":          {1, `one table, inject{ id = "second-deploy", title = "A second bad build", effect = function(ctx) ... end }`},
	"switch":          {1, `one table, switch{ id = "deploy-freeze", label = "Deploy freeze", on = function(ctx) ... end, off = function(ctx) ... end }`},
	"at":              {2, `a time and a function, at("09:10", function() ... end)`},
	"clock":           {1, `one time of day, clock("09:10")`},
	"now":             {0, "no argument"},
	"get":             {1, `one name, get("db_capacity")`},
	"deploy":          {1, `one table, deploy{ build = "4.2.1", rollout = 3 }`},
	"flush_cache":     {1, "at most one argument, the share of the cache lost, flush_cache(0.5) (flush_cache() empties it)"},
	"lose_instances":  {1, "one table, lose_instances{ count = 6 } or lose_instances{ share = 0.6 }"},
	"set":             {1, "one table, set{ db_capacity = 3000 }"},
	"scale":           {1, "one table, scale{ db_capacity = 0.5 }"},
	"ramp":            {1, `one table, ramp{ app_ms = 120, over = "30m" }`},
	"say":             {1, `one text, say("...") or say{ en = "...", fr = "..." }`},
	"log":             {1, `one table, log{ level = "WARN", message = "..." }`},
	"warmup":          {0, "no argument"},
	"rollback":        {0, "no argument"},
	"pause_rollout":   {0, "no argument"},
	"resume_rollout":  {0, "no argument"},
	"rng.uniform":     {2, "two numbers, rng.uniform(a, b)"},
	"rng.exponential": {1, "one number, rng.exponential(mean)"},
	"rng.normal":      {2, "two numbers, rng.normal(mu, sigma)"},
	"rng.poisson":     {1, "one number, rng.poisson(lambda)"},
}

// arity returns the API function name, fn, refusing a call that passes
// more arguments than it takes, at the first one too many. A function
// without a line in takes is a mistake of this package, which
// TestEveryFunctionSaysWhatItTakes finds; it goes unchecked.
func arity(name string, fn func(*run, *lua.LState) int) func(*run, *lua.LState) int {
	t, ok := takes[name]
	if !ok {
		return fn
	}
	lib, method, inLib := strings.Cut(name, ".")
	return func(r *run, L *lua.LState) int {
		n := L.GetTop()
		switch {
		case n <= t.n:
		case inLib && L.Get(1).Type() == lua.LTTable:
			// rng:normal(0, 1) passes rng itself first.
			line := r.callerLine()
			pos, ok := r.p.places().Method(line, lib, method)
			if !ok {
				pos = dsl.Pos{File: r.p.file, Line: line}
			}
			r.raise(dsl.List{r.p.diagAt(pos, name+"()", fmt.Sprintf("%s takes %s, not %s: call it with a dot, %s; %s:%s(...) passes %s itself first", name, t.what, arguments(n), name+"(...)", lib, method, lib))})
		default:
			r.argError(name, t.n+1, "%s takes %s, not %s", name, t.what, arguments(n))
		}
		return fn(r, L)
	}
}

// arguments writes a count of arguments.
func arguments(n int) string {
	if n == 1 {
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}
