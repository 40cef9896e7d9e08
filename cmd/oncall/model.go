package main

import (
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/engine"
)

// ModelCmd prints the model's relations and their sources.
type ModelCmd struct{}

// Help shows an example under the flags.
func (ModelCmd) Help() string {
	return `Examples:
  oncall model            every relation of the model, with its sources`
}

// Run implements the subcommand.
func (c *ModelCmd) Run(env *Env) error {
	w := env.Stdout
	fmt.Fprintln(w, "The on-call model: every relation, with its source")
	fmt.Fprintln(w)
	for _, r := range engine.Relations() {
		refs := make([]string, len(r.Sources))
		for i, n := range r.Sources {
			refs[i] = fmt.Sprintf("[%d]", n)
		}
		fmt.Fprintf(w, "%s\n    %s %s\n", r.Formula, r.Text, strings.Join(refs, ""))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Approximations")
	for _, a := range engine.Approximations {
		fmt.Fprintln(w, "  -", a)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Sources")
	for _, s := range engine.Sources() {
		fmt.Fprintf(w, "  [%d] %s\n", s.N, s.Text)
	}
	return nil
}
