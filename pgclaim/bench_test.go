package pgclaim_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
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
	"github.com/payorch/checkout-go/webhook"
)

// statementCounter counts the statements sent (begin and commit
// included): each is one round trip.
type statementCounter struct{ n atomic.Int64 }

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// BenchmarkStatementsPerOrder reports the statements per tracked order,
// from Track to the order marked handled, and the orders handled per
// second one after the other, as reconcile's BenchmarkRoundTripsPerOrder
// does for the Redis store. "plain" runs a Handle outside any transaction
// (the store alone, as with Redis: Track, Claim, Done); "tx" runs
// Handle through Store.Handle, whose insert into the merchant's table
// commits with the mark (adding the done check, begin, the insert, the
// mark and commit). Each runs with fsync on (every commit waits for the
// disk, as in production) and off (as the Redis benchmark's server, which
// keeps nothing on disk).
func BenchmarkStatementsPerOrder(b *testing.B) {
	for _, durable := range []bool{true, false} {
		b.Run(fmt.Sprintf("fsync=%s", map[bool]string{true: "on", false: "off"}[durable]), func(b *testing.B) { benchStatements(b, pgtest.Start(b, pgtest.Options{Durable: durable})) })
	}
}

func benchStatements(b *testing.B, srv *pgtest.Server) {
	ctx := context.Background()
	setup := func(b *testing.B, inTx bool) (*checkouttest.Server, *checkout.Client, *reconcile.Reconciler, http.Handler, *statementCounter, *atomic.Int64) {
		cnt := &statementCounter{}
		pool := newPool(b, srv.URL, func(c *pgxpool.Config) { c.ConnConfig.Tracer = cnt })
		schema := schemaName()
		store := newStore(b, pool, pgclaim.Config{Schema: schema})
		_, err := pool.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema+"; CREATE TABLE "+schema+".fulfilments (order_id text NOT NULL)")
		require.NoError(b, err)
		handled := &atomic.Int64{}
		handle := func(context.Context, *checkout.OrderStatus) error { handled.Add(1); return nil }
		if inTx {
			handle = store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
				_, err := tx.Exec(ctx, "INSERT INTO "+schema+".fulfilments (order_id) VALUES ($1)", st.OrderID)
				handled.Add(1)
				return err
			})
		}
		fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
		b.Cleanup(fake.Close)
		c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
		require.NoError(b, err)
		rec, err := reconcile.New(c, reconcile.Config{Handle: handle, Store: store, Grace: time.Millisecond, Tick: 10 * time.Millisecond})
		require.NoError(b, err)
		v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true, Claims: store})
		require.NoError(b, err)
		// Warm up: the table made, the statements prepared on a connection.
		require.NoError(b, rec.Track(ctx, "warm-up"))
		return fake, c, rec, rec.Handler(v), cnt, handled
	}
	for _, tc := range []struct {
		name       string
		inTx       bool
		deliveries int
	}{{"webhook/plain", false, 1}, {"webhook/tx", true, 1}, {"webhook/tx/deliveries=2", true, 2}} {
		b.Run(tc.name, func(b *testing.B) {
			_, _, rec, hook, cnt, handled := setup(b, tc.inTx)
			cfg := webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true}
			cnt.n.Store(0)
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				id := fmt.Sprint("o-", i)
				_ = rec.Track(ctx, id)
				body := []byte(`{"id":"evt_` + id + `","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"` + id + `","status":"CHARGED"}}}`)
				for range tc.deliveries {
					w := httptest.NewRecorder()
					hook.ServeHTTP(w, webhook.NewTestRequest(cfg, body))
					if w.Code != http.StatusOK {
						b.Fatalf("status %d", w.Code)
					}
				}
			}
			b.ReportMetric(float64(cnt.n.Load())/float64(b.N), "statements/order")
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "orders/s")
			require.Equal(b, int64(b.N), handled.Load())
		})
	}
	b.Run("poll/tx", func(b *testing.B) {
		fake, c, rec, _, cnt, handled := setup(b, true)
		for i := 0; b.Loop(); i++ {
			id := fmt.Sprint("o-", i)
			_, _ = c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "1.00"})
			_ = fake.Pay(id)
			_ = rec.Track(ctx, id)
		}
		cnt.n.Store(0)
		start := time.Now()
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); _ = rec.Run(rctx) }()
		for handled.Load() < int64(b.N) {
			time.Sleep(time.Millisecond)
		}
		took := time.Since(start)
		cancel()
		<-done
		// Track was counted before: one statement per order.
		b.ReportMetric(1+float64(cnt.n.Load())/float64(b.N), "statements/order")
		b.ReportMetric(float64(b.N)/took.Seconds(), "orders/s")
	})
}
