package gameday

import (
	"context"
	"strings"
	"time"
)

// Options configure Open.
type Options struct {
	// Existing refuses a file that does not exist, rather than creating
	// an empty store (for export, list and delete).
	Existing bool
	// Say receives what Open did that the user should know: a JSON file
	// imported, a database created.
	Say func(msg string)
	// Now reads the clock for the times stored (time.Now).
	Now func() time.Time
}

// Open opens the store that data names: a postgres:// (or postgresql://)
// URL, or a file. A file is a SQLite database, created when it does not
// exist; a JSON file of game days is imported once into a SQLite file
// beside it (see ImportPath). Errors name the file or server and say what
// is wrong and what to do.
func Open(ctx context.Context, data string, o Options) (Store, error) {
	if o.Say == nil {
		o.Say = func(string) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if IsPostgres(data) {
		return openPostgres(ctx, data, o)
	}
	return openFile(ctx, data, o)
}

// IsPostgres reports whether data is a PostgreSQL URL.
func IsPostgres(data string) bool {
	return strings.HasPrefix(data, "postgres://") || strings.HasPrefix(data, "postgresql://")
}

// OpenMemory returns a store that forgets its game days when closed: an
// in-memory SQLite database.
func OpenMemory() (Store, error) {
	return openSQLiteMemory(context.Background(), time.Now)
}
