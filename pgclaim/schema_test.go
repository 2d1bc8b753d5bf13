package pgclaim_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
)

func TestSchema(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	pool := newPool(t, srv.URL)
	ctx := context.Background()

	t.Run("created on first use, by many replicas at once", func(t *testing.T) {
		schema := schemaName()
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := range 8 {
			s := newStore(t, pool, pgclaim.Config{Schema: schema})
			wg.Go(func() { errs <- s.Claim(ctx, fmt.Sprint("k", i), "t", time.Minute) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
	})

	t.Run("SkipMigration: the table must be there", func(t *testing.T) {
		schema := schemaName()
		s := newStore(t, pool, pgclaim.Config{Schema: schema, SkipMigration: true})
		err := s.Claim(ctx, "k", "t", time.Minute)
		require.ErrorContains(t, err, "checkout: pgclaim: claim: table \""+schema+"\".\"claims\" is missing")
		require.ErrorContains(t, err, "pgclaim.Migration")
		_, err = pool.Exec(ctx, pgclaim.Migration(schema))
		require.NoError(t, err)
		require.NoError(t, s.Migrate(ctx))
		require.NoError(t, s.Claim(ctx, "k", "t", time.Minute))
		_, err = pool.Exec(ctx, pgclaim.Migration(schema))
		require.NoError(t, err, "the migration runs again without harm")
	})

	t.Run("a table of another's is refused", func(t *testing.T) {
		schema := schemaName()
		_, err := pool.Exec(ctx, "CREATE SCHEMA "+schema+"; CREATE TABLE "+schema+".claims (id int)")
		require.NoError(t, err)
		s := newStore(t, pool, pgclaim.Config{Schema: schema})
		require.ErrorContains(t, s.Migrate(ctx), "is not this package's")
		require.ErrorContains(t, s.Claim(ctx, "k", "t", time.Minute), "name another Config.Schema")
	})

	t.Run("any schema name", func(t *testing.T) {
		s := newStore(t, pool, pgclaim.Config{Schema: `Shop "1"; DROP TABLE x`})
		require.NoError(t, s.Claim(ctx, "k", "t", time.Minute))
		require.ErrorIs(t, s.Claim(ctx, "k", "u", time.Minute), claim.ErrBusy)
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM "Shop ""1""; DROP TABLE x".claims`).Scan(&n))
		require.Equal(t, 1, n)
	})
}
