package engine

import (
	"slices"
	"testing"
)

// Every placeholder of a relation names a quantity, so that the model page
// can fill it with the value in force; and every constant, which a scenario
// can change, is printed by some relation.
func TestRelationPlaceholdersAreQuantities(t *testing.T) {
	used := map[string]bool{}
	for _, r := range Relations() {
		for _, tmpl := range []string{r.Formula, r.Text} {
			for _, name := range PlaceholderNames(tmpl) {
				if _, err := LookupQuantity(name); err != nil {
					t.Errorf("relation %s: %v", r.ID, err)
				}
				used[name] = true
			}
		}
	}
	for _, s := range ConstantSpecs() {
		if !used[s.Name] {
			t.Errorf("no relation prints the constant %s: a scenario that changes it would not show", s.Name)
		}
	}
}

// A relation's wording for its mechanism off names a quantity of its own
// formula, and has no placeholder left to fill: it says the 0.
func TestRelationOff(t *testing.T) {
	n := 0
	for _, r := range Relations() {
		o, ok := r.Off()
		if !ok {
			continue
		}
		n++
		if !slices.Contains(PlaceholderNames(r.Formula+r.Text), o.When) {
			t.Errorf("relation %s is off when %s is 0, which it does not print", r.ID, o.When)
		}
		if PlaceholderNames(o.Formula+o.Text) != nil || o.Formula == "" || o.Text == "" {
			t.Errorf("relation %s off: %q, %q", r.ID, o.Formula, o.Text)
		}
	}
	if n == 0 {
		t.Error("no relation has a wording for its mechanism off: the retries have one")
	}
}

func TestQuantitiesDerived(t *testing.T) {
	c := DefaultConstants()
	for _, tc := range []struct {
		name string
		want float64
	}{
		{"error_budget", 0.001},
		{"budget_minutes", 43200},
		{"bad_cpu_factor", 1.25},
		{"bad_error_rate", 0.05},
		{"workers", 16},
	} {
		q, err := LookupQuantity(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Value(&c); got < tc.want-1e-12 || got > tc.want+1e-12 {
			t.Errorf("%s = %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := LookupQuantity("bad_errror_rate"); err == nil {
		t.Error("an unknown quantity was found")
	}
}

func TestFillTemplate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1 − {low_priority}·shed", "1 − <low_priority>·shed"},
		{"{a}{b} and {a}", "<a><b> and <a>"},
		{"no placeholder", "no placeholder"},
		{"an open { brace", "an open { brace"},
		{"${instance_price}", "$<instance_price>"},
	} {
		got := FillTemplate(tc.in, func(n string) string { return "<" + n + ">" })
		if got != tc.want {
			t.Errorf("FillTemplate(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := PlaceholderNames("{a}{b} and {a}"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("PlaceholderNames = %v", got)
	}
}
