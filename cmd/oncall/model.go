package main

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/modelpage"
	"github.com/oncall-sim/oncall/queuesim"
)

// ModelCmd prints the model page: every relation and its sources, the
// constants, the departures from the original model, the approximations;
// for a scenario, the values it puts in force.
type ModelCmd struct {
	Lang     string `help:"Language of the explanations: ${language_list}." default:"en" placeholder:"LANG"`
	Scenario string `help:"Fill the formulas and constants with the values in force for this scenario, a built-in name or a .lua file; values that differ from the defaults are marked *." placeholder:"NAME"`
	Seed     string `help:"With --scenario: the values this seed draws (without it, the range over seeds 1 to 200). With --validate: the seed of each cell's first simulated minute (default 1; the next minutes take the next seeds)." placeholder:"N"`
	Validate bool   `help:"Check the queue formulas (timeouts, failed, p99) and the dependency's wait and timeouts against a request-level simulation, over loads from 0.5 to 1.5 times capacity, and print the comparison as docs/model.md shows it (Markdown, English)."`
	Runs     *int   `help:"With --validate: simulated minutes in each cell of the table (default 100)." placeholder:"N"`
	Reveal   bool   `help:"With --scenario: also what the scenario does quietly during the run (the constants it sets, scales and ramps, the controls it sets), which the learner's page, the console's, leaves out."`
}

// Help shows examples under the flags.
func (ModelCmd) Help() string {
	return `Examples:
  oncall model                            every relation of the model, with its sources
  oncall model --lang fr                  the same in French (--lang takes every language of
                                          the console); formulas and references to books stay
                                          as written
  oncall model --scenario bad-deploy      the values in force in a scenario: its bad build
                                          fails 15 % of requests, so the formulas say 0.15·bad
  oncall model --scenario surge --seed 7  what seed 7 draws (the surge's size and time),
                                          beside the range over seeds 1 to 200
  oncall model --scenario drill.lua       a scenario file
  oncall model --scenario db-degradation --reveal
                                          the instructor's page: also what the scenario does quietly
  oncall model --validate                 the queue formulas beside a simulation of the requests
                                          themselves: the table of docs/model.md, in about a
                                          minute on two cores
  oncall model --validate --runs 20 --seed 1000
                                          fewer simulated minutes a cell, from other seeds`
}

// Run implements the subcommand.
func (c *ModelCmd) Run(env *Env) error {
	lang, ok := i18n.Lookup(c.Lang)
	if !ok {
		return usageError("--lang %q is not a language of oncall%s (languages: %s)",
			c.Lang, spell.Hint(i18n.Nearest(c.Lang)), strings.Join(i18n.Codes(), ", "))
	}
	if c.Validate {
		return c.validate(env)
	}
	if c.Runs != nil {
		return usageError("--runs %d: it counts the simulated minutes of --validate; add --validate", *c.Runs)
	}
	draws, seed, err := c.inForce(env)
	if err != nil {
		return err
	}
	page, err := modelpage.Build(lang.Code, draws, seed)
	if err != nil {
		return failure("%v", err)
	}
	// Written through a buffer whose Flush reports the first failed write
	// (a full disk, a closed pipe), so that a lost page is not a success.
	w := bufio.NewWriter(env.Stdout)
	writePage(w, page)
	if err := w.Flush(); err != nil {
		return failure("writing the model: %v", err)
	}
	return nil
}

// inForce samples the scenario of --scenario, if any, and reads --seed.
func (c *ModelCmd) inForce(env *Env) (*modelpage.Draws, *uint32, error) {
	if c.Seed != "" && c.Scenario == "" {
		return nil, nil, usageError("--seed %s: a seed picks a run of a scenario; give --scenario too, e.g. --scenario surge --seed %s", c.Seed, c.Seed)
	}
	if c.Scenario == "" {
		if c.Reveal {
			return nil, nil, usageError("--reveal shows what a scenario does quietly; give --scenario too, e.g. --scenario db-degradation --reveal")
		}
		return nil, nil, nil
	}
	sc, err := resolveScenario(env, c.Scenario, budget.Limits{})
	if err != nil {
		return nil, nil, err
	}
	var seed *uint32
	if c.Seed != "" {
		s, err := parseSeed(c.Seed, env)
		if err != nil {
			return nil, nil, err
		}
		seed = &s
	}
	draws, err := modelpage.SampleView(sc, modelpage.DefaultSeeds, budget.Limits{}, engine.View(c.Reveal))
	if err != nil {
		return nil, nil, failure("%v", err)
	}
	return draws, seed, nil
}

// validate runs the request-level check of the queue formulas.
func (c *ModelCmd) validate(env *Env) error {
	if c.Scenario != "" {
		return usageError("--validate checks the queue formulas alone, whatever the scenario: drop --scenario %s", c.Scenario)
	}
	cfg := queuesim.DefaultConfig()
	if c.Runs != nil {
		cfg.Runs = *c.Runs
	}
	if c.Seed != "" {
		s, err := parseSeed(c.Seed, env)
		if err != nil {
			return err
		}
		cfg.Seed = s
	}
	if err := cfg.Validate(); err != nil {
		return usageError("--validate --runs %d --seed %d: %v", cfg.Runs, cfg.Seed, err)
	}
	rows := queuesim.CheckAll(cfg, queuesim.Grid(), runtime.GOMAXPROCS(0))
	deps, err := queuesim.CheckDependencies(cfg)
	if err != nil {
		return failure("checking the dependency: %v", err)
	}
	w := bufio.NewWriter(env.Stdout)
	err = queuesim.WriteMarkdown(w, cfg, rows)
	if err == nil {
		_, err = io.WriteString(w, "\n")
	}
	if err == nil {
		err = queuesim.WriteDependencyMarkdown(w, cfg, deps)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return failure("writing the check: %v", err)
	}
	return nil
}

// writePage prints the model page as text: headings, then indented lines.
func writePage(w io.Writer, p modelpage.Page) {
	fmt.Fprintln(w, p.Title)
	fmt.Fprintln(w, p.Intro)
	fmt.Fprintln(w)
	if f := p.InForce; f != nil {
		fmt.Fprintln(w, f.Heading)
		for _, l := range f.Lines {
			fmt.Fprintln(w, "  "+l)
		}
		fmt.Fprintln(w, "  "+f.Legend)
		fmt.Fprintln(w)
	}
	for _, r := range p.Relations {
		refs := make([]string, len(r.Sources))
		for i, n := range r.Sources {
			refs[i] = fmt.Sprintf("[%d]", n)
		}
		fmt.Fprintf(w, "%s\n    %s %s\n", r.Formula, r.Text, strings.Join(refs, ""))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.ConstantsTitle)
	fmt.Fprintln(w, "  "+p.Constants)
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.DeparturesTitle)
	for _, d := range p.Departures {
		fmt.Fprintln(w, "  - "+d)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.ApproximationsTitle)
	for _, a := range p.Approximations {
		fmt.Fprintln(w, "  - "+a)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.Randomness)
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.SourcesTitle)
	for _, s := range p.Sources {
		fmt.Fprintf(w, "  [%d] %s\n", s.N, s.Text)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.Disclaimer)
}
