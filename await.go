package checkout

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// DefaultPollIntervals is the schedule of [Client.AwaitFinal] and of the
// reconcile package: front-loaded, then decaying, the last repeating.
func DefaultPollIntervals() []time.Duration {
	return []time.Duration{5 * time.Second, 5 * time.Second, 10 * time.Second, 10 * time.Second, 30 * time.Second, 60 * time.Second}
}

// Bounds of a poll interval: WithPollIntervals refuses others, and
// PollInterval holds any interval within them.
const (
	minPollInterval = 10 * time.Millisecond
	maxPollInterval = 24 * time.Hour
)

// PollInterval returns the wait before poll n+1 (n from 0) of schedule,
// the last interval repeating, with ±10% jitter so that many waiters do
// not poll in step. An empty schedule is [DefaultPollIntervals]; an
// interval is held within 10 ms and 24 h.
func PollInterval(schedule []time.Duration, n int) time.Duration {
	if len(schedule) == 0 {
		schedule = DefaultPollIntervals()
	}
	d := minMax(schedule[min(max(n, 0), len(schedule)-1)], minPollInterval, maxPollInterval)
	return d - d/10 + rand.N(d/5+1)
}

// WithPollIntervals replaces the schedule of [Client.AwaitFinal]
// ([DefaultPollIntervals], also when none is given): the waits between
// polls in order, the last one repeating, each from 10 ms to 24 h. It is
// an option of AwaitFinal only.
func WithPollIntervals(d ...time.Duration) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		for i, v := range d {
			if v < minPollInterval || v > maxPollInterval {
				return optErr("poll interval %d (%s) is outside %s–%s", i, v, minPollInterval, maxPollInterval)
			}
		}
		r.poll = append(make([]time.Duration, 0, len(d)), d...) // non-nil: it was given
		return nil
	})
}

// ErrOrderExpired is matched by the [*AwaitError] of an order whose
// order_expiry passed while it was not final.
const ErrOrderExpired = sentinel("checkout: order expired before reaching a final status")

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
		last = oneLine(string(e.Last.Status), 40)
	}
	cause := "<nil>"
	if e.Err != nil { // a poll's error names its operation: say "checkout:" once
		cause = strings.TrimPrefix(e.Err.Error(), "checkout: ")
	}
	return fmt.Sprintf("checkout: await final: order %.40q (last status %s): %s", e.OrderID, last, cause)
}

// Unwrap returns Err.
func (e *AwaitError) Unwrap() error { return e.Err }

// AwaitFinal polls [Client.GetOrder] until the order's status is final
// ([OrderStatus.IsFinal]) and returns it. It polls at once, then waits each
// interval of the schedule ([WithPollIntervals], ±10% jitter) between
// polls. After a failed poll it waits at least the next interval and the
// Retry-After the service asked for, doubling while failures go on; errors
// no wait can fix (unknown order, refused credentials) end it at once. It
// gives up with an [*AwaitError] holding the last status when ctx ends or
// the order's order_expiry passes. Every option but the schedule applies
// to each poll. An Observer hears it as one operation, the polls within.
func (c *Client) AwaitFinal(ctx context.Context, orderID string, opts ...RequestOption) (*OrderStatus, error) {
	cl, err := getOrderCall(orderID)
	if err != nil {
		return nil, &AwaitError{OrderID: orderID, Err: invalid("get order", err)}
	}
	rc, err := requestOptions(opts, "AwaitFinal")
	if err != nil {
		return nil, &AwaitError{OrderID: orderID, Err: fmt.Errorf("checkout: options: %w", err)}
	}
	if c == nil || ctx == nil {
		return nil, &AwaitError{OrderID: orderID, Err: c.run(ctx, cl, rc, new(OrderStatus), nil)}
	}
	var op Operation
	if c.observer != nil {
		op = c.operation("AwaitFinal", "", "", orderID)
		ctx = observed(ctx, c.observer.StartOperation(ctx, op))
	}
	start, polls := time.Now(), 0
	st, err := c.await(ctx, cl, rc, &polls)
	if c.observer != nil {
		r := OperationResult{Attempts: polls, ErrorKind: errorKind(err), Err: err, Duration: time.Since(start)}
		if st != nil && err == nil {
			r.OrderStatus = boundedStatus(st.Status)
		}
		c.observer.EndOperation(ctx, op, r)
	}
	return st, err
}

// await is AwaitFinal's loop; polls counts the polls made.
func (c *Client) await(ctx context.Context, cl *call, rc *requestConfig, polls *int) (*OrderStatus, error) {
	var last *OrderStatus
	fail := func(err error) (*OrderStatus, error) {
		return last, &AwaitError{OrderID: cl.orderID, Last: last, Err: err}
	}
	failures := 0
	for n := 0; ; n++ {
		st := new(OrderStatus)
		*polls++
		err := c.run(ctx, cl, rc, st, nil)
		wait := PollInterval(rc.poll, n)
		switch o := outcomeOf(false, err); {
		case err == nil:
			last, failures = st, 0
			if st.IsFinal() {
				return st, nil
			}
			if exp := st.OrderExpiry.Time; !exp.IsZero() && !rc.clock.now().Before(exp) {
				return fail(ErrOrderExpired)
			}
		case ctx.Err() != nil:
			return fail(ctx.Err())
		case !o.retry:
			return fail(err)
		default:
			wait = min(max(wait, o.wait)<<min(failures, 6), maxPollInterval)
			failures++
		}
		if err := rc.clock.sleep(ctx, wait); err != nil {
			return fail(err)
		}
	}
}

// clock is the time AwaitFinal reads and waits on; the zero value is the
// real one (tests set another through a request option).
type clock struct {
	nowFunc   func() time.Time
	sleepFunc func(ctx context.Context, d time.Duration) error
}

func (c clock) now() time.Time {
	if c.nowFunc != nil {
		return c.nowFunc()
	}
	return time.Now()
}

// sleep waits d, or returns ctx's error as soon as ctx ends.
func (c clock) sleep(ctx context.Context, d time.Duration) error {
	if c.sleepFunc != nil {
		return c.sleepFunc(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
