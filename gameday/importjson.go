package gameday

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// ImportPath is the SQLite file a JSON file of game days is imported into:
// the same name, with .db for .json.
func ImportPath(jsonPath string) string {
	if strings.EqualFold(filepath.Ext(jsonPath), ".json") {
		return jsonPath[:len(jsonPath)-len(".json")] + ".db"
	}
	return jsonPath + ".db"
}

// importJSON opens the SQLite file beside a JSON file of game days,
// importing the JSON file into it the first time. The JSON file is only
// read. A later start with the same JSON file finds it imported (by its
// SHA-256) and opens the database; a JSON file changed since is refused
// rather than imported twice.
func importJSON(ctx context.Context, path string, o Options) (Store, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	days, err := parseJSON(path, b)
	if err != nil {
		return nil, fmt.Errorf("%v; nothing was imported", err)
	}
	sum := sha256.Sum256(b)
	dbPath := ImportPath(path)
	kind, _, err := sniff(dbPath)
	if err != nil {
		return nil, err
	}
	switch kind {
	case fileSQLite:
		if err := inspectSQLite(ctx, dbPath); err != nil {
			return nil, err
		}
	case fileJSON, fileOther:
		return nil, fmt.Errorf("%s would be imported into %s, which exists and is not a SQLite database: move %s away; nothing was changed", path, dbPath, dbPath)
	}
	s, err := openSQLite(ctx, dbPath, o.Now)
	if err != nil {
		return nil, err
	}
	when, err := s.importDays(ctx, days, path, hex.EncodeToString(sum[:]))
	if err != nil {
		s.Close()
		return nil, err
	}
	results := 0
	for _, g := range days {
		results += len(g.Results)
	}
	if when.IsZero() {
		o.Say(fmt.Sprintf("imported %s and %s from %s into %s; %s is left as it was, and from now on the game days are kept in %s (give --data %s)", count(len(days), "game day"), count(results, "result"), path, dbPath, path, dbPath, dbPath))
	} else {
		o.Say(fmt.Sprintf("%s was imported into %s on %s: using %s (give --data %s)", path, dbPath, when.Format("2006-01-02 15:04 MST"), dbPath, dbPath))
	}
	return s, nil
}

// importDays writes the game days of a JSON file in one transaction, unless
// a file with the same SHA-256 was imported already (it returns the time of
// that import). A database that holds other game days is refused.
func (s *sqlStore) importDays(ctx context.Context, days []GameDay, source, sum string) (time.Time, error) {
	var when time.Time
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var at any
		err := tx.QueryRowContext(ctx, `SELECT imported_at FROM imports WHERE sha256 = $1`, sum).Scan(&at)
		if err == nil {
			when, err = readTime(at)
			return err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return s.failed(err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM game_days`).Scan(&n); err != nil {
			return s.failed(err)
		}
		if n > 0 {
			return fmt.Errorf("%s holds %d game days that did not come from %s as it is now (it changed since it was imported, or %s is another store): give --data %s to use the database, or move it away to import %s; nothing was changed", s.where, n, source, s.where, s.where, source)
		}
		return s.insertAll(ctx, tx, days, source, sum)
	})
	return when, err
}

func (s *sqlStore) insertAll(ctx context.Context, tx *sql.Tx, days []GameDay, source, sum string) error {
	now := s.stamp()
	results := 0
	for _, g := range days {
		if g.Created.IsZero() {
			g.Created = now
		}
		if err := s.insertDay(ctx, tx, g); err != nil {
			return err
		}
		for _, r := range g.Results {
			if r.Submitted.IsZero() {
				r.Submitted = now
			}
			outcome, err := json.Marshal(r.Outcome)
			if err != nil {
				return err
			}
			if err := s.upsert(ctx, tx, g.ID, r, string(outcome)); err != nil {
				return err
			}
			results++
		}
	}
	abs, err := filepath.Abs(source)
	if err != nil {
		abs = source
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO imports (sha256, source, game_days, results, imported_at) VALUES ($1, $2, $3, $4, $5)`,
		sum, abs, len(days), results, s.d.timeValue(now))
	return s.failed(err)
}

// count writes "1 result", "2 results".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// fileDay is an entry of a JSON file of game days; pointers tell a null
// from a missing value.
type fileDay struct {
	ID       string    `json:"id"`
	Scenario string    `json:"scenario"`
	Seed     *uint32   `json:"seed"`
	Noise    *bool     `json:"noise"`
	Created  time.Time `json:"created"`
	Results  []*Result `json:"results"`
}

// parseJSON reads a JSON file of game days (a list, as WriteJSON writes it
// and earlier versions of oncall kept it) and checks every entry: a
// malformed entry, a duplicate id, a duplicate name in a game day is an
// error that gives the file, the line and the entry.
func parseJSON(name string, b []byte) ([]GameDay, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%s is not UTF-8 text: a JSON file of game days is", name)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	line := func(off int64) int { return 1 + bytes.Count(b[:min(int(off), len(b))], []byte("\n")) }
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("%s:%d: a file of game days is a JSON list, [{\"id\": ..., \"scenario\": ..., \"seed\": ..., \"results\": [...]}, ...]", name, line(dec.InputOffset()))
	}
	var days []GameDay
	seen := map[string]int{} // id → entry
	for n := 1; dec.More(); n++ {
		start := dec.InputOffset() + int64(len(b[dec.InputOffset():])-len(bytes.TrimLeft(b[dec.InputOffset():], " \t\r\n,")))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(name, line, err, n)
		}
		at := fmt.Sprintf("%s:%d: entry %d", name, line(start), n)
		g, err := parseDay(raw)
		if err != nil {
			return nil, fmt.Errorf("%s %v", at, err)
		}
		if first, dup := seen[g.ID]; dup {
			return nil, fmt.Errorf("%s has the id %s of entry %d: ids must be unique, remove or rename one", at, g.ID, first)
		}
		seen[g.ID] = n
		days = append(days, g)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, syntaxError(name, line, err, len(days)+1)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s:%d: text after the list of game days: a file holds one list", name, line(dec.InputOffset()))
	}
	return days, nil
}

func syntaxError(name string, line func(int64) int, err error, entry int) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("%s:%d: entry %d: %v", name, line(syn.Offset), entry, syn)
	}
	return fmt.Errorf("%s: entry %d: the file ends in the middle of it", name, entry)
}

// parseDay reads and checks one entry.
func parseDay(raw json.RawMessage) (GameDay, error) {
	if string(raw) == "null" {
		return GameDay{}, errors.New("is null: each entry is a game day, {\"id\": ..., \"scenario\": ..., \"seed\": ..., \"results\": [...]}")
	}
	var f fileDay
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return GameDay{}, fmt.Errorf("is not a game day: %s", decodeMessage(err))
	}
	if err := CheckID(f.ID); err != nil {
		return GameDay{}, fmt.Errorf("has a bad %v", err)
	}
	if f.Scenario == "" || utf8.RuneCountInString(f.Scenario) > 200 {
		return GameDay{}, fmt.Errorf("(game day %s): scenario is missing or longer than 200 characters", f.ID)
	}
	if f.Seed == nil {
		return GameDay{}, fmt.Errorf("(game day %s): seed is missing", f.ID)
	}
	g := GameDay{ID: f.ID, Scenario: f.Scenario, Seed: *f.Seed, Noise: f.Noise == nil || *f.Noise, Created: f.Created, Results: []Result{}}
	names := map[string]int{}
	for i, r := range f.Results {
		if err := checkResult(r); err != nil {
			return GameDay{}, fmt.Errorf("(game day %s): result %d: %v", f.ID, i+1, err)
		}
		if first, dup := names[r.Name]; dup {
			return GameDay{}, fmt.Errorf("(game day %s): results %d and %d are both %q: one name has one result", f.ID, first, i+1, r.Name)
		}
		names[r.Name] = i + 1
		g.Results = append(g.Results, *r)
	}
	if len(g.Results) > MaxResults {
		return GameDay{}, fmt.Errorf("(game day %s): %d results, more than a game day holds (%d)", f.ID, len(g.Results), MaxResults)
	}
	return g, nil
}

// decodeMessage words a decoding error without Go's names for types.
func decodeMessage(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return fmt.Sprintf("field %q cannot be %s", typ.Field, typ.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func checkResult(r *Result) error {
	if r == nil {
		return errors.New("is null")
	}
	r.Name = CleanName(r.Name) // a file of an earlier oncall, which kept names as they were typed
	if err := CheckName(r.Name); err != nil {
		return err
	}
	if r.Decisions < 0 {
		return fmt.Errorf("decisions = %d: a count is 0 or more", r.Decisions)
	}
	return CheckReplay(*r)
}
