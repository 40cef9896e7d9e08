package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// A scenario may name its reference policy (scenario{ reference = ... }):
// a file beside it, or rules written in it. golden record and grade then
// take it when no policy is given on the command line, and check checks
// it with the scenario.

// namedReference returns the reference policy the scenario read from file
// names, and whether it names one. A file of rules is read beside the
// scenario and pinned by its own SHA-256; rules written in the scenario
// are pinned by the scenario's, whose file they are. A policy that does
// not load, or names switches the scenario lacks, is an error showing
// every problem.
func namedReference(env *Env, file string, p *scenario.Program) (grade.Policy, bool, error) {
	ref := p.Reference()
	if !ref.Named() {
		return grade.Policy{}, false, nil
	}
	name, src, pinned, err := referenceSource(env, file, p)
	if err != nil {
		return grade.Policy{}, true, usageError("%s: scenario{}: cannot read the reference policy it names: %v", ref.Pos, err)
	}
	pol, err := policy.Compile(name, src)
	if err == nil {
		err = pol.CheckSwitches(switchIDs(p))
	}
	if err != nil {
		return grade.Policy{}, true, usageError("scenario %s: its reference policy %s does not load:\n%s", file, name, renderErr(err))
	}
	return grade.Policy{Program: pol, Name: name, SHA256: grade.SHA256(pinned)}, true, nil
}

// referenceSource reads the reference a scenario names: the policy's name
// and text, and the bytes that pin it (the file's, or the scenario's for
// rules written in it); the error is the file's, which could not be read.
func referenceSource(env *Env, file string, p *scenario.Program) (name string, src, pinned []byte, err error) {
	ref := p.Reference()
	if ref.Rules != "" {
		return file, ref.Source(), []byte(p.Source()), nil
	}
	name = filepath.Join(filepath.Dir(file), filepath.FromSlash(ref.File))
	src, err = env.ReadFile(name)
	if err != nil {
		return name, nil, nil, err
	}
	return name, src, src, nil
}

// checkReference checks the reference policy a scenario file names, for
// oncall check: that it is there, loads, and names only the scenario's
// switches. A scenario that does not load has said so already.
func checkReference(env *Env, file string, src []byte, limits budget.Limits) dsl.List {
	p, err := scenario.Compile(file, src, scenario.Options{Limits: limits})
	if err != nil || !p.Reference().Named() {
		return nil
	}
	name, text, _, err := referenceSource(env, file, p)
	if err != nil {
		ref := p.Reference()
		return dsl.List{{Pos: ref.Pos, Context: "scenario{}", Message: fmt.Sprintf("cannot read the reference policy it names: %v", err), Snippet: dsl.LineOf(p.Source(), ref.Pos.Line), Kind: scenario.KindDeclaration}}
	}
	pol, list := policy.CompileLoaded(name, text)
	if pol != nil {
		if err := pol.CheckSwitches(switchIDs(p)); err != nil {
			l, _ := err.(dsl.List)
			list = append(list, l...)
		}
	}
	return list
}

// recordNamed records, on the public seeds, the references of a scenario
// file that names its reference policy and that the references given do
// not hold, and adds them to refs: grade -s my-drill.lua then works with
// the file alone. A scenario that names none is refs.Lookup's error.
func (c *GradeCmd) recordNamed(env *Env, refs *grade.ReferenceFile, name string, p *scenario.Program) (*grade.Reference, error) {
	pol, ok, err := namedReference(env, name, p)
	if !isScenarioPath(name) || !ok {
		return refs.Lookup(p.ID())
	}
	if err != nil {
		return nil, err
	}
	seeds, err := shift.ParseSeeds(golden.PublicSeeds)
	if err != nil {
		return nil, err
	}
	model, err := env.model()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stderr, "oncall: %s: recording its references with %s on seeds %s\n", name, pol.Name, golden.PublicSeeds)
	ref, err := grade.RecordReference(context.Background(), grade.RecordOptions{
		Scenario: grade.Graded(p), Policy: pol.Program, PolicyName: pol.Name, PolicySHA256: pol.SHA256, Noise: true, Model: model,
	}, seeds, batch.Options{Jobs: c.Jobs})
	if err != nil {
		return nil, err
	}
	refs.References = append(refs.References, ref)
	return &refs.References[len(refs.References)-1], nil
}
