package engine

import (
	"testing"
)

// ParseSetting reads what users type after --set and in web forms: it never
// panics, and what it accepts is a valid value of a control that takes one.
func FuzzParseSetting(f *testing.F) {
	for _, s := range []string{"shed=0.5", "feature=off", "min_instances=40", "ttl_s=1e309", "x", "=", "rollback=1", "target_utilization=NaN", " shed = 1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, v, err := ParseSetting(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if c.Spec().Kind == KindAction {
			t.Fatalf("%q: accepted an action as a setting", text)
		}
		var ctl Controls = DefaultControls()
		if err := ctl.Set(c, v); err != nil {
			t.Fatalf("%q: accepted %v for %s, which Set refuses: %v", text, v, c, err)
		}
	})
}
