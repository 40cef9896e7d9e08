package engine

import (
	"errors"
	"fmt"
	"math"
)

// applyEvent carries out a scenario event at the start of minute r.Minute
// (step 1) and records it on the minute's timeline, quiet or not by its
// kind; a log line goes to the minute's logs instead, and a control the
// scenario sets is recorded as the action it is. Each kind has its own
// checks, in the function its case names, so that an unknown kind falls
// to the one default.
func (s *Sim) applyEvent(ev Event, r *Row) error {
	var err error
	switch ev.Kind {
	case EventDeploy:
		ev, err = s.deployEvent(ev, r.Minute)
	case EventFlush:
		ev, err = s.flushEvent(ev)
	case EventSetConstant, EventScale, EventRamp, EventDepName:
		err = s.constantEvent(ev, r.Minute)
	case EventLoseInstances:
		ev, err = s.loseEvent(ev)
	case EventSay:
		if ev.Text["en"] == "" {
			err = errors.New("say: a message needs an English text (en)")
		}
	case EventSetControl:
		return s.controlEvent(ev, r)
	case EventLog:
		return s.logEvent(ev)
	default:
		err = fmt.Errorf("unknown event %q", ev.Kind)
	}
	if err != nil {
		return err
	}
	ev.Quiet = quietKind(ev)
	r.Events = append(r.Events, ev)
	return nil
}

// deployEvent ships the build of a deploy at minute m, to its hold_at, and
// returns the event as the timeline records it: the build's name, its
// rollout and what it does.
func (s *Sim) deployEvent(ev Event, m int) (Event, error) {
	b, rollout, err := s.shipped(ev)
	if err != nil {
		return ev, err
	}
	hold := ev.HoldAt
	if hold == 0 {
		hold = 1
	} else if !(hold > 0 && hold <= 1) {
		return ev, fmt.Errorf("deploy: hold_at = %s is out of range: it takes a share of traffic above 0, up to 1", fmtNum(ev.HoldAt))
	}
	s.builds.deploy(b, m, rollout, hold)
	ev.Name, ev.Value, ev.Build = b.Name, rollout, b
	return ev, nil
}

// shipped reads the build a deploy event ships and its rollout. An event
// that names a build without its properties (a message alone, at most)
// ships the model's bad build for "bad" (BadBuild) and a build that changes
// nothing for any other name; a rollout of 0 is one minute.
func (s *Sim) shipped(ev Event) (Build, float64, error) {
	b := ev.Build
	switch {
	case b.Name == "" && ev.Name == "bad":
		msg := b.Message // the model's bad build, with a line of its own if given
		b = BadBuild(&s.c)
		b.Message = msg
	case b.Name == "":
		b = Build{Name: ev.Name, Message: b.Message}
	}
	if err := b.Check(); err != nil {
		return Build{}, 0, fmt.Errorf("deploy: %w", err)
	}
	rollout := ev.Value
	if rollout == 0 {
		rollout = 1
	}
	if !(rollout >= 1) || math.IsInf(rollout, 0) {
		return Build{}, 0, fmt.Errorf("deploy: rollout = %s is out of range: it takes 1 minute or more", fmtNum(ev.Value))
	}
	return b, rollout, nil
}

// constantEvent sets, scales or ramps a constant, or renames the
// dependency, from minute m; a constant set or scaled is checked against
// the floor of the fleet at once (a ramp, where each step takes effect).
func (s *Sim) constantEvent(ev Event, m int) error {
	var err error
	switch ev.Kind {
	case EventSetConstant:
		err = s.setConstant(ev.Name, ev.Value)
	case EventScale:
		err = s.scale(ev.Name, ev.Value)
	case EventRamp:
		return s.ramp(ev.Name, ev.Value, ev.Over, m)
	default: // EventDepName
		if err := s.c.SetDepName(ev.Name); err != nil {
			return err
		}
		s.set.DepName = ev.Name
		return nil
	}
	if err != nil {
		return err
	}
	return s.checkCeiling()
}

// controlEvent is a control someone else sets, or an action someone else
// presses: checked as a decision and carried out at once, recorded as an
// action by the scenario (or by whom the event names).
func (s *Sim) controlEvent(ev Event, r *Row) error {
	ctl, err := LookupControl(ev.Name)
	if err != nil {
		return err
	}
	a := Action{Control: ctl, Value: ev.Value, By: ev.By}
	if a.By == "" {
		a.By = "scenario"
	}
	if err := a.Check(); err != nil {
		return err
	}
	return s.apply(a, r)
}

// logEvent adds a scenario's own line to the minute's logs, after the
// engine's; it is no event of the timeline.
func (s *Sim) logEvent(ev Event) error {
	if err := CheckLog(ev.Log); err != nil {
		return err
	}
	ev.Log.Cause, ev.Log.Name, ev.Log.TimeoutMS = "", "", 0
	s.logs = append(s.logs, ev.Log)
	return nil
}
