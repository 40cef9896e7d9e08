package gameday

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/gameday/gamedaytest"
)

// refused opens data, expects an error that says each of parts, and checks
// that the file was left byte for byte as it was.
func refused(t *testing.T, path string, parts ...string) {
	t.Helper()
	before, _ := os.ReadFile(path)
	s, err := Open(context.Background(), path, Options{})
	if err == nil {
		s.Close()
		t.Fatalf("%s was opened", path)
	}
	if !containsAll(err.Error(), append(parts, path)...) {
		t.Errorf("error %q should name the file and say %q", err, parts)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Errorf("%s was changed", path)
	}
	if _, err := os.Stat(path + "-wal"); err == nil && !bytes.HasPrefix(before, []byte(sqliteMagic)) {
		t.Errorf("%s got a WAL file", path)
	}
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A file of oncall's whose pages are damaged, a SQLite file of another
// program, and a file that is neither: each is a startup error that names
// the file and what is wrong, and nothing is written to it.
func TestOpenRefuses(t *testing.T) {
	t.Run("damaged", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gamedays.db")
		s := open(t, path)
		for i := range 60 {
			s.Create(ctx, GameDay{ID: "g" + strings.Repeat("x", i), Scenario: strings.Repeat("surge ", 50), Seed: 1})
		}
		s.Close()
		b, _ := os.ReadFile(path)
		if len(b) < 3*4096 {
			t.Fatalf("the database is %d bytes: too small to damage a page", len(b))
		}
		copy(b[4096:], bytes.Repeat([]byte{0xA5}, 3000)) // page 2, from its header
		os.WriteFile(path, b, 0o644)
		refused(t, path, "is damaged", "restore it from a backup", "nothing was changed")
	})
	t.Run("header only", func(t *testing.T) {
		refused(t, write(t, "cut.db", sqliteMagic+strings.Repeat("\xff", 200)), "is damaged")
	})
	t.Run("another program's", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "shop.db")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE orders (id INTEGER)`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		refused(t, path, "belongs to another program", "customers, orders", "a database of its own")
	})
	t.Run("neither SQLite nor JSON", func(t *testing.T) {
		refused(t, write(t, "notes.txt", "game day on Friday\n"), "neither a SQLite database nor a JSON file", `"game day on Fri`)
	})
	t.Run("a folder", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Open(ctx, dir, Options{}); err == nil || !strings.Contains(err.Error(), dir) {
			t.Errorf("folder: %v", err)
		}
	})
	t.Run("missing, for export", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "none.db")
		if _, err := Open(ctx, path, Options{Existing: true}); err == nil || !containsAll(err.Error(), path, "does not exist") {
			t.Errorf("missing: %v", err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Error("the file was created")
		}
	})
	t.Run("a new .json file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gameday.json")
		if _, err := Open(ctx, path, Options{}); err == nil || !containsAll(err.Error(), path, "no longer kept in JSON", "--data "+ImportPath(path)) {
			t.Errorf("new JSON: %v", err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Error("the file was created")
		}
	})
	t.Run("a folder that does not exist", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "such", "gamedays.db")
		if _, err := Open(ctx, path, Options{}); err == nil || !containsAll(err.Error(), path, "cannot be opened", "folder exists") {
			t.Errorf("missing folder: %v", err)
		}
	})
}

// An empty file is a new database, as SQLite takes it; a new file is
// announced.
func TestOpenNew(t *testing.T) {
	var said []string
	path := filepath.Join(t.TempDir(), "new.db")
	s, err := Open(ctx, path, Options{Say: func(m string) { said = append(said, m) }})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(said) != 1 || !strings.Contains(said[0], path) {
		t.Errorf("said %q", said)
	}
	s = open(t, write(t, "empty.db", ""))
	if err := s.Create(ctx, GameDay{ID: "x", Scenario: "surge"}); err != nil {
		t.Fatal(err)
	}
}

func TestPostgresRefuses(t *testing.T) {
	url := gamedaytest.Postgres(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE results (student TEXT, mark INTEGER)`); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, url, Options{})
	if err == nil || !containsAll(err.Error(), "belongs to another program", "results", "nothing was changed") {
		t.Fatalf("foreign database: %v", err)
	}
	var n int
	db.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_name = 'oncall_schema'`).Scan(&n)
	if n != 0 {
		t.Error("oncall_schema was created in another program's database")
	}
	// A server that does not answer: the message names it without the password.
	_, err = Open(ctx, "postgres://teacher:s3cret@127.0.0.1:1/class?connect_timeout=2", Options{})
	if err == nil || !containsAll(err.Error(), "127.0.0.1:1", "cannot connect") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("no server: %v", err)
	}
}

// A SQLite file oncall may not write is refused when the store opens for
// play, with what to do: SQLite itself would open it read-only, and every
// result would fail.
func TestOpenRefusesAFileItCannotWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gamedays.db")
	open(t, path).Close()
	// The check itself, on the file opened read-only by SQLite: this runs
	// as any user, root included, whom file modes do not stop.
	dsn, err := sqliteDSN(path, "mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ro := &sqlStore{db: db, d: sqliteDialect(), where: path}
	if err := ro.checkWritable(ctx); err == nil || !containsAll(err.Error(), path, "cannot be written", "readonly", "chmod u+w") {
		t.Errorf("a file opened read-only: %v", err)
	}
	rw, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("a file oncall may write: %v", err)
	}
	rw.Close()
	// The file's mode, for a user whom it stops.
	if os.Geteuid() == 0 {
		t.Log("running as root, whom a file's mode does not stop: the mode itself is not tried")
		return
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	refused(t, path, "cannot be written", "chmod u+w")
}
