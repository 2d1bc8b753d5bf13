package reconcile

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/internal/lease"
	"github.com/payorch/checkout-go/webhook"
)

// handle runs Handle for an order claimed under token (l keeps the claim
// alive), then marks it handled when final (tried until recorded, for at
// most a lease) or, for a window-end report, ends its tracking. A failure
// is retried after the interval of poll n.
func (r *Reconciler) handle(ctx context.Context, l *lease.Lease, key, token string, st *checkout.OrderStatus, n int) error {
	err := r.call(l.Context(), st)
	if err != nil {
		err = fmt.Errorf("checkout: reconcile: handle order %q: %w", st.OrderID, err)
		r.cfg.Logger.ErrorContext(ctx, "reconcile: handle", "order_id", st.OrderID, "error", err)
		r.settleClaim(ctx, func(ctx context.Context) error {
			return r.cfg.Store.Reschedule(ctx, key, token, time.Now().Add(checkout.PollInterval(r.cfg.Intervals, n)), n)
		})
		return err
	}
	if !st.IsFinal() { // the window-end report: not handled for good
		r.settleClaim(ctx, func(ctx context.Context) error { return r.cfg.Store.Untrack(ctx, key, token) })
		return nil
	}
	// Recorded even when Run or the sender stops meanwhile: the work is
	// done, and an unrecorded order would be handled again.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.Lease)
	defer cancel()
	if derr := lease.MarkDone(dctx, r.cfg.Store, key, token, r.cfg.Remember); derr != nil {
		r.cfg.Logger.ErrorContext(ctx, "reconcile: order handled, but the store could not record it: it may be handled again",
			"order_id", st.OrderID, "error", derr)
	}
	return nil
}

// call runs Handle, recovering a panic as an error (logged with its stack).
func (r *Reconciler) call(ctx context.Context, st *checkout.OrderStatus) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
			r.cfg.Logger.ErrorContext(ctx, "reconcile: Handle panicked", "order_id", st.OrderID, "panic", fmt.Sprint(p),
				"stack", string(debug.Stack()))
		}
	}()
	return r.cfg.Handle(ctx, st)
}

// Handler returns the webhook endpoint, verified by v (see
// [webhook.Verifier.Handler]): an event's order with a final status is
// handled as a poll's is, and every event but ORDER_SUCCEEDED and
// ORDER_FAILED then goes to Config.OnEvent (a refund event too, after its
// order's payment was handled). ORDER_SUCCEEDED and ORDER_FAILED are
// claimed by their order (OrderKey) rather than by event, so any number of
// them, on any replica, runs Handle once. A final status another replica
// is handling right now, or whose Handle fails, is answered 500, so the
// service sends it again.
func (r *Reconciler) Handler(v *webhook.Verifier) http.Handler {
	if !r.ok() {
		return v.Handler(func(context.Context, *webhook.Event) error { return notConfigured("handle webhook") })
	}
	return v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		if st, ok := finalOrder(ev); ok {
			if err := r.settle(ctx, st); err != nil || ev.Name == webhook.OrderSucceeded || ev.Name == webhook.OrderFailed {
				return err
			}
		}
		if r.cfg.OnEvent != nil {
			return r.cfg.OnEvent(ctx, ev)
		}
		return nil
	}, webhook.WithDedupKey(func(ev *webhook.Event) string {
		if _, ok := finalOrder(ev); ok && (ev.Name == webhook.OrderSucceeded || ev.Name == webhook.OrderFailed) {
			return "" // settle claims the order itself
		}
		return ev.DedupKey()
	}))
}

// finalOrder returns the order of an event that brings its final status.
func finalOrder(ev *webhook.Event) (*checkout.OrderStatus, bool) {
	st, err := ev.Order()
	return st, err == nil && st.OrderID != "" && st.IsFinal()
}

// errBusy is settle's answer while another replica handles the order.
const errBusy = sentinel("checkout: reconcile: handle webhook: the order is being handled elsewhere; the service will send it again")

type sentinel string

func (s sentinel) Error() string { return string(s) }

// settle handles a final status that came by webhook.
func (r *Reconciler) settle(ctx context.Context, st *checkout.OrderStatus) error {
	key, token, since := OrderKey(st.OrderID), rand.Text(), time.Now()
	switch err := r.cfg.Store.Claim(ctx, key, token, r.cfg.Lease); {
	case errors.Is(err, claim.ErrDone):
		return nil
	case errors.Is(err, claim.ErrBusy):
		return errBusy
	case err != nil:
		return fmt.Errorf("checkout: reconcile: handle webhook: claim order %q: %w", st.OrderID, err)
	}
	l := lease.Keep(ctx, r.cfg.Store, key, token, r.cfg.Lease, since)
	defer l.Stop()
	err := r.handle(ctx, l, key, token, st, 0)
	if err != nil {
		// Tracked, so that the poll retries it if the service gives up.
		// (handle rescheduled it; a key not tracked yet gets its window.)
		now := time.Now()
		terr := r.cfg.Store.Track(context.WithoutCancel(ctx), key, now.Add(checkout.PollInterval(r.cfg.Intervals, 0)), now.Add(r.cfg.Window))
		return errors.Join(err, terr)
	}
	return nil
}
