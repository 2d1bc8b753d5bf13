package pgclaim_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/internal/netfault"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/webhook"
)

// shop is a merchant's database: a store and its fulfilments table.
type shop struct {
	t      *testing.T
	pool   *pgxpool.Pool
	store  *pgclaim.Store
	schema string
}

func newShop(t *testing.T, pool *pgxpool.Pool) *shop {
	schema := schemaName()
	s := &shop{t: t, pool: pool, schema: schema, store: newStore(t, pool, pgclaim.Config{Schema: schema})}
	_, err := pool.Exec(context.Background(), "CREATE SCHEMA IF NOT EXISTS "+schema+"; CREATE TABLE "+schema+".fulfilments (order_id text NOT NULL)")
	require.NoError(t, err)
	return s
}

// fulfil is the merchant's effect: one row per fulfilment.
func (s *shop) fulfil(ctx context.Context, tx pgx.Tx, orderID string) error {
	_, err := tx.Exec(ctx, "INSERT INTO "+s.schema+".fulfilments (order_id) VALUES ($1)", orderID)
	return err
}

// rows counts the fulfilments of orderID.
func (s *shop) rows(orderID string) int {
	var n int
	require.NoError(s.t, s.pool.QueryRow(context.Background(), "SELECT count(*) FROM "+s.schema+".fulfilments WHERE order_id = $1", orderID).Scan(&n))
	return n
}

// claimErr is what a fresh Claim of key answers: ErrDone once marked.
func (s *shop) claimErr(key string) error {
	err := s.store.Claim(context.Background(), key, "probe-"+key, time.Millisecond)
	if err == nil {
		time.Sleep(2 * time.Millisecond) // the probe's lease ends
	}
	return err
}

func paid(id string) *checkout.OrderStatus {
	return &checkout.OrderStatus{OrderID: id, Status: checkout.StatusCharged}
}

func TestHandle(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	sh := newShop(t, newPool(t, srv.URL))
	ctx := context.Background()
	var calls atomic.Int32
	handle := sh.store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
		calls.Add(1)
		return sh.fulfil(ctx, tx, st.OrderID)
	})

	t.Run("the write and the mark commit together", func(t *testing.T) {
		require.NoError(t, sh.store.Claim(ctx, reconcile.OrderKey("o1"), "t1", time.Minute))
		require.NoError(t, handle(ctx, paid("o1")))
		require.Equal(t, 1, sh.rows("o1"))
		require.ErrorIs(t, sh.claimErr(reconcile.OrderKey("o1")), claim.ErrDone, "marked by the transaction")
		require.ErrorIs(t, sh.store.Extend(ctx, reconcile.OrderKey("o1"), "t1", time.Minute), claim.ErrDone)
	})

	t.Run("an order handled already: fn is not called", func(t *testing.T) {
		before := calls.Load()
		require.NoError(t, handle(ctx, paid("o1")))
		require.Equal(t, before, calls.Load())
		require.Equal(t, 1, sh.rows("o1"))
	})

	t.Run("fn fails or panics: nothing commits, the error is fn's", func(t *testing.T) {
		errShop := errors.New("shop: out of stock")
		failing := sh.store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
			require.NoError(t, sh.fulfil(ctx, tx, st.OrderID))
			return errShop
		})
		require.ErrorIs(t, failing(ctx, paid("o2")), errShop)
		panicking := sh.store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
			require.NoError(t, sh.fulfil(ctx, tx, st.OrderID))
			panic("shop bug")
		})
		require.PanicsWithValue(t, "shop bug", func() { _ = panicking(ctx, paid("o2")) })
		require.Zero(t, sh.rows("o2"))
		require.NoError(t, sh.claimErr(reconcile.OrderKey("o2")), "not marked")
		require.NoError(t, handle(ctx, paid("o2")), "the retry")
		require.Equal(t, 1, sh.rows("o2"))
	})

	t.Run("two replicas ran fn: the first commit wins, the other rolls back", func(t *testing.T) {
		wrote, finish := make(chan struct{}), make(chan struct{})
		slow := sh.store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
			err := sh.fulfil(ctx, tx, st.OrderID)
			close(wrote)
			<-finish // its lease lapsed meanwhile; another replica handles the order
			return err
		})
		slowErr := make(chan error, 1)
		go func() { slowErr <- slow(ctx, paid("o3")) }()
		<-wrote
		require.NoError(t, handle(ctx, paid("o3")), "the other replica")
		close(finish)
		require.NoError(t, <-slowErr, "the late one finds the order handled: nothing to retry")
		require.Equal(t, 1, sh.rows("o3"))
	})

	t.Run("a window-end report commits without a mark", func(t *testing.T) {
		report := &checkout.OrderStatus{OrderID: "o4", Status: checkout.StatusPendingVBV}
		require.NoError(t, handle(ctx, report))
		require.Equal(t, 1, sh.rows("o4"))
		require.NoError(t, sh.claimErr(reconcile.OrderKey("o4")), "not handled for good")
		require.NoError(t, handle(ctx, paid("o4")), "its final status still comes")
		require.Equal(t, 2, sh.rows("o4"))
	})

	t.Run("a nil status is refused", func(t *testing.T) {
		require.ErrorContains(t, handle(ctx, nil), "checkout: pgclaim: handle order: nil status")
	})
}

// armer drops the next message of a direction at the proxy when the pool
// sends "commit".
type armer struct {
	proxy *netfault.Proxy
	dir   atomic.Int32
}

func (a *armer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if data.SQL == "commit" {
		if dir := a.dir.Swap(0); dir != 0 {
			a.proxy.DropNext(int(dir))
		}
	}
	return ctx
}

func (a *armer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A commit whose answer is lost is looked up: committed, Handle succeeds;
// never received, Handle fails and nothing is marked, so a retry runs it.
func TestCommitOutcomeUnknown(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	proxy := netfault.NewProxy(t, u.Host)
	a := &armer{proxy: proxy}
	pool := newPool(t, "postgres://postgres@"+proxy.Addr+"/postgres?sslmode=disable", func(c *pgxpool.Config) { c.ConnConfig.Tracer = a })
	sh := newShop(t, pool)
	ctx := context.Background()
	handle := sh.store.Handle(func(ctx context.Context, tx pgx.Tx, st *checkout.OrderStatus) error {
		return sh.fulfil(ctx, tx, st.OrderID)
	})

	require.NoError(t, sh.store.Claim(ctx, reconcile.OrderKey("lost-answer"), "t1", time.Minute))
	a.dir.Store(netfault.ToClient)
	require.NoError(t, handle(ctx, paid("lost-answer")), "the commit took effect: the mark names this attempt")
	require.Equal(t, 1, sh.rows("lost-answer"))
	require.ErrorIs(t, sh.claimErr(reconcile.OrderKey("lost-answer")), claim.ErrDone)

	require.NoError(t, sh.store.Claim(ctx, reconcile.OrderKey("lost-commit"), "t1", time.Minute))
	a.dir.Store(netfault.ToServer)
	require.ErrorContains(t, handle(ctx, paid("lost-commit")), `checkout: pgclaim: handle order "lost-commit": commit: `)
	require.Zero(t, sh.rows("lost-commit"), "the server never got the commit: it rolled back")
	require.NoError(t, sh.store.Release(ctx, reconcile.OrderKey("lost-commit"), "t1"))
	require.NoError(t, handle(ctx, paid("lost-commit")), "the retry")
	require.Equal(t, 1, sh.rows("lost-commit"))
}

func TestHandleEvent(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	sh := newShop(t, newPool(t, srv.URL))
	ctx := context.Background()
	var fail atomic.Bool
	fn := func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if err := sh.fulfil(ctx, tx, ev.OrderID()); err != nil {
			return err
		}
		if fail.Load() {
			return errors.New("shop database said no")
		}
		return nil
	}
	body := func(id, order string) []byte {
		return []byte(`{"id":"` + id + `","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"` + order + `","status":"CHARGED"}}}`)
	}

	t.Run("through the webhook handler: once per event, retried until it commits", func(t *testing.T) {
		cfg := webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true, Claims: sh.store}
		v, err := webhook.NewVerifier(cfg)
		require.NoError(t, err)
		h := v.Handler(sh.store.HandleEvent(fn))
		deliver := func(b []byte) int {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, webhook.NewTestRequest(cfg, b))
			return w.Code
		}
		fail.Store(true)
		require.Equal(t, http.StatusInternalServerError, deliver(body("evt_1", "e1")))
		require.Zero(t, sh.rows("e1"), "rolled back")
		fail.Store(false)
		require.Equal(t, http.StatusOK, deliver(body("evt_1", "e1")), "the re-send")
		require.Equal(t, http.StatusOK, deliver(body("evt_1", "e1")), "a duplicate")
		require.Equal(t, 1, sh.rows("e1"))
	})

	t.Run("the mark is the event's DedupKey, or the key given", func(t *testing.T) {
		ev, err := webhook.ParseEvent(body("evt_2", "e2"))
		require.NoError(t, err)
		require.NoError(t, sh.store.HandleEvent(fn)(ctx, ev))
		require.ErrorIs(t, sh.claimErr(ev.DedupKey()), claim.ErrDone)
		require.NoError(t, sh.store.HandleEvent(fn)(ctx, ev), "done: fn not called")
		require.Equal(t, 1, sh.rows("e2"))

		byOrder := pgclaim.WithEventKey(func(ev *webhook.Event) string { return "shop-order:" + ev.OrderID() })
		ev3, err := webhook.ParseEvent(body("evt_3", "e3"))
		require.NoError(t, err)
		require.NoError(t, sh.store.HandleEvent(fn, byOrder)(ctx, ev3))
		require.ErrorIs(t, sh.claimErr("shop-order:e3"), claim.ErrDone)
		require.NoError(t, sh.claimErr(ev3.DedupKey()), "not under the default key")

		none := pgclaim.WithEventKey(func(*webhook.Event) string { return "" })
		ev4, err := webhook.ParseEvent(body("evt_4", "e4"))
		require.NoError(t, err)
		require.NoError(t, sh.store.HandleEvent(fn, none)(ctx, ev4))
		require.NoError(t, sh.store.HandleEvent(fn, none)(ctx, ev4))
		require.Equal(t, 2, sh.rows("e4"), "an empty key: no mark, fn commits each time")
		require.ErrorContains(t, sh.store.HandleEvent(fn)(ctx, nil), "checkout: pgclaim: handle event: nil event")
	})
}
