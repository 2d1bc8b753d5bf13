package reconcile

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/lease"
)

// Run polls the orders due until ctx ends, then waits for its polls under
// way (each records what it did, for at most a lease) and returns ctx's
// error. Run it in every replica: the Store keeps two from polling one
// order at once. See the package doc for its throughput.
func (r *Reconciler) Run(ctx context.Context) error {
	if !r.ok() {
		return notConfigured("run")
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, r.cfg.Workers) // one per poll under way
	more := make(chan struct{}, 1)              // a worker is free while orders wait
	t := time.NewTicker(r.cfg.Tick)
	defer t.Stop()
	for {
		r.start(ctx, slots, more, &wg)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-more:
		}
	}
}

// start claims as many orders due as there are free workers, and polls
// each on a worker of its own.
func (r *Reconciler) start(ctx context.Context, slots, more chan struct{}, wg *sync.WaitGroup) {
	free := cap(slots) - len(slots)
	if free == 0 || ctx.Err() != nil {
		return
	}
	token := rand.Text()
	since := time.Now()
	due, err := r.cfg.Store.ClaimDue(ctx, since, free, token, r.cfg.Lease)
	if err != nil {
		if ctx.Err() == nil {
			r.cfg.Logger.ErrorContext(ctx, "reconcile: claim orders due", "error", err)
		}
		return
	}
	backlog := len(due) == free // more may be waiting
	for _, e := range due {
		slots <- struct{}{} // never blocks: only this goroutine fills slots
		wg.Go(func() {
			defer func() {
				<-slots
				if backlog {
					select {
					case more <- struct{}{}:
					default:
					}
				}
			}()
			r.poll(ctx, e.Key, token, since, e.Polls, e.Expires)
		})
	}
}

// poll reads one claimed order, keeping its claim alive meanwhile, and
// handles it when final or out of time; otherwise it is due again after
// the next interval.
func (r *Reconciler) poll(ctx context.Context, key, token string, since time.Time, polls int, expires time.Time) {
	id, ok := orderOf(key)
	if !ok {
		r.cfg.Logger.ErrorContext(ctx, "reconcile: the store tracks a key that is not an order's; it is dropped", "key", key)
		r.settleClaim(ctx, func(ctx context.Context) error { return r.cfg.Store.Untrack(ctx, key, token) })
		return
	}
	l := lease.Keep(ctx, r.cfg.Store, key, token, r.cfg.Lease, since)
	defer l.Stop()
	rctx, cancel := context.WithTimeout(l.Context(), r.cfg.ReadTimeout)
	st, err := r.c.GetOrder(rctx, id)
	cancel()
	if err == nil && st.OrderID != id {
		err = fmt.Errorf("checkout: reconcile: poll order %q: the reply names order %q", id, st.OrderID)
	}
	now := time.Now()
	expired := !now.Before(expires)
	if err != nil && expired && (!transient(err) || !now.Before(expires.Add(r.cfg.Grace))) {
		// Never to be read: reported at window end like any other order.
		r.cfg.Logger.WarnContext(ctx, "reconcile: order unreadable at its window end; reported with an empty status", "order_id", id, "error", err)
		st, err = &checkout.OrderStatus{OrderID: id}, nil
	}
	if err == nil && (st.IsFinal() || expired) {
		// The read may have outlasted a lease the store could not renew.
		if herr := l.Held(r.cfg.Lease / 3); herr != nil {
			r.cfg.Logger.WarnContext(ctx, "reconcile: claim lost before handle", "order_id", id, "error", herr)
			return
		}
		_ = r.handle(ctx, l, key, token, st, polls)
		return
	}
	wait := checkout.PollInterval(r.cfg.Intervals, polls)
	var ae *checkout.APIError
	if errors.As(err, &ae) {
		wait = max(wait, min(ae.RetryAfter, r.cfg.Window))
	}
	if err != nil && ctx.Err() == nil {
		r.cfg.Logger.WarnContext(ctx, "reconcile: poll order", "order_id", id, "error", err)
	}
	r.settleClaim(ctx, func(ctx context.Context) error {
		return r.cfg.Store.Reschedule(ctx, key, token, time.Now().Add(wait), polls+1)
	})
}

// transient tells whether a failed read may succeed later: as the client
// judges it ([checkout.Retryable]), or the read ran out of its ReadTimeout
// or was cut short by the lease's end or a shutdown.
func transient(err error) bool {
	return checkout.Retryable(err) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// settleWait bounds the retries of ending a claim (reschedule, untrack):
// past it the claim ends with its lease, and the order comes back then.
const settleWait = 5 * time.Second

// settleClaim runs f, which ends this replica's claim, until the store
// answers, even after ctx ends (Run stopping), for at most settleWait.
func (r *Reconciler) settleClaim(ctx context.Context, f func(context.Context) error) {
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleWait)
	defer cancel()
	if err := lease.Retry(bg, f); err != nil {
		r.cfg.Logger.ErrorContext(ctx, "reconcile: end a claim (it ends with its lease)", "error", err)
	}
}
