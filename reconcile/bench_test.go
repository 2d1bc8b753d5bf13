package reconcile_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/claim/redisclaim"
	"github.com/payorch/checkout-go/internal/redistest"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/webhook"
)

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
// order, from Track to the order marked handled. The floor is 3: Track,
// one claim, one mark. By webhook it is exactly that, and a duplicate
// delivery costs one more (its claim finds the order done). By poll, one
// ClaimDue serves every order due at once (up to Workers), and a claim is
// renewed only when a poll or Handle outlasts a third of the lease; each
// poll that finds the order not final adds one Reschedule.
func BenchmarkRoundTripsPerOrder(b *testing.B) {
	addr := redistest.Addr(b)
	ctx := context.Background()
	setupBench := func(b *testing.B, handle func(context.Context, *checkout.OrderStatus) error) (*checkouttest.Server, *checkout.Client, *reconcile.Reconciler, http.Handler, *counter) {
		cnt := &counter{}
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		rdb.AddHook(cnt)
		b.Cleanup(func() { _ = rdb.Close() })
		store, err := redisclaim.New(redisclaim.Config{Client: rdb, Prefix: "b:" + fmt.Sprint(time.Now().UnixNano()) + ":"})
		require.NoError(b, err)
		fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
		b.Cleanup(fake.Close)
		c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
		require.NoError(b, err)
		rec, err := reconcile.New(c, reconcile.Config{Handle: handle, Store: store, Grace: time.Millisecond, Tick: 10 * time.Millisecond})
		require.NoError(b, err)
		v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true, Claims: store})
		require.NoError(b, err)
		// Warm up: the scripts loaded, the epoch learnt.
		require.NoError(b, rec.Track(ctx, "warm-up"))
		return fake, c, rec, rec.Handler(v), cnt
	}
	for _, deliveries := range []int{1, 2} {
		b.Run(fmt.Sprintf("webhook/deliveries=%d", deliveries), func(b *testing.B) {
			_, _, rec, hook, cnt := setupBench(b, func(context.Context, *checkout.OrderStatus) error { return nil })
			cfg := webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true}
			cnt.n.Store(0)
			for i := 0; b.Loop(); i++ {
				id := fmt.Sprint("o-", i)
				_ = rec.Track(ctx, id)
				body := []byte(`{"id":"evt_` + id + `","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"` + id + `","status":"CHARGED"}}}`)
				for range deliveries {
					w := httptest.NewRecorder()
					hook.ServeHTTP(w, webhook.NewTestRequest(cfg, body))
					if w.Code != http.StatusOK {
						b.Fatalf("status %d", w.Code)
					}
				}
			}
			b.ReportMetric(float64(cnt.n.Load())/float64(b.N), "round-trips/order")
		})
	}
	b.Run("poll", func(b *testing.B) {
		var left atomic.Int64
		fake, c, rec, _, cnt := setupBench(b, func(context.Context, *checkout.OrderStatus) error { left.Add(-1); return nil })
		cnt.n.Store(0)
		for i := 0; b.Loop(); i++ {
			id := fmt.Sprint("o-", i)
			_, _ = c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "1.00"})
			_ = fake.Pay(id)
			left.Add(1)
			_ = rec.Track(ctx, id)
		}
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); _ = rec.Run(rctx) }()
		for left.Load() > 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
		b.ReportMetric(float64(cnt.n.Load())/float64(b.N), "round-trips/order")
	})
}
