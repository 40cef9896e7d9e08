package grade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/shift"
)

// ReferenceFormat names the format of a reference file; a file of another
// format is refused rather than misread. Format 2 added what a reference
// pins (the scenario's and the policy's SHA-256, the model version, the
// criteria) and no policy's outcome on every seed, which partial credit
// measures from; format 3 pins the model by its fingerprint (Model), not
// by a number raised by hand. A file of format 2 still reads, as
// references of a model that is no longer (Reference.Stale).
const ReferenceFormat = "oncall-reference/3"

// referenceFormat2 is the format whose model is a version number.
const referenceFormat2 = "oncall-reference/2"

// ReferenceFile holds the reference outcomes of one or more scenarios.
type ReferenceFile struct {
	Format     string      `json:"format"`
	References []Reference `json:"references"`
}

// Reference is the outcome of one scenario's reference policy over a seed
// set, and no policy's on the same seeds, one run a seed, each outcome at
// full precision; with what it was recorded from, so that grading can
// refuse a scenario, criteria or model that changed since.
type Reference struct {
	Scenario       string            `json:"scenario"`        // scenario id
	Source         string            `json:"source"`          // the scenario's file, as it was compiled
	ScenarioSHA256 string            `json:"scenario_sha256"` // of the scenario's source; "" for a scenario written in Go
	Policy         string            `json:"policy"`          // where the reference policy came from
	PolicySHA256   string            `json:"policy_sha256"`   // of the policy's source; "" for a policy written in Go
	Model          Model             `json:"model"`           // the model it was recorded under
	Criteria       []PinnedCriterion `json:"criteria"`        // the scenario's grading criteria, in order
	Seeds          string            `json:"seeds"`           // the seed set, as shift.FormatSeeds writes it
	Noise          bool              `json:"noise"`
	Runs           []ReferenceRun    `json:"runs"`
}

// ReferenceRun holds the outcomes of one seed: the reference policy's, and
// no policy's (from which a criterion's partial credit is measured).
type ReferenceRun struct {
	Seed    uint32         `json:"seed"`
	Outcome engine.Outcome `json:"outcome"`
	None    engine.Outcome `json:"none"`
}

// SeedList returns the seeds of the reference's runs, in order.
func (r *Reference) SeedList() []uint32 {
	s := make([]uint32, len(r.Runs))
	for i, run := range r.Runs {
		s[i] = run.Seed
	}
	return s
}

// RecordOptions say what a reference is recorded from: the scenario (its
// source, hash and criteria), its reference policy with its name and the
// hash of its source, and the noise setting.
type RecordOptions struct {
	Scenario     Scenario
	Policy       shift.Policy
	PolicyName   string
	PolicySHA256 string // "" for a policy written in Go
	Noise        bool
	Limits       budget.Limits // bound the code of each run (zero fields: budget's defaults)
	// Model is the model of the oncall that records (package
	// fingerprint's Current), which the reference is stamped with.
	Model Model
}

// RecordReference runs the reference policy and no policy over seeds and
// returns their outcomes with what they pin. Every run of the reference
// policy must finish: a reference with a failed run would grade nobody
// fairly.
func RecordReference(ctx context.Context, rec RecordOptions, seeds []uint32, o batch.Options) (Reference, error) {
	sc := rec.Scenario
	sh := shift.Shift{Scenario: sc.Source, Noise: rec.Noise, Policy: rec.Policy, Limits: rec.Limits}
	progress := o.Progress
	if progress != nil {
		o.Progress = func(done, total int) { progress(done, 2*total) }
	}
	results, err := batch.Many(ctx, sh, seeds, o)
	if err != nil {
		return Reference{}, err
	}
	if err := batch.FirstError(results); err != nil {
		return Reference{}, fmt.Errorf("%s: the reference policy %s failed: %w", sc.ID, rec.PolicyName, err)
	}
	if progress != nil {
		o.Progress = func(done, total int) { progress(total+done, 2*total) }
	}
	sh.Policy = nil
	none, err := batch.Many(ctx, sh, seeds, o)
	if err != nil {
		return Reference{}, err
	}
	if err := batch.FirstError(none); err != nil {
		return Reference{}, fmt.Errorf("%s: the scenario failed with no policy: %w", sc.ID, err)
	}
	ref := Reference{
		Scenario: sc.ID, Source: sc.File, ScenarioSHA256: sc.SHA256,
		Policy: rec.PolicyName, PolicySHA256: rec.PolicySHA256,
		Model: rec.Model, Criteria: pin(sc.Criteria),
		Seeds: shift.FormatSeeds(seeds), Noise: rec.Noise,
	}
	for i, r := range results {
		ref.Runs = append(ref.Runs, ReferenceRun{Seed: r.Seed, Outcome: r.Outcome, None: none[i].Outcome})
	}
	return ref, nil
}

// Write writes the file as indented JSON, the format set.
func (f *ReferenceFile) Write(w io.Writer) error {
	out := *f
	out.Format = ReferenceFormat
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// jsonError places a JSON error at its line and column where it can.
func jsonError(data []byte, err error) string {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	switch {
	case errors.Is(err, io.EOF):
		return "the file is empty: give a file recorded by `oncall golden record`"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the file ends in the middle of its JSON: record it again with `oncall golden record`"
	case off < 0 || off > int64(len(data)):
		return err.Error() + " (give a file recorded by `oncall golden record`)"
	}
	line, col := lineCol(data, off)
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

// Check checks what a reference file holds, as ReadReferences checks it
// while it reads one: its format, one reference a scenario, its runs,
// pins and seed set.
func (f *ReferenceFile) Check() error {
	if err := checkFormat(f.Format); err != nil {
		return err
	}
	if len(f.References) == 0 {
		return errors.New("references: the file holds no reference")
	}
	seen := make(map[string]bool)
	for i := range f.References {
		r := &f.References[i]
		if seen[r.Scenario] {
			return fmt.Errorf("references[%d] (%s): scenario %s appears twice; keep one reference per scenario", i, r.Scenario, r.Scenario)
		}
		seen[r.Scenario] = true
		seeds := make(map[uint32]bool)
		for j := range r.Runs {
			if err := checkRun(fmt.Sprintf("references[%d] (%s)", i, r.Scenario), j, &r.Runs[j], seeds); err != nil {
				return err
			}
		}
		if err := checkReference(i, r); err != nil {
			return err
		}
		if err := checkModel(f.Format, r.Model); err != nil {
			return fmt.Errorf("references[%d] (%s).%w", i, r.Scenario, err)
		}
	}
	return nil
}

// checkFormat checks a file's format: this one, or format 2, whose
// references read as those of a model that is no longer (Reference.Stale).
func checkFormat(format string) error {
	if format == "oncall-reference/1" {
		return fmt.Errorf("format %q was recorded by an older oncall, without what a reference pins (the scenario's and the policy's SHA-256, the model version, the criteria) nor no policy's outcomes, which partial credit needs: record the file again with `oncall golden record`", format)
	}
	if format != ReferenceFormat && format != referenceFormat2 {
		return fmt.Errorf("format %q: this oncall reads %q (record the file again with `oncall golden record`)", format, ReferenceFormat)
	}
	return nil
}

// checkModel checks a reference's model against the file's format: a
// fingerprint in format 3, a version number in format 2.
func checkModel(format string, m Model) error {
	if format == referenceFormat2 {
		if m.Version < 1 {
			return fmt.Errorf("model: format %s numbers the model, 1 or more", referenceFormat2)
		}
		return nil
	}
	if m.Version > 0 {
		return fmt.Errorf("model = %d: format %s stamps the model's fingerprint, {\"name\": ..., \"fingerprint\": ...}", m.Version, ReferenceFormat)
	}
	return m.check()
}

// checkReference checks what needs a reference's every field, once its
// runs are checked one by one (checkRun): its scenario, runs, criteria,
// hashes and seed set.
func checkReference(i int, r *Reference) error {
	at := fmt.Sprintf("references[%d] (%s)", i, r.Scenario)
	if r.Scenario == "" {
		return fmt.Errorf("references[%d].scenario: missing", i)
	}
	if len(r.Runs) == 0 {
		return fmt.Errorf("%s.runs: no runs", at)
	}
	if len(r.Criteria) == 0 {
		return fmt.Errorf("%s.criteria: none; a reference pins the criteria it was recorded for", at)
	}
	for _, h := range []struct{ name, v string }{{"scenario_sha256", r.ScenarioSHA256}, {"policy_sha256", r.PolicySHA256}} {
		if !isSHA256(h.v) {
			return fmt.Errorf("%s.%s = %q: it takes 64 hexadecimal digits, or \"\" for a scenario or policy written in Go", at, h.name, clipText(h.v))
		}
	}
	if got := shift.FormatSeeds(r.SeedList()); r.Seeds != got {
		return fmt.Errorf("%s.seeds = %q but the runs hold seeds %s", at, clipText(r.Seeds), clipText(got))
	}
	return nil
}

// checkRun checks run j of the reference at: its seed not seen before, a
// minute or more, no policy's run as long as the reference's, and every
// figure of both within what the engine can produce (checkOutcome).
func checkRun(at string, j int, run *ReferenceRun, seeds map[uint32]bool) error {
	if seeds[run.Seed] {
		return fmt.Errorf("%s.runs[%d]: seed %d appears twice", at, j, run.Seed)
	}
	seeds[run.Seed] = true
	if run.Outcome.Minutes < 1 {
		return fmt.Errorf("%s.runs[%d] (seed %d).outcome.minutes = %d: a reference run lasts at least a minute", at, j, run.Seed, run.Outcome.Minutes)
	}
	if run.None.Minutes != run.Outcome.Minutes {
		return fmt.Errorf("%s.runs[%d] (seed %d).none.minutes = %d but the reference run lasts %d: no policy's run is missing or cut", at, j, run.Seed, run.None.Minutes, run.Outcome.Minutes)
	}
	for _, side := range []struct {
		name string
		o    *engine.Outcome
	}{{"outcome", &run.Outcome}, {"none", &run.None}} {
		if err := checkOutcome(side.o); err != nil {
			return fmt.Errorf("%s.runs[%d] (seed %d).%s.%v", at, j, run.Seed, side.name, err)
		}
	}
	return nil
}

// Lookup finds the reference of a scenario; the error lists the scenarios
// the file holds and suggests the nearest.
func (f *ReferenceFile) Lookup(scenario string) (*Reference, error) {
	for i := range f.References {
		if f.References[i].Scenario == scenario {
			return &f.References[i], nil
		}
	}
	names := f.Scenarios()
	return nil, fmt.Errorf("no reference for scenario %q%s (the file holds: %s)", scenario, spell.Suggest(scenario, names), strings.Join(names, ", "))
}

// Scenarios lists the scenarios the file holds references for, in order.
func (f *ReferenceFile) Scenarios() []string {
	names := make([]string, len(f.References))
	for i, r := range f.References {
		names[i] = r.Scenario
	}
	return names
}
