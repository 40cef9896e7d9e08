package modelpage

import (
	"slices"

	"github.com/oncall-sim/oncall/engine"
)

// step is a value in force from a minute of the day on.
type step struct {
	clock int // minute of the day
	v     float64
}

// series is a value over one run: its starting value, then each change.
type series []step

// add appends v from clock on, unless it is the value already in force.
func (s series) add(clock int, v float64) series {
	if len(s) > 0 && s[len(s)-1].v == v {
		return s
	}
	return append(s, step{clock, v})
}

func (s series) equal(t series) bool { return slices.Equal(s, t) }

// figure is one number the page prints for a scenario: its default, its
// series in every sampled run, and in the chosen seed's run if any.
type figure struct {
	def    float64
	all    []series
	chosen series // nil without a chosen seed
	noMark bool   // a figure without a default, never marked
}

// changed reports whether the value shown differs from the default
// anywhere: over the chosen run, or over every sampled run.
func (f figure) changed() bool {
	if f.noMark {
		return false
	}
	runs := f.all
	if f.chosen != nil {
		runs = []series{f.chosen}
	}
	for _, s := range runs {
		for _, st := range s {
			if st.v != f.def {
				return true
			}
		}
	}
	return false
}

// zero reports whether the value shown is 0 throughout: over the chosen
// run, or over every sampled run.
func (f figure) zero() bool {
	runs := f.all
	if f.chosen != nil {
		runs = []series{f.chosen}
	}
	for _, s := range runs {
		for _, st := range s {
			if st.v != 0 {
				return false
			}
		}
	}
	return true
}

// varies reports whether the sampled runs differ.
func (f figure) varies() bool {
	for _, s := range f.all[1:] {
		if !s.equal(f.all[0]) {
			return true
		}
	}
	return false
}

// bounds returns the least and greatest value over every sampled run.
func (f figure) bounds() (lo, hi float64) {
	lo, hi = f.all[0][0].v, f.all[0][0].v
	for _, s := range f.all {
		for _, st := range s {
			lo, hi = min(lo, st.v), max(hi, st.v)
		}
	}
	return lo, hi
}

// render writes the figure with one(v) for each number: the series of the
// chosen run ("0.05 → 0.15 (09:10)"), followed by the sampled range when
// it varies and withRange is set; without a chosen seed, the series the
// runs share, or their range. A changed figure ends with *.
func (f figure) render(one func(float64) string, withRange bool) string {
	var s string
	switch {
	case f.chosen != nil:
		s = renderSeries(f.chosen, one)
		if withRange && f.varies() {
			lo, hi := f.bounds()
			s += " (" + one(lo) + "–" + one(hi) + ")"
		}
	case f.varies():
		lo, hi := f.bounds()
		s = one(lo) + "–" + one(hi)
	default:
		s = renderSeries(f.all[0], one)
	}
	if f.changed() {
		s += "*"
	}
	return s
}

func renderSeries(s series, one func(float64) string) string {
	out := one(s[0].v)
	for _, st := range s[1:] {
		out += " → " + one(st.v) + " (" + engine.ClockString(st.clock) + ")"
	}
	return out
}

// figureOf is the figure whose series in a run is of(run), def its
// default.
func (d *Draws) figureOf(def float64, of func(*run) series, chosen *run) figure {
	f := figure{def: def}
	for i := range d.runs {
		f.all = append(f.all, of(&d.runs[i]))
	}
	if chosen != nil {
		f.chosen = of(chosen)
	}
	return f
}

// quantityFigure is the figure of a quantity (a constant or a figure the
// constants determine) over the runs.
func (d *Draws) quantityFigure(q engine.Quantity, chosen *run) figure {
	def := engine.DefaultConstants()
	return d.figureOf(q.Value(&def), func(r *run) series {
		var s series
		for _, snap := range r.consts {
			s = s.add(r.setup.Start+snap.minute, q.Value(&snap.c))
		}
		return s
	}, chosen)
}

// controlFigure is the figure of a control's value over the runs.
func (d *Draws) controlFigure(c engine.Control, chosen *run) figure {
	def := engine.DefaultControls()
	return d.figureOf(def.Get(c), func(r *run) series {
		var s series
		for _, snap := range r.ctls {
			s = s.add(r.setup.Start+snap.minute, snap.c.Get(c))
		}
		return s
	}, chosen)
}

// setupFigure is the figure of one number of the setup, def its default.
func (d *Draws) setupFigure(def float64, get func(engine.Setup) float64, chosen *run) figure {
	return d.figureOf(def, func(r *run) series { return series{{r.setup.Start, get(r.setup)}} }, chosen)
}
