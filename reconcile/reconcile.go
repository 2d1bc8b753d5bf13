// Package reconcile makes sure no payment is left unknown: it runs the
// merchant's one function, Config.Handle, once for every order that
// reaches a final status, whether its webhook arrives or not.
//
// The service's advice is to rely on neither webhooks nor polling alone.
// Call [Reconciler.Track] after creating a session or an order, serve
// [Reconciler.Handler] as the webhook endpoint, and keep [Reconciler.Run]
// running. An order's final status arriving by webhook is handled at once;
// an order whose final status has not come within Config.Grace is polled
// with [checkout.Client.GetOrder] on the schedule of
// [checkout.Client.AwaitFinal] (Config.Intervals). When an order's window
// (Config.Window from Track) ends without a final status, Handle is called
// once with the last status read, which is not final (st.IsFinal() is
// false): the order is reported, never polled forever. That report does not
// count as handled: if the order is paid or fails later, its webhook still
// brings the final status to Handle.
//
// Exactly once: whichever path (webhook or poll) and replica sees the final
// status first claims the order in the Store under a token of its own,
// runs Handle, and records the order handled only while it holds the
// claim; a later webhook or poll finds it handled and does nothing. A poll
// renews its claim right before Handle, and skips Handle when the claim
// was lost meanwhile (a slow GetOrder). A failed Handle releases the claim
// and the order is polled again, so it is retried, never lost; a replica
// that dies mid-poll leaves a claim that ends with its lease
// (Config.Lease), after which another replica polls the order. Handle runs
// twice only if it outlasts the lease: make the lease longer than Handle
// can take. For several replicas, share the state with reconcile/redisstore.
package reconcile

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/webhook"
)

// Config configures a Reconciler. Zero durations take the defaults named.
type Config struct {
	// Handle is called once per order reaching a final status (see the
	// package doc), with that status. Required. An error retries it later.
	Handle func(ctx context.Context, st *checkout.OrderStatus) error
	// OnEvent receives the webhook events that are not an order's final
	// status; nil acknowledges them.
	OnEvent func(ctx context.Context, ev *webhook.Event) error
	// Grace is how long after Track the webhook is waited for before the
	// first poll: 1 minute.
	Grace time.Duration
	// Intervals is the poll schedule after that, as
	// [checkout.WithPollIntervals]: [checkout.DefaultPollIntervals].
	Intervals []time.Duration
	// Window is how long after Track an order is polled before Handle is
	// given its last, non-final, status: 24 hours.
	Window time.Duration
	// Store keeps the state; nil keeps it in this process's memory.
	Store Store
	// Lease is how long a claim lasts if its holder never ends it (a
	// replica that died): 1 minute. Make it longer than Handle takes.
	Lease time.Duration
	// Remember is how long a handled order is remembered, so that a late
	// webhook does not handle it again: 7 days.
	Remember time.Duration
	// Tick is how often Run looks for orders due: 1 second.
	Tick time.Duration
	// Workers bounds the polls Run makes, and the orders it claims, at
	// once: 8.
	Workers int
	// Logger receives the failures Run cannot return; nil is silent.
	Logger *slog.Logger
}

// ConfigError is what [New] returns for a configuration it refuses; Field
// names the setting ("Config.Handle").
type ConfigError struct {
	Field   string
	Problem string
}

// Error returns "checkout: reconcile: new: <field> <problem>".
func (e *ConfigError) Error() string {
	return "checkout: reconcile: new: " + e.Field + " " + e.Problem
}

// Reconciler runs Config.Handle once per order reaching a final status.
// It is safe for concurrent use; Run may run in several replicas at once.
type Reconciler struct {
	c   *checkout.Client
	cfg Config
}

// New checks cfg and returns a Reconciler polling with c.
func New(c *checkout.Client, cfg Config) (*Reconciler, error) {
	if c == nil {
		return nil, &ConfigError{Field: "client", Problem: "is nil"}
	}
	if cfg.Handle == nil {
		return nil, &ConfigError{Field: "Config.Handle", Problem: "is required"}
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"Grace", cfg.Grace}, {"Window", cfg.Window}, {"Lease", cfg.Lease}, {"Remember", cfg.Remember}, {"Tick", cfg.Tick}, {"Workers", time.Duration(cfg.Workers)}} {
		if d.v < 0 {
			return nil, &ConfigError{Field: "Config." + d.name, Problem: "is negative"}
		}
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&cfg.Grace, time.Minute)
	def(&cfg.Window, 24*time.Hour)
	def(&cfg.Lease, time.Minute)
	def(&cfg.Remember, 7*24*time.Hour)
	def(&cfg.Tick, time.Second)
	if cfg.Workers == 0 {
		cfg.Workers = 8
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Reconciler{c: c, cfg: cfg}, nil
}

// Track starts watching an order: it is polled from Config.Grace on
// unless its final status comes by webhook first. Tracking an order twice,
// or one handled already, does nothing; one whose window ended gets a new one.
func (r *Reconciler) Track(ctx context.Context, orderID string) error {
	now := time.Now()
	return r.cfg.Store.Track(ctx, orderID, now.Add(r.cfg.Grace), now.Add(r.cfg.Window))
}

// Run polls the orders due until ctx ends, then returns ctx's error. Run
// it in every replica: the Store keeps two from polling one order at once.
func (r *Reconciler) Run(ctx context.Context) error {
	t := time.NewTicker(r.cfg.Tick)
	defer t.Stop()
	for {
		r.poll(ctx)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// poll claims as many orders due as it can poll at once, and polls each.
func (r *Reconciler) poll(ctx context.Context) {
	token := rand.Text()
	due, err := r.cfg.Store.ClaimDue(ctx, time.Now(), r.cfg.Workers, token, r.cfg.Lease)
	if err != nil && ctx.Err() == nil {
		r.cfg.Logger.ErrorContext(ctx, "reconcile: claim orders due", "error", err)
	}
	var wg sync.WaitGroup
	for _, e := range due {
		wg.Go(func() { r.pollOne(ctx, e, token) })
	}
	wg.Wait()
}

// pollOne reads one claimed order and handles it when final or out of
// time, if its claim still holds; otherwise it is due again after the next
// interval.
func (r *Reconciler) pollOne(ctx context.Context, e Entry, token string) {
	st, err := r.c.GetOrder(ctx, e.OrderID)
	expired := !time.Now().Before(e.Expires)
	if err != nil && expired && errors.Is(err, checkout.ErrNotFound) {
		st, err = &checkout.OrderStatus{OrderID: e.OrderID}, nil
	}
	if err == nil && (st.IsFinal() || expired) {
		// The read may have outlasted the lease: another may hold it now.
		if err := r.cfg.Store.Extend(ctx, e.OrderID, token, r.cfg.Lease); err != nil {
			r.cfg.Logger.WarnContext(ctx, "reconcile: claim lost before handle", "order_id", e.OrderID, "error", err)
			return
		}
		_ = r.handle(ctx, st, token, e.Polls)
		return
	}
	wait := checkout.PollInterval(r.cfg.Intervals, e.Polls)
	var ae *checkout.APIError
	if errors.As(err, &ae) {
		wait = max(wait, ae.RetryAfter)
	}
	if err != nil && ctx.Err() == nil {
		r.cfg.Logger.WarnContext(ctx, "reconcile: poll order", "order_id", e.OrderID, "error", err)
	}
	r.release(ctx, e.OrderID, token, wait, e.Polls+1)
}

// handle runs Handle for an order claimed under token and records it
// done (handled for good only when final); a failure is retried after the
// interval of poll n.
func (r *Reconciler) handle(ctx context.Context, st *checkout.OrderStatus, token string, n int) error {
	err := r.cfg.Handle(ctx, st)
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err != nil {
		err = fmt.Errorf("checkout: reconcile: handle order %q: %w", st.OrderID, err)
		r.cfg.Logger.ErrorContext(ctx, "reconcile: handle", "order_id", st.OrderID, "error", err)
		r.release(bg, st.OrderID, token, checkout.PollInterval(r.cfg.Intervals, n), n)
		return err
	}
	if err := r.cfg.Store.Done(bg, st.OrderID, token, st.IsFinal(), r.cfg.Remember); err != nil {
		r.cfg.Logger.ErrorContext(ctx, "reconcile: record handled", "order_id", st.OrderID, "error", err)
	}
	return nil
}

// release gives back token's claim on an order, due again after wait.
func (r *Reconciler) release(ctx context.Context, orderID, token string, wait time.Duration, polls int) {
	if err := r.cfg.Store.Release(ctx, orderID, token, time.Now().Add(wait), polls); err != nil {
		r.cfg.Logger.ErrorContext(ctx, "reconcile: release", "order_id", orderID, "error", err)
	}
}

// Handler returns the webhook endpoint, verified by v (see
// [webhook.Verifier.Handler]): an event's order with a final status is
// handled as a poll's is, and every event but ORDER_SUCCEEDED and
// ORDER_FAILED then goes to Config.OnEvent (a refund event too, after its
// order's payment was handled). A final status another replica is handling
// right now, or whose Handle fails, is answered 500, so the service sends
// it again.
func (r *Reconciler) Handler(v *webhook.Verifier) http.Handler {
	return v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		if st, err := ev.Order(); err == nil && st.OrderID != "" && st.IsFinal() {
			if err := r.settle(ctx, st); err != nil || ev.Name == webhook.OrderSucceeded || ev.Name == webhook.OrderFailed {
				return err
			}
		}
		if r.cfg.OnEvent != nil {
			return r.cfg.OnEvent(ctx, ev)
		}
		return nil
	})
}

// settle handles a final status that came by webhook.
func (r *Reconciler) settle(ctx context.Context, st *checkout.OrderStatus) error {
	token := rand.Text()
	switch err := r.cfg.Store.Claim(ctx, st.OrderID, token, r.cfg.Lease); {
	case errors.Is(err, ErrHandled):
		return nil
	case err != nil:
		return err
	}
	if err := r.handle(ctx, st, token, 0); err != nil {
		// Tracked, so that the poll retries it if the service gives up.
		return errors.Join(err, r.Track(context.WithoutCancel(ctx), st.OrderID))
	}
	return nil
}
