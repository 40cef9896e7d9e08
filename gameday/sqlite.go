package gameday

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"
)

// busyTimeout is how long a SQLite write waits for another writer (this
// process or another on the same file) before it fails.
const busyTimeout = 10 * time.Second

// fileKind is what a --data file holds, told by its first bytes.
type fileKind int

const (
	fileMissing fileKind = iota
	fileEmpty            // SQLite takes an empty file for a new database
	fileSQLite
	fileJSON
	fileOther
)

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// sniff tells what a file holds without changing it.
func sniff(path string) (fileKind, []byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileMissing, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return 0, nil, fmt.Errorf("%s is not a regular file: give a file for the game days", path)
	}
	head := make([]byte, 64)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, nil, fmt.Errorf("%s: %v", path, err)
	}
	head = head[:n]
	text := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case n == 0:
		return fileEmpty, head, nil
	case bytes.HasPrefix(head, []byte(sqliteMagic)):
		return fileSQLite, head, nil
	case len(text) > 0 && (text[0] == '[' || text[0] == '{' || text[0] == 'n'):
		return fileJSON, head, nil
	}
	return fileOther, head, nil
}

// openFile opens the store of a --data file.
func openFile(ctx context.Context, path string, o Options) (Store, error) {
	kind, head, err := sniff(path)
	if err != nil {
		return nil, err
	}
	switch kind {
	case fileMissing:
		if o.Existing {
			return nil, fmt.Errorf("%s does not exist: give the file that oncall play --data keeps game days in", path)
		}
		if strings.EqualFold(filepath.Ext(path), ".json") {
			return nil, fmt.Errorf("%s does not exist, and game days are no longer kept in JSON: give a SQLite file, e.g. --data %s", path, ImportPath(path))
		}
		s, err := openSQLite(ctx, path, o.Now)
		if err == nil {
			o.Say(fmt.Sprintf("keeping game days in a new SQLite database, %s", path))
		}
		return s, err
	case fileEmpty:
		return openWritable(ctx, path, o)
	case fileSQLite:
		if err := inspectSQLite(ctx, path); err != nil {
			return nil, err
		}
		return openWritable(ctx, path, o)
	case fileJSON:
		return importJSON(ctx, path, o)
	}
	return nil, fmt.Errorf("%s is neither a SQLite database nor a JSON file of game days (it starts with %q): give another file; nothing was changed", path, clip(string(bytes.ToValidUTF8(head[:min(len(head), 16)], nil)), 16))
}

// sqliteDSN is the driver's name of a file with settings: a file: URI of
// the absolute path, so that any character of the name is kept.
func sqliteDSN(path string, settings string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	u := url.URL{Path: filepath.ToSlash(abs)}
	return "file:" + u.EscapedPath() + "?" + settings, nil
}

// openSQLite opens (creating it if need be) a SQLite file oncall may write
// to: WAL so that readers do not wait for the writer and several processes
// share the file, a busy timeout so that writers wait for each other, full
// synchronous commits so that an acknowledged result survives a crash, and
// write transactions that take the write lock as they begin.
func openSQLite(ctx context.Context, path string, now func() time.Time) (*sqlStore, error) {
	dsn, err := sqliteDSN(path, fmt.Sprintf("_busy_timeout=%d&_foreign_keys=1&_journal_mode=WAL&_synchronous=FULL&_txlock=immediate", busyTimeout.Milliseconds()))
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	db.SetMaxOpenConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s cannot be opened (%v): check that its folder exists and that oncall may write there", path, err)
	}
	s := &sqlStore{db: db, d: sqliteDialect(), where: path, now: now}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// openWritable opens an existing SQLite file and, unless the store is
// opened for reading what it keeps (Options.Existing), checks that it can
// be written: SQLite opens a file it may not write read-only, without a
// word, and every result would then fail.
func openWritable(ctx context.Context, path string, o Options) (*sqlStore, error) {
	s, err := openSQLite(ctx, path, o.Now)
	switch {
	case err != nil && readOnly(err):
		return nil, notWritable(path, err)
	case err != nil || o.Existing:
		return s, err
	}
	if err := s.checkWritable(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// readOnly reports whether err is SQLite's SQLITE_READONLY, or one of its
// extended codes.
func readOnly(err error) bool {
	var c interface{ Code() int }
	if errors.As(err, &c) {
		return c.Code()&0xff == 8
	}
	return strings.Contains(err.Error(), "readonly database")
}

func notWritable(path string, err error) error {
	return fmt.Errorf("%s cannot be written (%v): the console keeps the game days' results there; let oncall write the file and its folder (chmod u+w), or give another --data file", path, err)
}

// checkWritable writes to the database in a transaction it rolls back: an
// UPDATE of no row still asks SQLite for the write lock, which a file
// opened read-only refuses.
func (s *sqlStore) checkWritable(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE oncall_schema SET version = version WHERE version < 0`)
		tx.Rollback()
	}
	if err != nil {
		return notWritable(s.where, err)
	}
	return nil
}

// openSQLiteMemory opens an in-memory database: one connection, since each
// connection to :memory: is a database of its own.
func openSQLiteMemory(ctx context.Context, now func() time.Time) (*sqlStore, error) {
	db, err := sql.Open("sqlite", "file::memory:?_foreign_keys=1&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &sqlStore{db: db, d: sqliteDialect(), where: "the in-memory game days", now: now}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// inspectSQLite checks, through a connection that cannot write, that an
// existing SQLite file is oncall's, undamaged and not newer than this
// oncall, before anything writes to it.
func inspectSQLite(ctx context.Context, path string) error {
	dsn, err := sqliteDSN(path, fmt.Sprintf("_busy_timeout=%d&_query_only=1", busyTimeout.Milliseconds()))
	if err != nil {
		return err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := quickCheck(ctx, db); err != nil {
		return fmt.Errorf("%s is damaged (%v): restore it from a backup or give another file; nothing was changed", path, err)
	}
	tables, appID, err := sqliteTables(ctx, db)
	if err != nil {
		return fmt.Errorf("%s is damaged (%v): restore it from a backup or give another file; nothing was changed", path, err)
	}
	if !contains(tables, "oncall_schema") {
		if len(tables) > 0 || (appID != 0 && appID != applicationID) {
			return foreign(path, tables)
		}
		return nil
	}
	s := &sqlStore{db: db, d: sqliteDialect(), where: path}
	v, err := s.version(ctx, db)
	if err != nil {
		return err
	}
	if v > Version() {
		return newerSchema(path, v)
	}
	return nil
}

// quickCheck runs SQLite's own check of the file's structure, which reads
// every page: fast for a class's results, and it refuses a damaged file
// before anything is written to it.
func quickCheck(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return errors.New(clip(strings.Join(problems, "; "), 200))
	}
	return nil
}

// sqliteTables lists a database's tables and reads its application id.
func sqliteTables(ctx context.Context, db *sql.DB) ([]string, int64, error) {
	var appID int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&appID); err != nil {
		return nil, 0, err
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, 0, err
		}
		tables = append(tables, name)
	}
	return tables, appID, rows.Err()
}

// foreign refuses a database that another program made.
func foreign(where string, tables []string) error {
	list := "none"
	if len(tables) > 0 {
		list = clip(strings.Join(tables, ", "), 120)
	}
	return fmt.Errorf("%s belongs to another program (tables: %s, and no oncall_schema): give oncall a database of its own; nothing was changed", where, list)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
