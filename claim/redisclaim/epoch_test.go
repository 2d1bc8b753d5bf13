package redisclaim_test

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/claim/redisclaim"
	"github.com/payorch/checkout-go/internal/redistest"
)

// losses records what OnDataLoss heard.
type losses struct {
	mu sync.Mutex
	ls []redisclaim.DataLoss
}

func (l *losses) add(d redisclaim.DataLoss) { l.mu.Lock(); defer l.mu.Unlock(); l.ls = append(l.ls, d) }
func (l *losses) get() []redisclaim.DataLoss {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]redisclaim.DataLoss(nil), l.ls...)
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// Redis restarts empty. Each replica notices at its next call, says so
// (log and OnDataLoss) and writes back what it holds, tracks and marked
// done; until the recovery window ends no claim is granted, so a key one
// replica handled is not handled again by another that asks first. (Before,
// nothing was said, tracked orders were never polled again, and handled
// ones ran again at their webhook's re-send.)
func TestDataLossIsReportedAndRepaired(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t, redistest.Options{})
	prefix := testPrefix()
	const recovery = time.Second
	var logs syncBuffer
	var la, lb losses
	mk := func(l *losses) *redisclaim.Store {
		return newStore(t, redisclaim.Config{Client: newClient(t, srv.Addr), Prefix: prefix, Recovery: recovery, Timeout: recovery / 2,
			Logger: slog.New(slog.NewTextHandler(&logs, nil)), OnDataLoss: l.add})
	}
	a, b := mk(&la), mk(&lb)
	now := time.Now()
	require.NoError(t, a.Claim(ctx, "held", "ta", time.Minute))
	require.NoError(t, a.Done(ctx, "doneA", "ta", time.Hour))
	require.NoError(t, a.Track(ctx, "tracked", now.Add(-time.Second), now.Add(time.Hour)))
	require.NoError(t, b.Done(ctx, "doneB", "tb", time.Hour))
	require.NoError(t, b.Claim(ctx, "released", "tb", time.Minute))
	require.NoError(t, b.Release(ctx, "released", "tb"))

	srv.Restart() // without persistence: empty
	start := time.Now()
	require.ErrorIs(t, a.Claim(ctx, "new", "ta", time.Minute), claim.ErrBusy, "recovering: no claim granted")
	require.Equal(t, []redisclaim.DataLoss{{Done: 1, Held: 1, Tracked: 1}}, la.get())
	require.Contains(t, logs.String(), "Redis lost its data")

	c := mk(&losses{}) // a replica that starts now
	require.ErrorIs(t, c.Claim(ctx, "doneA", "tc", time.Minute), claim.ErrDone, "written back by a")
	require.ErrorIs(t, c.Claim(ctx, "doneB", "tc", time.Minute), claim.ErrBusy, "b has not written back yet: refused, not granted")
	require.ErrorIs(t, c.Claim(ctx, "held", "tc", time.Minute), claim.ErrBusy, "a's claim is back")
	got, err := c.ClaimDue(ctx, now, 10, "tc-due", time.Minute)
	require.NoError(t, err)
	require.Empty(t, got, "no claim while recovering")

	require.NoError(t, b.Release(ctx, "other", "tb"), "b's next call writes back")
	require.Equal(t, []redisclaim.DataLoss{{Done: 1}}, lb.get())
	require.ErrorIs(t, c.Claim(ctx, "doneB", "tc", time.Minute), claim.ErrDone)
	require.NoError(t, a.Extend(ctx, "held", "ta", time.Minute), "a still holds its claim")

	time.Sleep(recovery - time.Since(start) + 100*time.Millisecond)
	got, err = c.ClaimDue(ctx, now, 10, "tc-due2", time.Minute)
	require.NoError(t, err)
	require.Equal(t, []claim.Entry{{Key: "tracked", Expires: time.UnixMilli(now.Add(time.Hour).UnixMilli())}}, got, "the tracked key is polled again")
	require.NoError(t, c.Claim(ctx, "new", "tc", time.Minute), "the window is over")
	require.NoError(t, c.Claim(ctx, "released", "tc", time.Minute), "a released key is free")
	require.Len(t, la.get(), 1, "reported once per loss")
}

// Without a journal the loss is still reported, with nothing written back.
func TestDataLossWithoutJournal(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t, redistest.Options{})
	var l losses
	s := newStore(t, redisclaim.Config{Client: newClient(t, srv.Addr), Journal: -1, OnDataLoss: l.add,
		Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, s.Done(ctx, "k", "t", time.Hour))
	srv.Restart()
	require.NoError(t, s.Release(ctx, "k", "t"))
	require.Equal(t, []redisclaim.DataLoss{{}}, l.get())
}

// A Redis restarted with its data (persistence on) is no loss: nothing is
// reported, and what was done stays done.
func TestRestartWithPersistenceKeepsEverything(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t, redistest.Options{Persist: true})
	var l losses
	s := newStore(t, redisclaim.Config{Client: newClient(t, srv.Addr), OnDataLoss: l.add})
	require.NoError(t, s.Done(ctx, "k", "t", time.Hour))
	require.NoError(t, s.Claim(ctx, "h", "t", time.Hour))
	srv.Restart()
	require.Eventually(t, func() bool { return s.Claim(ctx, "h", "t", time.Hour) == nil }, 5*time.Second, 10*time.Millisecond)
	require.ErrorIs(t, s.Claim(ctx, "k", "u", time.Hour), claim.ErrDone)
	require.Empty(t, l.get())
}
