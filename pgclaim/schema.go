package pgclaim

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// tableComment marks the table as this package's, in this layout.
const tableComment = "checkout-go pgclaim v1"

// Migration returns the SQL that creates the store's schema and table,
// for a migration tool or a DBA (the Store runs it itself on first use
// unless Config.SkipMigration); "" means DefaultSchema. Run it once per
// schema; it does nothing where the objects exist.
func Migration(schema string) string {
	if schema == "" {
		schema = DefaultSchema
	}
	s := pgx.Identifier{schema}.Sanitize()
	t := pgx.Identifier{schema, "claims"}.Sanitize()
	return strings.NewReplacer("$schema", s, "$table", t, "$comment", tableComment).Replace(`CREATE SCHEMA IF NOT EXISTS $schema;
CREATE TABLE IF NOT EXISTS $table (
	key     bytea PRIMARY KEY,
	state   text NOT NULL CHECK (state IN ('free', 'held', 'done')),
	holder  text,                 -- the claim's token; for a mark, the attempt that wrote it
	until   timestamptz NOT NULL, -- the lease's or the keep's end: the key is free after it
	due     timestamptz,          -- tracked keys only: when due
	expires timestamptz,          -- tracked keys only: the window's end
	polls   integer NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS claims_due ON $table (due) WHERE due IS NOT NULL;
CREATE INDEX IF NOT EXISTS claims_until ON $table (until) WHERE due IS NULL;
COMMENT ON TABLE $table IS '$comment';
`)
}

// validName tells whether name can be a PostgreSQL identifier.
func validName(name string) bool {
	return utf8.ValidString(name) && !strings.ContainsRune(name, 0)
}

// Migrate creates the schema and table now, when missing, and checks that
// an existing table is this package's. Without it, the first call does so.
func (s *Store) Migrate(ctx context.Context) error {
	if s == nil || s.pool == nil {
		return errNilStore
	}
	return op("migrate", s.ensure(ctx))
}

// ensure makes sure the table is there, once per Store: it looks for it,
// then creates it (unless SkipMigration) under an advisory lock, since
// CREATE … IF NOT EXISTS run at once by two replicas may fail.
func (s *Store) ensure(ctx context.Context) error {
	if s.ready.Load() {
		return nil
	}
	s.migrating.Lock()
	defer s.migrating.Unlock()
	if s.ready.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	found, err := s.lookTable(ctx)
	if err != nil {
		return err
	}
	if !found {
		if !s.migrate {
			return fmt.Errorf("table %s is missing and Config.SkipMigration is set: run pgclaim.Migration(%q)", s.table, s.schema)
		}
		if err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "pgclaim:"+s.schema); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, Migration(s.schema))
			return err
		}); err != nil {
			return fmt.Errorf("create table %s: %w", s.table, err)
		}
		if _, err := s.lookTable(ctx); err != nil {
			return err
		}
	}
	s.ready.Store(true)
	return nil
}

// lookTable tells whether the table exists, and refuses one that is not
// this package's.
func (s *Store) lookTable(ctx context.Context) (bool, error) {
	var found bool
	var comment *string
	err := s.pool.QueryRow(ctx, `SELECT c IS NOT NULL, obj_description(c, 'pg_class') FROM to_regclass($1) AS c`, s.table).
		Scan(&found, &comment)
	switch {
	case err != nil:
		return false, err
	case found && (comment == nil || *comment != tableComment):
		return false, fmt.Errorf("table %s exists but is not this package's (its comment is not %q): name another Config.Schema", s.table, tableComment)
	}
	return found, nil
}
