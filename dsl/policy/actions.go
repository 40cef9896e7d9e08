package policy

import (
	"fmt"
	"math"
	"reflect"
)

// argTypeProblem reports whether type t cannot be an argument of af, with
// a hint when there is one.
func argTypeProblem(af ActionFunc, t reflect.Type) (bool, string) {
	if t == nil || t.Kind() == reflect.Interface {
		return false, "" // known only at run time; checked then
	}
	k := t.Kind()
	isInt := k >= reflect.Int && k <= reflect.Uint64
	isFloat := k == reflect.Float32 || k == reflect.Float64
	switch af.Arg {
	case Int:
		if isFloat {
			return true, ": round it, e.g. int(ceil(x)) or int(round(x))"
		}
		return !isInt, ""
	case Float:
		return !isInt && !isFloat, ""
	case Bool:
		if isInt || isFloat {
			return true, ": write true or false, or a comparison such as db_util < 0.8"
		}
		return k != reflect.Bool, ""
	}
	return false, ""
}

// actionValue converts what an argument gave to the control's value and
// checks it: NaN and ±Inf never reach a control.
func actionValue(af ActionFunc, out any) (float64, error) {
	spec := af.Control.Spec()
	var v float64
	switch x := out.(type) {
	case float64:
		v = x
	case float32:
		v = float64(x)
	case int:
		v = float64(x)
	case int64:
		v = float64(x)
	case bool:
		if af.Arg != Bool {
			return 0, fmt.Errorf("%s takes %s, but it got %v", af.Name, spec.Range(), x)
		}
		if x {
			v = 1
		}
	default:
		return 0, fmt.Errorf("%s takes %s, but it got %s", af.Name, spec.Range(), describeValue(out))
	}
	if af.Arg == Bool {
		if _, ok := out.(bool); !ok {
			return 0, fmt.Errorf("%s takes true or false, but it got %s", af.Name, describeValue(out))
		}
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s(%s): %s is not a number any control takes (a division by zero?); it takes %s", af.Name, fmtNum(v), fmtNum(v), spec.Range())
	}
	if err := spec.Check(v); err != nil {
		return 0, fmt.Errorf("%s(%s): %v", af.Name, fmtNum(v), err)
	}
	return v, nil
}

func exampleCall(name string) string {
	switch name {
	case "set_min_instances":
		return "set_min_instances(14)"
	case "set_autoscaling", "set_feature":
		return name + "(false)"
	case "set_target":
		return "set_target(0.5)"
	case "set_ttl":
		return "set_ttl(120)"
	case "set_shed":
		return "set_shed(0.5)"
	case "switch":
		return `switch("deploy-freeze", true)`
	}
	return name + "()"
}

func actionNames() []string {
	var names []string
	for _, a := range Actions() {
		names = append(names, a.Name)
	}
	return names
}
