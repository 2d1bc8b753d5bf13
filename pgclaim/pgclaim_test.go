package pgclaim_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/validation"
	"github.com/payorch/checkout-go/webhook"
)

// New refuses what it cannot use with a *ConfigError naming the field,
// and does not contact the database.
func TestNew(t *testing.T) {
	t.Parallel()
	pool, err := pgxpool.New(context.Background(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	long := string(make([]byte, 64))
	for _, tc := range []struct {
		cfg   pgclaim.Config
		field string
	}{
		{pgclaim.Config{}, "Config.Pool"},
		{pgclaim.Config{Pool: pool, Schema: "shop" + long[:60]}, "Config.Schema"},
		{pgclaim.Config{Pool: pool, Schema: "sh\x00op"}, "Config.Schema"},
		{pgclaim.Config{Pool: pool, Schema: "sh\xffop"}, "Config.Schema"},
		{pgclaim.Config{Pool: pool, Timeout: -time.Second}, "Config.Timeout"},
		{pgclaim.Config{Pool: pool, Keep: -time.Second}, "Config.Keep"},
	} {
		_, err := pgclaim.New(tc.cfg)
		var ce *validation.ConfigError
		require.True(t, errors.As(err, &ce), "%+v: %v", tc.cfg, err)
		require.True(t, ce.Err.Has(tc.field), "%v", ce)
		require.ErrorContains(t, err, "checkout: pgclaim: new: "+tc.field+": ")
	}
	s, err := pgclaim.New(pgclaim.Config{Pool: pool, Schema: "shop_1"})
	require.NoError(t, err, "the database is away: New does not mind")
	require.Equal(t, `pgclaim.Store("shop_1"."claims")`, s.String())
}

// A Store not made by New answers every call with an error, never a panic.
func TestNilStore(t *testing.T) {
	t.Parallel()
	var s *pgclaim.Store
	ctx := context.Background()
	require.ErrorContains(t, s.Claim(ctx, "k", "t", time.Second), "checkout: pgclaim: Store not configured")
	require.Error(t, s.Done(ctx, "k", "t", time.Second))
	_, err := s.ClaimDue(ctx, time.Now(), 1, "t", time.Second)
	require.Error(t, err)
	_, err = s.Sweep(ctx)
	require.Error(t, err)
	require.Error(t, s.Migrate(ctx))
	require.Error(t, (&pgclaim.Store{}).Release(ctx, "k", "t"))
	require.Equal(t, "pgclaim.Store(nil)", s.String())
	require.ErrorContains(t, s.Handle(nil)(ctx, &checkout.OrderStatus{OrderID: "o"}), "nil function given to Store.Handle")
	require.ErrorContains(t, s.HandleEvent(nil)(ctx, &webhook.Event{}), "nil function given to Store.HandleEvent")
	require.ErrorContains(t, s.Handle(func(context.Context, pgx.Tx, *checkout.OrderStatus) error { return nil })(ctx,
		&checkout.OrderStatus{OrderID: "o", Status: checkout.StatusCharged}), "checkout: pgclaim: Store not configured")
}
