package checkouttest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/reconcile"
)

// StoreContract checks what a reconcile.Reconciler relies on from a
// reconcile.Store you write (such as one on your own database): claims
// exclude each other, end with their lease, are renewed and ended only by
// their holder, an order handled final is never handed out again, and one
// whose window ended (Done not final) is still claimed by a webhook. It
// takes about 200ms.
func StoreContract(t *testing.T, s reconcile.Store) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	require.NoError(t, s.Track(ctx, "a", now.Add(-time.Second), now.Add(time.Hour)))
	require.NoError(t, s.Track(ctx, "b", now.Add(time.Hour), now.Add(time.Hour)))

	got, err := s.ClaimDue(ctx, now, 10, "t1", time.Hour)
	require.NoError(t, err)
	require.Equal(t, []reconcile.Entry{{OrderID: "a", Expires: got[0].Expires}}, got, "only the order due")
	require.WithinDuration(t, now.Add(time.Hour), got[0].Expires, time.Millisecond)
	got, err = s.ClaimDue(ctx, now.Add(2*time.Hour), 10, "t2", time.Hour)
	require.NoError(t, err)
	require.Equal(t, "b", got[0].OrderID, "a is held by t1")
	require.Len(t, got, 1)
	require.ErrorIs(t, s.Claim(ctx, "a", "t3", time.Hour), reconcile.ErrBusy)

	require.NoError(t, s.Release(ctx, "a", "t3", now, 1), "not its claim: nothing happens")
	require.ErrorIs(t, s.Claim(ctx, "a", "t3", time.Hour), reconcile.ErrBusy)
	require.ErrorIs(t, s.Done(ctx, "a", "t3", true, time.Hour), reconcile.ErrBusy)
	require.ErrorIs(t, s.Extend(ctx, "a", "t3", time.Hour), reconcile.ErrBusy)
	require.NoError(t, s.Release(ctx, "a", "t1", now, 1))
	got, err = s.ClaimDue(ctx, now, 10, "t4", 50*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, []reconcile.Entry{{OrderID: "a", Polls: 1, Expires: got[0].Expires}}, got)

	time.Sleep(80 * time.Millisecond) // t4's lease ends: a replica that died, or a slow poll
	require.ErrorIs(t, s.Extend(ctx, "a", "t4", time.Hour), reconcile.ErrBusy, "a lapsed claim is not renewed")
	require.ErrorIs(t, s.Done(ctx, "a", "t4", true, time.Hour), reconcile.ErrBusy, "nor ended")
	got, err = s.ClaimDue(ctx, time.Now().Add(time.Second), 10, "t5", 50*time.Millisecond)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.NoError(t, s.Extend(ctx, "a", "t5", time.Hour))
	time.Sleep(80 * time.Millisecond) // past the first lease, within the renewed one
	require.ErrorIs(t, s.Claim(ctx, "a", "t4", time.Hour), reconcile.ErrBusy, "renewed")
	got, err = s.ClaimDue(ctx, time.Now().Add(time.Minute), 10, "t4", time.Hour)
	require.NoError(t, err)
	require.Empty(t, got, "a is held by t5 (renewed), b by t2")
	require.NoError(t, s.Done(ctx, "a", "t5", true, time.Hour))
	require.ErrorIs(t, s.Claim(ctx, "a", "t6", time.Hour), reconcile.ErrHandled)
	require.NoError(t, s.Track(ctx, "a", now, now.Add(time.Hour)))
	got, err = s.ClaimDue(ctx, now.Add(3*time.Hour), 10, "t7", time.Hour)
	require.NoError(t, err)
	require.Empty(t, got, "a handled order is not tracked again; b is held by t2")

	require.NoError(t, s.Claim(ctx, "untracked", "t8", time.Hour), "a webhook's order need not be tracked")
	require.NoError(t, s.Done(ctx, "untracked", "t8", true, time.Hour))

	// The window of c ends: reported (Done not final), polled no more, and
	// still claimed by the webhook of its payment.
	require.NoError(t, s.Track(ctx, "c", now, now))
	got, err = s.ClaimDue(ctx, now, 10, "t9", time.Hour)
	require.NoError(t, err)
	require.Equal(t, "c", got[0].OrderID)
	require.NoError(t, s.Done(ctx, "c", "t9", false, time.Hour))
	got, err = s.ClaimDue(ctx, now.Add(3*time.Hour), 10, "t10", time.Hour)
	require.NoError(t, err)
	require.Empty(t, got, "c is not polled after its report")
	require.NoError(t, s.Claim(ctx, "c", "t11", time.Hour), "a report is not a final handling")
	require.NoError(t, s.Done(ctx, "c", "t11", true, time.Hour))
	require.ErrorIs(t, s.Claim(ctx, "c", "t12", time.Hour), reconcile.ErrHandled)
}
