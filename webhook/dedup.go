package webhook

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/netip"
	"time"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/internal/lease"
)

// Defaults of Config's dedupe fields.
const (
	// DefaultDedupTTL is how long a processed event is remembered: 72
	// hours (the service does not say how long it keeps re-sending).
	DefaultDedupTTL = 72 * time.Hour
	// DefaultDedupLease is how long a claim lasts unless renewed: 1
	// minute. It is renewed while fn runs, so it bounds only how long a
	// replica that died mid-delivery holds the event back.
	DefaultDedupLease = time.Minute
)

// maxDedup bounds DedupTTL and DedupLease, so that no expiry computed
// from them overflows a time.
const maxDedup = 10 * 365 * 24 * time.Hour

// releaseWait bounds the retries of releasing a failed delivery's claim:
// past it the claim ends with its lease.
const releaseWait = 5 * time.Second

// HandlerOption changes how [Verifier.Handler] deduplicates.
type HandlerOption func(*handlerOptions)

type handlerOptions struct {
	key func(*Event) string
}

// WithDedupKey makes the handler claim each event under key(ev) instead
// of [Event.DedupKey]. An empty key runs fn without the handler's dedupe,
// for a function that claims its work itself: reconcile's Handler claims
// an order's final status by the order, whichever event brings it.
func WithDedupKey(key func(ev *Event) string) HandlerOption {
	return func(o *handlerOptions) { o.key = key }
}

// claimState is what the claim store answered for a delivery's event.
type claimState int

const (
	claimNew      claimState = iota + 1 // this delivery holds the claim
	claimInFlight                       // another delivery holds it
	claimDone                           // the event was processed before
)

// claim claims key for this delivery under a token of its own, waiting
// for a delivery in flight (see awaitFirst); it returns the state, and with
// claimNew the token and when the claim was asked.
func (h *handler) claim(ctx context.Context, key string) (claimState, string, time.Time, error) {
	token := rand.Text()
	since := time.Now()
	st, err := h.ask(ctx, key, token)
	if err == nil && st == claimInFlight {
		st, since, err = h.awaitFirst(ctx, key, token)
	}
	return st, token, since, err
}

// ask sends one Claim and reads its answer.
func (h *handler) ask(ctx context.Context, key, token string) (claimState, error) {
	switch err := h.v.claims.Claim(ctx, key, token, h.v.dedupLease); {
	case err == nil:
		return claimNew, nil
	case errors.Is(err, claim.ErrDone):
		return claimDone, nil
	case errors.Is(err, claim.ErrBusy):
		return claimInFlight, nil
	default:
		return 0, err
	}
}

// The backoff of a waiting duplicate asking Claim again.
const (
	pollMin = 5 * time.Millisecond
	pollMax = 100 * time.Millisecond
)

// awaitFirst waits while key is in flight, at most h.wait and while ctx
// lives, asking Claim again when the store wakes it (claim.Waiter) or on a
// backoff; it returns claimDone, claimNew (the first failed: this delivery
// holds the key now) or claimInFlight, and when the last Claim was asked.
func (h *handler) awaitFirst(ctx context.Context, key, token string) (claimState, time.Time, error) {
	if h.wait <= 0 {
		return claimInFlight, time.Time{}, nil
	}
	timer := time.NewTimer(h.wait)
	defer timer.Stop()
	var poll *time.Timer
	backoff := pollMin
	for {
		var (
			wake <-chan struct{}  // Waiter: closed when key is released
			tick <-chan time.Time // otherwise: the next poll
		)
		if h.waiter != nil {
			wake = h.waiter.Released(key)
		}
		if wake == nil {
			// No waiter, or the key was released between Claim and
			// Released: poll (never spin).
			if poll == nil {
				poll = time.NewTimer(backoff)
				defer poll.Stop()
			} else {
				poll.Reset(backoff)
			}
			tick = poll.C
			backoff = min(2*backoff, pollMax)
		}
		select {
		case <-wake:
		case <-tick:
		case <-timer.C:
			return claimInFlight, time.Time{}, nil
		case <-ctx.Done():
			return claimInFlight, time.Time{}, nil
		}
		since := time.Now()
		st, err := h.ask(ctx, key, token)
		if err != nil || st != claimInFlight {
			return st, since, err
		}
	}
}

// run calls fn while keeping this delivery's claim on key (token) alive,
// then marks the event processed (tried until recorded, for at most a
// lease) or, when fn fails or panics, releases the claim so the re-send is
// processed. fn's context ends if the claim is lost meanwhile. A panic is
// re-raised after the claim is released, so net/http handles it as usual.
func (h *handler) run(ctx context.Context, key, token string, since time.Time, client netip.Addr, ev *Event) (err error) {
	l := lease.Keep(ctx, h.v.claims, key, token, h.v.dedupLease, since)
	ok := false
	defer func() {
		// A context that outlives the sender hanging up: the outcome must
		// be recorded, and the key never left claimed.
		bg := context.WithoutCancel(ctx)
		if ok {
			dctx, cancel := context.WithTimeout(bg, h.v.dedupLease)
			derr := lease.MarkDone(dctx, h.v.claims, key, token, h.v.dedupTTL)
			cancel()
			l.Stop()
			if derr != nil {
				h.logAt(ctx, slog.LevelError, "webhook processed but the claim store could not record it", attrs(client, ev, derr))
			}
			return
		}
		l.Stop()
		rctx, cancel := context.WithTimeout(bg, releaseWait)
		defer cancel()
		if rerr := lease.Retry(rctx, func(ctx context.Context) error { return h.v.claims.Release(ctx, key, token) }); rerr != nil {
			h.logAt(ctx, slog.LevelError, "webhook claim store could not release an event (its claim ends with its lease)", attrs(client, ev, rerr))
		}
	}()
	err = h.fn(l.Context(), ev)
	ok = err == nil
	return err
}
