package web

import (
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// A launch that fails to start is on the learner's timeline, in every
// language, as a launch is; a loss of instances, quiet, is not.
func TestTimelineShowsLaunchFailuresNotLosses(t *testing.T) {
	rows := []engine.Row{{Minute: 30, Events: []engine.Event{
		{Kind: engine.EventLoseInstances, Value: 6, Share: 0.6, Quiet: true},
		{Kind: engine.EventLaunchFailed, Value: 6},
	}}}
	lines := timeline(rows, nil)
	if len(lines) != 1 || len(lines[0].Events) != 1 {
		t.Fatalf("timeline %+v, want one line, the failed launches", lines)
	}
	want := map[string]string{
		"en": "Instances failed to start: 6",
		"bs": "Instance se nisu pokrenule: 6",
		"id": "Instance gagal dimulai: 6",
		"es": "Instancias que no arrancaron: 6",
		"fr": "Instances qui n’ont pas démarré\u00a0: 6",
		"ur": "انسٹینس شروع نہ ہو سکیں: \u20666\u2069",
	}
	for _, l := range i18n.Codes() {
		if got := lines[0].Events[0][l]; got != want[l] {
			t.Errorf("%s: %q, want %q", l, got, want[l])
		}
	}
}
