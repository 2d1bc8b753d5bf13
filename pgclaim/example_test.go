package pgclaim_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/validation"
	"github.com/payorch/checkout-go/webhook"
)

// shopTables are the merchant's tables of the README's example.
const shopTables = `CREATE TABLE orders (
	id     text PRIMARY KEY,
	total  numeric(12, 2) NOT NULL,
	status text NOT NULL DEFAULT 'NEW', -- the service's status once final
	paid   boolean NOT NULL DEFAULT false
);
CREATE TABLE shipments (order_id text NOT NULL REFERENCES orders (id));`

// fulfil records an order's outcome and queues its shipment: with
// [pgclaim.Store.Handle] its writes commit in the transaction that marks
// the order handled, so they happen exactly once.
func fulfil(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
	if !st.IsFinal() {
		return nil // its window ended without a final status: it stays NEW
	}
	var total string
	err := tx.QueryRow(ctx, `SELECT total::text FROM orders WHERE id = $1 FOR UPDATE`, st.OrderID).Scan(&total)
	if err != nil {
		return err // nothing commits: the order is handled again later
	}
	paid := st.CheckPaid(checkout.Amount(total)) == nil // CHARGED, for the amount expected
	if _, err := tx.Exec(ctx, `UPDATE orders SET status = $2, paid = $3 WHERE id = $1`, st.OrderID, st.Status, paid); err != nil {
		return err
	}
	if paid {
		_, err = tx.Exec(ctx, `INSERT INTO shipments (order_id) VALUES ($1)`, st.OrderID)
	}
	return err
}

// The shop's orders table is updated, and a shipment queued, in the same
// transaction that marks the order handled: a replica killed at any point
// neither loses an order nor ships it twice. The same table also holds the
// webhook handler's dedupe.
func Example() {
	ctx := context.Background()
	client, err := checkout.NewClientFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	store, err := pgclaim.New(pgclaim.Config{Pool: pool, Schema: "checkout"})
	if err != nil {
		log.Fatal(err)
	}
	rec, err := reconcile.New(client, reconcile.Config{
		Store:  store,                // tracked orders, claims and marks: the table checkout.claims
		Handle: store.Handle(fulfil), // fulfil's writes commit with the "handled" mark
	})
	if err != nil {
		log.Fatal(err)
	}
	verifier, err := webhook.NewVerifier(webhook.Config{
		Username: os.Getenv("WEBHOOK_USERNAME"),
		Password: os.Getenv("WEBHOOK_PASSWORD"),
		Sources:  webhook.ProductionSources,
		Claims:   store, // the webhook's dedupe in the same table
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/webhooks", rec.Handler(verifier))
	go func() { _ = rec.Run(ctx) }()
	log.Fatal(http.ListenAndServe(":8080", nil))
}

// New does not contact the database; the first call creates the schema and
// table, or Migrate does it at start-up.
func ExampleNew() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	store, err := pgclaim.New(pgclaim.Config{Pool: pool, Schema: "shop_1"})
	if err != nil {
		log.Fatal(err)
	}
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err) // the database is away, or the role may not create the schema (see Migration)
	}
}

// A configuration New refuses is a *validation.ConfigError naming the
// setting.
func ExampleNew_refused() {
	_, err := pgclaim.New(pgclaim.Config{Schema: "shop_1"})
	var ce *validation.ConfigError
	if errors.As(err, &ce) {
		fmt.Println(ce.Err.Problems[0].Path)
		fmt.Println(err)
	}
	// Output:
	// Config.Pool
	// checkout: pgclaim: new: Config.Pool: is required
}

// Handle's function receives the transaction: its writes and the order's
// "handled" mark commit together.
func ExampleStore_Handle() {
	pool, err := pgxpool.New(context.Background(), os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	store, err := pgclaim.New(pgclaim.Config{Pool: pool})
	if err != nil {
		log.Fatal(err)
	}
	cfg := reconcile.Config{
		Store: store,
		Handle: store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
			_, err := tx.Exec(ctx, `UPDATE orders SET status = $2 WHERE id = $1`, st.OrderID, st.Status)
			return err // an error rolls back: the order is handled again later
		}),
	}
	_ = cfg // reconcile.New(client, cfg)
}

// HandleEvent's writes commit with the event's done mark: the key the
// webhook handler claims it by, in the same Store.
func ExampleStore_HandleEvent() {
	pool, err := pgxpool.New(context.Background(), os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	store, err := pgclaim.New(pgclaim.Config{Pool: pool})
	if err != nil {
		log.Fatal(err)
	}
	v, err := webhook.NewVerifier(webhook.Config{
		Username: os.Getenv("WEBHOOK_USERNAME"),
		Password: os.Getenv("WEBHOOK_PASSWORD"),
		Sources:  webhook.ProductionSources,
		Claims:   store,
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/webhooks", v.Handler(store.HandleEvent(func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if ev.Name != webhook.OrderSucceeded {
			return nil // acknowledged, and marked, without a write
		}
		_, err := tx.Exec(ctx, `UPDATE orders SET status = 'CHARGED' WHERE id = $1`, ev.OrderID())
		return err
	})))
}

// An event claimed under a key of the merchant's choosing is marked under
// the same key: give WithEventKey the function given to WithDedupKey.
func ExampleWithEventKey() {
	pool, err := pgxpool.New(context.Background(), os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	store, err := pgclaim.New(pgclaim.Config{Pool: pool})
	if err != nil {
		log.Fatal(err)
	}
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: os.Getenv("WEBHOOK_PASSWORD"), Claims: store})
	if err != nil {
		log.Fatal(err)
	}
	byOrder := func(ev *webhook.Event) string { return "shop-order:" + ev.OrderID() } // one run per order, whichever event
	fn := store.HandleEvent(func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		_, err := tx.Exec(ctx, `UPDATE orders SET status = $2 WHERE id = $1`, ev.OrderID(), ev.Status())
		return err
	}, pgclaim.WithEventKey(byOrder))
	http.Handle("/webhooks", v.Handler(fn, webhook.WithDedupKey(byOrder)))
}

// Migration prints the SQL a migration tool or a DBA runs when the
// application's role may not create the schema (Config.SkipMigration).
func ExampleMigration() {
	fmt.Print(pgclaim.Migration("checkout"))
	// Output:
	// CREATE SCHEMA IF NOT EXISTS "checkout";
	// CREATE TABLE IF NOT EXISTS "checkout"."claims" (
	// 	key     bytea PRIMARY KEY,
	// 	state   text NOT NULL CHECK (state IN ('free', 'held', 'done')),
	// 	holder  text,                 -- the claim's token; for a mark, the attempt that wrote it
	// 	until   timestamptz NOT NULL, -- the lease's or the keep's end: the key is free after it
	// 	due     timestamptz,          -- tracked keys only: when due
	// 	expires timestamptz,          -- tracked keys only: the window's end
	// 	polls   integer NOT NULL DEFAULT 0
	// );
	// CREATE INDEX IF NOT EXISTS claims_due ON "checkout"."claims" (due) WHERE due IS NOT NULL;
	// CREATE INDEX IF NOT EXISTS claims_until ON "checkout"."claims" (until) WHERE due IS NULL;
	// COMMENT ON TABLE "checkout"."claims" IS 'checkout-go pgclaim v1';
}

// With Config.SweepEvery negative, a job of the merchant's own deletes the
// keys that ended.
func ExampleStore_Sweep() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	store, err := pgclaim.New(pgclaim.Config{Pool: pool, SweepEvery: -1})
	if err != nil {
		log.Fatal(err)
	}
	n, err := store.Sweep(ctx)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("%d ended keys deleted", n)
}

// The README's example runs: paid orders are marked paid and shipped once,
// a wrong amount is not shipped, a failed payment is recorded, whichever
// of webhook and poll brings the status, however often.
func TestExampleFulfil(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	pool := newPool(t, srv.URL)
	ctx := context.Background()
	_, err := pool.Exec(ctx, shopTables)
	require.NoError(t, err)
	store := newStore(t, pool, pgclaim.Config{Schema: "checkout"})
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	t.Cleanup(fake.Close)
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	require.NoError(t, err)
	rec, err := reconcile.New(client, reconcile.Config{Store: store, Handle: store.Handle(fulfil),
		Grace: time.Millisecond, Tick: 10 * time.Millisecond})
	require.NoError(t, err)
	for id, total := range map[string]string{"paid": "10.00", "short": "12.00", "failed": "10.00"} {
		_, err := client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "10.00"})
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `INSERT INTO orders (id, total) VALUES ($1, $2)`, id, total)
		require.NoError(t, err)
		require.NoError(t, rec.Track(ctx, id))
	}
	require.NoError(t, fake.Pay("paid"))
	require.NoError(t, fake.Pay("short"))
	require.NoError(t, fake.Fail("failed"))
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = rec.Run(rctx) }()
	require.Eventually(t, func() bool {
		var left int
		return pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE status = 'NEW'`).Scan(&left) == nil && left == 0
	}, 20*time.Second, 20*time.Millisecond)
	cancel()
	<-done

	st, err := client.GetOrder(ctx, "paid")
	require.NoError(t, err)
	require.NoError(t, store.Handle(fulfil)(ctx, st), "a late webhook: done, nothing written")
	got := map[string]string{}
	var id, status string
	var paid bool
	var shipped int
	rows, err := pool.Query(ctx, `SELECT id, status, paid, (SELECT count(*) FROM shipments WHERE order_id = id) FROM orders`)
	require.NoError(t, err)
	_, err = pgx.ForEachRow(rows, []any{&id, &status, &paid, &shipped}, func() error {
		got[id] = fmt.Sprintf("%s paid=%v shipped=%d", status, paid, shipped)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, map[string]string{
		"paid":   "CHARGED paid=true shipped=1",
		"short":  "CHARGED paid=false shipped=0",
		"failed": checkouttest.StatusAuthorizationFailed + " paid=false shipped=0",
	}, got)
}
