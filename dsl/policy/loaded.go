package policy

import (
	"strings"

	"github.com/oncall-sim/oncall/dsl"
)

// A file with problems does not load; `oncall check` still dry-runs the
// rules that do, so that what a rule does in a run (a value no control
// takes, a division by zero) shows in the same check as the problems of
// the others. A rule loads when nothing is wrong from its `rule` line to
// the next rule's: a problem on a line between two rules belongs to the
// rule above it, and one of the whole file to every rule.

// keepLoaded leaves in p the compiled rules of the file that have no
// problem. since() of a rule left out reads Never: in the dry run, that
// rule never fires.
func (c *compiler) keepLoaded(p *Program) {
	broken := make([]bool, len(c.rules))
	for _, d := range c.errs {
		for i, rs := range c.rules {
			last := int(^uint(0) >> 1)
			if i+1 < len(c.rules) {
				last = c.rules[i+1].pos.Line - 1
			}
			if d.Pos.Line == 0 || d.Pos.Line >= rs.pos.Line && d.Pos.Line <= last {
				broken[i] = true
			}
		}
	}
	index := make([]int, len(c.rules)) // a rule of the file's place among those kept, or −1
	var kept []*rule
	for i, rs := range c.rules {
		index[i] = -1
		if broken[i] {
			continue
		}
		for _, r := range p.rules {
			if r.pos == rs.pos {
				index[i] = len(kept)
				kept = append(kept, r)
			}
		}
	}
	p.rules = kept
	p.left = len(c.rules) - len(kept)
	for i := range p.slots {
		if p.slots[i].kind == slotSince {
			p.slots[i].rule = index[p.slots[i].rule]
		}
	}
}

// LeftOut is how many rules of the file a program that CompileLoaded
// returned with problems leaves out.
func (p *Program) LeftOut() int { return p.left }

// Kinds of a policy's problems, for a summary (dsl.Diagnostic.Kind).
const (
	KindSyntax  = "syntax"  // the lines of the file, or an expression that does not parse
	KindNames   = "names"   // a variable, metric, helper or rule that does not exist
	KindTypes   = "types"   // a value of the wrong type where it is used
	KindActions = "actions" // an action that does not exist, or a value no control takes
	KindLimits  = "limits"  // what a policy may not do: too much work, the clock, building values
	KindRun     = "run"     // what a rule did in the dry run
)

// classify gives each problem of a file that has no kind yet the kind its
// message says, and returns the list. The messages are the compiler's
// own, so that each of them falls in one kind (TestEveryProblemHasAKind).
func classify(l dsl.List) dsl.List {
	for i := range l {
		if l[i].Kind == "" {
			l[i].Kind = kindOf(l[i].Message)
		}
	}
	return l
}

// kindOf sorts a message of the compiler by the words that start it or
// that it holds.
func kindOf(msg string) string {
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(msg, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("is not available in policies", "nested more than", "is too large", "steps each minute", "grow without bound", "bytes; a policy"):
		return KindLimits
	case has("unknown name", "unknown function", "unknown metric", "no rule of this file has that name", "is in the instructor's trace only", "is a helper function"):
		return KindNames
	case has("unknown action", "is not an action", "do takes", "is an action", "takes no argument", "takes one argument", "is out of range", "is not a number any control takes"):
		return KindActions
	case has("ends too soon", "unexpected token", "needs a condition", "needs actions", "syntax error", "unexpected", "literal not terminated", "unclosed"):
		return KindSyntax
	case has("the file "):
		return KindSyntax
	}
	return KindTypes
}
