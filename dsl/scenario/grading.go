package scenario

import (
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/score"
)

// gradeTable declares grade{ criterion, ... }: a list, each item read by
// criterionTable.
var gradeTable = table.Spec[[]criterion]{
	Item: readCriterion,
	Other: func(_ *[]criterion, key string, _ lua.LValue, in *table.Reading) {
		in.Add(in.Place().Key(key), "takes a list of criteria, e.g. %s; %s is not one", gradeExample, key)
	},
}

const gradeExample = `grade{ { metric = "cost", at_most = "reference * 1.25" } }`

// criterionTable declares one criterion: { metric = ..., at_most = ... }.
var criterionTable = table.Spec[criterion]{
	Fields: []table.Field[criterion]{
		{Name: "metric", Read: readMetric},
		boundField("at_most"),
		boundField("at_least"),
		table.To("weight", weightValue, func(c *criterion, w float64) { c.Weight = w }),
		table.To("scoring", scoringValue, func(c *criterion, m string) { c.Scoring = m }),
	},
	Of:      " in a criterion",
	NotList: "a criterion takes named fields (metric, at_most or at_least, weight, scoring), not a list: { metric = \"cost\", at_most = \"reference * 1.25\" }",
}

// readCriterion reads list item i of grade{}.
func readCriterion(list *[]criterion, i int, v lua.LValue, in *table.Reading) {
	t, ok := v.(*lua.LTable)
	if !ok {
		in.Add(in.Place().Item(i), "takes a list of criteria, e.g. %s; #%d is not one", gradeExample, i)
		return
	}
	item := in.InItem(i)
	c := criterion{Criterion: Criterion{Weight: 1}}
	before := in.Problems()
	criterionTable.Read(&c, t, item)
	pl := item.Place()
	c.Pos, c.valuePos = pl.Key("metric"), pl.Value("metric")
	if in.Problems() > before {
		// Whether its outcome exists is still worth saying, once the
		// file has loaded (checkCriteria), which then drops it.
		c.faulty = true
		if c.Metric != "" {
			*list = append(*list, c)
		}
		return
	}
	switch {
	case c.Metric == "":
		item.Add(pl.Near(), "a criterion needs a metric, e.g. metric = \"budget_used\"")
	case c.Op == "":
		item.Add(pl.Near(), "a criterion needs a bound: at_most = ... or at_least = ...")
	default:
		*list = append(*list, c)
	}
}

// readMetric reads a criterion's outcome; whether the model has it or the
// file declares it with outcome{...}, anywhere in the file, is checked once
// the file has loaded (checkCriteria).
func readMetric(c *criterion, v lua.LValue, _ *table.Reading) error {
	s, ok := v.(lua.LString)
	if !ok {
		return fmt.Errorf("= %s: it takes an outcome's name, e.g. \"budget_used\"", luaText(v))
	}
	c.Metric = string(s)
	return nil
}

// boundField declares at_most or at_least: a number, or an expression over
// the reference outcome on the same seed. A criterion takes one of them.
func boundField(op string) table.Field[criterion] {
	return table.Field[criterion]{Name: op, Read: func(c *criterion, v lua.LValue, _ *table.Reading) error {
		if c.Op != "" {
			return table.Whole(errors.New("a criterion takes one of at_most and at_least, not both"))
		}
		c.Op = op
		switch v := v.(type) {
		case lua.LNumber:
			c.Bound = fmtNum(float64(v))
		case lua.LString:
			c.Bound = strings.TrimSpace(string(v))
		default:
			return fmt.Errorf("= %s: it takes a number or an expression over reference, e.g. \"reference * 1.25\"", luaText(v))
		}
		if err := c.compileBound(); err != nil {
			return fmt.Errorf("= %q: %v", clipBound(c.Bound), err)
		}
		return nil
	}}
}

// maxWeight bounds a criterion's weight, so that the sum of a scenario's
// weights, the maximum score, stays a finite number.
const maxWeight = 1e6

// weightValue reads a criterion's weight: a number above 0, at most
// maxWeight.
func weightValue(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || !(n > 0 && n <= maxWeight) {
		return 0, fmt.Errorf("= %s: it takes a number above 0, at most 1,000,000", luaText(v))
	}
	return float64(n), nil
}

// scoringValue reads a criterion's scoring: "partial" or "pass".
func scoringValue(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if ok && (s == score.Partial || s == score.Pass) {
		return string(s), nil
	}
	return "", fmt.Errorf("= %s: it takes %q (partial credit, the default) or %q (full points or none)%s", luaText(v), score.Partial, score.Pass,
		spell.Suggest(string(s), []string{score.Partial, score.Pass}))
}

// grade implements grade{ { metric = ..., at_most = ..., weight = ... }, ... }.
func (r *run) grade(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("grade{...} declares how runs are graded: call it once, at the top level of the file")
	}
	if r.decl == nil {
		L.RaiseError("grade{...}: call scenario{...} first")
	}
	if r.decl.gradePos.Line != 0 {
		L.RaiseError("grade{...} is called twice (first at line %d): list every criterion in one grade{}", r.decl.gradePos.Line)
	}
	t := tableArg(L, "grade", `grade{ { metric = "budget_used", at_most = "reference + 0.01", weight = 1 } }`)
	line := r.callerLine()
	r.decl.gradePos = dsl.Pos{File: r.p.file, Line: line}
	if r.p.decl != nil {
		return 0 // a run of a compiled program: its criteria are known
	}
	in := r.newReading("grade{}", "grade", line, &r.decl.diags)
	if k, _ := t.Next(lua.LNil); k == lua.LNil {
		in.Add(r.decl.gradePos, "grade{} is empty: list at least one criterion, or leave grade{} out")
	}
	gradeTable.Read(&r.decl.grading, t, in)
	return 0
}
