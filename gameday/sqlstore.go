package gameday

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// sqlStore is the Store over database/sql, for either dialect.
type sqlStore struct {
	db    *sql.DB
	d     *dialect
	where string // the file or the server, for messages
	now   func() time.Time
	// dsn is the PostgreSQL URL, which the listener of the teams' entries
	// connects to (relay.go); "" for SQLite.
	dsn string
}

// inTx runs f in a transaction, committed when f returns nil.
func (s *sqlStore) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.failed(err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return s.failed(err)
	}
	return nil
}

// failed names the database in an error of the driver.
func (s *sqlStore) failed(err error) error {
	var k *kindError
	if err == nil || errors.As(err, &k) {
		return err
	}
	return fmt.Errorf("%s: %w", s.where, err)
}

// serialize takes the transaction's advisory lock, where the dialect has one.
func (s *sqlStore) serialize(ctx context.Context, tx *sql.Tx, key int) error {
	if q := s.d.serialize(key); q != "" {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return s.failed(err)
		}
	}
	return nil
}

func (s *sqlStore) stamp() time.Time { return s.now().UTC().Truncate(time.Second) }

func (s *sqlStore) Create(ctx context.Context, g GameDay) error {
	if err := CheckID(g.ID); err != nil {
		return err
	}
	if g.Created.IsZero() {
		g.Created = s.stamp()
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.roomForOne(ctx, tx); err != nil {
			return err
		}
		return s.insertDay(ctx, tx, g)
	})
}

// roomForOne takes the lock of creating game days and says whether the
// console has room for one more, within the transaction that creates it:
// a solo game day (Create) or a team one (CreateTeamDay) alike.
func (s *sqlStore) roomForOne(ctx context.Context, tx *sql.Tx) error {
	if err := s.serialize(ctx, tx, lockCreate); err != nil {
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM game_days`).Scan(&n); err != nil {
		return s.failed(err)
	}
	if n >= MaxGameDays {
		return &kindError{ErrFull, fmt.Sprintf("the console holds %d game days already: delete old ones (oncall gameday delete) or start it with another --data", MaxGameDays)}
	}
	return nil
}

// insertDay adds a game day whose id is not in use yet.
func (s *sqlStore) insertDay(ctx context.Context, tx *sql.Tx, g GameDay) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM game_days WHERE id = $1`, g.ID).Scan(&one)
	if err == nil {
		return &kindError{ErrExists, "game day " + g.ID + " exists already: ids must be unique"}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return s.failed(err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO game_days (id, scenario, seed, noise, created_at) VALUES ($1, $2, $3, $4, $5)`,
		g.ID, g.Scenario, int64(g.Seed), g.Noise, s.d.timeValue(g.Created))
	return s.failed(err)
}

// querier is what Get needs of a database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *sqlStore) Get(ctx context.Context, id string) (GameDay, error) {
	return s.get(ctx, s.db, id)
}

func (s *sqlStore) get(ctx context.Context, q querier, id string) (GameDay, error) {
	g := GameDay{ID: id, Results: []Result{}}
	var seed int64
	var created any
	err := q.QueryRowContext(ctx, `SELECT scenario, seed, noise, created_at FROM game_days WHERE id = $1`, id).Scan(&g.Scenario, &seed, &g.Noise, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return GameDay{}, notFound(id)
	}
	if err != nil {
		return GameDay{}, s.failed(err)
	}
	g.Seed = uint32(seed)
	if g.Created, err = readTime(created); err != nil {
		return GameDay{}, s.damaged("game day "+id, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT name, decisions, autopilot, score, max_score, outcome, submitted_at, replay FROM results WHERE game_day_id = $1 ORDER BY id`, id)
	if err != nil {
		return GameDay{}, s.failed(err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := s.scanResult(rows)
		if err != nil {
			return GameDay{}, err
		}
		g.Results = append(g.Results, r)
	}
	return g, s.failed(rows.Err())
}

func (s *sqlStore) scanResult(rows *sql.Rows) (Result, error) {
	var r Result
	var outcome string
	var replay sql.NullString
	var submitted any
	if err := rows.Scan(&r.Name, &r.Decisions, &r.Autopilot, &r.Score, &r.Max, &outcome, &submitted, &replay); err != nil {
		return r, s.failed(err)
	}
	// A name kept before names were cleaned reads back cleaned, so that no
	// view or export carries what a terminal would obey.
	r.Name, r.Autopilot = CleanName(r.Name), CleanName(r.Autopilot)
	if err := json.Unmarshal([]byte(outcome), &r.Outcome); err != nil {
		return r, s.damaged("the outcome of "+r.Name, err)
	}
	t, err := readTime(submitted)
	if err != nil {
		return r, s.damaged("the result of "+r.Name, err)
	}
	r.Submitted = t
	// A result kept before replays were (schema version 1) has none, and
	// its results page links to nothing.
	if replay.Valid {
		r.Replay = new(Replay)
		if err := json.Unmarshal([]byte(replay.String), r.Replay); err != nil {
			return r, s.damaged("the replay of "+r.Name, err)
		}
	}
	return r, nil
}

// damaged says that a value in the database is not one oncall wrote.
func (s *sqlStore) damaged(what string, err error) error {
	return fmt.Errorf("%s: %s does not read back (%v): was the database edited by hand?", s.where, what, err)
}

func (s *sqlStore) Add(ctx context.Context, id string, r Result) (GameDay, error) {
	r, outcome, err := s.checkResult(r)
	if err != nil {
		return GameDay{}, err
	}
	var g GameDay
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockDay(ctx, tx, id); err != nil {
			return err
		}
		if err := s.underCap(ctx, tx, id, r.Name); err != nil {
			return err
		}
		if err := s.upsert(ctx, tx, id, r, outcome); err != nil {
			return err
		}
		var err error
		g, err = s.get(ctx, tx, id)
		return err
	})
	return g, err
}

// checkResult checks a result as Add and AddNew keep it: its name cleaned,
// its figures finite, its replay well formed, its time stamped; it returns
// the outcome in JSON.
func (s *sqlStore) checkResult(r Result) (Result, string, error) {
	r.Name = CleanName(r.Name)
	if err := CheckName(r.Name); err != nil {
		return r, "", err
	}
	if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) || math.IsNaN(r.Max) || math.IsInf(r.Max, 0) {
		return r, "", fmt.Errorf("result of %s: score %v of %v is not a number", r.Name, r.Score, r.Max)
	}
	if err := CheckReplay(r); err != nil {
		return r, "", fmt.Errorf("result of %s: %v", r.Name, err)
	}
	outcome, err := json.Marshal(r.Outcome)
	if err != nil {
		return r, "", fmt.Errorf("result of %s: the outcome cannot be written: %v", r.Name, err)
	}
	if r.Submitted.IsZero() {
		r.Submitted = s.stamp()
	}
	return r, string(outcome), nil
}

// underCap refuses a new name in a game day that has MaxResults already; a
// name that sent before replaces its result.
func (s *sqlStore) underCap(ctx context.Context, tx *sql.Tx, id, name string) error {
	var others int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE game_day_id = $1 AND name <> $2`, id, name).Scan(&others); err != nil {
		return s.failed(err)
	}
	if others >= MaxResults {
		return &kindError{ErrFull, fmt.Sprintf("game day %s has %d results already", id, MaxResults)}
	}
	return nil
}

// upsert keeps a result; a name that sent before keeps its row, and so its
// place in the list.
func (s *sqlStore) upsert(ctx context.Context, tx *sql.Tx, id string, r Result, outcome string) error {
	var replay any // NULL: no replay
	if r.Replay != nil {
		b, err := json.Marshal(r.Replay)
		if err != nil {
			return fmt.Errorf("result of %s: the replay cannot be written: %v", r.Name, err)
		}
		replay = string(b)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO results (game_day_id, name, decisions, autopilot, score, max_score, outcome, submitted_at, replay)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (game_day_id, name) DO UPDATE SET decisions = excluded.decisions, autopilot = excluded.autopilot,
	score = excluded.score, max_score = excluded.max_score, outcome = excluded.outcome, submitted_at = excluded.submitted_at,
	replay = excluded.replay`,
		id, r.Name, r.Decisions, r.Autopilot, r.Score, r.Max, outcome, s.d.timeValue(r.Submitted), replay)
	return s.failed(err)
}

func (s *sqlStore) List(ctx context.Context) ([]Summary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT g.id, g.scenario, g.seed, g.noise, g.created_at, count(r.id)
FROM game_days g LEFT JOIN results r ON r.game_day_id = g.id
GROUP BY g.id, g.scenario, g.seed, g.noise, g.created_at
ORDER BY g.created_at, g.id`)
	if err != nil {
		return nil, s.failed(err)
	}
	defer rows.Close()
	out := []Summary{}
	for rows.Next() {
		var g Summary
		var seed int64
		var created any
		if err := rows.Scan(&g.ID, &g.Scenario, &seed, &g.Noise, &created, &g.Results); err != nil {
			return nil, s.failed(err)
		}
		g.Seed = uint32(seed)
		if g.Created, err = readTime(created); err != nil {
			return nil, s.damaged("game day "+g.ID, err)
		}
		out = append(out, g)
	}
	return out, s.failed(rows.Err())
}

func (s *sqlStore) Delete(ctx context.Context, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		// The game day's row is locked first, so that a result being kept
		// finishes before its game day goes, and is deleted with it.
		if err := s.lockDay(ctx, tx, id); err != nil {
			return err
		}
		// The results go by name, not only by the foreign key's cascade,
		// so that a connection without foreign keys enforced (sqlite3's
		// default) leaves none behind.
		if _, err := tx.ExecContext(ctx, `DELETE FROM results WHERE game_day_id = $1`, id); err != nil {
			return s.failed(err)
		}
		if err := s.deleteTeams(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM game_days WHERE id = $1`, id)
		return s.failed(err)
	})
}

// lockDay checks that a game day exists and, on PostgreSQL, locks its row
// until the transaction ends.
func (s *sqlStore) lockDay(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM game_days WHERE id = $1`+s.d.lockRow, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound(id)
	}
	return s.failed(err)
}

func (s *sqlStore) Close() error { return s.db.Close() }
