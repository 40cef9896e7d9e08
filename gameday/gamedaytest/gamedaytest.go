// Package gamedaytest gives tests a PostgreSQL database of their own, on
// the throwaway server that test.sh starts.
//
// The server is named by ONCALL_TEST_POSTGRES, a URL whose user may create
// databases. Without it a test that asks for PostgreSQL skips with a
// message, or fails when CI=true: CI must run every store test on both
// databases.
package gamedaytest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, "pgx"
)

// Env is the variable that names the test server.
const Env = "ONCALL_TEST_POSTGRES"

// Postgres creates an empty database for t and returns its URL; the
// database is dropped when t ends.
func Postgres(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(Env)
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI runs the PostgreSQL tests (./test.sh starts a server for them)", Env)
		}
		t.Skipf("no PostgreSQL: run ./test.sh (as root it installs PostgreSQL) or set %s to a server's URL whose user may create databases", Env)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	defer db.Close()
	var b [6]byte
	rand.Read(b[:])
	name := "oncall_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("%s: creating a database: %v", u.Redacted(), err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", admin)
		if err != nil {
			return
		}
		defer db.Close()
		db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}
