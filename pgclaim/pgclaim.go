// Package pgclaim is a [claim.Store] on PostgreSQL, in the merchant's own
// database, whose "handled" mark can commit in the same transaction as the
// merchant's own writes: an order's effect then happens exactly once, even
// when a replica dies between the effect and the mark, which no store
// beside the database can promise.
//
//	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	store, err := pgclaim.New(pgclaim.Config{Pool: pool, Schema: "checkout"})
//	rec, err := reconcile.New(client, reconcile.Config{Store: store,
//		Handle: store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
//			_, err := tx.Exec(ctx, `UPDATE orders SET status = $1 WHERE id = $2`, st.Status, st.OrderID)
//			return err
//		})})
//
// The store. One table, Schema's "claims" (see [Migration]), holds every
// key: claimed by a token until a lease ends, done until a keep ends, and
// tracked with a due time. Each method of the contract is one SQL statement,
// one round trip and one atomic step, safe against its own re-send. The
// durations (lease, keep) run on the database's clock, so replicas whose
// clocks differ agree. Claim does not wait for a row another transaction
// locks (it answers [claim.ErrBusy]), and ClaimDue skips such rows, so a
// transaction committing an effect blocks no one. Keys whose lease or keep
// ended are deleted every Config.SweepEvery.
//
// Effects in the transaction. [Store.Handle] (for reconcile.Config.Handle)
// and [Store.HandleEvent] (for a webhook function or reconcile.Config.OnEvent)
// run the merchant's function inside a transaction and write the key's done
// mark in it, after the function and before the commit; the mark is written
// only if the key is not done already (the row lock decides between two
// replicas that both ran the function: the second finds the first's mark
// and rolls back). A replica killed before the commit leaves nothing, and
// the order or event is handled again; killed after it, the mark is there.
// A commit whose outcome is unknown (the connection broke) is looked up: the
// mark names the attempt that wrote it.
//
// PostgreSQL keeps what it committed, so there is no data loss to detect;
// a database restored from a backup goes back in time with the marks and
// the effects together.
package pgclaim

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/validation"
)

// Defaults of Config's zero fields.
const (
	// DefaultSchema holds the store's table: "checkout".
	DefaultSchema = "checkout"
	// DefaultTimeout bounds each call of the contract: 2 seconds.
	DefaultTimeout = 2 * time.Second
	// DefaultKeep is how long a mark written by Handle or HandleEvent
	// lasts, until the caller's Done sets its own keep: 7 days.
	DefaultKeep = 7 * 24 * time.Hour
	// DefaultSweepEvery is how often keys that ended are deleted: 1 minute.
	DefaultSweepEvery = time.Minute
)

// Config configures a Store.
type Config struct {
	// Pool is the merchant's database. Required. The Store does not close
	// it. Size it for the transactions of Handle and HandleEvent plus one
	// connection per lease renewal under way.
	Pool *pgxpool.Pool
	// Schema holds the table "claims"; "" means DefaultSchema. Give each
	// merchant account its own.
	Schema string
	// SkipMigration makes the Store never create its schema and table: run
	// [Migration]'s SQL yourself (a role without CREATE rights). Without
	// it, the first call creates them when missing.
	SkipMigration bool
	// Timeout bounds each call, within the caller's context; 0 means
	// DefaultTimeout. Keep it well below the service's webhook timeout.
	Timeout time.Duration
	// Keep is how long a mark written in the merchant's transaction lasts;
	// the caller's Done then sets its own (reconcile.Config.Remember,
	// webhook.Config.DedupTTL). 0 means DefaultKeep.
	Keep time.Duration
	// TxOptions are the transactions' of Handle and HandleEvent: the
	// zero value is READ COMMITTED, read-write.
	TxOptions pgx.TxOptions
	// SweepEvery is how often the Store deletes keys whose lease or keep
	// ended, in the background after a call; 0 means DefaultSweepEvery,
	// negative never (call [Store.Sweep] yourself).
	SweepEvery time.Duration
	// Logger hears of sweeps that failed and of commits whose answer was
	// lost (warn); nil is slog.Default().
	Logger *slog.Logger
}

// Store is a claim.Store on PostgreSQL, safe for concurrent use by any
// number of processes sharing the database and the Schema.
type Store struct {
	pool       *pgxpool.Pool
	schema     string
	table      string // quoted: "schema"."claims"
	sql        statements
	migrate    bool
	timeout    time.Duration
	keep       time.Duration
	txOptions  pgx.TxOptions
	sweepEvery time.Duration
	log        *slog.Logger

	ready     atomic.Bool // the table is there
	migrating sync.Mutex
	sweeping  atomic.Bool  // a background sweep is under way
	lastSweep atomic.Int64 // unix nanoseconds
}

var _ claim.Store = (*Store)(nil)

// maxIdentifier is PostgreSQL's longest name, in bytes.
const maxIdentifier = 63

// New returns a Store on cfg.Pool. It does not contact the database (a
// replica may start while it is briefly away): the first call creates the
// table when missing, or [Store.Migrate] does it now.
func New(cfg Config) (*Store, error) {
	var v validation.Error
	if cfg.Pool == nil {
		v.Add("Config.Pool", "is required")
	}
	switch {
	case len(cfg.Schema) > maxIdentifier:
		v.Add("Config.Schema", fmt.Sprintf("is longer than %d bytes", maxIdentifier))
	case !validName(cfg.Schema):
		v.Add("Config.Schema", "holds a NUL byte or is not UTF-8")
	}
	if cfg.Timeout < 0 {
		v.Add("Config.Timeout", "is negative")
	}
	if cfg.Keep < 0 {
		v.Add("Config.Keep", "is negative")
	}
	if err := v.ConfigErr("pgclaim: new"); err != nil {
		return nil, err
	}
	s := &Store{pool: cfg.Pool, schema: cfg.Schema, migrate: !cfg.SkipMigration, timeout: cfg.Timeout, keep: cfg.Keep,
		txOptions: cfg.TxOptions, sweepEvery: cfg.SweepEvery, log: cfg.Logger}
	if s.schema == "" {
		s.schema = DefaultSchema
	}
	if s.timeout == 0 {
		s.timeout = DefaultTimeout
	}
	if s.keep == 0 {
		s.keep = DefaultKeep
	}
	if s.sweepEvery == 0 {
		s.sweepEvery = DefaultSweepEvery
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.table = pgx.Identifier{s.schema, "claims"}.Sanitize()
	s.sql = newStatements(s.table)
	s.lastSweep.Store(time.Now().UnixNano())
	return s, nil
}

const errNilStore = sentinel("checkout: pgclaim: Store not configured (use New)")

type sentinel string

func (e sentinel) Error() string { return string(e) }

// op wraps err as the failure of operation op.
func op(name string, err error) error {
	if err == nil {
		return nil
	}
	var se sentinel
	if errors.As(err, &se) {
		return err
	}
	return fmt.Errorf("checkout: pgclaim: %s: %w", name, err)
}
