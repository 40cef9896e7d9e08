package engine

import (
	"fmt"
	"math"
)

// A scenario changes a constant three ways: set gives it a value, scale
// multiplies the value set by a factor, and ramp moves the value set from
// the value in force to a target over some minutes. The value in force is
// the value set times the scale's factor, rounded for a whole-number
// constant. A later set, scale or ramp of the same constant ends a change
// under way: set replaces the value set, scale multiplies the value set as
// the ramp had brought it, ramp starts from the value in force. Scale with
// a factor of 1 ends a scale.

// change is a scale or a ramp under way of one constant.
type change struct {
	spec   ConstantSpec
	ramp   bool
	factor float64 // a scale's factor
	from   float64 // a ramp's value in force when it started
	to     float64 // where it ends
	start  int     // the minute it started
	over   float64 // its minutes
}

// changeOf returns the index of the change under way of the constant, or −1.
func (s *Sim) changeOf(name string) int {
	for i := range s.changes {
		if s.changes[i].spec.Name == name {
			return i
		}
	}
	return -1
}

// endChange ends the change under way of the constant, if any; the value
// set stays where it is.
func (s *Sim) endChange(name string) {
	if i := s.changeOf(name); i >= 0 {
		s.changes = append(s.changes[:i], s.changes[i+1:]...)
	}
}

// inForce stores v, rounded for a whole-number constant, as the value in
// force, after checking it against the constant's range.
func (s *Sim) inForce(spec ConstantSpec, v float64) error {
	if spec.Integer {
		v = math.Round(v)
	}
	if err := spec.Check(v); err != nil {
		return err
	}
	*spec.field(&s.c) = v
	return nil
}

// setConstant sets a constant: its value set and in force.
func (s *Sim) setConstant(name string, v float64) error {
	spec, err := LookupConstant(name)
	if err != nil {
		return err
	}
	if err := spec.Check(v); err != nil {
		return err
	}
	s.endChange(spec.Name)
	*spec.field(&s.set) = v
	*spec.field(&s.c) = v
	return nil
}

// scale multiplies the value set of a constant by factor from now on.
func (s *Sim) scale(name string, factor float64) error {
	spec, err := LookupConstant(name)
	if err != nil {
		return err
	}
	if !(factor >= 0) || math.IsInf(factor, 0) {
		return fmt.Errorf("scale: %s×%s: a factor is a finite number, 0 or more", name, PersonNum(factor))
	}
	s.endChange(spec.Name)
	set := spec.Get(&s.set)
	if err := s.inForce(spec, set*factor); err != nil {
		return fmt.Errorf("scale: %s×%s of %s: %w", name, PersonNum(factor), PersonNum(set), err)
	}
	if factor != 1 {
		s.changes = append(s.changes, change{spec: spec, factor: factor})
	}
	return nil
}

// ramp starts moving a constant from its value in force to `to` over
// `over` minutes, the first step at minute m.
func (s *Sim) ramp(name string, to, over float64, m int) error {
	spec, err := LookupConstant(name)
	if err != nil {
		return err
	}
	if err := spec.Check(to); err != nil {
		return fmt.Errorf("ramp: %w", err)
	}
	if !(over >= 1) || over != math.Trunc(over) || over > MaxMinutes {
		return fmt.Errorf("ramp: %s over %s minutes: it takes a whole number of minutes from 1 to %d", name, PersonNum(over), MaxMinutes)
	}
	from := spec.Get(&s.c)
	s.endChange(spec.Name)
	*spec.field(&s.set) = from
	s.changes = append(s.changes, change{spec: spec, ramp: true, from: from, to: to, start: m, over: over})
	return nil
}

// progress moves the ramps under way to their value of minute m; a ramp
// that reaches its target ends there.
func (s *Sim) progress(m int) error {
	kept := s.changes[:0]
	for _, ch := range s.changes {
		if !ch.ramp {
			kept = append(kept, ch)
			continue
		}
		f := math.Min(1, float64(m-ch.start+1)/ch.over)
		v := ch.from + (ch.to-ch.from)*f
		if f == 1 {
			v = ch.to
		} else {
			kept = append(kept, ch)
		}
		*ch.spec.field(&s.set) = v
		if err := s.inForce(ch.spec, v); err != nil {
			return fmt.Errorf("ramp of %s: %w", ch.spec.Name, err)
		}
	}
	s.changes = kept
	return nil
}
