package scenario

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
)

// What Check plays with when scenario{} has problems. A faulty value is
// never stored: reading leaves the field at its default, and an unknown
// field changes nothing. Check dry-runs the file all the same, so that one
// misspelt field does not hide the problems of the callbacks; a problem
// whose field the run uses says which value the dry run took instead, so
// that what the dry run reports after it (an at() after the end of a run
// of the default length, a page that never fires) reads as it should.

// assumeDefault says what the dry run plays with in place of the faulty
// field of scenario{} at path ("budget_left"; "constants", "boot_delay"),
// or "" when the field changes nothing a dry run meets (id, title,
// briefing).
func assumeDefault(path []string) string {
	def := engine.FreePlay()
	var what string
	switch path[0] {
	case "start":
		what = "start = \"" + engine.ClockString(def.Start) + "\""
	case "duration":
		what = "duration = \"" + durationText(def.Minutes) + "\""
	case "budget_left":
		what = "budget_left = " + fmtNum(def.BudgetLeft)
	case "warm":
		what = "warm = " + fmtNum(def.Warm)
	case "instances":
		return "the check plays on with instances = 0, which starts min_instances"
	case "page":
		return "the check plays on with the model's page rule"
	case "constants":
		if len(path) == 1 {
			return "the check plays on with every constant at the model's value"
		}
		spec, err := engine.LookupConstant(path[1])
		if err != nil {
			return ""
		}
		what = spec.Name + " = " + fmtNum(spec.Get(&def.Constants))
	case "controls":
		if len(path) == 1 {
			return "the check plays on with every control at its default"
		}
		c, err := engine.LookupControl(path[1])
		if err != nil || c.Spec().Kind == engine.KindAction {
			return ""
		}
		what = c.Spec().Name + " = " + controlText(c, def.Controls.Get(c))
	default:
		return ""
	}
	return "the check plays on with " + what + ", its default"
}

// meant returns the declared name a misspelt one stands for, or "".
func meant(name string, names []string) string { return spell.Nearest(name, names) }

// durationText writes minutes as duration reads them: "24h", "90m", "1h30m".
func durationText(minutes int) string {
	switch h, m := minutes/60, minutes%60; {
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	default:
		return fmt.Sprintf("%dh%dm", h, m)
	}
}

// controlText writes a control's value as a scenario writes it.
func controlText(c engine.Control, v float64) string {
	if c.Spec().Kind == engine.KindBool {
		return fmt.Sprint(v == 1)
	}
	return fmtNum(v)
}

// playable makes a setup whose fields are each in range, but not together,
// one the engine takes: instances past max_instances start min_instances,
// and min_instances past max_instances is max_instances. It says what it
// changed, by the field Validate names first in its message.
func playable(s *engine.Setup) map[string]string {
	notes := map[string]string{}
	if s.Instances < 0 || float64(s.Instances) > s.Constants.MaxInstances {
		s.Instances = 0
		notes["instances"] = "the check plays on with instances = 0, which starts min_instances"
	}
	if float64(s.Controls.MinInstances) > s.Constants.MaxInstances {
		s.Controls.MinInstances = int(math.Floor(s.Constants.MaxInstances))
		notes["min_instances"] = fmt.Sprintf("the check plays on with min_instances = %d, max_instances", s.Controls.MinInstances)
	}
	return notes
}

// The kinds of a scenario's problems, for a summary (dsl.Diagnostic.Kind).
const (
	KindSyntax      = "syntax"            // the file does not parse, or is not text
	KindLoading     = "loading"           // a statement of the main chunk stopped it
	KindDeclaration = "declaration"       // scenario{}, outcome{}, inject{}, at() where it is called
	KindGrading     = "grading"           // grade{}
	KindPage        = "page rule"         // scenario{}'s page
	KindCallbacks   = "callbacks"         // at() callbacks, on_minute, on_decision, injects' effects
	KindSurge       = "surge"             // surge(t)
	KindOutcomes    = "outcome functions" // the value(rows) of outcome{}
	KindBudget      = "budget"            // a budget spent, wherever
)

// kinds sorts each problem of the list that has no kind yet by what it is
// in, and returns the list.
func kinds(l dsl.List) dsl.List {
	for i := range l {
		l[i].Kind = kindOf(l[i], "")
	}
	return l
}

// kindOf is the kind of a problem, met in context (a callback's, or "" for
// loading): the context's kind (contextKind), else what the message says.
func kindOf(d dsl.Diagnostic, context string) string {
	if d.Kind != "" {
		return d.Kind
	}
	if errors.As(d, new(*budget.Exceeded)) {
		return KindBudget
	}
	if context == "" {
		context = d.Context
	}
	if k := contextKind(context); k != "" {
		return k
	}
	switch {
	case strings.HasPrefix(d.Message, "the file never calls"):
		return KindDeclaration
	case strings.HasPrefix(d.Message, "syntax error") || strings.HasPrefix(d.Message, "the file "):
		return KindSyntax
	case strings.HasPrefix(d.Message, "at("):
		return KindDeclaration
	}
	return KindLoading
}

// contextKinds are the kinds of the contexts named whole: a declaration's
// table, a hook, the page rule.
var contextKinds = map[string]string{
	"at()": KindCallbacks, "on_minute()": KindCallbacks, "on_decision()": KindCallbacks,
	"surge()":    KindSurge,
	"scenario{}": KindDeclaration, "outcome{}": KindDeclaration, "inject{}": KindDeclaration, "switch{}": KindDeclaration,
	"grade{}":   KindGrading,
	"page rule": KindPage,
}

// contextPrefixes are the kinds of the contexts that name one of many:
// an inject's effect or a switch's on and off ("inject hotfix-fails"), an
// outcome's value, a criterion's bound.
var contextPrefixes = []struct{ prefix, kind string }{
	{"inject ", KindCallbacks}, {"switch ", KindCallbacks}, {"outcome ", KindOutcomes}, {"grade ", KindGrading},
}

// contextKind is the kind of a problem met in a context; "" for a context
// of none of them (loading).
func contextKind(context string) string {
	if k, ok := contextKinds[context]; ok {
		return k
	}
	for _, p := range contextPrefixes {
		if strings.HasPrefix(context, p.prefix) {
			return p.kind
		}
	}
	return ""
}
