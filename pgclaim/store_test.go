package pgclaim_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"

	"github.com/payorch/checkout-go/claim/claimtest"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
)

// The store keeps every rule of the contract, on a real PostgreSQL.
func TestContract(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	claimtest.Store(t, newStore(t, newPool(t, srv.URL), pgclaim.Config{}))
}

// A ClaimDue re-sent with its token (its answer was lost) returns the keys
// the first one claimed, and claims no more than n in all.
func TestClaimDueResent(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	s := newStore(t, newPool(t, srv.URL), pgclaim.Config{})
	ctx := context.Background()
	now := time.Now()
	var keys []string
	for i := range 5 {
		keys = append(keys, fmt.Sprint("k", i))
		require.NoError(t, s.Track(ctx, keys[i], now.Add(time.Duration(i-10)*time.Second), now.Add(time.Hour)))
	}
	first, err := s.ClaimDue(ctx, now, 2, "tok", time.Hour)
	require.NoError(t, err)
	require.Equal(t, keys[:2], entryKeys(first))
	again, err := s.ClaimDue(ctx, now, 2, "tok", time.Hour)
	require.NoError(t, err)
	require.Equal(t, first, again, "the re-send's answer is the first one's")
	more, err := s.ClaimDue(ctx, now, 3, "tok", time.Hour)
	require.NoError(t, err)
	require.Equal(t, keys[:3], entryKeys(more), "a re-send asking for more gets its own keys first")
	next, err := s.ClaimDue(ctx, now, 10, "other", time.Hour)
	require.NoError(t, err)
	require.Equal(t, keys[3:], entryKeys(next))
}

func entryKeys(es []claim.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Key)
	}
	return out
}

// A transaction holding a key's row (one committing its mark) makes Claim
// answer busy at once rather than wait, and ClaimDue take other keys.
func TestLockedRowsBlockNoOne(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	pool := newPool(t, srv.URL)
	schema := schemaName()
	s := newStore(t, pool, pgclaim.Config{Schema: schema, Timeout: time.Minute})
	ctx := context.Background()
	now := time.Now()
	require.NoError(t, s.Track(ctx, "a", now.Add(-2*time.Second), now.Add(time.Hour)))
	require.NoError(t, s.Track(ctx, "b", now.Add(-time.Second), now.Add(time.Hour)))

	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, `SELECT FROM `+schema+`.claims WHERE key = 'a' FOR UPDATE`)
	require.NoError(t, err)

	// Were Claim to wait for the lock, it would wait until this context
	// ends, and fail with its error instead of ErrBusy.
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.ErrorIs(t, s.Claim(wctx, "a", "t1", time.Minute), claim.ErrBusy)
	got, err := s.ClaimDue(wctx, now, 10, "t2", time.Minute)
	require.NoError(t, err)
	require.Equal(t, []string{"b"}, entryKeys(got), "the locked key is skipped")

	require.NoError(t, tx.Rollback(ctx))
	require.NoError(t, s.Claim(ctx, "a", "t1", time.Minute), "the lock ended: the key is free")
}

// A database that is away or does not answer fails each call within
// Config.Timeout, naming the operation; nothing is granted.
func TestUnreachableOrHung(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	go func() { // accepts, reads, never answers
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	ctx := context.Background()
	for name, url := range map[string]string{
		"hung": "postgres://shop@" + l.Addr().String() + "/shop?sslmode=disable",
		"away": "postgres://shop@127.0.0.1:1/shop?sslmode=disable",
	} {
		s := newStore(t, newPool(t, url), pgclaim.Config{Timeout: 300 * time.Millisecond})
		err := s.Claim(ctx, "k", "t", time.Minute)
		require.ErrorContains(t, err, "checkout: pgclaim: claim: ", name)
		require.NotErrorIs(t, err, claim.ErrBusy, name)
		_, err = s.ClaimDue(ctx, time.Now(), 1, "t", time.Minute)
		require.ErrorContains(t, err, "checkout: pgclaim: claim due: ", name)
	}
}
