package lease

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
)

// A claim kept alive outlasts its lease many times over: no one else takes
// the key while the work runs (the lease was not extended before: a slow
// Handle ran again and again).
func TestKeepRenews(t *testing.T) {
	ctx := context.Background()
	m := claim.NewMemory(claim.MemoryConfig{})
	const lease = 60 * time.Millisecond
	since := time.Now()
	require.NoError(t, m.Claim(ctx, "k", "t1", lease))
	l := Keep(ctx, m, "k", "t1", lease, since)
	for range 8 { // the work: four leases long
		time.Sleep(lease / 2)
		require.ErrorIs(t, m.Claim(ctx, "k", "t2", lease), claim.ErrBusy)
	}
	require.NoError(t, l.Held(0))
	require.NoError(t, l.Context().Err())
	l.Stop()
	require.ErrorIs(t, l.Context().Err(), context.Canceled)
	require.Eventually(t, func() bool { return m.Claim(ctx, "k", "t2", lease) == nil }, 5*time.Second, lease/4, "stopped: the lease ends")
}

// A claim another ended (done elsewhere, or taken after a lapse) cancels
// the work's context with ErrLost.
func TestKeepLost(t *testing.T) {
	ctx := context.Background()
	m := claim.NewMemory(claim.MemoryConfig{})
	const lease = 30 * time.Millisecond
	require.NoError(t, m.Claim(ctx, "k", "t1", time.Hour))
	l := Keep(ctx, m, "k", "t1", lease, time.Now())
	defer l.Stop()
	require.NoError(t, m.Done(ctx, "k", "other", time.Hour))
	<-l.Context().Done()
	require.ErrorIs(t, context.Cause(l.Context()), ErrLost)
	require.ErrorIs(t, context.Cause(l.Context()), claim.ErrDone)
	require.ErrorIs(t, l.Held(0), ErrLost)
}

// down is a store that does not answer.
type down struct{ claim.Claimer }

func (down) Extend(context.Context, string, string, time.Duration) error {
	return errors.New("connection refused")
}

// A store that cannot be reached is tried again until the lease would
// have run out; then the claim counts as lost.
func TestKeepUnreachable(t *testing.T) {
	const lease = 40 * time.Millisecond
	l := Keep(context.Background(), down{}, "k", "t1", lease, time.Now())
	defer l.Stop()
	<-l.Context().Done()
	require.ErrorIs(t, context.Cause(l.Context()), ErrLost)
	require.ErrorContains(t, context.Cause(l.Context()), "connection refused")
	require.Error(t, l.Held(0))
}

// Held refuses work that would start with less than margin of lease left.
func TestHeldMargin(t *testing.T) {
	l := Keep(context.Background(), claim.NewMemory(claim.MemoryConfig{}), "k", "t", time.Hour, time.Now().Add(-50*time.Minute))
	defer l.Stop()
	require.NoError(t, l.Held(5*time.Minute))
	require.ErrorIs(t, l.Held(15*time.Minute), ErrLost)
}

// flaky fails its first n Done calls, as a store restarting does.
type flaky struct {
	*claim.Memory
	fails atomic.Int32
}

func (f *flaky) Done(ctx context.Context, key, token string, keep time.Duration) error {
	if f.fails.Add(-1) >= 0 {
		return errors.New("connection reset")
	}
	return f.Memory.Done(ctx, key, token, keep)
}

// Done is tried until recorded (one failed Done made the work run again),
// and gives up with the context.
func TestMarkDone(t *testing.T) {
	ctx := context.Background()
	f := &flaky{Memory: claim.NewMemory(claim.MemoryConfig{})}
	f.fails.Store(3)
	require.NoError(t, MarkDone(ctx, f, "k", "t", time.Hour))
	require.ErrorIs(t, f.Claim(ctx, "k", "u", time.Hour), claim.ErrDone)

	f.fails.Store(1 << 30)
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	require.EqualError(t, MarkDone(cctx, f, "j", "t", time.Hour), "connection reset")
}
