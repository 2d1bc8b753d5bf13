// Package lease keeps a claim of package claim alive while its holder
// works, and records the work done until the store has it: what the webhook
// handler and the reconciler both do around the merchant's function.
package lease

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/payorch/checkout-go/claim"
)

// ErrLost is the cause of a Lease's context when its claim ended before
// the work did: another may now hold the key, so the work should stop.
const ErrLost = sentinel("checkout: claim: lease lost")

type sentinel string

func (s sentinel) Error() string { return string(s) }

// Lease renews one claim every third of its lease until Stop. Its
// context is cancelled, with cause ErrLost, once the claim is known lost:
// Extend answered ErrBusy or ErrDone, or the store could not be reached
// before the lease ran out. A renewal runs on a timer's goroutine, so work
// shorter than a third of the lease costs no goroutine.
type Lease struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	bg     context.Context // the renewals': not cancelled with ctx
	c      claim.Claimer
	key    string
	token  string
	lease  time.Duration

	mu       sync.Mutex
	timer    *time.Timer
	stopped  bool
	renewing sync.WaitGroup
	deadline time.Time // the claim holds at least until then
	lost     error
}

// Keep starts renewing token's claim on key, made for lease at since (a
// time taken before the claim was sent). The renewals outlive ctx's
// cancellation (the holder may still be recording its work); Stop ends
// them.
func Keep(ctx context.Context, c claim.Claimer, key, token string, lease time.Duration, since time.Time) *Lease {
	l := &Lease{bg: context.WithoutCancel(ctx), c: c, key: key, token: token, lease: lease, deadline: since.Add(lease)}
	l.ctx, l.cancel = context.WithCancelCause(ctx)
	l.mu.Lock()
	l.timer = time.AfterFunc(l.every(), l.renew)
	l.mu.Unlock()
	return l
}

func (l *Lease) every() time.Duration { return max(l.lease/3, time.Millisecond) }

// Context is ctx of Keep, also cancelled when the claim is lost.
func (l *Lease) Context() context.Context { return l.ctx }

// Held returns nil while the claim is known to hold for at least margin
// more, else why not.
func (l *Lease) Held(margin time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.lost != nil:
		return l.lost
	case time.Until(l.deadline) < margin:
		return fmt.Errorf("%w: it may run out before the work ends", ErrLost)
	}
	return nil
}

// Stop ends the renewals, waits for one under way, and cancels the
// context.
func (l *Lease) Stop() {
	l.mu.Lock()
	l.stopped = true
	l.timer.Stop()
	l.mu.Unlock()
	l.renewing.Wait()
	l.cancel(context.Canceled)
}

// renew sends one Extend, and sets the timer for the next.
func (l *Lease) renew() {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.renewing.Add(1)
	defer l.renewing.Done()
	deadline := l.deadline
	l.mu.Unlock()

	start := time.Now()
	ctx, cancel := context.WithDeadline(l.bg, deadline)
	err := l.c.Extend(ctx, l.key, l.token, l.lease)
	cancel()
	var next time.Duration
	switch {
	case err == nil:
		deadline, next = start.Add(l.lease), l.every()
	case errors.Is(err, claim.ErrBusy), errors.Is(err, claim.ErrDone):
		l.fail(fmt.Errorf("%w: %w", ErrLost, err))
		return
	case !time.Now().Before(deadline):
		l.fail(fmt.Errorf("%w: could not renew it: %w", ErrLost, err))
		return
	default: // the store did not answer: try again soon, within the lease
		next = max(min(l.every()/4, time.Until(deadline)/2), time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.deadline = deadline
	if !l.stopped {
		l.timer.Reset(next)
	}
}

func (l *Lease) fail(err error) {
	l.mu.Lock()
	l.lost = err
	l.mu.Unlock()
	l.cancel(err)
}

// MarkDone calls Done until the store records it or ctx ends (see Retry).
func MarkDone(ctx context.Context, c claim.Claimer, key, token string, keep time.Duration) error {
	return Retry(ctx, func(ctx context.Context) error { return c.Done(ctx, key, token, keep) })
}

// Retry calls f until it succeeds or ctx ends, backing off from 10 ms to
// 1 s between tries, and returns the last error: for the steps after the
// work (done, release, reschedule) that a store away for a moment must not
// lose.
func Retry(ctx context.Context, f func(context.Context) error) error {
	wait := 10 * time.Millisecond
	for {
		err := f(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
		wait = min(2*wait, time.Second)
	}
}
