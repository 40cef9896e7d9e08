package engine

import "testing"

// rowsOf builds rows from a string a minute: 'P' pages with harm, 'p'
// pages without harm (the burn windows' tail), 'H' harms without the
// page, '.' neither.
func rowsOf(s string) []Row {
	rows := make([]Row, len(s))
	for i, c := range s {
		rows[i] = Row{Minute: i, P99MS: 100, Paging: c == 'P' || c == 'p'}
		if c == 'P' || c == 'H' {
			rows[i].Burn = 20
		}
	}
	return rows
}

// minutes_to_mitigate counts from the first page to the end of the harm it
// paged for, not to the page's resolve: the burn windows keep the page up
// for a tail after the harm stopped, the same whoever stopped it.
func TestMinutesToMitigateEndsWithTheHarm(t *testing.T) {
	for _, tc := range []struct {
		name, rows string
		want       int
	}{
		{"never paged", "..HH..", 0},
		{"harm stops, the page's tail goes on to its resolve", "..PPPpppppp...", 3},
		{"harm to the end, the page never resolves", "..PPPPPP", 6},
		{"a slow minute after the harm, under the page, counts", "..PPpppPppp..", 6},
		{"harm after the resolve is another story", "..PPpp..HHHH", 2},
		{"the page fires on the windows alone", "..ppp...", 0},
		{"harm before the page is the page's delay, not counted", "HHHPPpp..", 2},
	} {
		o := Summarize(0.2, rowsOf(tc.rows))
		if o.MinutesToMitigate != tc.want {
			t.Errorf("%s (%s): minutes_to_mitigate %d, want %d", tc.name, tc.rows, o.MinutesToMitigate, tc.want)
		}
	}
	// A p99 over the slow line is harm too, errors or not.
	rows := rowsOf("..ppp...")
	rows[3].P99MS = SlowP99MS + 1
	if o := Summarize(0.2, rows); o.MinutesToMitigate != 2 {
		t.Errorf("a slow minute under the page: %d, want 2", o.MinutesToMitigate)
	}
}
