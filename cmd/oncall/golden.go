package main

import (
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/batch"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/golden"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
)

// GoldenCmd holds the instructors' commands on reference outcomes.
type GoldenCmd struct {
	Record GoldenRecordCmd `cmd:"" help:"Record reference outcomes over seeds of your own."`
}

// Help shows examples under the subcommands.
func (GoldenCmd) Help() string {
	return `Examples:
  oncall golden record --seeds 100-130 -o hidden.json      every graded built-in scenario
  oncall grade --policy student.rules --reference hidden.json`
}

// GoldenRecordCmd records reference outcomes.
type GoldenRecordCmd struct {
	Scenario []string `short:"s" help:"A scenario to record, built-in name or .lua file, with its reference policy after = (NAME=FILE.rules) if not its built-in one; repeatable: one file for an assignment (default: every built-in scenario with grading criteria)." placeholder:"NAME[=POLICY]"`
	Policy   string   `short:"p" help:"The reference policy file (default: the scenario's built-in reference policy; builtin:NAME names a policy oncall ships); only with one --scenario." placeholder:"FILE"`
	Seeds    string   `required:"" help:"Seeds to record: 100-130, 1,5,9 or 1-10,20-30." placeholder:"SET"`
	Output   string   `short:"o" required:"" help:"The reference file to write." placeholder:"FILE"`
	Jobs     int      `short:"j" help:"Runs at once (default: one per core)." placeholder:"N"`
	Noise    bool     `default:"true" negatable:"" help:"Traffic noise (grading runs with the setting recorded here)."`

	policies map[string]string // scenario id → the reference policy its -s names
}

// splitAssignment splits "-s NAME=POLICY.rules" (or NAME=builtin:POLICY)
// into the scenario and its reference policy; a name with no "=" before a
// .rules file or a built-in policy has no policy.
func splitAssignment(arg string) (name, policy string) {
	if i := strings.LastIndex(arg, "="); i > 0 && (strings.HasSuffix(arg, ".rules") || strings.HasPrefix(arg[i+1:], scripts.BuiltinPrefix)) {
		return arg[:i], arg[i+1:]
	}
	return arg, ""
}

// Help shows examples under the flags.
func (GoldenRecordCmd) Help() string {
	return `Runs each scenario's reference policy on every seed and writes the outcomes
to one file, to grade against with oncall grade --reference FILE. Keep a
hidden seed set out of the students' reach, so that nobody tunes a policy to
the public seeds (` + golden.PublicSeeds + `). Record again whenever a scenario or a
reference policy changes.

Examples:
  oncall golden record --seeds 100-130 -o hidden.json
  oncall golden record -s bad-deploy -s surge --seeds 500-599 -o week3.json
  oncall golden record -s my-incident.lua -p my-incident.rules --seeds 1-50 -o mine.json
  oncall golden record -s a.lua=a.rules -s b.lua=b.rules -s surge --seeds 1-50 -o week3.json

An assignment of several scenarios is one file: name each scenario with -s,
and its reference policy after = when it is not the scenario's built-in one
(a policy oncall ships as builtin:NAME, from any folder). The file is stamped
with the model's fingerprint; oncall grade refuses it once the model moves a
figure, and prints the command that records it again.
The file pins each reference policy's SHA-256; oncall grade refuses the
references once that policy's file, at the path recorded, has changed.
  oncall grade --policy student.rules --reference hidden.json`
}

// Run implements the subcommand.
//
// It branches on each flag that may be wrong (--seeds, --jobs, --policy with
// several scenarios), on the inputs to protect from -o, on each scenario's
// policy and recording (interrupted or failed), on writing the file, and on
// the warnings for criteria that do not vary: the steps of recording a
// reference file, each with its own message.
func (c *GoldenRecordCmd) Run(env *Env) error {
	seeds, err := shift.ParseSeeds(c.Seeds)
	if err != nil {
		return usageError("--seeds: %v", err)
	}
	if c.Jobs < 0 {
		return usageError("--jobs %d: it takes the number of runs at once, 1 or more (0 or absent: one per core)", c.Jobs)
	}
	if c.Policy != "" && len(c.Scenario) != 1 {
		return usageError("--policy %s: name the one scenario it answers with --scenario (for several, give each its policy: -s NAME=FILE.rules)", c.Policy)
	}
	c.policies = make(map[string]string)
	progs, err := c.scenarios(env)
	if err != nil {
		return err
	}
	if err := checkOutput(env, "-o", c.Output, c.inputs()...); err != nil {
		return err
	}
	model, err := env.model()
	if err != nil {
		return err
	}
	file := &grade.ReferenceFile{Format: grade.ReferenceFormat}
	ctx, stop := interruptible(env)
	defer stop()
	criteria := make(map[string][]grade.Criterion)
	for _, p := range progs {
		criteria[p.ID()] = p.Grading()
		pol, err := c.policy(env, p.ID())
		if err != nil {
			return err
		}
		bar := newProgress(env, 2*len(seeds))
		ref, err := grade.RecordReference(ctx, grade.RecordOptions{
			Scenario: grade.Graded(p), Policy: pol.Program, PolicyName: pol.Name, PolicySHA256: pol.SHA256, Noise: c.Noise, Model: model,
		}, seeds, batch.Options{Jobs: c.Jobs, Progress: bar.pass(0)})
		bar.done()
		if err != nil {
			if ctx.Err() != nil {
				return failure("interrupted: nothing written")
			}
			return failure("%v", err)
		}
		file.References = append(file.References, ref)
	}
	out, closeOut, err := env.output(c.Output)
	if err != nil {
		return err
	}
	err = file.Write(out)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return failure("-o %s: %v", c.Output, err)
	}
	for _, r := range file.References {
		fmt.Fprintf(env.Stderr, "oncall: %s: %d seeds (%s) with %s\n", r.Scenario, len(r.Runs), r.Seeds, r.Policy)
		for _, w := range r.Unvarying(criteria[r.Scenario]) {
			fmt.Fprintf(env.Stderr, "oncall: warning: %s\n", w)
		}
	}
	fmt.Fprintf(env.Stderr, "oncall: wrote %s; grade with oncall grade --policy FILE --reference %s\n", c.Output, c.Output)
	return nil
}

// inputs are the files the command reads, which -o may not overwrite: the
// policy, and the scenario and policy files --scenario names.
func (c *GoldenRecordCmd) inputs() []input {
	inputs := []input{{"--policy", c.Policy}}
	for _, arg := range c.Scenario {
		name, pol := splitAssignment(arg)
		if isScenarioPath(name) {
			inputs = append(inputs, input{"--scenario", name})
		}
		if pol != "" && !strings.HasPrefix(pol, scripts.BuiltinPrefix) {
			inputs = append(inputs, input{"--scenario", pol})
		}
	}
	return inputs
}

// scenarios resolves --scenario, or takes every built-in scenario that has
// grading criteria.
func (c *GoldenRecordCmd) scenarios(env *Env) ([]*scenario.Program, error) {
	if len(c.Scenario) == 0 {
		all, err := scenario.Builtins(scenario.Options{})
		if err != nil {
			return nil, failure("the built-in scenarios: %v", err)
		}
		var graded []*scenario.Program
		for _, p := range all {
			if len(p.Grading()) > 0 {
				graded = append(graded, p)
			}
		}
		return graded, nil
	}
	var progs []*scenario.Program
	seen := make(map[string]bool)
	for _, arg := range c.Scenario {
		name, pol := splitAssignment(arg)
		if pol != "" && c.Policy != "" {
			return nil, usageError("--scenario %s names its policy and --policy %s is given too: keep one", arg, c.Policy)
		}
		p, err := resolveScenario(env, name, budget.Limits{})
		if err != nil {
			return nil, err
		}
		if len(p.Grading()) == 0 {
			return nil, usageError("--scenario %s has no grading criteria (no grade { ... } block): there is nothing to grade against", name)
		}
		if seen[p.ID()] {
			return nil, usageError("--scenario %s: scenario %s is named twice", name, p.ID())
		}
		seen[p.ID()] = true
		if pol != "" {
			c.policies[p.ID()] = pol
		}
		progs = append(progs, p)
	}
	return progs, nil
}

// policy loads --policy, or the built-in reference policy of the scenario.
func (c *GoldenRecordCmd) policy(env *Env, id string) (grade.Policy, error) {
	file, flag := c.Policy, "--policy"
	if f, ok := c.policies[id]; ok {
		file, flag = f, "--scenario "+id+"="
	}
	if id, ok := strings.CutPrefix(file, scripts.BuiltinPrefix); ok {
		// A built-in scenario's reference policy, under the name a
		// reference records it by; an example as its file in the binary.
		if p, err := grade.ReferencePolicy(id); err == nil {
			return p, nil
		}
	}
	if file != "" {
		p, sha, err := readPolicySource(env, flag, file)
		if err != nil {
			return grade.Policy{}, err
		}
		return grade.Policy{Program: p, Name: file, SHA256: sha}, nil
	}
	p, err := grade.ReferencePolicy(id)
	if err != nil {
		return p, usageError("%v: give one with --policy FILE", err)
	}
	return p, nil
}
