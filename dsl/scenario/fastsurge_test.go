package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
)

// surgeGen writes random surges of what scenarios write: arithmetic over t,
// upvalues, a global and the fields of a global table (some of them read
// through an __index table), math's functions and aliases of them,
// comparisons, and/or, not, locals, if chains and numeric for loops; now
// and then a draw from the stream, or something outside the subset.
type surgeGen struct {
	t     *rapid.T
	depth int
}

func (g *surgeGen) pick(label string, n int) int { return rapid.IntRange(0, n-1).Draw(g.t, label) }

func (g *surgeGen) expr() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 4 {
		return g.leaf()
	}
	switch g.pick("expr", 14) {
	case 0, 1, 2, 3:
		return g.leaf()
	case 4, 5, 6:
		ops := []string{"+", "-", "*", "/", "%", "^"}
		return "(" + g.expr() + " " + ops[g.pick("op", len(ops))] + " " + g.expr() + ")"
	case 7:
		return "(-" + g.expr() + ")"
	case 8:
		fns := []string{"math.floor", "math.ceil", "math.abs", "math.sqrt", "math.exp", "math.log", "floor", "exp"}
		return fns[g.pick("fn", len(fns))] + "(" + g.expr() + ")"
	case 9:
		fns := []string{"math.max", "math.min", "math.fmod", "math.pow"}
		args := []string{g.expr(), g.expr()}
		if g.pick("third", 3) == 0 {
			args = append(args, g.expr())
		}
		return fns[g.pick("fn2", len(fns))] + "(" + strings.Join(args, ", ") + ")"
	case 10:
		return "(" + g.cond() + " and " + g.expr() + " or " + g.expr() + ")"
	case 11:
		return "(" + g.expr() + " or " + g.expr() + ")"
	case 12:
		if g.pick("draw", 4) == 0 {
			return "rng.uniform(0, 2)"
		}
		return g.leaf()
	default:
		if g.pick("odd", 6) == 0 {
			return [...]string{"#label", "tostring(t) + 0", "cfg.missing", "(not t)"}[g.pick("which", 4)]
		}
		return g.leaf()
	}
}

func (g *surgeGen) leaf() string {
	leaves := []string{"t", "t", "u1", "u2", "u3", "gv", "cfg.a", "cfg.b", "cfg.c", "cfg[k]", "0", "1", "2.5", "-3", "0.1", "100", "1e300", "math.pi", "math.huge"}
	return leaves[g.pick("leaf", len(leaves))]
}

func (g *surgeGen) cond() string {
	ops := []string{"<", "<=", ">", ">=", "==", "~="}
	c := g.expr() + " " + ops[g.pick("cmp", len(ops))] + " " + g.expr()
	switch g.pick("cond", 5) {
	case 0:
		return "not (" + c + ")"
	case 1:
		return "(" + c + ") == true"
	case 2:
		return "(" + c + " and " + g.expr() + " ~= nil)"
	}
	return c
}

// body writes surge's statements; its last statement returns.
func (g *surgeGen) body() string {
	var b strings.Builder
	for i := range g.pick("statements", 4) {
		switch g.pick("statement", 4) {
		case 0:
			fmt.Fprintf(&b, "  local x%d = %s\n", i, g.expr())
		case 1:
			fmt.Fprintf(&b, "  if %s then return %s elseif %s then return %s end\n", g.cond(), g.bounded(), g.cond(), g.bounded())
		case 2:
			fmt.Fprintf(&b, "  local acc%d = 0\n  for i = %d, %s, %s do acc%d = acc%d + %s end\n", i, g.pick("from", 3), []string{"u1 % 7", "3", "t % 5", "-2"}[g.pick("to", 4)], []string{"1", "2", "-1", "0.5"}[g.pick("step", 4)], i, i, g.expr())
		default:
			fmt.Fprintf(&b, "  if %s then return %s end\n", g.cond(), g.bounded())
		}
	}
	fmt.Fprintf(&b, "  return %s\n", g.bounded())
	return b.String()
}

// bounded is an expression, often clamped to a surge the engine takes.
func (g *surgeGen) bounded() string {
	if g.pick("clamp", 3) == 0 {
		return g.expr()
	}
	return "math.min(100, math.max(0, " + g.expr() + "))"
}

// surgeSource is a scenario with a random surge, whose on_minute changes
// what surge reads.
func surgeSource(t *rapid.T) string {
	g := &surgeGen{t: t}
	return `scenario { id = "s", title = "S", briefing = "B", start = "09:00", duration = "1h" }
local u1, u2, u3 = 3, 0.5, -2
local floor, exp = math.floor, math.exp
local label = "x"
gv = 7
k = 1
cfg = setmetatable({ a = 1.5, b = 4, [1] = 9 }, { __index = { c = 12 } })
function on_minute(row)
  u1 = u1 + row.minute % 3
  u2 = u2 * 1.1
  cfg.a = cfg.a * 0.5 + 1
  if row.minute % 7 == 0 then cfg.b = nil else cfg.b = row.minute end
  if row.minute % 11 == 0 then k = "a" else k = 1 end
  gv = gv + 1
end
function surge(t)
` + g.body() + `end
`
}

// TestFastSurgeIsTheInterpreter holds random surges to gopher-lua: over
// minutes whose on_minute changes what surge reads, the fast path returns
// the value gopher-lua returns, to the bit, fails where it fails with the
// same error, draws the same from the stream, and leaves the budget, the
// meter's lap and its count of steps where gopher-lua leaves them; on a
// budget small enough that surge meets the end of a lap and then the end
// of the budget, both stop alike.
func TestFastSurgeIsTheInterpreter(t *testing.T) {
	fast, calls := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		src := surgeSource(t)
		steps := []int64{0, 3000, 20000}[rapid.IntRange(0, 2).Draw(t, "budget")]
		p, err := Compile("surge.lua", []byte(src), Options{})
		if err != nil {
			t.Skip("does not compile:", err)
		}
		seed := rapid.Uint32().Draw(t, "seed")
		limits := budget.Limits{Steps: steps}
		withFast, _, err1 := p.Instance(budget.New(limits), seed)
		without, _, err2 := p.Instance(budget.New(limits), seed)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("loading: %v, %v", err1, err2)
		}
		if err1 != nil {
			t.Skip("does not load:", err1)
		}
		a, b := withFast.(*run), without.(*run)
		b.fast = nil
		if a.fast == nil {
			t.Fatalf("surge is outside the subset:\n%s", src)
		}
		for m := range 60 {
			hitsBefore := a.fast.hits
			va, ea := a.Surge(m)
			vb, eb := b.Surge(m)
			calls++
			if a.fast.hits > hitsBefore {
				fast++
			}
			if fmt.Sprint(ea) != fmt.Sprint(eb) || math.Float64bits(va) != math.Float64bits(vb) {
				t.Fatalf("minute %d: fast path %v (%v), gopher-lua %v (%v)\n%s", m, va, ea, vb, eb, src)
			}
			// The laps themselves may differ: their length follows the
			// process's allocations (meter.checkMemory).
			if sa, sb := a.m.bud.Steps(), b.m.bud.Steps(); sa != sb || a.m.pending != b.m.pending {
				t.Fatalf("minute %d: the fast path leaves %d steps, gopher-lua %d\n%s", m, sa, sb, src)
			}
			if ra, rb := a.rng.Float64(), b.rng.Float64(); ra != rb {
				t.Fatalf("minute %d: the streams differ after surge\n%s", m, src)
			}
			if ea != nil {
				return
			}
			row := engine.Row{Minute: m, Clock: 540 + m}
			if oa, ob := a.Observe(&row), b.Observe(&row); fmt.Sprint(oa) != fmt.Sprint(ob) {
				t.Fatalf("minute %d: on_minute %v, %v", m, oa, ob)
			}
		}
	})
	if calls == 0 || fast < calls/4 {
		t.Fatalf("the fast path answered %d of %d calls: the test proves little", fast, calls)
	}
	t.Logf("the fast path answered %d of %d calls", fast, calls)
}

// The built-in surges run on the fast path: the same trace and the same
// steps as on gopher-lua, minute after minute.
func TestBuiltinSurgesOnTheFastPath(t *testing.T) {
	for _, name := range []string{"surge", "thundering-herd"} {
		p, err := Builtin(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint32(1); seed <= 5; seed++ {
			run := func(fast bool) (string, int64, int, int) {
				sc, setup, err := p.Instance(nil, seed)
				if err != nil {
					t.Fatal(err)
				}
				r := sc.(*run)
				if r.fast == nil {
					t.Fatalf("%s: surge is outside the fast path's subset", name)
				}
				if !fast {
					r.fast = nil
				}
				sim, err := engine.New(engine.Options{Setup: setup, Scenario: sc, Seed: seed, Noise: true})
				if err != nil {
					t.Fatal(err)
				}
				if err := sim.Run(0); err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				if err := engine.Instructor.WriteCSV(&b, sim.Rows()); err != nil {
					t.Fatal(err)
				}
				hits := 0
				if r.fast != nil {
					hits = r.fast.hits
				}
				return b.String(), r.m.bud.Steps(), hits, len(sim.Rows())
			}
			fastTrace, fastSteps, hits, minutes := run(true)
			slowTrace, slowSteps, _, _ := run(false)
			if fastTrace != slowTrace || fastSteps != slowSteps {
				t.Fatalf("%s seed %d: the fast path's trace differs (%d steps, gopher-lua %d)", name, seed, fastSteps, slowSteps)
			}
			if hits < minutes*9/10 { // the others met the end of a lap
				t.Fatalf("%s seed %d: the fast path answered %d of %d minutes", name, seed, hits, minutes)
			}
		}
	}
}

// fastCall leaves a meter as a call of n instructions through Done does,
// for any state of the meter and any n below fastLimit.
func TestFastCallChargesAsDone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spent := rapid.Int64Range(0, 5000).Draw(t, "spent")
		memLeft := rapid.IntRange(1, memCheckMax).Draw(t, "memLeft")
		pending := rapid.IntRange(0, budget.CheckEvery-1).Draw(t, "pending")
		lapLeft := rapid.Float64Range(0, 1).Draw(t, "share of the lap left")
		meters := [2]*meter{}
		for i := range meters {
			bud := budget.New(budget.Limits{Steps: 6000})
			bud.Charge(budget.Scenario, spent)
			m := newMeter(nil, bud, nil)
			m.memLeft, m.pending = memLeft, pending
			m.newLap()
			m.left = max(1, int(lapLeft*float64(m.lap)))
			meters[i] = m
		}
		fast, done := meters[0], meters[1]
		limit := fast.fastLimit()
		if limit <= 1 {
			return
		}
		n := rapid.IntRange(1, limit-1).Draw(t, "n")
		fast.fastCall(n)
		done.enter()
		for range n {
			done.Done()
		}
		done.leave(false)
		if fast.left != done.left || fast.lap != done.lap || fast.pending != done.pending || fast.memLeft != done.memLeft ||
			fast.bud.Steps() != done.bud.Steps() || fmt.Sprint(fast.bud.Err()) != fmt.Sprint(done.bud.Err()) {
			t.Fatalf("after %d instructions: fast %+v, Done %+v", n, *fast, *done)
		}
	})
}
