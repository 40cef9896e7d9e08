package gameday

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oncall-sim/oncall/engine"
)

// All reads game days with their results, oldest first: every one, or
// those of ids in the order given.
func All(ctx context.Context, s Store, ids ...string) ([]GameDay, error) {
	if len(ids) == 0 {
		list, err := s.List(ctx)
		if err != nil {
			return nil, err
		}
		for _, g := range list {
			ids = append(ids, g.ID)
		}
	}
	days := make([]GameDay, 0, len(ids))
	for _, id := range ids {
		g, err := s.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		days = append(days, g)
	}
	return days, nil
}

// WriteJSON writes game days as a JSON list: the form a JSON --data file
// is imported from, so an export imports again.
func WriteJSON(w io.Writer, days []GameDay) error {
	if days == nil {
		days = []GameDay{}
	}
	b, err := json.MarshalIndent(days, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(escapeControls(b), '\n'))
	return err
}

// escapeControls writes DEL and the C1 controls as \u escapes, which
// encoding/json leaves as they are (it escapes those below space): read
// on a terminal, the export then carries no control a terminal obeys.
// In JSON they can only be inside strings, where the escape means the
// same character.
func escapeControls(b []byte) []byte {
	if !bytes.ContainsFunc(b, func(r rune) bool { return r >= 0x7f && r <= 0x9f }) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r >= 0x7f && r <= 0x9f {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// CSVColumns are the columns of WriteCSV: the game day's, the result's,
// then every figure of the outcome by its canonical name.
func CSVColumns() []string {
	cols := []string{"game_day", "scenario", "seed", "noise", "created", "name", "decisions", "autopilot", "score", "max_score", "submitted"}
	return append(cols, engine.OutcomeNames()...)
}

// WriteCSV writes one line a result, under the header CSVColumns. Figures
// have the decimals of the outcome's table; times are UTC, RFC 3339.
func WriteCSV(w io.Writer, days []GameDay) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVColumns()); err != nil {
		return err
	}
	for _, g := range days {
		for i := range g.Results {
			if err := cw.Write(csvRecord(&g, &g.Results[i])); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRecord(g *GameDay, r *Result) []string {
	rec := []string{
		g.ID, cell(g.Scenario), strconv.FormatUint(uint64(g.Seed), 10), strconv.FormatBool(g.Noise), stamp(g.Created),
		cell(r.Name), strconv.Itoa(r.Decisions), cell(r.Autopilot),
		strconv.FormatFloat(r.Score, 'f', -1, 64), strconv.FormatFloat(r.Max, 'f', -1, 64), stamp(r.Submitted),
	}
	for _, s := range engine.OutcomeSpecs() {
		rec = append(rec, strconv.FormatFloat(s.Get(&r.Outcome), 'f', s.Decimals, 64))
	}
	return rec
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// cell is a text a participant typed as the export writes it: without
// control characters (CleanName), which a terminal showing the export
// would obey, and kept from being read as a formula by a spreadsheet (=,
// +, -, @ first, or their full-width forms, which some spreadsheets take
// for them) with the quote spreadsheets themselves use to mark text.
func cell(s string) string {
	s = CleanName(s)
	if r, _ := utf8.DecodeRuneInString(s); strings.ContainsRune("=+-@＝＋－＠", r) {
		return "'" + s
	}
	return s
}
