package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// ModelCmd prints the model's relations and their sources.
type ModelCmd struct {
	Lang string `help:"Language of the explanations: en, bs, id, es, ur or fr." default:"en" placeholder:"LANG"`
}

// Help shows an example under the flags.
func (ModelCmd) Help() string {
	return `Examples:
  oncall model            every relation of the model, with its sources
  oncall model --lang fr  the same in French (bs, id, es, ur and fr besides en);
                          formulas and references to books stay as written`
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
	l := lang.Code
	// Written through a buffer whose Flush reports the first failed write
	// (a full disk, a closed pipe), so that a lost page is not a success.
	w := bufio.NewWriter(env.Stdout)
	fmt.Fprintln(w, i18n.T(l, i18n.KeyModelTitle))
	fmt.Fprintln(w)
	for _, r := range engine.Relations() {
		refs := make([]string, len(r.Sources))
		for i, n := range r.Sources {
			refs[i] = fmt.Sprintf("[%d]", n)
		}
		fmt.Fprintf(w, "%s\n    %s %s\n", r.Formula, i18n.T(l, i18n.RelationKey(r.ID)), strings.Join(refs, ""))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T(l, i18n.KeyModelApproximations))
	for i := range engine.Approximations {
		fmt.Fprintln(w, "  -", i18n.T(l, i18n.ApproximationKey(i)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T(l, i18n.KeyModelSources))
	for _, s := range engine.Sources() {
		text := s.Text
		if i18n.TranslatedSource(s) {
			text = i18n.T(l, i18n.SourceKey(s.N))
		}
		fmt.Fprintf(w, "  [%d] %s\n", s.N, text)
	}
	if err := w.Flush(); err != nil {
		return failure("writing the model: %v", err)
	}
	return nil
}
