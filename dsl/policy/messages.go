package policy

import (
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/dsl/exprwork"
	"github.com/oncall-sim/oncall/engine"
)

// describe names a type for a message, as exprwork's messages do.
func describe(t reflect.Type) string { return exprwork.Describe(t) }

func describeValue(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%v, %s", clip(fmt.Sprint(v)), describe(reflect.TypeOf(v)))
}

func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func helperNames() []string {
	var names []string
	for _, h := range Helpers() {
		names = append(names, h.Name)
	}
	return names
}

// quietMetric says what to read instead of a metric production does not
// show, or "" when name is not one.
func quietMetric(name string) string {
	if s, err := engine.LookupMetric(name); err != nil || !s.Quiet {
		return ""
	}
	return name + " is in the instructor's trace only: a policy reads what production shows, where a deploy is its rollout, new_build, and a bad build shows only by what it does (error_rate, service_ms, p99_ms)"
}

func variableNames() []string {
	var names []string
	for _, v := range Variables() {
		names = append(names, v.Name)
	}
	return names
}

func metricNames() []string {
	var names []string
	for _, v := range Variables() {
		if v.get != nil {
			names = append(names, v.Name)
		}
	}
	return names
}
