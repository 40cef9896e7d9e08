package gameday

import (
	"context"
	"database/sql"
	"fmt"
)

// Version is the schema version this oncall writes.
func Version() int { return len(schema()) }

// migrate brings the schema to Version in one transaction, which the
// dialect serializes: replicas that start together migrate once. A database
// of a newer version is refused, before anything is written to it.
func (s *sqlStore) migrate(ctx context.Context) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.serialize(ctx, tx, lockMigrate); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.d.bootstrap); err != nil {
			return s.failed(err)
		}
		v, err := s.version(ctx, tx)
		if err != nil {
			return err
		}
		if v > len(s.d.schema) {
			return newerSchema(s.where, v)
		}
		for ; v < len(s.d.schema); v++ {
			for _, stmt := range s.d.schema[v] {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("%s: migrating the schema to version %d: %w", s.where, v+1, err)
				}
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO oncall_schema (version, applied_at) VALUES ($1, $2)`, v+1, s.d.timeValue(s.stamp())); err != nil {
				return s.failed(err)
			}
		}
		return nil
	})
}

// version reads the schema's version: 0 for a database that has none yet.
func (s *sqlStore) version(ctx context.Context, q querier) (int, error) {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version) FROM oncall_schema`).Scan(&v); err != nil {
		return 0, s.failed(err)
	}
	return int(v.Int64), nil
}

func newerSchema(where string, v int) error {
	return fmt.Errorf("%s: the schema is at version %d, written by a newer oncall (this one knows versions up to %d): upgrade oncall; nothing was changed", where, v, Version())
}
