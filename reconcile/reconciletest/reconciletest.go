// Package reconciletest checks a [reconcile.Store] of your own (on your
// database, say) against what a [reconcile.Reconciler] relies on, as the
// memory and Redis stores are checked.
package reconciletest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/payorch/checkout-go/reconcile"
)

// StoreContract checks what a [reconcile.Reconciler] relies on from a
// [reconcile.Store] you write (such as one on your own database): claims
// exclude each other, end with their lease, are renewed and ended only by
// their holder, an order handled final is never handed out again, and one
// whose window ended (Done not final) is still claimed by a webhook. It
// takes about 200ms.
func StoreContract(t testing.TB, s reconcile.Store) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	noErr(t, s.Track(ctx, "a", now.Add(-time.Second), now.Add(time.Hour)))
	noErr(t, s.Track(ctx, "b", now.Add(time.Hour), now.Add(time.Hour)))

	got, err := s.ClaimDue(ctx, now, 10, "t1", time.Hour)
	noErr(t, err)
	equal(t, []reconcile.Entry{{OrderID: "a", Expires: got[0].Expires}}, got, "only the order due")
	within(t, now.Add(time.Hour), got[0].Expires, time.Millisecond)
	got, err = s.ClaimDue(ctx, now.Add(2*time.Hour), 10, "t2", time.Hour)
	noErr(t, err)
	equal(t, "b", got[0].OrderID, "a is held by t1")
	equal(t, 1, len(got))
	isErr(t, s.Claim(ctx, "a", "t3", time.Hour), reconcile.ErrBusy)

	noErr(t, s.Release(ctx, "a", "t3", now, 1), "not its claim: nothing happens")
	isErr(t, s.Claim(ctx, "a", "t3", time.Hour), reconcile.ErrBusy)
	isErr(t, s.Done(ctx, "a", "t3", true, time.Hour), reconcile.ErrBusy)
	isErr(t, s.Extend(ctx, "a", "t3", time.Hour), reconcile.ErrBusy)
	noErr(t, s.Release(ctx, "a", "t1", now, 1))
	got, err = s.ClaimDue(ctx, now, 10, "t4", 50*time.Millisecond)
	noErr(t, err)
	equal(t, []reconcile.Entry{{OrderID: "a", Polls: 1, Expires: got[0].Expires}}, got)

	time.Sleep(80 * time.Millisecond) // t4's lease ends: a replica that died, or a slow poll
	isErr(t, s.Extend(ctx, "a", "t4", time.Hour), reconcile.ErrBusy, "a lapsed claim is not renewed")
	isErr(t, s.Done(ctx, "a", "t4", true, time.Hour), reconcile.ErrBusy, "nor ended")
	got, err = s.ClaimDue(ctx, time.Now().Add(time.Second), 10, "t5", 50*time.Millisecond)
	noErr(t, err)
	equal(t, 1, len(got))
	noErr(t, s.Extend(ctx, "a", "t5", time.Hour))
	time.Sleep(80 * time.Millisecond) // past the first lease, within the renewed one
	isErr(t, s.Claim(ctx, "a", "t4", time.Hour), reconcile.ErrBusy, "renewed")
	got, err = s.ClaimDue(ctx, time.Now().Add(time.Minute), 10, "t4", time.Hour)
	noErr(t, err)
	equal(t, 0, len(got), "a is held by t5 (renewed), b by t2")
	noErr(t, s.Done(ctx, "a", "t5", true, time.Hour))
	isErr(t, s.Claim(ctx, "a", "t6", time.Hour), reconcile.ErrHandled)
	noErr(t, s.Track(ctx, "a", now, now.Add(time.Hour)))
	got, err = s.ClaimDue(ctx, now.Add(3*time.Hour), 10, "t7", time.Hour)
	noErr(t, err)
	equal(t, 0, len(got), "a handled order is not tracked again; b is held by t2")

	noErr(t, s.Claim(ctx, "untracked", "t8", time.Hour), "a webhook's order need not be tracked")
	noErr(t, s.Done(ctx, "untracked", "t8", true, time.Hour))

	// The window of c ends: reported (Done not final), polled no more, and
	// still claimed by the webhook of its payment.
	noErr(t, s.Track(ctx, "c", now, now))
	got, err = s.ClaimDue(ctx, now, 10, "t9", time.Hour)
	noErr(t, err)
	equal(t, "c", got[0].OrderID)
	noErr(t, s.Done(ctx, "c", "t9", false, time.Hour))
	got, err = s.ClaimDue(ctx, now.Add(3*time.Hour), 10, "t10", time.Hour)
	noErr(t, err)
	equal(t, 0, len(got), "c is not polled after its report")
	noErr(t, s.Claim(ctx, "c", "t11", time.Hour), "a report is not a final handling")
	noErr(t, s.Done(ctx, "c", "t11", true, time.Hour))
	isErr(t, s.Claim(ctx, "c", "t12", time.Hour), reconcile.ErrHandled)
}

func noErr(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v %s", err, fmt.Sprint(msg...))
	}
}

func isErr(t testing.TB, err, want error, msg ...any) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want %v %s", err, want, fmt.Sprint(msg...))
	}
}

func equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("got %v, want %v %s", got, want, fmt.Sprint(msg...))
	}
}

func within(t testing.TB, want, got time.Time, d time.Duration) {
	t.Helper()
	if diff := got.Sub(want); diff > d || diff < -d {
		t.Fatalf("got %v, want %v ± %v", got, want, d)
	}
}
