package redisstore_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/reconcile/reconciletest"
	"github.com/payorch/checkout-go/reconcile/redisstore"
	"github.com/payorch/checkout-go/webhook"
)

// These tests run against a real Redis: CHECKOUT_REDIS_ADDR=host:port, or
// a redis-server on PATH started on a free loopback port for each test.
// Without either they skip, except under CI=true, where they fail.
func redisAddr(t testing.TB) string {
	t.Helper()
	if a := os.Getenv("CHECKOUT_REDIS_ADDR"); a != "" {
		return a
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not on PATH, and CI=true: install it (apt-get install redis-server)")
		}
		t.Skip("redis-server is not on PATH: install it, or set CHECKOUT_REDIS_ADDR, to run these tests")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	require.NoError(t, l.Close())
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no", "--loglevel", "warning")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	require.Eventually(t, func() bool { return c.Ping(context.Background()).Err() == nil }, 10*time.Second, 20*time.Millisecond)
	return addr
}

func newStore(t testing.TB, addr, prefix string, hooks ...redis.Hook) *redisstore.Store {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	for _, h := range hooks {
		rdb.AddHook(h)
	}
	t.Cleanup(func() { _ = rdb.Close() })
	s, err := redisstore.New(redisstore.Config{Client: rdb, Prefix: prefix})
	require.NoError(t, err)
	return s
}

func TestNew(t *testing.T) {
	_, err := redisstore.New(redisstore.Config{})
	require.EqualError(t, err, "checkout: redisstore: new: Config.Client is required")
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}) // nothing listens
	defer rdb.Close()
	_, err = redisstore.New(redisstore.Config{Client: rdb, Prefix: "shop}{1:"})
	require.EqualError(t, err, `checkout: redisstore: new: Config.Prefix "shop}{1:" has braces but no {hash tag}`)
	s, err := redisstore.New(redisstore.Config{Client: rdb, Prefix: "shop:"})
	require.NoError(t, err)
	err = s.Track(context.Background(), "a", time.Now(), time.Now())
	require.ErrorContains(t, err, "checkout: redisstore: track: ")
	require.Error(t, errors.Unwrap(err), "Redis's error is kept")
}

// hashTag is the part of key Redis Cluster hashes to find its slot.
func hashTag(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// On Redis Cluster a script's keys must share one slot: a Prefix without
// a hash tag is put in braces, so every key of the Store hashes alike.
func TestKeysShareOneSlot(t *testing.T) {
	addr := redisAddr(t)
	ctx := context.Background()
	for _, f := range []string{"shop-%s:", "{shop-%s}:"} {
		id := rand.Text()
		s := newStore(t, addr, fmt.Sprintf(f, id))
		now := time.Now()
		require.NoError(t, s.Track(ctx, "a", now, now.Add(time.Hour)))
		require.NoError(t, s.Track(ctx, "b", now, now.Add(time.Hour)))
		_, err := s.ClaimDue(ctx, now, 1, "t1", time.Hour)
		require.NoError(t, err)
		require.NoError(t, s.Claim(ctx, "c", "t2", time.Hour))
		require.NoError(t, s.Done(ctx, "c", "t2", true, time.Hour))
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		keys, err := rdb.Keys(ctx, "*"+id+"*").Result()
		_ = rdb.Close()
		require.NoError(t, err)
		require.Len(t, keys, 5, "due, o:a, o:b, one claim, d:c")
		for _, k := range keys {
			require.Contains(t, hashTag(k), id, k)
			require.Equal(t, hashTag(keys[0]), hashTag(k), k)
		}
	}
}

// The Store contract of reconcile: claims exclude each other, end with
// their lease and only by their owner, and a handled order is never handed
// out again.
func TestStoreContract(t *testing.T) {
	reconciletest.StoreContract(t, newStore(t, redisAddr(t), "t:"+rand.Text()+":"))
}

// ClaimDue looks past orders others hold to claim the n asked for.
func TestClaimDueSkipsHeldOrders(t *testing.T) {
	s := newStore(t, redisAddr(t), "t:"+rand.Text()+":")
	ctx := context.Background()
	now := time.Now()
	for i := range 4 {
		require.NoError(t, s.Track(ctx, fmt.Sprint("o-", i), now.Add(time.Duration(i)*time.Millisecond), now.Add(time.Hour)))
	}
	require.NoError(t, s.Claim(ctx, "o-0", "webhook", time.Hour))
	require.NoError(t, s.Claim(ctx, "o-1", "webhook", time.Hour))
	got, err := s.ClaimDue(ctx, now.Add(time.Second), 2, "t1", time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, []string{"o-2", "o-3"}, []string{got[0].OrderID, got[1].OrderID})
}

// replica is one process of the shop: a Reconciler on its own Redis
// connection, its Run and its webhook endpoint.
type replica struct {
	rec    *reconcile.Reconciler
	hook   http.Handler
	cancel context.CancelFunc
	done   chan struct{}
}

func startReplica(t *testing.T, c *checkout.Client, cfg reconcile.Config, addr, prefix string) *replica {
	cfg.Store = newStore(t, addr, prefix)
	rec, err := reconcile.New(c, cfg)
	require.NoError(t, err)
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	r := &replica{rec: rec, hook: rec.Handler(v), cancel: cancel, done: make(chan struct{})}
	go func() { defer close(r.done); _ = rec.Run(ctx) }()
	return r
}

func (r *replica) stop() { r.cancel(); <-r.done }

// 200 orders, 30% of webhooks lost, 20% of orders pending for a while,
// each event delivered twice, two replicas on one Redis, one stopped and
// started again mid-way: every order's Handle runs exactly once, with its
// final status.
func TestEveryOrderHandledOnceAcrossReplicas(t *testing.T) {
	addr, prefix := redisAddr(t), "t:"+rand.Text()+":"
	var mu sync.Mutex
	calls := map[string][]checkout.Status{}
	handle := func(_ context.Context, st *checkout.OrderStatus) error {
		mu.Lock()
		defer mu.Unlock()
		calls[st.OrderID] = append(calls[st.OrderID], st.Status)
		return nil
	}

	var live atomic.Pointer[[]*replica]
	var turn atomic.Int64
	router := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs := *live.Load() // the load balancer sends each delivery to a live replica
		rs[int(turn.Add(1))%len(rs)].hook.ServeHTTP(w, r)
	}))
	t.Cleanup(router.Close)
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key", Webhook: checkouttest.WebhookConfig{
		URL: router.URL, Username: "shop", Password: "hook-secret", RetryInterval: 20 * time.Millisecond, Duplicates: 1,
	}})
	t.Cleanup(fake.Close)
	require.NoError(t, fake.DropWebhooks(0.3))
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	require.NoError(t, err)
	cfg := reconcile.Config{Handle: handle, Grace: 50 * time.Millisecond, Intervals: []time.Duration{20 * time.Millisecond, 40 * time.Millisecond},
		Tick: 10 * time.Millisecond, Lease: 300 * time.Millisecond}

	a, b := startReplica(t, c, cfg, addr, prefix), startReplica(t, c, cfg, addr, prefix)
	live.Store(&[]*replica{a, b})
	ctx := context.Background()
	const n = 200
	for i := range n {
		id := fmt.Sprintf("ord-%03d", i)
		_, err := c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "10.00"})
		require.NoError(t, err)
		require.NoError(t, (*live.Load())[i%len(*live.Load())].rec.Track(ctx, id))
		switch {
		case i%5 == 0:
			require.NoError(t, fake.PayLater(id, time.Duration(100+i)*time.Millisecond))
		case i%7 == 0:
			require.NoError(t, fake.Fail(id))
		default:
			require.NoError(t, fake.Pay(id))
		}
		if i == n/2 { // replica a goes away mid-poll, and comes back
			live.Store(&[]*replica{b})
			a.stop()
			time.Sleep(50 * time.Millisecond)
			a = startReplica(t, c, cfg, addr, prefix)
			live.Store(&[]*replica{a, b})
		}
	}
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(calls) == n }, 60*time.Second, 10*time.Millisecond)
	require.NoError(t, fake.WaitDeliveries(ctx))
	time.Sleep(200 * time.Millisecond) // late polls and re-sends must change nothing
	a.stop()
	b.stop()
	mu.Lock()
	defer mu.Unlock()
	for i := range n {
		id := fmt.Sprintf("ord-%03d", i)
		o, err := fake.Order(id)
		require.NoError(t, err)
		require.Equal(t, []checkout.Status{checkout.Status(o.Status)}, calls[id], id)
	}
	require.Positive(t, fake.Dropped())
}

// counter counts the Redis commands sent: each is one round trip.
type counter struct{ n atomic.Int64 }

func (c *counter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *counter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { c.n.Add(1); return next(ctx, cmd) }
}
func (c *counter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { c.n.Add(1); return next(ctx, cmds) }
}

// BenchmarkRoundTripsPerOrder reports the Redis round trips per tracked
// order from Track to Handle. Claim-and-record needs 2 (one claim, one
// record of the order handled), plus Track's 1. The webhook path makes
// exactly those 3; the poll path shares each ClaimDue among the orders due
// together (up to Workers) and renews each claim right before Handle, so it
// comes close to 3 per order, plus the Ticks that find nothing and one more
// release per poll of an order not yet final.
func BenchmarkRoundTripsPerOrder(b *testing.B) {
	addr := redisAddr(b)
	ctx := context.Background()
	b.Run("webhook", func(b *testing.B) {
		cnt := &counter{}
		s := newStore(b, addr, "b:"+rand.Text()+":", cnt)
		for i := 0; b.Loop(); i++ {
			id := fmt.Sprint("o-", i)
			_ = s.Track(ctx, id, time.Now().Add(time.Minute), time.Now().Add(time.Hour))
			_ = s.Claim(ctx, id, "tok", time.Minute)
			_ = s.Done(ctx, id, "tok", true, time.Hour)
		}
		b.ReportMetric(float64(cnt.n.Load())/float64(b.N), "round-trips/order")
	})
	b.Run("poll", func(b *testing.B) {
		fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
		defer fake.Close()
		c, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
		cnt := &counter{}
		var left atomic.Int64
		rec, err := reconcile.New(c, reconcile.Config{
			Handle: func(context.Context, *checkout.OrderStatus) error { left.Add(-1); return nil },
			Store:  newStore(b, addr, "b:"+rand.Text()+":", cnt), Grace: time.Millisecond, Tick: 10 * time.Millisecond,
		})
		require.NoError(b, err)
		for i := 0; b.Loop(); i++ {
			id := fmt.Sprint("o-", i)
			_, _ = c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "1.00"})
			_ = fake.Pay(id)
			left.Add(1)
			_ = rec.Track(ctx, id)
		}
		rctx, cancel := context.WithCancel(ctx)
		go func() { _ = rec.Run(rctx) }()
		for left.Load() > 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		b.ReportMetric(float64(cnt.n.Load())/float64(b.N), "round-trips/order")
	})
}
