package pgclaim_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
)

// Sweep deletes the keys that ended and are not tracked, and only those;
// the Store sweeps by itself every SweepEvery.
func TestSweep(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	pool := newPool(t, srv.URL)
	ctx := context.Background()
	schema := schemaName()
	s := newStore(t, pool, pgclaim.Config{Schema: schema, SweepEvery: -1})
	rows := func() int {
		var n int
		require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM "+schema+".claims").Scan(&n))
		return n
	}
	short, now := 50*time.Millisecond, time.Now()
	require.NoError(t, s.Claim(ctx, "lapsed", "t", short))
	require.NoError(t, s.Claim(ctx, "released", "t", time.Hour))
	require.NoError(t, s.Release(ctx, "released", "t"))
	require.NoError(t, s.Done(ctx, "kept-briefly", "t", short))
	require.NoError(t, s.Claim(ctx, "held", "t", time.Hour))
	require.NoError(t, s.Done(ctx, "done", "t", time.Hour))
	require.NoError(t, s.Track(ctx, "tracked", now.Add(time.Hour), now.Add(2*time.Hour)))
	require.NoError(t, s.Claim(ctx, "tracked-lapsed", "t", short))
	require.NoError(t, s.Track(ctx, "tracked-lapsed", now.Add(time.Hour), now.Add(2*time.Hour)))
	time.Sleep(2 * short)
	require.Equal(t, 7, rows())

	n, err := s.Sweep(ctx)
	require.NoError(t, err)
	require.Equal(t, 3, n, "lapsed, released and kept-briefly")
	require.Equal(t, 4, rows())
	require.ErrorIs(t, s.Claim(ctx, "held", "u", time.Hour), claim.ErrBusy)
	require.ErrorIs(t, s.Claim(ctx, "done", "u", time.Hour), claim.ErrDone)
	got, err := s.ClaimDue(ctx, now.Add(time.Hour), 10, "u", time.Hour)
	require.NoError(t, err)
	require.Equal(t, []string{"tracked", "tracked-lapsed"}, entryKeys(got), "tracked keys stay, whatever their claim")
	require.NoError(t, s.Claim(ctx, "lapsed", "u", time.Hour), "a swept key is free")

	auto := newStore(t, pool, pgclaim.Config{Schema: schema, SweepEvery: time.Millisecond})
	require.NoError(t, auto.Done(ctx, "gone", "t", time.Millisecond))
	require.NoError(t, auto.Done(ctx, "done-again", "t", time.Millisecond))
	require.Eventually(t, func() bool {
		_ = auto.Claim(ctx, "trigger", "t", time.Millisecond) // a call starts a sweep in the background
		var left int
		err := pool.QueryRow(ctx, "SELECT count(*) FROM "+schema+".claims WHERE key IN ('gone', 'done-again', 'trigger')").Scan(&left)
		return err == nil && left <= 1
	}, 10*time.Second, 20*time.Millisecond)
}
