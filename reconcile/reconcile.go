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
// false); an order that could not be read at all (the service does not
// know it, or refuses to say) reaches Handle with an empty status, only
// its OrderID set (a read failing for a reason that may pass, the network
// or a 5xx, is tried again for up to Config.Grace past the window first).
// Either way the order is reported, never polled forever.
// That report does not count as handled: if the order is paid or fails
// later, its webhook still brings the final status to Handle.
//
// Exactly once. Whichever path (webhook or poll) and replica sees the
// final status first claims the order (key [OrderKey]) in Config.Store, a
// [claim.Store], under a token of its own, runs Handle while renewing the
// claim, and marks the order handled for Config.Remember, trying again
// until the store records it; a later webhook or poll finds it handled and
// does nothing. A live Handle is never run twice: its claim is renewed for
// as long as it runs (its context ends if the claim is lost all the same,
// say the store was unreachable for a whole lease). A failed or panicking
// Handle is retried later, never lost. A replica that dies mid-poll leaves
// a claim that ends with its lease (Config.Lease), after which another
// replica polls the order. What stays at-least-once: a replica killed after
// Handle's effect and before the mark lets another run Handle again, so
// make Handle idempotent, or commit its effect with the mark in one
// transaction (a store on your database: see package claim).
//
// Throughput. A replica runs at most Config.Workers polls at once (8).
// When more orders are due than that, a worker that finishes takes the
// next one at once, so a replica reads about Workers ÷ (GetOrder's latency
// + Handle's time) orders a second: 80 at 100 ms with the defaults;
// otherwise it looks for orders due every Config.Tick (1 s). A slow Handle
// holds only its own worker. Raise Workers, or run more replicas, for
// more (mind the service's rate limits).
//
// Several replicas share one store: claim/redisclaim on a Redis with
// persistence and noeviction (its package doc says why); the default
// memory store serves one process.
package reconcile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/validation"
	"github.com/payorch/checkout-go/webhook"
)

// Config configures a Reconciler. Zero durations take the defaults named.
type Config struct {
	// Handle is called once per order reaching a final status (see the
	// package doc), with that status; an error or a panic retries it
	// later. Required. Make it idempotent: a replica killed after its
	// effect and before the order is marked handled lets it run again.
	// Its context ends if the order's claim is lost while it runs.
	Handle func(ctx context.Context, st *checkout.OrderStatus) error
	// OnEvent receives the webhook events that are not an order's final
	// status; nil acknowledges them.
	OnEvent func(ctx context.Context, ev *webhook.Event) error
	// Grace is how long after Track the webhook is waited for before the
	// first poll: 1 minute. It must be shorter than Window.
	Grace time.Duration
	// Intervals is the poll schedule after that, as
	// [checkout.WithPollIntervals]: [checkout.DefaultPollIntervals]. Each
	// must be at most Window.
	Intervals []time.Duration
	// Window is how long after Track an order is polled before Handle is
	// given its last, non-final, status: 24 hours (at most 10 years).
	Window time.Duration
	// Store keeps the state; nil keeps it in this process's memory
	// ([claim.Memory]). Share one (claim/redisclaim) across replicas.
	Store claim.Store
	// Lease is how long a claim lasts unless renewed: 1 minute. It is
	// renewed while a poll or Handle runs, so it bounds how long a replica
	// that died holds its orders back. It must be longer than ReadTimeout.
	Lease time.Duration
	// ReadTimeout bounds one poll's GetOrder, retries included: 20
	// seconds.
	ReadTimeout time.Duration
	// Remember is how long a handled order is remembered, so that a late
	// webhook does not handle it again: 7 days (at most 10 years).
	Remember time.Duration
	// Tick is how often Run looks for orders due: 1 second.
	Tick time.Duration
	// Workers bounds the polls Run makes at once: 8.
	Workers int
	// Logger receives the failures Run cannot return; nil is silent.
	Logger *slog.Logger
}

// Reconciler runs Config.Handle once per order reaching a final status.
// It is safe for concurrent use; Run may run in several replicas at once.
type Reconciler struct {
	c   *checkout.Client
	cfg Config
}

// maxDuration bounds every duration of a Config, so that no time
// computed from one overflows.
const maxDuration = 10 * 365 * 24 * time.Hour

// New checks cfg and returns a Reconciler polling with c; a configuration
// it refuses is a *validation.ConfigError listing every setting refused.
func New(c *checkout.Client, cfg Config) (*Reconciler, error) {
	var v validation.Error
	if c == nil {
		v.Add("client", "is nil")
	}
	if cfg.Handle == nil {
		v.Add("Config.Handle", "is required")
	}
	if cfg.Workers < 0 {
		v.Add("Config.Workers", "is negative")
	}
	if cfg.Store != nil && isNilPointer(cfg.Store) {
		v.Add("Config.Store", "is a nil pointer (leave the field nil for an in-memory store)")
	}
	durations := []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"Grace", &cfg.Grace, time.Minute}, {"Window", &cfg.Window, 24 * time.Hour}, {"Lease", &cfg.Lease, time.Minute},
		{"ReadTimeout", &cfg.ReadTimeout, 20 * time.Second}, {"Remember", &cfg.Remember, 7 * 24 * time.Hour},
		{"Tick", &cfg.Tick, time.Second},
	}
	durationsOK := true
	for _, d := range durations {
		switch {
		case *d.v < 0:
			v.Add("Config."+d.name, "is negative")
			durationsOK = false
		case *d.v > maxDuration:
			v.Add("Config."+d.name, "is longer than 10 years")
			durationsOK = false
		case *d.v == 0:
			*d.v = d.def
		}
	}
	if durationsOK { // compared only when each is sound
		if cfg.Grace >= cfg.Window {
			v.Add("Config.Grace", fmt.Sprintf("(%s) is not shorter than Config.Window (%s)", cfg.Grace, cfg.Window))
		}
		if cfg.Lease <= cfg.ReadTimeout {
			v.Add("Config.Lease", fmt.Sprintf("(%s) is not longer than one read, Config.ReadTimeout (%s)", cfg.Lease, cfg.ReadTimeout))
		}
	}
	cfg.Intervals = append([]time.Duration(nil), cfg.Intervals...)
	for i, d := range cfg.Intervals {
		field := fmt.Sprintf("Config.Intervals[%d]", i)
		switch {
		case d < 0:
			v.Add(field, "is negative")
		case durationsOK && d > cfg.Window:
			v.Add(field, fmt.Sprintf("(%s) is longer than Config.Window (%s)", d, cfg.Window))
		}
	}
	if err := v.ConfigErr("reconcile: new"); err != nil {
		return nil, err
	}
	if cfg.Workers == 0 {
		cfg.Workers = 8
	}
	if cfg.Store == nil {
		cfg.Store = claim.NewMemory(claim.MemoryConfig{})
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Reconciler{c: c, cfg: cfg}, nil
}

// ok reports whether r was made by New.
func (r *Reconciler) ok() bool { return r != nil && r.c != nil }

// notConfigured is the error of a method called on a Reconciler New did
// not make.
func notConfigured(op string) error {
	return fmt.Errorf("checkout: reconcile: %s: the Reconciler is not configured (use reconcile.New)", op)
}

// isNilPointer reports whether s is a typed nil pointer, which would
// panic on the first call.
func isNilPointer(s claim.Store) bool {
	v := reflect.ValueOf(s)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// keyPrefix starts every order's key in the store.
const keyPrefix = "order:"

// OrderKey is the key under which the reconciler claims, tracks and marks
// handled the order orderID in its [claim.Store]: "order:" and the id. A
// store that writes the "handled" mark in the merchant's own transaction
// writes it under this key, for Config.Remember, and only when the status
// Handle got is final (st.IsFinal()): a window-end report is not handled.
func OrderKey(orderID string) string { return keyPrefix + orderID }

// Track starts watching an order: it is polled from Config.Grace on
// unless its final status comes by webhook first. Tracking an order twice,
// or one handled already, does nothing; one whose window ended gets a new
// one. An id GetOrder would refuse ([checkout.ValidateOrderID]) is refused.
func (r *Reconciler) Track(ctx context.Context, orderID string) error {
	if !r.ok() {
		return notConfigured("track")
	}
	if err := checkout.ValidateOrderID(orderID); err != nil {
		var ve *checkout.ValidationError
		if errors.As(err, &ve) {
			return ve.WithOp("reconcile: track")
		}
		return fmt.Errorf("checkout: reconcile: track: %w", err)
	}
	now := time.Now()
	if err := r.cfg.Store.Track(ctx, OrderKey(orderID), now.Add(r.cfg.Grace), now.Add(r.cfg.Window)); err != nil {
		return fmt.Errorf("checkout: reconcile: track order %q: %w", orderID, err)
	}
	return nil
}

// orderOf returns the order id of a key of the store.
func orderOf(key string) (string, bool) {
	return strings.CutPrefix(key, keyPrefix)
}
