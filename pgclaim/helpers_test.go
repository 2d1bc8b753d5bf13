package pgclaim_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/pgclaim"
)

// newPool connects to url; the test's end closes the pool.
func newPool(t testing.TB, url string, tune ...func(*pgxpool.Config)) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	require.NoError(t, err)
	for _, f := range tune {
		f(cfg)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// schemaName returns a schema name of this test's own.
func schemaName() string { return "t_" + strings.ToLower(rand.Text()[:10]) }

// newStore returns a Store on pool in a schema of its own (cfg.Schema, or
// a fresh one).
func newStore(t testing.TB, pool *pgxpool.Pool, cfg pgclaim.Config) *pgclaim.Store {
	t.Helper()
	cfg.Pool = pool
	if cfg.Schema == "" {
		cfg.Schema = schemaName()
	}
	s, err := pgclaim.New(cfg)
	require.NoError(t, err)
	return s
}
