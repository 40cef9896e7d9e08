package alerts

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/metricsout"
)

// Rules is a loaded rule file: its groups, in order.
type Rules struct {
	File   string
	Groups []*Group
}

// Group is a group of rules evaluated in order, every Interval.
type Group struct {
	Name        string
	Interval    time.Duration
	QueryOffset time.Duration
	Rules       []*Rule
}

// Rule is a recording or an alerting rule of a group.
type Rule struct {
	Name          string // the alert's name, or the series it records
	Record        bool
	Text          string // the expression as written
	Expr          parser.Expr
	For           time.Duration
	KeepFiringFor time.Duration
	Labels        labels.Labels // its own labels, templates unexpanded
	Pos           dsl.Pos       // where its expression is
	templated     bool          // a label holds a template
	node          *yaml.Node    // its expression's node in the file
	selectors     []selector
}

// selector is a vector selector of a rule's expression, as written.
type selector struct {
	text     string
	matchers []*labels.Matcher
}

// Alerting returns the alerting rules of the file, in order.
func (r *Rules) Alerting() []*Rule {
	var out []*Rule
	for _, g := range r.Groups {
		for _, rl := range g.Rules {
			if !rl.Record {
				out = append(out, rl)
			}
		}
	}
	return out
}

// MaxRuleFile is the largest rule file oncall reads: a team's rules are a
// few kilobytes.
const MaxRuleFile = 1 << 20

// newParser is the PromQL parser of a rule file, the one Prometheus
// itself starts with.
func newParser() parser.Parser { return parser.NewParser(parser.Options{}) }

// Load reads a Prometheus rule file with Prometheus' own parser (rulefmt)
// and returns its groups, or every problem it has, each at file:line:col
// with Prometheus' message: YAML that does not parse, a field rulefmt does
// not know, an expression PromQL does not parse (at the place in the
// expression), a metric the export does not write ("no metric named X;
// did you mean Y?"), a group interval oncall's minutes cannot keep.
//
// It branches on the steps of loading, each of which can find problems:
// rulefmt's, the groups' intervals, the rules' places in the file, the
// names and subqueries of their expressions; all are reported together.
func Load(file string, src []byte) (*Rules, error) {
	if len(src) > MaxRuleFile {
		return nil, dsl.List{{Pos: dsl.Pos{File: file}, Message: fmt.Sprintf("the file is %d bytes: a rule file oncall reads is at most %d", len(src), MaxRuleFile)}}
	}
	p := newParser()
	rgs, errs := rulefmt.Parse(src, false, model.UTF8Validation, p, slog.New(slog.NewTextHandler(io.Discard, nil)))
	nodes, _ := exprNodes(src)
	var diags dsl.List
	for _, err := range errs {
		d := diagnose(file, string(src), err, nodes)
		if n := len(diags); n == 0 || diags[n-1].Error() != d.Error() { // rulefmt may say a YAML error twice
			diags = append(diags, d)
		}
	}
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	out := &Rules{File: file}
	recorded := map[string]bool{}
	for gi, g := range rgs.Groups {
		grp := &Group{Name: g.Name, Interval: time.Duration(g.Interval)}
		if grp.Interval == 0 {
			grp.Interval = time.Minute
		}
		if g.QueryOffset != nil {
			grp.QueryOffset = time.Duration(*g.QueryOffset)
		}
		at := dsl.Pos{File: file}
		if gi < len(nodes) {
			at = dsl.Pos{File: file, Line: nodes[gi].line, Col: nodes[gi].col}
		}
		if grp.Interval%time.Minute != 0 || grp.QueryOffset%time.Minute != 0 {
			diags.Add(string(src), at, fmt.Sprintf("group %q", g.Name),
				"interval %v, query_offset %v: a run has a sample a minute, so a group is evaluated every whole number of minutes (1m, 2m, ...)",
				model.Duration(grp.Interval), model.Duration(grp.QueryOffset))
		}
		for ri, r := range g.Rules {
			rl := newRule(r, p)
			if gi < len(nodes) && ri < len(nodes[gi].rules) {
				rl.node = nodes[gi].rules[ri]
				rl.Pos = dsl.Pos{File: file, Line: rl.node.Line, Col: rl.node.Column}
			}
			if rl.Record {
				recorded[rl.Name] = true
			}
			grp.Rules = append(grp.Rules, rl)
		}
		out.Groups = append(out.Groups, grp)
	}
	diags = append(diags, unknownMetrics(string(src), out, recorded)...)
	diags = append(diags, costlySubqueries(string(src), out)...)
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	return out, nil
}

// newRule is a rule that rulefmt has validated (its expression parses).
func newRule(r rulefmt.Rule, p parser.Parser) *Rule {
	rl := &Rule{Name: r.Alert, Text: r.Expr, For: time.Duration(r.For), KeepFiringFor: time.Duration(r.KeepFiringFor)}
	if r.Record != "" {
		rl.Name, rl.Record = r.Record, true
	}
	rl.Expr, _ = p.ParseExpr(r.Expr)
	rl.Labels = labels.FromMap(r.Labels)
	for _, v := range r.Labels {
		rl.templated = rl.templated || strings.Contains(v, "{{")
	}
	parser.Inspect(rl.Expr, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			rl.selectors = append(rl.selectors, selector{text: vs.String(), matchers: vs.LabelMatchers})
		}
		return nil
	})
	return rl
}

// groupNode is where a group and its rules' expressions stand in the file.
type groupNode struct {
	name      string
	line, col int
	rules     []*yaml.Node // each rule's expr value
}

// exprNodes finds the node of every rule's expression, by group and rule.
func exprNodes(src []byte) ([]groupNode, error) {
	var doc struct {
		Groups []struct {
			Name  string `yaml:"name"`
			Rules []struct {
				Expr yaml.Node `yaml:"expr"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, err
	}
	if err := root.Decode(&doc); err != nil {
		return nil, err
	}
	groups := findKey(&root, "groups")
	var out []groupNode
	for i, g := range doc.Groups {
		gn := groupNode{name: g.Name}
		if groups != nil && i < len(groups.Content) {
			gn.line, gn.col = groups.Content[i].Line, groups.Content[i].Column
		}
		for j := range g.Rules {
			gn.rules = append(gn.rules, &g.Rules[j].Expr)
		}
		out = append(out, gn)
	}
	return out, nil
}

// findKey returns the value of key in the document's top mapping.
func findKey(root *yaml.Node, key string) *yaml.Node {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// leadingPos reads the "line:col: " rulefmt puts before its messages.
var leadingPos = regexp.MustCompile(`^(\d+):(\d+): (?:\d+:\d+: )?`)

// yamlLine reads the line a YAML error names.
var yamlLine = regexp.MustCompile(`line (\d+): `)

// diagnose turns an error of rulefmt into a diagnostic at its place: a
// PromQL parse error at its character of the expression, another at the
// node rulefmt names, a YAML error at its line. The message is
// Prometheus' own.
func diagnose(file, src string, err error, nodes []groupNode) dsl.Diagnostic {
	msg := err.Error()
	pos := dsl.Pos{File: file}
	var re *rulefmt.Error
	if errors.As(err, &re) {
		if m := leadingPos.FindStringSubmatch(msg); m != nil {
			pos.Line, _ = strconv.Atoi(m[1])
			pos.Col, _ = strconv.Atoi(m[2])
			msg = msg[len(m[0]):]
		}
		if at, inner, ok := inExpr(re, nodes, src); ok {
			pos, msg = at, fmt.Sprintf("group %q, rule %d, %q: could not parse expression: %s", re.Group, re.Rule, re.RuleName, inner)
			pos.File = file
		}
	} else if m := leadingPos.FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
		pos.Col, _ = strconv.Atoi(m[2])
		msg = msg[len(m[0]):]
	} else if m := yamlLine.FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
		msg = strings.ReplaceAll(msg, "\n ", "")
	}
	return dsl.Diagnostic{Pos: pos, Message: msg, Snippet: dsl.LineOf(src, pos.Line), Kind: "rules"}
}

// inExpr places a PromQL parse error of a rule at its character in the
// file: the expression's node plus the error's offset in it.
func inExpr(re *rulefmt.Error, nodes []groupNode, src string) (dsl.Pos, string, bool) {
	var perrs parser.ParseErrors
	var perr *parser.ParseErr
	switch {
	case errors.As(re, &perrs) && len(perrs) > 0:
		perr = &perrs[0]
	case errors.As(re, &perr):
	default:
		return dsl.Pos{}, "", false
	}
	node := nodeOf(re, nodes)
	if node == nil {
		return dsl.Pos{}, "", false
	}
	return placeIn(node, src, int(perr.PositionRange.Start)), "parse error: " + perr.Err.Error(), true
}

// nodeOf is the expression node of the rule an error names, by its group's
// name (unique in a file that parses this far) and its rule's number,
// which rulefmt counts from 1.
func nodeOf(re *rulefmt.Error, nodes []groupNode) *yaml.Node {
	for _, g := range nodes {
		if g.name == re.Group && re.Rule >= 1 && re.Rule <= len(g.rules) {
			return g.rules[re.Rule-1]
		}
	}
	return nil
}

// placeIn is the place in the file of the byte off of a scalar's value:
// on the node's own line for a one-line scalar (after its quote), on the
// lines that follow for a literal block (|), at their indentation.
func placeIn(n *yaml.Node, src string, off int) dsl.Pos {
	v := n.Value
	off = min(max(off, 0), len(v))
	line := strings.Count(v[:off], "\n")
	col := off - (strings.LastIndexByte(v[:off], '\n') + 1)
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		first := dsl.LineOf(src, n.Line+1)
		indent := len(first) - len(strings.TrimLeft(first, " "))
		if n.Style&yaml.FoldedStyle != 0 {
			return dsl.Pos{Line: n.Line + 1, Col: indent + 1}
		}
		return dsl.Pos{Line: n.Line + 1 + line, Col: indent + col + 1}
	case line > 0:
		return dsl.Pos{Line: n.Line, Col: n.Column}
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		return dsl.Pos{Line: n.Line, Col: n.Column + 1 + col}
	}
	return dsl.Pos{Line: n.Line, Col: n.Column + col}
}

// Exported returns the names of the series oncall's export writes, the
// counters' with their _total, sorted.
func Exported() []string {
	var names []string
	for _, f := range metricsout.Families(engine.Learner) {
		names = append(names, f.SampleName())
	}
	sort.Strings(names)
	return names
}

// The series the rule evaluation writes itself, as Prometheus does.
const (
	alertsMetric   = "ALERTS"
	forStateMetric = "ALERTS_FOR_STATE"
)

// unknownMetrics finds the metrics the rules name that neither the export
// nor a recording rule of the file writes.
func unknownMetrics(src string, rules *Rules, recorded map[string]bool) dsl.List {
	known := map[string]bool{alertsMetric: true, forStateMetric: true}
	names := Exported()
	for _, n := range names {
		known[n] = true
	}
	for n := range recorded {
		known[n] = true
		names = append(names, n)
	}
	var diags dsl.List
	for _, g := range rules.Groups {
		for i, rl := range g.Rules {
			parser.Inspect(rl.Expr, func(n parser.Node, _ []parser.Node) error {
				vs, ok := n.(*parser.VectorSelector)
				if !ok {
					return nil
				}
				for _, m := range vs.LabelMatchers {
					if m.Name == labels.MetricName && m.Type == labels.MatchEqual && !known[m.Value] {
						at := rl.Pos
						if rl.node != nil {
							at = placeIn(rl.node, src, int(vs.PosRange.Start))
							at.File = rules.File
						}
						diags = append(diags, dsl.Diagnostic{Pos: at, Snippet: dsl.LineOf(src, at.Line), Kind: "names",
							Context: fmt.Sprintf("group %q, rule %d, %q", g.Name, i+1, rl.Name),
							Message: fmt.Sprintf("no metric named %s%s (oncall run -f prometheus lists the metrics)", m.Value, spell.Suggest(m.Value, names))})
					}
				}
				return nil
			})
		}
	}
	return diags
}

// MaxSubquerySteps bounds the evaluations a step of a rule makes through
// nested subqueries: the product of each subquery's range over its step.
// Prometheus checks a query's deadline once a series, not once a point, so
// a deep nest of fine subqueries over one series would run on past the
// timeout: it is refused before it runs. Two weeks of minutes.
const MaxSubquerySteps = 20160

// costlySubqueries finds the subqueries finer than a run's one sample a
// minute, which compute nothing a step of a minute does not, and nests
// of them that evaluate more than MaxSubquerySteps times a step.
func costlySubqueries(src string, rules *Rules) dsl.List {
	var diags dsl.List
	for _, g := range rules.Groups {
		for i, rl := range g.Rules {
			parser.Inspect(rl.Expr, func(n parser.Node, path []parser.Node) error {
				sq, ok := n.(*parser.SubqueryExpr)
				if !ok {
					return nil
				}
				step := sq.Step
				if step == 0 {
					step = g.Interval
				}
				at := rl.Pos
				if rl.node != nil {
					at = placeIn(rl.node, src, int(sq.PositionRange().Start))
					at.File = rules.File
				}
				ctx := fmt.Sprintf("group %q, rule %d, %q", g.Name, i+1, rl.Name)
				if step < time.Minute {
					diags = append(diags, dsl.Diagnostic{Pos: at, Snippet: dsl.LineOf(src, at.Line), Context: ctx, Kind: "bounds",
						Message: fmt.Sprintf("a subquery step of %v is finer than the runs' one sample a minute: write 1m or more", model.Duration(step))})
					return nil
				}
				steps := float64(sq.Range / step)
				for _, p := range path {
					if outer, ok := p.(*parser.SubqueryExpr); ok && outer != sq {
						os := outer.Step
						if os == 0 {
							os = g.Interval
						}
						steps *= float64(outer.Range / max(os, time.Minute))
					}
				}
				if steps > MaxSubquerySteps {
					diags = append(diags, dsl.Diagnostic{Pos: at, Snippet: dsl.LineOf(src, at.Line), Context: ctx, Kind: "bounds",
						Message: fmt.Sprintf("its subqueries evaluate %.0f times a step, more than the %d oncall allows (a long range over a short step, or subqueries nested)", steps, MaxSubquerySteps)})
				}
				return nil
			})
		}
	}
	return diags
}
