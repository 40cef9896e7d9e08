package fingerprint

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/shift"
)

// MaxMinutes cuts every probe run: the built-ins last two to three hours,
// free play a day whose first six hours pin every relation (as its golden
// traces do).
const MaxMinutes = 360

// probeSource is the package's own probe scenario.
//
//go:embed probe.lua
var probeSource []byte

// ProbeFile is the name the probe scenario is compiled under.
const ProbeFile = "fingerprint/probe.lua"

// Probe is one run of the fingerprint: its name, which says what it runs,
// and the shift it runs (cut at MaxMinutes when it runs).
type Probe struct {
	Name  string // "bad-deploy seed 1 reference"
	Shift shift.Shift
}

// The seeds of the probes.
var (
	builtinSeeds = []uint32{1, 2}
	probeSeeds   = []uint32{1, 2, 3}
)

// Probes returns the probe runs in the order the fingerprint hashes them.
func Probes() ([]Probe, error) {
	builtins, err := scenario.Builtins(scenario.Options{})
	if err != nil {
		return nil, fmt.Errorf("the built-in scenarios: %w", err)
	}
	presses, err := PressEveryControl()
	if err != nil {
		return nil, err
	}
	var out []Probe
	add := func(p *scenario.Program, seeds []uint32, name string, pol shift.Policy) {
		for _, seed := range seeds {
			out = append(out, Probe{
				Name:  fmt.Sprintf("%s seed %d %s", p.ID(), seed, name),
				Shift: shift.Shift{Scenario: p, Seed: seed, Noise: true, Policy: pol},
			})
		}
	}
	for _, p := range builtins {
		add(p, builtinSeeds, "none", nil)
		ref, err := grade.ReferencePolicy(p.ID())
		if err != nil {
			return nil, err
		}
		add(p, builtinSeeds, "reference", ref.Program)
		add(p, builtinSeeds, "presses", presses)
	}
	probe, err := scenario.Compile(ProbeFile, probeSource, scenario.Options{})
	if err != nil {
		return nil, fmt.Errorf("the probe scenario: %w", err)
	}
	add(probe, probeSeeds, "none", nil)
	add(probe, probeSeeds, "presses", presses)
	return out, nil
}

// PressEveryControl compiles PressEveryControlRules.
func PressEveryControl() (*policy.Program, error) {
	p, err := policy.Compile("fingerprint: every control", []byte(PressEveryControlRules()))
	if err != nil {
		return nil, fmt.Errorf("the policy that presses every control does not load: %w", err)
	}
	return p, nil
}

// PressEveryControlRules writes the probes' policy from the engine's table
// of controls, so that a control added to the table is pressed too: the
// k-th control is set off its default at minute 3 + 3k (an action is
// pressed then) and set back at minute 45 + 3k; from minute 80, a rule
// whose condition and argument read every helper sets the autoscaler's
// target every seven minutes, so that what the helpers give moves the
// figures.
func PressEveryControlRules() string {
	var b strings.Builder
	for k, a := range policy.Actions() {
		s := a.Control.Spec()
		at, back := 3+3*k, 45+3*k
		if a.NoArg {
			fmt.Fprintf(&b, "rule \"press %s\"\n  when minute == %d\n  do   %s()\n\n", s.Name, at, a.Name)
			continue
		}
		fmt.Fprintf(&b, "rule \"press %s\"\n  when minute == %d\n  do   %s(%s)\n\n", s.Name, at, a.Name, pressed(s))
		fmt.Fprintf(&b, "rule \"restore %s\"\n  when minute == %d\n  do   %s(%s)\n\n", s.Name, back, a.Name, value(s, s.Default))
	}
	b.WriteString(`rule "read the helpers"
  when minute >= 80 && minute % 7 == 0 && (rising("requests", 5) || falling("requests", 5) || since("read the helpers") > 20) && log_count("7.1.0") + log_count("ERROR") >= 0 && errors_by("dependency") + errors_by("build") + errors_by("timeout") + errors_by("overload") + errors_by("database") + errors_by("breaker") >= 0
  do   set_target(0.5 + min(0.3, mean_over("utilization", 10) / 4 + (max_over("p99_ms", 15) - min_over("p99_ms", 15)) / 10000 + ago("error_rate", 5)))
`)
	return b.String()
}

// pressed is a value of the control off its default: a bool turned over,
// a whole number 2 above (10 → 12 instances, within every built-in's
// ceiling), a share or a time a quarter of the way to its maximum.
func pressed(s engine.ControlSpec) string {
	switch s.Kind {
	case engine.KindBool:
		return value(s, 1-s.Default)
	case engine.KindInt:
		return value(s, min(s.Max, s.Default+2))
	}
	return value(s, s.Default+(s.Max-s.Default)/4)
}

// value writes a control's value as a rule's argument.
func value(s engine.ControlSpec, v float64) string {
	switch s.Kind {
	case engine.KindBool:
		return strconv.FormatBool(v != 0)
	case engine.KindInt:
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
