package shift

import (
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Inject is a surprise fired at a run by hand, as a game day's facilitator
// fires one at a team: one of the injects the scenario declares, by its
// id, and the minute it takes effect, which is the number of minutes
// played when it was fired. Its effect is scenario events at step 1 of
// that minute, after those the scenario scheduled itself, so that a run
// replayed with the same injects at the same minutes is the same run.
type Inject struct {
	Minute int
	ID     string
}

// InjectDecl is an inject a scenario declares: its id and its title in
// the languages it has ("en" always).
type InjectDecl struct {
	ID    string
	Title engine.Text
}

// Injector is a scenario's instance that takes injects: Inject queues the
// effect of the inject id for the start of minute m. An id the scenario
// does not declare is an *UnknownInjectError.
type Injector interface {
	Inject(id string, m int) error
}

// Declares is a Source whose scenario declares injects, in the order it
// declares them.
type Declares interface {
	Injects() []InjectDecl
}

// InjectsOf returns the injects a scenario declares; none for a Source
// that declares none.
func InjectsOf(src Source) []InjectDecl {
	if d, ok := src.(Declares); ok {
		return d.Injects()
	}
	return nil
}

// UnknownInjectError is an inject the scenario does not declare: ID, and
// the ids it declares (none, for a scenario without injects).
type UnknownInjectError struct {
	ID    string
	Known []string
}

func (e *UnknownInjectError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("inject %q: the scenario declares no inject (inject{ id = ..., title = ..., effect = function(ctx) ... end })", clipText(e.ID, 40))
	}
	return fmt.Sprintf("inject %q: the scenario declares no such inject%s; it declares %s", clipText(e.ID, 40), spell.Suggest(e.ID, e.Known), strings.Join(e.Known, ", "))
}

// Fire queues an inject on a run for the start of its next minute, as
// Decide queues a decision. After the last minute, or once the run has
// stopped, there is none: ErrOver.
func Fire(sim *Sim, id string) error {
	if sim.Done() {
		return ErrOver
	}
	in, ok := sim.inst.(Injector)
	if !ok {
		return &UnknownInjectError{ID: id}
	}
	return in.Inject(id, sim.Minute())
}

// CheckInject checks that a scenario declares the inject id, before a run
// is built: the error is an *UnknownInjectError that lists those it does.
func CheckInject(src Source, id string) error {
	decls := InjectsOf(src)
	known := make([]string, len(decls))
	for i, d := range decls {
		if d.ID == id {
			return nil
		}
		known[i] = d.ID
	}
	return &UnknownInjectError{ID: id, Known: known}
}

// clipText shortens s to n runes for a message.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
