package reconcile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/reconcile"
)

// rewriting is a client whose order replies pass through edit first.
func rewriting(t *testing.T, fake *checkouttest.Server, edit func(map[string]any)) *checkout.Client {
	u, err := url.Parse(fake.URL)
	require.NoError(t, err)
	p := httputil.NewSingleHostReverseProxy(u)
	p.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method != http.MethodGet || !strings.HasPrefix(resp.Request.URL.Path, "/orders/") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			edit(m)
			body, _ = json.Marshal(m)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
		return nil
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 0}))
	require.NoError(t, err)
	return c
}

// A poll reply that does not name the order polled (no order_id, or
// another's) is refused: Handle never gets it, and the order is reported
// at its window end like any order that cannot be read. (Before, Handle ran
// once per lease with an empty id.)
func TestReplyNotNamingTheOrderIsRefused(t *testing.T) {
	for name, edit := range map[string]func(map[string]any){
		"no order_id":   func(m map[string]any) { delete(m, "order_id") },
		"another order": func(m map[string]any) { m["order_id"] = "someone-else" },
	} {
		t.Run(name, func(t *testing.T) {
			h := newHandled()
			fake, c, _ := setup(t, h, nil)
			r, err := reconcile.New(rewriting(t, fake, edit), reconcile.Config{Handle: h.handle, Grace: time.Nanosecond,
				Window: 200 * time.Millisecond, Intervals: []time.Duration{10 * time.Millisecond}, Tick: 5 * time.Millisecond})
			require.NoError(t, err)
			newOrder(t, c, r, "x")
			require.NoError(t, fake.DropWebhooksFor("x"))
			require.NoError(t, fake.Pay("x"))
			run(t, r)
			require.Eventually(t, func() bool { return len(h.get("x")) == 1 }, 5*time.Second, 5*time.Millisecond)
			time.Sleep(100 * time.Millisecond)
			require.Equal(t, []checkout.Status{""}, h.get("x"), "reported once, with an empty status")
			require.Empty(t, h.get(""), "Handle never saw another order's status")
			require.Empty(t, h.get("someone-else"))
		})
	}
}

// Orders that can never be read are reported at their window end with an
// empty status, like any other, and polled no more: one the service does
// not know, one it refuses (400) every time. (Before, they were polled
// past their window and never reported.)
func TestUnreadableOrdersAreReportedAtWindowEnd(t *testing.T) {
	h := newHandled()
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) {
		cfg.Grace, cfg.Window = time.Nanosecond, 150*time.Millisecond
	})
	require.NoError(t, r.Track(context.Background(), "ghost")) // never created
	newOrder(t, c, r, "refused")
	require.NoError(t, fake.InjectFault(checkouttest.Fault{Method: http.MethodGet, Path: "/orders/refused", Status: 400, Times: 1 << 20}))
	run(t, r)
	for _, id := range []string{"ghost", "refused"} {
		require.Eventually(t, func() bool { return len(h.get(id)) == 1 }, 5*time.Second, 5*time.Millisecond, id)
	}
	polls := fake.Count(http.MethodGet, "/orders/refused")
	time.Sleep(100 * time.Millisecond)
	require.Equal(t, polls, fake.Count(http.MethodGet, "/orders/refused"), "not polled after its report")
	require.Equal(t, []checkout.Status{""}, h.get("ghost"))
	require.Equal(t, []checkout.Status{""}, h.get("refused"))
}

// Track refuses the ids GetOrder refuses, with a *checkout.ValidationError
// naming order_id; nothing is tracked. (Before, such an order was polled,
// failing, until its window ended.)
func TestTrackRefusesIDsTheClientCannotRead(t *testing.T) {
	mem := claim.NewMemory(claim.MemoryConfig{})
	_, _, r := setup(t, newHandled(), func(cfg *reconcile.Config) { cfg.Store = mem })
	for _, id := range []string{"", "  ", ".", ".."} {
		err := r.Track(context.Background(), id)
		var ve *checkout.ValidationError
		require.ErrorAs(t, err, &ve, "%q", id)
		require.Equal(t, "order_id", ve.Problems[0].Path)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: reconcile: track: invalid request: order_id: "), err.Error())
	}
	_, _, tracked := mem.Len()
	require.Zero(t, tracked)
}

// A long interval (as long as the window) waits that long: it neither
// overflows nor polls in a loop. (An interval near the largest duration
// overflowed into 15,066 polls in 2 s; New now refuses one longer than the
// window.)
func TestLongIntervalDoesNotLoop(t *testing.T) {
	h := newHandled()
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) {
		cfg.Grace, cfg.Window, cfg.Intervals = time.Nanosecond, 24*time.Hour, []time.Duration{24 * time.Hour}
	})
	newOrder(t, c, r, "pending")
	require.NoError(t, fake.Hold("pending"))
	run(t, r)
	require.Eventually(t, func() bool { return fake.Count(http.MethodGet, "/orders/pending") == 1 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	require.Equal(t, 1, fake.Count(http.MethodGet, "/orders/pending"))
}

// One slow Handle holds only its own worker: the orders due after it are
// polled and handled meanwhile. (Run waited for a whole batch before
// claiming the next.)
func TestSlowHandleStallsNothingElse(t *testing.T) {
	h := newHandled()
	gate := make(chan struct{})
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) {
		cfg.Grace, cfg.Workers = time.Nanosecond, 2
		cfg.Handle = func(ctx context.Context, st *checkout.OrderStatus) error {
			if st.OrderID == "slow" {
				<-gate
			}
			return h.handle(ctx, st)
		}
	})
	defer close(gate)
	for i := range 10 {
		id := fmt.Sprint("o-", i)
		if i == 0 {
			id = "slow"
		}
		newOrder(t, c, r, id)
		require.NoError(t, fake.DropWebhooksFor(id))
		require.NoError(t, fake.Pay(id))
	}
	run(t, r)
	for i := 1; i < 10; i++ {
		id := fmt.Sprint("o-", i)
		require.Eventually(t, func() bool { return len(h.get(id)) == 1 }, 5*time.Second, 5*time.Millisecond, id)
	}
	require.Empty(t, h.get("slow"), "still running")
}

// Run returns once its polls under way have ended, and leaves no
// goroutine behind.
func TestRunLeavesNoGoroutines(t *testing.T) {
	h := newHandled()
	tr := &http.Transport{}
	fake, _, _ := setup(t, h, nil)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL), checkout.WithHTTPClient(&http.Client{Transport: tr}))
	require.NoError(t, err)
	slowStarted := make(chan struct{})
	var slowEnded atomic.Bool
	handle := func(ctx context.Context, st *checkout.OrderStatus) error {
		if st.OrderID == "g-0" {
			close(slowStarted)
			time.Sleep(100 * time.Millisecond)
			slowEnded.Store(true)
		}
		return h.handle(ctx, st)
	}
	r, err := reconcile.New(c, reconcile.Config{Handle: handle, Grace: time.Nanosecond, Tick: 5 * time.Millisecond,
		Intervals: []time.Duration{10 * time.Millisecond}})
	require.NoError(t, err)
	for i := range 20 {
		id := fmt.Sprint("g-", i)
		newOrder(t, c, r, id)
		require.NoError(t, fake.DropWebhooksFor(id))
		if i%2 == 0 {
			require.NoError(t, fake.Pay(id))
		} else {
			require.NoError(t, fake.Hold(id))
		}
	}
	tr.CloseIdleConnections()
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	require.Eventually(t, func() bool { return len(h.get("g-18")) == 1 }, 5*time.Second, 5*time.Millisecond)
	<-slowStarted
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	require.True(t, slowEnded.Load(), "Run returned before its poll ended")
	tr.CloseIdleConnections()
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= base }, 5*time.Second, 5*time.Millisecond,
		"goroutines: %d after Run, %d before", runtime.NumGoroutine(), base)
}
