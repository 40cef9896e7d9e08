package gameday

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, "pgx"
)

// connectTimeout bounds how long opening waits for the PostgreSQL server.
const connectTimeout = 15 * time.Second

// openPostgres opens the database of a postgres:// URL, checks that it is
// oncall's or holds none of oncall's tables, and migrates it.
func openPostgres(ctx context.Context, data string, o Options) (Store, error) {
	u, err := url.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("--data is not a valid PostgreSQL URL (%v): write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE", err)
	}
	where := u.Redacted() // the password stays out of messages
	db, err := sql.Open("pgx", data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(4)
	pctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: cannot connect (%v): check that the server runs, and the URL's user, password and database", where, err)
	}
	s := &sqlStore{db: db, d: postgresDialect(), where: where, now: o.Now, dsn: data}
	if err := s.checkForeign(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// checkForeign refuses a database where another program has a table of
// oncall's names: oncall would read or change that program's data.
func (s *sqlStore) checkForeign(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`)
	if err != nil {
		return s.failed(err)
	}
	defer rows.Close()
	var ours, all []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return s.failed(err)
		}
		all = append(all, name)
		if contains(ourTables(), name) {
			ours = append(ours, name)
		}
	}
	if err := rows.Err(); err != nil {
		return s.failed(err)
	}
	if len(ours) > 0 && !contains(ours, "oncall_schema") {
		return foreign(s.where, all)
	}
	return nil
}
