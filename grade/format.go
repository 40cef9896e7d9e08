package grade

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/score"
	"github.com/oncall-sim/oncall/shift"
)

// maxListed is how many failing seeds a criterion lists in text and test
// outputs; JSON lists every seed.
const maxListed = 5

// WriteText writes the report as a table for people: stale warnings, the
// scenarios left out, a policy that does not load or holds no rule, each
// scenario (writeScenarioText), then the verdict.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "grade of %s against %s\n", r.Policy, r.Reference)
	for _, s := range r.Stale {
		fmt.Fprintf(w, "\nwarning: %s\n", s)
	}
	if t := r.leftOutText(); t != "" {
		fmt.Fprintf(w, "\n%s\n", wrap(t, 78))
	}
	if r.PolicyError != "" {
		fmt.Fprintf(w, "\nthe policy does not load, so no seed ran:\n%s", indent(strings.TrimRight(r.PolicyError, "\n")+"\n", "  "))
	}
	if r.NoRule {
		fmt.Fprintf(w, "\n%s holds no rule (blank, or comments only): graded as no policy, which decides nothing\n", r.Policy)
	}
	for i := range r.Scenarios {
		if err := r.Scenarios[i].writeText(w); err != nil {
			return err
		}
	}
	verdict := "PASSED"
	if !r.Passed {
		verdict = "FAILED"
	}
	_, err := fmt.Fprintf(w, "\ntotal %s / %s points (%s %%): %s (pass mark %s %%)\n\n%s\n",
		points(r.Score), points(r.MaxScore), percent(r.Score, r.MaxScore), verdict, points(100*r.PassMark), wrap(Scoring, 78))
	return err
}

// writeText writes a scenario of the text report.
//
// It branches on the parts of a scenario's text (what the guards took, its
// table, means, held or failed criteria, worse seeds, story, stopped seeds
// and coverage): the sections of one scenario, each printed only when it
// has something to say.
func (s *ScenarioResult) writeText(w io.Writer) error {
	title := s.Scenario
	if s.Title != "" {
		title += " — " + s.Title
	}
	fmt.Fprintf(w, "\n%s: %s / %s points, seeds %s\n", title, points(s.Score), points(s.MaxScore), s.Seeds)
	if s.Guards != "" {
		fmt.Fprint(w, indent(wrap(s.Guards, 76)+"\n", "  "))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  \tcriterion\tseeds met\tmean\treference mean\tno policy mean\tpoints")
	for j := range s.Criteria {
		c := &s.Criteria[j]
		fmt.Fprintf(tw, "  %s\t%s\t%d/%d\t%s\t%s\t%s\t%s / %s\n", c.mark(), c.Text, c.Passed, len(c.Seeds),
			c.meanText(), c.format(c.ReferenceMean), c.format(c.NoneMean), points(c.Score), points(c.Weight))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if t := s.meansText(); t != "" {
		fmt.Fprintf(w, "  %s\n", t)
	}
	for j := range s.Criteria {
		if c := &s.Criteria[j]; c.held() {
			fmt.Fprintf(w, "  %s: %s", c.Text, c.heldText())
			continue
		}
		if lines := s.Criteria[j].failures(); lines != "" {
			fmt.Fprintf(w, "  %s failed on:\n%s", s.Criteria[j].Text, indent(lines, "    "))
			if a := s.Criteria[j].Account; a != "" {
				fmt.Fprintf(w, "    and %s\n", a)
			}
		}
	}
	if t := s.worseText(); t != "" {
		fmt.Fprint(w, indent(t, "  "))
	}
	if s.Story != nil {
		fmt.Fprint(w, indent(wrap(s.Story.Text(), 76)+"\n", "  "))
	}
	for i, e := range s.Errors {
		if i == maxListed {
			fmt.Fprintf(w, "  and %s stopped\n", moreSeeds(len(s.Errors)-maxListed))
			break
		}
		fmt.Fprintf(w, "  seed %d stopped: %s\n", e.Seed, e.Error)
	}
	if s.Coverage != nil {
		return s.Coverage.Write(w, "the policy on "+s.Scenario)
	}
	return nil
}

// leftOutText says which scenarios of the references were not graded, ""
// when none was left out.
func (r *Report) leftOutText() string {
	switch len(r.LeftOut) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("not graded: scenario %s of the references (name it with --scenario to grade it)", r.LeftOut[0])
	}
	return fmt.Sprintf("not graded: scenarios %s of the references (name them with --scenario to grade them)", strings.Join(r.LeftOut, ", "))
}

// Scoring states how points are counted, in every report: package
// score's rule.
const Scoring = score.Formula

// wrap breaks a paragraph into lines of at most width bytes.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		if i > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

// meanText is the policy's mean, or "—" when no run finished: there is no
// figure to average, and 0 would read as one.
func (c *CriterionResult) meanText() string {
	if c.MeanSeeds == 0 && len(c.Seeds) > 0 {
		return "—"
	}
	return c.format(c.Mean)
}

// meansText says over which seeds the means are when some runs stopped:
// the reference's and no policy's are taken on the same seeds as the
// policy's, so that the three compare; "" when every run finished.
func (s *ScenarioResult) meansText() string {
	if len(s.Criteria) == 0 {
		return ""
	}
	n, all := s.Criteria[0].MeanSeeds, len(s.Criteria[0].Seeds)
	switch {
	case n == all, all > 0 && s.Criteria[0].Seeds[0].Error == notLoaded.Error():
		return "" // every run finished, or the report says the policy does not load
	case n == 0:
		return fmt.Sprintf("no run finished: no mean of the policy's; the reference's and no policy's means are over all %d seeds", all)
	}
	return fmt.Sprintf("means over the %d of %d seeds whose runs finished, the reference's and no policy's on the same seeds", n, all)
}

// mark says how much of the criterion a policy earned: all of it, part of
// it, or none.
func (c *CriterionResult) mark() string {
	switch {
	case c.Pass():
		return "pass"
	case c.held():
		return "held"
	case c.Score > 0:
		return "part"
	}
	return "FAIL"
}

func (c *CriterionResult) format(v float64) string {
	return engine.FormatFixed(v, c.decimals+1)
}

// held reports whether the criterion met its bound on every seed but
// earned less than full points: the other criteria held it back (a guard
// counts only as far as the main criteria earned points, and they only as
// far as the guards held).
func (c *CriterionResult) held() bool { return !c.Pass() && c.Passed == len(c.Seeds) }

// heldText says why a criterion met on every seed is short of points:
// the guards that took them, or the main criteria a guard counts only as
// far as (AccountText); the rule itself where neither says.
func (c *CriterionResult) heldText() string {
	why := c.Account
	if why == "" {
		why = "by the other criteria: a guard counts only as far as the main criteria earned points, a main criterion only as far as the guards held"
	}
	return fmt.Sprintf("met on every seed, held at %s of %s points: %s\n", points(c.Score), points(c.Weight), why)
}

// failures lists the seeds where the criterion missed its bound, at most
// maxListed, one a line: "seed 3: cost 41.2 > 38.1 (bound reference * 1.25,
// reference 30.48, no policy 45.1): 0.28 of the gap closed".
func (c *CriterionResult) failures() string {
	if c.held() {
		return c.heldText()
	}
	return c.misses(maxListed)
}

// misses lists at most limit seeds where the criterion missed its bound.
func (c *CriterionResult) misses(limit int) string {
	var b strings.Builder
	n := 0
	for _, s := range c.Seeds {
		if s.Pass {
			continue
		}
		n++
		if n > limit {
			continue
		}
		if s.Error == notLoaded.Error() {
			b.WriteString("no seed ran: the policy does not load\n")
			return b.String()
		}
		if s.Error != "" {
			// The error itself is listed once, with the runs that stopped.
			fmt.Fprintf(&b, "seed %d: no outcome, the run stopped\n", s.Seed)
			continue
		}
		op := ">"
		if c.Op == "at_least" {
			op = "<"
		}
		fmt.Fprintf(&b, "seed %d: %s %s %s %s (bound %s, reference %s, no policy %s): %s\n", s.Seed, c.Metric, c.format(s.Value), op,
			c.format(s.Bound), c.Bound, c.format(s.Reference), c.format(s.None), gapText(s))
	}
	if n > limit {
		fmt.Fprintf(&b, "and %s\n", moreSeeds(n-limit))
	}
	return b.String()
}

// missedSeeds lists the seeds where the criterion missed its bound, as a
// seed set ("3-5,9"), or "no seed: the policy does not load".
func (c *CriterionResult) missedSeeds() string {
	var seeds []uint32
	for _, s := range c.Seeds {
		if !s.Pass {
			if s.Error == notLoaded.Error() {
				return "every seed: the policy does not load"
			}
			seeds = append(seeds, s.Seed)
		}
	}
	return "seeds " + shift.FormatSeeds(seeds)
}

// gapText says how a missed seed scored.
func gapText(s SeedCheck) string {
	if s.ByBound {
		return "a guard here (no policy meets the bound), scores " + engine.FormatFixed(s.Score, 2) + " and holds the seed's points at that share"
	}
	return "closed " + engine.FormatFixed(100*s.Score, 0) + " % of the gap from no policy to the bound (log scale), scores " + engine.FormatFixed(s.Score, 2)
}

// worseText says, a line each, that the policy did worse than no policy
// on the scenario and on which seeds, with the figures; "" when it did
// not.
func (s *ScenarioResult) worseText() string {
	var b strings.Builder
	if s.Worse {
		fmt.Fprintf(&b, "%s: held at no policy's %s points\n", s.WorseText, points(s.NoneScore))
	}
	for i, ws := range s.WorseSeeds {
		if i == maxListed {
			fmt.Fprintf(&b, "and worse than no policy on %s\n", moreSeeds(len(s.WorseSeeds)-maxListed))
			break
		}
		fmt.Fprintf(&b, "seed %d: %s (held at no policy's %s points there)\n", ws.Seed, ws.Text, points(ws.None))
	}
	return b.String()
}

// moreSeeds writes "1 more seed" or "n more seeds".
func moreSeeds(n int) string {
	if n == 1 {
		return "1 more seed"
	}
	return strconv.Itoa(n) + " more seeds"
}

func indent(s, pad string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	return b.String()
}

// points writes a score with at most two decimals.
func points(v float64) string { return engine.FormatFixed(v, 2) }

func percent(v, of float64) string {
	if of == 0 {
		return "100"
	}
	return engine.FormatFixed(100*v/of, 1)
}

// WriteJSON writes the whole report, every seed of every criterion, as
// indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
