package pgclaim

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/webhook"
)

// Handle returns a reconcile.Config.Handle that runs fn inside a
// transaction of Config.Pool and, for a final status, writes the order's
// "handled" mark (key [reconcile.OrderKey]) in the same transaction, so
// fn's writes and the mark commit together or not at all. fn is not
// called for an order handled already, and when another replica's
// transaction marked the order first, fn's writes are rolled back and nil
// is returned. A window-end report (st.IsFinal() false) commits without a
// mark. An error from fn, or a panic, rolls back and is returned as is.
// fn must leave tx open (no Commit or Rollback of its own), and should do
// nothing outside it that must not happen twice.
func (s *Store) Handle(fn func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error) func(context.Context, *checkout.OrderStatus) error {
	return func(ctx context.Context, st *checkout.OrderStatus) error {
		switch {
		case fn == nil:
			return errors.New("checkout: pgclaim: handle order: nil function given to Store.Handle")
		case st == nil:
			return errors.New("checkout: pgclaim: handle order: nil status")
		}
		key := ""
		if st.IsFinal() {
			key = reconcile.OrderKey(st.OrderID)
		}
		return s.effect(ctx, fmt.Sprintf("handle order %q", st.OrderID), key, func(ctx context.Context, tx pgx.Tx) error {
			return fn(ctx, tx, st)
		})
	}
}

// EventOption changes how [Store.HandleEvent] marks an event.
type EventOption func(*eventOptions)

type eventOptions struct {
	key func(*webhook.Event) string
}

// WithEventKey marks each event under key(ev) instead of
// [webhook.Event.DedupKey]: give it the function given to
// [webhook.WithDedupKey], so the mark is the one the handler claims. An
// empty key commits fn's writes without a mark.
func WithEventKey(key func(ev *webhook.Event) string) EventOption {
	return func(o *eventOptions) { o.key = key }
}

// HandleEvent returns a webhook function (for [webhook.Verifier.Handler],
// with Config.Claims set to this Store, or for reconcile.Config.OnEvent)
// that runs fn inside a transaction and writes the event's done mark (key
// [webhook.Event.DedupKey], the one the handler claims) in it, so fn's
// writes and the mark commit together. fn is not called for an event
// processed already; when another delivery's transaction marked it first,
// fn's writes are rolled back and nil is returned. As with Handle, fn must
// leave tx open.
func (s *Store) HandleEvent(fn func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error, opts ...EventOption) func(context.Context, *webhook.Event) error {
	var o eventOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return func(ctx context.Context, ev *webhook.Event) error {
		switch {
		case fn == nil:
			return errors.New("checkout: pgclaim: handle event: nil function given to Store.HandleEvent")
		case ev == nil:
			return errors.New("checkout: pgclaim: handle event: nil event")
		}
		key := ev.DedupKey()
		if o.key != nil {
			key = o.key(ev)
		}
		return s.effect(ctx, fmt.Sprintf("handle event %q", clip(ev.Name)), key, func(ctx context.Context, tx pgx.Tx) error {
			return fn(ctx, tx, ev)
		})
	}
}

// clip bounds a name chosen by the sender before it goes into an error.
func clip(s string) string {
	const n = 64
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// effect runs fn in a transaction and, when key is not "", writes key's
// mark before the commit (see Handle). An error of fn comes back as is.
func (s *Store) effect(ctx context.Context, name, key string, fn func(context.Context, pgx.Tx) error) error {
	if s == nil || s.pool == nil {
		return errNilStore
	}
	if key != "" {
		var done bool
		if err := s.call(ctx, name, func(ctx context.Context) error {
			return s.pool.QueryRow(ctx, s.sql.isDone, []byte(key)).Scan(&done)
		}); err != nil || done {
			return err
		}
	}
	attempt := rand.Text()
	tx, err := s.pool.BeginTx(ctx, s.txOptions)
	if err != nil {
		return op(name, fmt.Errorf("begin: %w", err))
	}
	committed := false
	defer func() {
		if !committed { // fn failed or panicked, or the mark found the key done
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
			_ = tx.Rollback(rctx)
			cancel()
		}
	}()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	if key != "" {
		var ok bool
		err := tx.QueryRow(ctx, s.sql.mark, []byte(key), attempt, s.keep).Scan(&ok)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return nil // another transaction marked it first: ours rolls back
		case err != nil:
			return op(name, fmt.Errorf("write the mark: %w", err))
		}
	}
	// The work is done and marked: finish it even if ctx ended meanwhile
	// (another replica's mark would wait for this one, then find it).
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
	defer cancel()
	committed = true
	err = tx.Commit(cctx)
	if err == nil || key == "" {
		return op(name, commitErr(err))
	}
	return s.settleCommit(ctx, name, key, attempt, err)
}

// commitErr names a failed commit.
func commitErr(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("commit: %w", err)
}

// settleCommit finds out whether a commit that failed took effect after
// all: the server refused it (it did not), or the answer was lost (it did
// if the mark names this attempt). Unknown still, it returns the error: a
// retry is safe, since it finds the mark if there is one. (pgconn's
// SafeToRetry is not asked: a connection closed while the commit was in
// flight reads as "conn closed", which it calls safe.)
func (s *Store) settleCommit(ctx context.Context, name, key, attempt string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return op(name, commitErr(err))
	}
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*s.timeout)
	defer cancel()
	wait := 10 * time.Millisecond
	for {
		var mine bool
		qctx, qcancel := context.WithTimeout(bg, s.timeout)
		qerr := s.pool.QueryRow(qctx, s.sql.marked, []byte(key), attempt).Scan(&mine)
		qcancel()
		switch {
		case qerr == nil && mine:
			s.log.WarnContext(ctx, "pgclaim: a commit's answer was lost; its mark shows it took effect", "key", key, "error", err)
			return nil
		case qerr == nil || errors.Is(qerr, pgx.ErrNoRows):
			s.log.WarnContext(ctx, "pgclaim: a commit's answer was lost; it did not take effect and will be retried", "key", key, "error", err)
			return op(name, commitErr(err))
		}
		select {
		case <-bg.Done():
			s.log.WarnContext(ctx, "pgclaim: a commit's outcome is unknown; a retry will find its mark if it took effect", "key", key, "error", err)
			return op(name, fmt.Errorf("commit: outcome unknown (the mark could not be read: %v): %w", qerr, err))
		case <-time.After(wait):
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}
