package scenario

import (
	"reflect"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/exprwork"
)

// pagePlace is where a page rule stands, for exprwork's compiler: a
// condition over the metrics (names) that cannot read paging, which it
// decides, whose offsets at maps to the scenario file.
func pagePlace(names []string, at func(offset int) dsl.Pos) *exprwork.Place {
	return &exprwork.Place{
		At:   at,
		What: "a page rule", In: "a page rule", Subject: "it", Each: "each evaluation",
		Simpler: "write a page rule more simply", Want: reflect.Bool, Names: append(names, "paging"),
		Unknown: func(name string) string {
			if name == "paging" {
				return "the page rule cannot read paging, which is what it decides"
			}
			return ""
		},
	}
}

// boundPlace is where a grading bound stands: a number over reference.
var boundPlace = exprwork.Place{
	What: "a bound", In: "a bound", Subject: "it", Each: "each evaluation",
	Simpler: "write a bound more simply", Want: reflect.Float64, Names: []string{"reference"},
}
