package scenario

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl/scenario/table"
)

// A scenario is declared once. Every run reads its scenario{...} again,
// since a declaration may draw from the scenario stream (budget_left =
// rng.uniform(...)) and differ from seed to seed; but reading it (its
// texts in six languages, its checks) was half of what loading a run
// cost, and most declarations are the same on every seed. Reading is a
// function of the table's contents alone, read raw, and of the line of the
// call (where its problems point): so a run whose scenario{} is called on
// the same line with a table equal to the one seed 0 passed, value for
// value, gets seed 0's declaration as it was read, without reading again.
// A table that differs in anything, or holds what cannot be compared (a
// function), is read as before.

// declared is seed 0's declaration and the table it was read from.
type declared struct {
	line   int
	frozen *table.Frozen
	decl   declaration // its pos, setup, title, briefing and page; no problems
}

// keep records what the run declared, to be reused by later runs (see
// declared): only a declaration read without problems, from a table that
// can be kept.
func (r *run) keep(line int, t *lua.LTable, d *declaration) {
	if len(d.diags) > 0 {
		return
	}
	if f := table.Freeze(t); f != nil {
		r.declared = &declared{line: line, frozen: f, decl: declaration{pos: d.pos, setup: d.setup, title: d.title, briefing: d.briefing, pageSrc: d.pageSrc, labels: d.labels, reference: d.reference}}
	}
}

// reuse returns seed 0's declaration for a run that calls scenario{} on
// line with a table equal to seed 0's, or nil. What later calls add to a
// declaration (at(), grade{}, outcome{}) is the run's own.
func (p *Program) reuse(line int, t *lua.LTable) *declaration {
	k := p.declared
	if k == nil || k.line != line || !k.frozen.Same(t) {
		return nil
	}
	return k.copy()
}

// copy returns seed 0's declaration for a run of its own.
func (k *declared) copy() *declaration {
	d := k.decl // it holds no at() of seed 0's: atPos is nil
	return &d
}
