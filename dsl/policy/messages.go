package policy

import (
	"github.com/oncall-sim/oncall/engine"

	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// describe names a type for a message.
func describe(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	switch k := t.Kind(); {
	case k == reflect.Bool:
		return "true or false (bool)"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "a whole number (int)"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number (float)"
	case k == reflect.String:
		return "text (string)"
	case k == reflect.Slice || k == reflect.Array:
		return "a list (" + t.String() + ")"
	case k == reflect.Map:
		return "a map (" + t.String() + ")"
	}
	return t.String()
}

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
