package gameday

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/oncall-sim/oncall/team"
)

// TeamDay is a game day played by teams: each team one shared shift of
// the game day's scenario and seed, whose log the store keeps (package
// team), run by a facilitator.
type TeamDay struct {
	GameDay
	// Facilitator is the SHA-256 of the facilitator's token, in hex: the
	// store keeps no token, only what recognizes one.
	Facilitator string
	// MaxMembers bounds each team's members (1 to team.MaxMembers).
	MaxMembers int
	Teams      []Team
}

// Team is one team of a team game day.
type Team struct {
	ID   string
	Name string
	// Token is the SHA-256 of the team's token (its link), in hex.
	Token string
}

// CreateTeamDay adds a team game day and its teams, under the cap on game
// days; an id in use is ErrExists.
func (s *sqlStore) CreateTeamDay(ctx context.Context, d TeamDay) error {
	if err := CheckID(d.ID); err != nil {
		return err
	}
	if len(d.Teams) == 0 || len(d.Teams) > team.MaxTeams || d.Facilitator == "" || d.MaxMembers < 1 || d.MaxMembers > team.MaxMembers {
		return fmt.Errorf("team game day %s: 1 to %d teams of 1 to %d members, and a facilitator", d.ID, team.MaxTeams, team.MaxMembers)
	}
	if d.Created.IsZero() {
		d.Created = s.stamp()
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.roomForOne(ctx, tx); err != nil {
			return err
		}
		if err := s.insertDay(ctx, tx, d.GameDay); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE game_days SET facilitator = $2, max_members = $3 WHERE id = $1`, d.ID, d.Facilitator, d.MaxMembers); err != nil {
			return s.failed(err)
		}
		for i, t := range d.Teams {
			if _, err := tx.ExecContext(ctx, `INSERT INTO teams (id, game_day_id, position, name, token) VALUES ($1, $2, $3, $4, $5)`,
				t.ID, d.ID, i, t.Name, t.Token); err != nil {
				return s.failed(err)
			}
		}
		return nil
	})
}

// TeamDay returns the team game day whose facilitator's token has the
// hash given; none is ErrNotFound.
func (s *sqlStore) TeamDay(ctx context.Context, facilitator string) (TeamDay, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT id FROM game_days WHERE facilitator = $1`, facilitator).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return TeamDay{}, &kindError{ErrNotFound, "no team game day has this facilitator's link: check the link, or the game day was deleted"}
	}
	if err != nil {
		return TeamDay{}, s.failed(err)
	}
	return s.teamDay(ctx, id)
}

// TeamOf returns a team and its game day: by the hash of the team's
// token (byToken), or by its id.
func (s *sqlStore) TeamOf(ctx context.Context, key string, byToken bool) (TeamDay, Team, error) {
	col := "id"
	if byToken {
		col = "token"
	}
	var day, id string
	err := s.db.QueryRowContext(ctx, `SELECT game_day_id, id FROM teams WHERE `+col+` = $1`, key).Scan(&day, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return TeamDay{}, Team{}, &kindError{ErrNotFound, "no team has this link: check it, or the game day ended and was deleted"}
	}
	if err != nil {
		return TeamDay{}, Team{}, s.failed(err)
	}
	d, err := s.teamDay(ctx, day)
	if err != nil {
		return TeamDay{}, Team{}, err
	}
	for _, t := range d.Teams {
		if t.ID == id {
			return d, t, nil
		}
	}
	return TeamDay{}, Team{}, notFound(day)
}

// teamDay reads a team game day and its teams by id.
func (s *sqlStore) teamDay(ctx context.Context, id string) (TeamDay, error) {
	var d TeamDay
	var seed int64
	var created any
	var fac sql.NullString
	var max sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT scenario, seed, noise, created_at, facilitator, max_members FROM game_days WHERE id = $1`, id).
		Scan(&d.Scenario, &seed, &d.Noise, &created, &fac, &max)
	if errors.Is(err, sql.ErrNoRows) {
		return TeamDay{}, notFound(id)
	}
	if err != nil {
		return TeamDay{}, s.failed(err)
	}
	if !fac.Valid {
		return TeamDay{}, &kindError{ErrNotFound, "game day " + clip(id, 40) + " is a class's, not a team game day"}
	}
	d.ID, d.Seed, d.Facilitator, d.MaxMembers, d.Results = id, uint32(seed), fac.String, int(max.Int64), []Result{}
	if d.Created, err = readTime(created); err != nil {
		return TeamDay{}, s.damaged("game day "+id, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, token FROM teams WHERE game_day_id = $1 ORDER BY position`, id)
	if err != nil {
		return TeamDay{}, s.failed(err)
	}
	defer rows.Close()
	for rows.Next() {
		var t Team
		if err := rows.Scan(&t.ID, &t.Name, &t.Token); err != nil {
			return TeamDay{}, s.failed(err)
		}
		t.Name = CleanName(t.Name)
		d.Teams = append(d.Teams, t)
	}
	return d, s.failed(rows.Err())
}

// deleteTeams removes a game day's teams and their logs, in the
// transaction that deletes it.
func (s *sqlStore) deleteTeams(ctx context.Context, tx *sql.Tx, id string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM team_entries WHERE team_id IN (SELECT id FROM teams WHERE game_day_id = $1)`, id); err != nil {
		return s.failed(err)
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM teams WHERE game_day_id = $1`, id)
	return s.failed(err)
}

// storedEntry is an entry as the store keeps it: the entry, and the hash
// of a joining member's token, which no page is sent.
type storedEntry struct {
	team.Entry
	Token string `json:"token,omitempty"`
}

// Entries implements team.Store.
func (s *sqlStore) Entries(ctx context.Context, teamID string, after int64) ([]team.Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, body FROM team_entries WHERE team_id = $1 AND seq > $2 ORDER BY seq`, teamID, after)
	if err != nil {
		return nil, s.failed(err)
	}
	defer rows.Close()
	var out []team.Entry
	for rows.Next() {
		var seq int64
		var body string
		if err := rows.Scan(&seq, &body); err != nil {
			return nil, s.failed(err)
		}
		var e storedEntry
		if err := json.Unmarshal([]byte(body), &e); err != nil || e.Seq != seq {
			return nil, s.damaged(fmt.Sprintf("entry %d of team %s", seq, teamID), err)
		}
		e.Entry.Token = e.Token
		out = append(out, e.Entry)
	}
	return out, s.failed(rows.Err())
}

// Append implements team.Store: the entries in one transaction, each
// under its number unless its team's log holds that number already; on
// PostgreSQL each entry stored is announced to the other consoles
// (NOTIFY), when the transaction commits.
func (s *sqlStore) Append(ctx context.Context, entries []team.Stored) ([]bool, error) {
	landed := make([]bool, len(entries))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for i, st := range entries {
			body, err := json.Marshal(storedEntry{Entry: st.Entry, Token: st.Entry.Token})
			if err != nil {
				return fmt.Errorf("entry %d of team %s: %v", st.Entry.Seq, st.Team, err)
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO team_entries (team_id, seq, kind, minute, at, body) VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (team_id, seq) DO NOTHING`, st.Team, st.Entry.Seq, string(st.Entry.Kind), st.Entry.Minute, s.d.timeValue(st.Entry.At), string(body))
			if err != nil {
				return s.failed(err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return s.failed(err)
			}
			landed[i] = n == 1
			if landed[i] && s.d.notify != "" {
				if _, err := tx.ExecContext(ctx, s.d.notify, notifyChannel, fmt.Sprintf("%s:%d", st.Team, st.Entry.Seq)); err != nil {
					return s.failed(err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return landed, nil
}

// Kept implements team.Store: one query for every team asked of.
func (s *sqlStore) Kept(ctx context.Context, teams []string) ([]string, error) {
	if len(teams) == 0 {
		return nil, nil
	}
	marks := make([]string, len(teams))
	args := make([]any, len(teams))
	for i, t := range teams {
		marks[i], args[i] = "$"+strconv.Itoa(i+1), t
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM teams WHERE id IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, s.failed(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.failed(err)
		}
		out = append(out, id)
	}
	return out, s.failed(rows.Err())
}

// ClaimClock implements team.Store.
func (s *sqlStore) ClaimClock(ctx context.Context, teamID, owner string, until, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE teams SET clock_owner = $2, clock_until = $3
WHERE id = $1 AND (clock_owner IS NULL OR clock_owner = $2 OR clock_until < $4)`, teamID, owner, until.UnixMilli(), now.UnixMilli())
	if err != nil {
		return false, s.failed(err)
	}
	n, err := res.RowsAffected()
	return n == 1, s.failed(err)
}
