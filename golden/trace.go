package golden

import (
	"bytes"
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/shift"
)

// Policies of the golden traces: no automation, and the scenario's
// reference policy.
const (
	PolicyNone      = "none"
	PolicyReference = "reference"
)

// TraceSeeds are the seeds every built-in scenario has golden traces for.
var traceSeeds = []uint32{1, 2, 3}

// TraceSeeds returns the seeds of the golden traces.
func TraceSeeds() []uint32 { return append([]uint32(nil), traceSeeds...) }

// MaxTraceMinutes caps the minutes of a golden trace, so that a whole day of
// free play (1,440 rows, some 270 KB a file) does not bloat the repository;
// its first six hours (the morning climb and the noon peak) pin every
// relation just as well. Every other built-in scenario fits whole.
const MaxTraceMinutes = 360

// Case names one golden trace: a scenario, a seed and a policy.
type Case struct {
	Scenario string
	Seed     uint32
	Policy   string // PolicyNone or PolicyReference
}

// Label names the case in messages: "bad-deploy, seed 2, policy reference".
func (c Case) Label() string {
	return fmt.Sprintf("%s, seed %d, policy %s", c.Scenario, c.Seed, c.Policy)
}

// Name is the case's golden file name without extension, under testdata:
// traces/<scenario>/seed<N>-<policy>.
func (c Case) Name() string {
	return fmt.Sprintf("traces/%s/seed%d-%s", c.Scenario, c.Seed, c.Policy)
}

// Recording is one golden run as its files hold it.
type Recording struct {
	Trace   []byte // the instructor's trace of every minute, as engine.Instructor.WriteCSV writes it
	Outcome []byte // OutcomeText of the run
}

// Record runs a shift, capped at MaxTraceMinutes, and writes its trace and
// outcome. A run that stops on an error is an error: goldens hold only
// complete runs.
func Record(sh shift.Shift) (Recording, error) {
	adjust := sh.Adjust
	sh.Adjust = func(s *engine.Setup) error {
		s.Minutes = min(s.Minutes, MaxTraceMinutes)
		if adjust != nil {
			return adjust(s)
		}
		return nil
	}
	sim, err := sh.Run(context.Background())
	if err != nil {
		return Recording{}, err
	}
	var trace bytes.Buffer
	// A golden pins everything the scenario did, its quiet events too.
	if err := engine.Instructor.WriteCSV(&trace, sim.Rows()); err != nil {
		return Recording{}, err
	}
	return Recording{Trace: trace.Bytes(), Outcome: OutcomeText(sim.Outcome())}, nil
}

// OutcomeText writes an outcome as aligned "name value unit" lines, each
// figure at its fixed precision, in canonical order.
func OutcomeText(o engine.Outcome) []byte {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, s := range engine.OutcomeSpecs() {
		unit := s.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, engine.FormatFixed(s.Get(&o), s.Decimals), unit)
	}
	for _, f := range o.Scenario { // the scenario's own figures, by outcome{}
		fmt.Fprintf(tw, "%s\t%s\t-\n", f.Name, engine.FormatFixed(f.Value, 6))
	}
	tw.Flush()
	return b.Bytes()
}
