package pgclaim_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/netfault"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/webhook"
)

// The promise of issue 39 under faults: three replicas on one real
// PostgreSQL, each through a proxy of its own, 30% of webhooks dropped by
// the fake, a quarter of payments left pending then paid, a seventh
// failing; Handle's effect is a row of the merchant's fulfilments table,
// written in Handle's transaction. Then one fault per scenario. Every
// order reaching a final status must have exactly one row: 0 lost, 0
// doubled, in every scenario, killed replicas included.
//
// The suite runs 120 orders per scenario; CHECKOUT_FAULT_ORDERS and
// CHECKOUT_FAULT_RUNS set the scale, and each scenario logs its row of the
// table (go test -v -run TestFaults); CHECKOUT_FAULT_LOG names a file for
// the replicas' logs.
func TestFaults(t *testing.T) {
	n, runs := envInt("CHECKOUT_FAULT_ORDERS", 120), envInt("CHECKOUT_FAULT_RUNS", 1)
	srv := pgtest.Start(t, pgtest.Options{})
	for _, sc := range []scenario{
		{name: "replicas killed after the merchant's write, before commit", killBefore: 3},
		{name: "replicas killed after commit, before the reconciler's Done", killAfter: 3},
		{name: "connections cut: at every 4th commit, and one at random every 100 ms", cut: true},
		{name: "PostgreSQL crashed and restarted mid-run", restart: true},
	} {
		t.Run(sc.name, func(t *testing.T) {
			var lost, doubled, unknown, orders int
			var took time.Duration
			for range runs {
				r := sc.run(t, srv, n)
				lost, doubled, unknown, orders, took = lost+r.lost, doubled+r.doubled, unknown+r.unknown, orders+n, took+r.took
			}
			t.Logf("| %s | %d of %d | %d | %d | %.0f orders/s |", sc.name, lost, orders, doubled, unknown, float64(orders)/took.Seconds())
			require.Zero(t, lost, "lost")
			require.Zero(t, doubled, "doubled")
		})
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

type scenario struct {
	name       string
	killBefore int  // replicas killed after Handle's write, before its commit
	killAfter  int  // replicas killed after the commit, before Done
	cut        bool // connections cut at every 4th commit (see commitCutter), and one at random every 100 ms
	restart    bool // PostgreSQL crashed (immediate shutdown) and restarted mid-run
}

// faultLease is the replicas' lease: 600 ms, or CHECKOUT_FAULT_LEASE
// milliseconds.
var faultLease = time.Duration(envInt("CHECKOUT_FAULT_LEASE", 600)) * time.Millisecond

// fleet is the merchant's deployment: replicas behind a load balancer,
// one database.
type fleet struct {
	t      *testing.T
	sc     scenario
	db     string // the server's host:port
	schema string
	client *checkout.Client
	hang   chan struct{} // what a killed replica was doing never ends
	log    *slog.Logger
	lost   atomic.Int32 // commits whose answer was lost (the stores' warnings)

	mu       sync.Mutex
	live     []*replica
	turn     int
	replicas []*replica
	kills    map[string]bool // orders whose Handle kills its replica
}

type replica struct {
	rec    *reconcile.Reconciler
	hook   http.Handler
	proxy  *netfault.Proxy
	pool   *pgxpool.Pool
	cancel context.CancelFunc
	done   chan struct{}
	dead   atomic.Bool
}

func (f *fleet) start() *replica {
	r := &replica{proxy: netfault.NewProxy(f.t, f.db), done: make(chan struct{})}
	cfg, err := pgxpool.ParseConfig("postgres://postgres@" + r.proxy.Addr + "/postgres?sslmode=disable&connect_timeout=1")
	require.NoError(f.t, err)
	cfg.MaxConns = 8
	if f.sc.cut {
		cfg.ConnConfig.Tracer = &commitCutter{proxy: r.proxy}
	}
	r.pool, err = pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(f.t, err)
	store, err := pgclaim.New(pgclaim.Config{Pool: r.pool, Schema: f.schema, Timeout: time.Second,
		Logger: slog.New(counting{f.log.Handler(), &f.lost})})
	require.NoError(f.t, err)
	handle := store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
		if !st.IsFinal() {
			return nil
		}
		if _, err := tx.Exec(ctx, "INSERT INTO "+f.schema+".fulfilments (order_id) VALUES ($1)", st.OrderID); err != nil {
			return err
		}
		if f.killHere(st.OrderID, f.sc.killBefore > 0) {
			f.kill(r) // its connections close: the transaction rolls back
			<-f.hang
			return ctx.Err()
		}
		return nil
	})
	r.rec, err = reconcile.New(f.client, reconcile.Config{Store: store, Grace: 100 * time.Millisecond,
		Intervals: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond}, Window: time.Minute, Lease: faultLease,
		ReadTimeout: faultLease / 2, Tick: 20 * time.Millisecond, Logger: f.log,
		Handle: func(ctx context.Context, st *checkout.OrderStatus) error {
			if r.dead.Load() {
				<-f.hang
				return ctx.Err()
			}
			err := handle(ctx, st)
			if err == nil && f.killHere(st.OrderID, f.sc.killAfter > 0) {
				f.kill(r) // committed: the reconciler's Done never comes
				<-f.hang
			}
			return err
		}})
	require.NoError(f.t, err)
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true, Claims: store, Logger: f.log})
	require.NoError(f.t, err)
	r.hook = r.rec.Handler(v)
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { defer close(r.done); _ = r.rec.Run(ctx) }()
	f.mu.Lock()
	f.live = append(f.live, r)
	f.replicas = append(f.replicas, r)
	f.mu.Unlock()
	return r
}

// commitCutter loses the answer of every 8th commit, and the commit
// itself of every other 4th, at the proxy, cutting the connections.
type commitCutter struct {
	proxy   *netfault.Proxy
	commits atomic.Int64
}

func (c *commitCutter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if data.SQL != "commit" {
		return ctx
	}
	switch n := c.commits.Add(1); {
	case n%8 == 0:
		c.proxy.DropNext(netfault.ToClient)
	case n%4 == 0:
		c.proxy.DropNext(netfault.ToServer)
	}
	return ctx
}

func (c *commitCutter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// killHere tells whether the order's Handle kills its replica here (once),
// where on says the scenario kills there.
func (f *fleet) killHere(orderID string, on bool) bool {
	if !on {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	kill := f.kills[orderID]
	delete(f.kills, orderID)
	return kill
}

// kill makes r vanish as a killed process does: its connections close
// (the database rolls back its open transactions), its context ends,
// nothing it does from now on reaches the database, a new replica
// replaces it.
func (f *fleet) kill(r *replica) {
	if !r.dead.CompareAndSwap(false, true) {
		return
	}
	f.mu.Lock()
	for i, x := range f.live {
		if x == r {
			f.live = append(f.live[:i:i], f.live[i+1:]...)
		}
	}
	f.mu.Unlock()
	r.proxy.Close()
	r.cancel()
	f.start()
}

func (f *fleet) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	f.mu.Lock()
	if len(f.live) == 0 {
		f.mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	f.turn++
	r := f.live[f.turn%len(f.live)]
	f.mu.Unlock()
	r.hook.ServeHTTP(w, req)
}

// counting counts the records about a commit whose answer was lost.
type counting struct {
	slog.Handler
	n *atomic.Int32
}

func (c counting) Enabled(context.Context, slog.Level) bool { return true }
func (c counting) Handle(ctx context.Context, r slog.Record) error {
	if strings.HasPrefix(r.Message, "pgclaim: a commit's") {
		c.n.Add(1)
	}
	if c.Handler.Enabled(ctx, r.Level) {
		return c.Handler.Handle(ctx, r)
	}
	return nil
}
func (c counting) WithAttrs(as []slog.Attr) slog.Handler {
	return counting{c.Handler.WithAttrs(as), c.n}
}
func (c counting) WithGroup(g string) slog.Handler { return counting{c.Handler.WithGroup(g), c.n} }

// result is one run of a scenario.
type result struct {
	lost, doubled int
	unknown       int           // commits whose answer was lost
	took          time.Duration // from the first order to the last handled
}

// run runs the scenario with n orders on a schema of its own.
func (sc scenario) run(t *testing.T, srv *pgtest.Server, n int) result {
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	admin := newPool(t, srv.URL, func(c *pgxpool.Config) { c.ConnConfig.ConnectTimeout = time.Second })
	f := &fleet{t: t, sc: sc, db: u.Host, schema: schemaName(), hang: make(chan struct{}), kills: map[string]bool{}}
	ctx := context.Background()
	_, err = admin.Exec(ctx, "CREATE SCHEMA "+f.schema+"; CREATE TABLE "+f.schema+".fulfilments (order_id text NOT NULL)")
	require.NoError(t, err)
	f.log = slog.New(slog.DiscardHandler)
	if name := os.Getenv("CHECKOUT_FAULT_LOG"); name != "" {
		file, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		require.NoError(t, err)
		t.Cleanup(func() { _ = file.Close() })
		f.log = slog.New(slog.NewTextHandler(file, nil)).With("scenario", sc.name)
	}
	router := httptest.NewServer(f)
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key", Webhook: checkouttest.WebhookConfig{
		URL: router.URL, Username: "shop", Password: "hook-secret", RetryInterval: 50 * time.Millisecond, MaxAttempts: 1000,
		Timeout: 2 * time.Second, Duplicates: 1,
	}})
	f.client, err = checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	require.NoError(t, err)
	require.NoError(t, fake.DropWebhooks(0.3))
	for range 3 {
		f.start()
	}
	ids := make([]string, n)
	for i := range n {
		ids[i] = fmt.Sprintf("ord-%04d", i)
	}
	for k := 1; k <= sc.killBefore+sc.killAfter; k++ {
		f.kills[ids[n*k/(sc.killBefore+sc.killAfter+1)]] = true
	}
	stopCuts := make(chan struct{})
	var cuts sync.WaitGroup
	if sc.cut {
		cuts.Go(func() {
			for {
				select {
				case <-stopCuts:
					return
				case <-time.After(100 * time.Millisecond):
					f.mu.Lock()
					f.live[rand.IntN(len(f.live))].proxy.CutOne()
					f.mu.Unlock()
				}
			}
		})
	}
	start := time.Now()
	for i, id := range ids {
		_, err := f.client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "10.00"})
		require.NoError(t, err)
		require.Eventually(t, func() bool { // on a live replica: the one picked may be killed meanwhile
			f.mu.Lock()
			r := f.live[i%len(f.live)]
			f.mu.Unlock()
			return r.rec.Track(ctx, id) == nil
		}, 20*time.Second, 10*time.Millisecond, "track %s", id)
		switch {
		case i%4 == 0:
			require.NoError(t, fake.PayLater(id, time.Duration(100+i%500)*time.Millisecond))
		case i%7 == 0:
			require.NoError(t, fake.Fail(id))
		default:
			require.NoError(t, fake.Pay(id))
		}
		if sc.restart && i == n/2 {
			srv.Restart()
		}
	}
	deadline := time.Now().Add(30*time.Second + time.Duration(n)*40*time.Millisecond)
	for time.Now().Before(deadline) && count(t, admin, f.schema, fake, ids).lost > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(start)
	close(stopCuts)
	cuts.Wait()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	_ = fake.WaitDeliveries(wctx)
	cancel()
	time.Sleep(2 * faultLease) // late polls and re-sends that must change nothing
	res := count(t, admin, f.schema, fake, ids)
	res.took, res.unknown = took, int(f.lost.Load())
	require.Empty(t, f.kills, "every kill happened")
	f.mu.Lock()
	replicas := f.replicas
	f.mu.Unlock()
	for _, r := range replicas {
		r.cancel()
	}
	close(f.hang)
	for _, r := range replicas {
		<-r.done
		r.proxy.Close()
		r.pool.Close()
	}
	router.Close()
	fake.Close()
	return res
}

// count reads the fulfilments: orders final at the fake with none are
// lost, rows beyond one per order doubled.
func count(t *testing.T, db *pgxpool.Pool, schema string, fake *checkouttest.Server, ids []string) result {
	rows := map[string]int{}
	var id string
	var c int
	q, err := db.Query(context.Background(), "SELECT order_id, count(*) FROM "+schema+".fulfilments GROUP BY order_id")
	if err != nil { // the database is restarting: ask again later
		return result{lost: len(ids)}
	}
	_, err = pgx.ForEachRow(q, []any{&id, &c}, func() error { rows[id] = c; return nil })
	if err != nil {
		return result{lost: len(ids)}
	}
	var r result
	for _, id := range ids {
		o, err := fake.Order(id)
		require.NoError(t, err)
		st := checkout.OrderStatus{Status: checkout.Status(o.Status)}
		if st.IsFinal() && rows[id] == 0 {
			r.lost++
		}
		if rows[id] > 1 {
			r.doubled += rows[id] - 1
		}
	}
	return r
}
