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
// constants, the departures from the original model, the approximations.
type ModelCmd struct {
	Lang string `help:"Language of the explanations: en, bs, id, es, ur or fr." default:"en" placeholder:"LANG"`
}

// Help shows examples under the flags.
func (ModelCmd) Help() string {
	return `Examples:
  oncall model                            every relation of the model, with its sources
  oncall model --lang fr                  the same in French (bs, id, es, ur and fr besides en);
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
	page := modelpage.Build(lang.Code)
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
