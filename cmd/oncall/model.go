package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/modelpage"
)

// ModelCmd prints the model page: every relation and its sources, the
// constants, the departures from the original model, the approximations;
// for a scenario, the values it puts in force.
type ModelCmd struct {
	Lang     string `help:"Language of the explanations: en, bs, id, es, ur or fr." default:"en" placeholder:"LANG"`
	Scenario string `help:"Fill the formulas and constants with the values in force for this scenario, a built-in name or a .lua file; values that differ from the defaults are marked *." placeholder:"NAME"`
	Seed     string `help:"With --scenario: the values this seed draws (without it, the range over seeds 1 to 200)." placeholder:"N"`
}

// Help shows examples under the flags.
func (ModelCmd) Help() string {
	return `Examples:
  oncall model                            every relation of the model, with its sources
  oncall model --lang fr                  the same in French (bs, id, es, ur and fr besides en);
                                          formulas and references to books stay as written
  oncall model --scenario bad-deploy      the values in force in a scenario: its bad build
                                          fails 15 % of requests, so the formulas say 0.15·bad
  oncall model --scenario surge --seed 7  what seed 7 draws (the surge's size and time),
                                          beside the range over seeds 1 to 200
  oncall model --scenario drill.lua       a scenario file`
}

// Run implements the subcommand.
func (c *ModelCmd) Run(env *Env) error {
	lang, ok := i18n.Lookup(c.Lang)
	if !ok {
		hint := ""
		if n := i18n.Nearest(c.Lang); n != "" {
			hint = fmt.Sprintf("; did you mean %s?", n)
		}
		return usageError("--lang %q is not a language of oncall%s (languages: %s)",
			c.Lang, hint, strings.Join(i18n.Codes(), ", "))
	}
	if c.Seed != "" && c.Scenario == "" {
		return usageError("--seed %s: a seed picks a run of a scenario; give --scenario too, e.g. --scenario surge --seed %s", c.Seed, c.Seed)
	}
	var draws *modelpage.Draws
	var seed *uint32
	if c.Scenario != "" {
		sc, err := resolveScenario(env, c.Scenario)
		if err != nil {
			return err
		}
		if c.Seed != "" {
			s, err := parseSeed(c.Seed, env)
			if err != nil {
				return err
			}
			seed = &s
		}
		if draws, err = modelpage.Sample(sc, modelpage.DefaultSeeds); err != nil {
			return failure("%v", err)
		}
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
