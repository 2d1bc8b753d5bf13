package checkout

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// DefaultPollIntervals is the schedule of [Client.AwaitFinal] and of the
// reconcile package: front-loaded, then decaying, the last repeating.
func DefaultPollIntervals() []time.Duration {
	return []time.Duration{5 * time.Second, 5 * time.Second, 10 * time.Second, 10 * time.Second, 30 * time.Second, 60 * time.Second}
}

// PollInterval returns the wait before poll n+1 (n from 0) of schedule,
// the last interval repeating, with ±10% jitter so that many waiters do
// not poll in step. An empty schedule is [DefaultPollIntervals]; an
// interval under 10 ms counts as 10 ms.
func PollInterval(schedule []time.Duration, n int) time.Duration {
	if len(schedule) == 0 {
		schedule = DefaultPollIntervals()
	}
	d := max(schedule[min(max(n, 0), len(schedule)-1)], 10*time.Millisecond)
	return d - d/10 + rand.N(d/5+1)
}

// ErrOrderExpired is matched by the [*AwaitError] of an order whose
// order_expiry passed while it was not final.
const ErrOrderExpired = sentinel("checkout: order expired before reaching a final status")

// AwaitOption changes how [Client.AwaitFinal] polls.
type AwaitOption func(*awaitConfig)

type awaitConfig struct {
	intervals []time.Duration
	now       func() time.Time
	after     func(time.Duration) <-chan time.Time
}

// WithPollIntervals replaces the schedule of [DefaultPollIntervals]: the
// waits between polls in order, the last one repeating.
func WithPollIntervals(d ...time.Duration) AwaitOption {
	return func(c *awaitConfig) { c.intervals = append([]time.Duration(nil), d...) }
}

// AwaitError is what [Client.AwaitFinal] returns when it gives up: Last is
// the last status it read (nil when none), Err why it stopped (the
// context's error, [ErrOrderExpired], or an error no wait can fix, such as
// an [*APIError] matching [ErrNotFound]). errors.Is and errors.As see Err.
type AwaitError struct {
	OrderID string
	Last    *OrderStatus
	Err     error
}

// Error names the order, the last status seen and why the wait ended.
func (e *AwaitError) Error() string {
	last := "none read"
	if e.Last != nil {
		last = string(e.Last.Status)
	}
	return fmt.Sprintf("checkout: await final: order %q (last status %s): %v", e.OrderID, last, e.Err)
}

// Unwrap returns Err.
func (e *AwaitError) Unwrap() error { return e.Err }

// AwaitFinal polls [Client.GetOrder] until the order's status is final
// ([OrderStatus.IsFinal]) and returns it. It polls at once, then waits each
// interval of the schedule ([DefaultPollIntervals], ±10% jitter) between
// polls. After a failed poll it waits at least the next interval and at
// least the Retry-After the service asked for, doubling while failures go
// on; errors no wait can fix (unknown order, refused credentials) end it
// at once. It gives up with an [*AwaitError] holding the last status when
// ctx ends or the order's order_expiry (when the reply has one) passes.
func (c *Client) AwaitFinal(ctx context.Context, orderID string, opts ...AwaitOption) (*OrderStatus, error) {
	cfg := awaitConfig{now: time.Now, after: time.After}
	for _, o := range opts {
		o(&cfg)
	}
	var last *OrderStatus
	fail := func(err error) (*OrderStatus, error) {
		return last, &AwaitError{OrderID: orderID, Last: last, Err: err}
	}
	failures := 0
	for n := 0; ; n++ {
		st, err := c.GetOrder(ctx, orderID)
		wait := PollInterval(cfg.intervals, n)
		switch {
		case err == nil:
			last, failures = st, 0
			if st.IsFinal() {
				return st, nil
			}
			if exp := st.OrderExpiry.Time; !exp.IsZero() && !cfg.now().Before(exp) {
				return fail(ErrOrderExpired)
			}
		case ctx.Err() != nil:
			return fail(ctx.Err())
		case !transient(err):
			return fail(err)
		default:
			var ae *APIError
			if errors.As(err, &ae) {
				wait = max(wait, ae.RetryAfter)
			}
			wait <<= min(failures, 6)
			failures++
		}
		select {
		case <-ctx.Done():
			return fail(ctx.Err())
		case <-cfg.after(wait):
		}
	}
}

// transient reports whether a failed poll may succeed later.
func transient(err error) bool {
	var te *TransportError
	return errors.As(err, &te) || errors.Is(err, ErrServer) || errors.Is(err, ErrRateLimited)
}
