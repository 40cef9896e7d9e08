package policy

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncall-sim/oncall/engine"
)

// condGen draws a condition of comparisons and logic, the kind fast.go
// evaluates in Go, now and then with arithmetic that sends it to expr.
func condGen(t *rapid.T, rows []engine.Row, depth int) string {
	if depth > 0 && rapid.IntRange(0, 2).Draw(t, "nest") > 0 {
		l, r := condGen(t, rows, depth-1), condGen(t, rows, depth-1)
		switch rapid.IntRange(0, 4).Draw(t, "logic") {
		case 0:
			return "(" + l + " && " + r + ")"
		case 1:
			return "(" + l + " || " + r + ")"
		case 2:
			return "!(" + l + ")"
		case 3:
			return l + " and not (" + r + ")"
		}
		return "(" + l + " or " + r + ")"
	}
	switch rapid.IntRange(0, 5).Draw(t, "leaf") {
	case 0:
		return rapid.SampledFrom([]string{"paging", "feature", "autoscaling", `rising("p99_ms", 3)`, "true", "false"}).Draw(t, "bool")
	case 1:
		return "minute * 2 > 30" // arithmetic: expr's
	}
	num := func(label string) string {
		vs := Variables()
		v := vs[rapid.IntRange(0, len(vs)-1).Draw(t, label)]
		switch {
		case v.Type == Float || v.Type == Int:
			if rapid.Bool().Draw(t, label+" helper") && v.get != nil {
				return fmt.Sprintf("%s(%q, %d)", rapid.SampledFrom([]string{"ago", "mean_over", "max_over", "min_over"}).Draw(t, label+" which"), v.Name, rapid.IntRange(1, 10).Draw(t, label+" n"))
			}
			return v.Name
		case v.get != nil: // a bool metric: use the row's value as a number
			return fmt.Sprint(v.get(&rows[rapid.IntRange(0, len(rows)-1).Draw(t, label+" row")]))
		}
		return fmt.Sprint(rapid.IntRange(-3, 50).Draw(t, label+" int"))
	}
	op := rapid.SampledFrom([]string{"<", "<=", ">", ">=", "==", "!="}).Draw(t, "op")
	l := num("left")
	r := num("right")
	if rapid.Bool().Draw(t, "constant") {
		// A constant among the values the left side takes, so that both outcomes happen.
		if v, ok := lookupVariable(l); ok && v.get != nil {
			r = fmt.Sprint(v.get(&rows[rapid.IntRange(0, len(rows)-1).Draw(t, "row")]))
		}
	}
	return l + " " + op + " " + r
}

// TestFastConditionsAgreeWithExpr: a condition evaluated in Go gives, on
// every minute, what expr gives.
func TestFastConditionsAgreeWithExpr(t *testing.T) {
	setup := shortSetup(60)
	sim, _ := engine.New(engine.Options{Setup: setup, Scenario: badBuild{}, Seed: 9, Noise: true})
	if err := sim.Run(0); err != nil {
		t.Fatal(err)
	}
	rows := sim.Rows()
	fastSeen, tried := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		tried++
		cond := condGen(t, rows, 3)
		p, err := Compile("p.rules", []byte(rule1(cond, "warmup()")))
		if err != nil {
			t.Fatalf("%s: %v", cond, err)
		}
		r := p.rules[0]
		if r.fast == nil {
			return
		}
		fastSeen++
		in := p.Instance(nil).(*instance)
		for i := range rows {
			in.refresh(rows[:i+1])
			got := r.fast(in.num)
			in.sync()
			out, err := in.vm.Run(r.cond, in.env)
			if err != nil {
				t.Fatalf("%s: %v", cond, err)
			}
			if out != got {
				t.Fatalf("minute %d: %s is %v in Go, %v in expr", i, cond, got, out)
			}
		}
	})
	// Checked against the number of cases rapid ran, which -short and
	// -rapid.checks change, so that the test says the Go path was exercised.
	if fastSeen < tried/5 {
		t.Errorf("only %d conditions of %d took the Go path", fastSeen, tried)
	}
}

// TestWhichConditionsRunInGo pins which conditions take the Go path.
func TestWhichConditionsRunInGo(t *testing.T) {
	for cond, want := range map[string]bool{
		`utilization > 0.9 && shed < 1`:                        true,
		`paging && new_build > 0 && rollback_left == 0`:        true,
		`mean_over("db_util", 5) > 0.85 && feature`:            true,
		`!feature && (warm < 0.8 || since("r") >= 10)`:         true,
		`not paging or rising("p99_ms", 3)`:                    true,
		`serving * utilization > 8`:                            false,
		`time >= "09:30"`:                                      false,
		`any([p99_ms, ago("p99_ms", 5)], # > 800)`:             false,
		`let x = p99_ms; x > 3`:                                false,
		`minute == 9007199254740993`:                           false,
		`ceil(requests * service_ms / 16000 / 0.75) > serving`: false,
	} {
		p, err := Compile("p.rules", []byte(rule1(cond, "warmup()")))
		if err != nil {
			t.Fatalf("%s: %v", cond, err)
		}
		if got := p.rules[0].fast != nil; got != want {
			t.Errorf("%s: in Go %v, want %v", cond, got, want)
		}
	}
}
