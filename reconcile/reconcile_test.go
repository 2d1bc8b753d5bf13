package reconcile_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/validation"
	"github.com/payorch/checkout-go/webhook"
)

// handled counts the calls of Handle per order and keeps the statuses.
type handled struct {
	mu    sync.Mutex
	calls map[string][]checkout.Status
	fail  map[string]int // Handle fails this many times first
}

func newHandled() *handled {
	return &handled{calls: map[string][]checkout.Status{}, fail: map[string]int{}}
}

func (h *handled) handle(_ context.Context, st *checkout.OrderStatus) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail[st.OrderID] > 0 {
		h.fail[st.OrderID]--
		return errors.New("shop database down")
	}
	h.calls[st.OrderID] = append(h.calls[st.OrderID], st.Status)
	return nil
}

func (h *handled) get(id string) []checkout.Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]checkout.Status(nil), h.calls[id]...)
}

// setup is a fake whose webhooks go to a Reconciler's handler, the client
// and the Reconciler, with a fast schedule.
func setup(t *testing.T, h *handled, edit func(*reconcile.Config)) (*checkouttest.Server, *checkout.Client, *reconcile.Reconciler) {
	t.Helper()
	var hook http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hook.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key", Webhook: checkouttest.WebhookConfig{
		URL: srv.URL, Username: "shop", Password: "hook-secret", RetryInterval: 10 * time.Millisecond, MaxAttempts: 50,
	}})
	t.Cleanup(fake.Close)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	require.NoError(t, err)
	cfg := reconcile.Config{Handle: h.handle, Grace: 20 * time.Millisecond, Intervals: []time.Duration{10 * time.Millisecond},
		Tick: 5 * time.Millisecond, Lease: time.Second, ReadTimeout: 500 * time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	r, err := reconcile.New(c, cfg)
	require.NoError(t, err)
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	require.NoError(t, err)
	hook = r.Handler(v)
	return fake, c, r
}

func run(t *testing.T, r *reconcile.Reconciler) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() { cancel(); require.ErrorIs(t, <-done, context.Canceled) })
}

func newOrder(t *testing.T, c *checkout.Client, r *reconcile.Reconciler, id string) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "10.00"})
	require.NoError(t, err)
	require.NoError(t, r.Track(ctx, id))
}

// The dedupe: a final status seen by webhook, by its re-sends and by polls
// is handled once. Without the Store's claim and done record, every
// re-send and poll would handle it again.
func TestHandleRunsOnceWhicheverPathSeesIt(t *testing.T) {
	h := newHandled()
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) { cfg.Grace = time.Nanosecond })
	newOrder(t, c, r, "by-hook")
	newOrder(t, c, r, "by-poll")
	require.NoError(t, fake.DropWebhooksFor("by-poll"))
	require.NoError(t, fake.Pay("by-hook"))
	require.NoError(t, fake.Fail("by-poll"))
	require.NoError(t, fake.WaitDeliveries(context.Background()))
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("by-hook"), "the webhook handled it")

	run(t, r)
	require.Eventually(t, func() bool { return len(h.get("by-poll")) > 0 }, 5*time.Second, 5*time.Millisecond)
	// Re-sent, to this replica and to another one (whose webhook
	// Verifier has not seen the event): the Store says it was handled.
	v2, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	require.NoError(t, err)
	other := r.Handler(v2)
	for _, d := range fake.Deliveries() {
		if d.OrderID == "by-hook" {
			require.NoError(t, fake.Resend(d.EventID))
			req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(d.Body))
			req.SetBasicAuth("shop", "hook-secret")
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			other.ServeHTTP(w, req)
			require.Equal(t, http.StatusOK, w.Code)
		}
	}
	require.NoError(t, fake.WaitDeliveries(context.Background()))
	require.NoError(t, r.Track(context.Background(), "by-hook"), "tracking a handled order does nothing")
	time.Sleep(100 * time.Millisecond) // polls and re-sends that must change nothing
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("by-hook"))
	require.Equal(t, []checkout.Status{checkout.StatusAuthorizationFailed}, h.get("by-poll"))
}

func TestOtherEventsGoToOnEvent(t *testing.T) {
	h := newHandled()
	var mu sync.Mutex
	var names []string
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) {
		cfg.OnEvent = func(_ context.Context, ev *webhook.Event) error {
			mu.Lock()
			defer mu.Unlock()
			names = append(names, ev.Name)
			return nil
		}
	})
	newOrder(t, c, r, "o-1")
	require.NoError(t, fake.Pay("o-1"))
	_, err := c.Refund(context.Background(), "o-1", &checkout.RefundRequest{UniqueRequestID: "u-1", Amount: "1.00"})
	require.NoError(t, err)
	require.NoError(t, fake.RefundCompleted("o-1"))
	require.NoError(t, fake.WaitDeliveries(context.Background()))
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("o-1"))
	mu.Lock()
	defer mu.Unlock()
	require.Contains(t, names, webhook.OrderRefunded)
	require.NotContains(t, names, webhook.OrderSucceeded, "the final status goes to Handle only")
}

func TestFailedHandleIsRetried(t *testing.T) {
	h := newHandled()
	h.fail["o-1"], h.fail["o-2"] = 2, 2
	fake, c, r := setup(t, h, nil)
	newOrder(t, c, r, "o-1")
	newOrder(t, c, r, "o-2")
	require.NoError(t, fake.DropWebhooksFor("o-2"))
	require.NoError(t, fake.Pay("o-1"))
	require.NoError(t, fake.Pay("o-2"))
	run(t, r)
	for _, id := range []string{"o-1", "o-2"} {
		require.Eventually(t, func() bool { return len(h.get(id)) == 1 }, 5*time.Second, 5*time.Millisecond, id)
	}
	time.Sleep(50 * time.Millisecond)
	require.Len(t, h.get("o-1"), 1)
	require.Len(t, h.get("o-2"), 1)
}

// An order that does not complete in time is handed to Handle, not final,
// when its window ends, and is then polled no more; paid later, its webhook
// still brings CHARGED to Handle, once. Were the report recorded as the
// order handled, the webhook would be acknowledged unhandled.
func TestWindowEndReportsTheLastStatus(t *testing.T) {
	h := newHandled()
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) { cfg.Window = 150 * time.Millisecond })
	newOrder(t, c, r, "stuck")
	require.NoError(t, fake.Hold("stuck"))
	run(t, r)
	require.Eventually(t, func() bool { return len(h.get("stuck")) == 1 }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, []checkout.Status{checkout.StatusPendingVBV}, h.get("stuck"))
	polls := fake.Count(http.MethodGet, "/orders/stuck")
	time.Sleep(100 * time.Millisecond)
	require.Equal(t, polls, fake.Count(http.MethodGet, "/orders/stuck"), "not polled after its window")

	require.NoError(t, fake.Pay("stuck"))
	require.NoError(t, fake.WaitDeliveries(context.Background()))
	for _, d := range fake.Deliveries() {
		require.NoError(t, fake.Resend(d.EventID))
	}
	require.NoError(t, fake.WaitDeliveries(context.Background()))
	require.Equal(t, []checkout.Status{checkout.StatusPendingVBV, checkout.StatusCharged}, h.get("stuck"))
}

// spy is a Store that tells what the Reconciler asks of it.
type spy struct {
	claim.Store
	maxN      atomic.Int64 // the most orders one ClaimDue asked for
	extendErr error        // when set, every Extend fails so (the store is unreachable)
}

func (s *spy) ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]claim.Entry, error) {
	for m := s.maxN.Load(); int64(n) > m && !s.maxN.CompareAndSwap(m, int64(n)); m = s.maxN.Load() {
	}
	return s.Store.ClaimDue(ctx, now, n, token, lease)
}

func (s *spy) Extend(ctx context.Context, key, token string, lease time.Duration) error {
	if s.extendErr != nil {
		return s.extendErr
	}
	return s.Store.Extend(ctx, key, token, lease)
}

// A poll whose claim could not be renewed while its read hung (the store
// was unreachable from that replica) does not run Handle on a claim about
// to lapse: another replica takes the order over when it does, and a slow
// Handle would then run beside it.
func TestPollDoesNotHandleOnALapsingClaim(t *testing.T) {
	h := newHandled()
	store := claim.NewMemory(claim.MemoryConfig{})
	const lease = time.Second
	fast := func(cfg *reconcile.Config) {
		cfg.Store, cfg.Lease, cfg.ReadTimeout, cfg.Grace = store, lease, lease-10*time.Millisecond, time.Nanosecond
	}
	fake, c, b := setup(t, h, fast)
	newOrder(t, c, b, "slow")
	require.NoError(t, fake.DropWebhooksFor("slow"))
	require.NoError(t, fake.Pay("slow"))

	// Replica a reads through a proxy that holds its first read until the
	// test lets it go.
	reading, resume := make(chan struct{}), make(chan struct{})
	var once sync.Once
	u, err := url.Parse(fake.URL)
	require.NoError(t, err)
	fwd := httputil.NewSingleHostReverseProxy(u)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		once.Do(func() { close(reading); <-resume })
		fwd.ServeHTTP(w, req)
	}))
	t.Cleanup(proxy.Close)
	ca, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(proxy.URL))
	require.NoError(t, err)
	cfg := reconcile.Config{Intervals: []time.Duration{10 * time.Millisecond}, Tick: 5 * time.Millisecond,
		Handle: func(ctx context.Context, st *checkout.OrderStatus) error {
			time.Sleep(lease / 2) // slow, and deaf to its context
			return h.handle(ctx, st)
		}}
	fast(&cfg)
	cfg.Store = &spy{Store: store, extendErr: errors.New("store unreachable")}
	var logs syncBuffer
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	a, err := reconcile.New(ca, cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	aDone := make(chan error)
	go func() { aDone <- a.Run(ctx) }()
	<-reading
	run(t, b)
	time.Sleep(lease * 4 / 5) // a's read returns with a fifth of its lease left, before its ReadTimeout
	close(resume)
	require.Eventually(t, func() bool { return len(h.get("slow")) == 1 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(lease / 2)
	cancel()
	require.ErrorIs(t, <-aDone, context.Canceled)
	require.Contains(t, logs.String(), "claim lost before handle", "a did not handle on a claim about to lapse")
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("slow"), "handled once, by b or by a's next poll")
}

// Run claims no more orders than it can poll at once, so none waits
// under a lease that runs out meanwhile.
func TestPollClaimsOnlyWhatItStarts(t *testing.T) {
	h := newHandled()
	s := &spy{Store: claim.NewMemory(claim.MemoryConfig{})}
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) { cfg.Store, cfg.Workers = s, 3 })
	for i := range 10 {
		id := fmt.Sprint("o-", i)
		newOrder(t, c, r, id)
		require.NoError(t, fake.DropWebhooksFor(id))
		require.NoError(t, fake.Pay(id))
	}
	run(t, r)
	require.Eventually(t, func() bool { return len(h.get("o-9")) == 1 }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, int64(3), s.maxN.Load())
}

func TestNew(t *testing.T) {
	c, err := checkout.NewClient("shop", "k", checkout.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	for _, tt := range []struct {
		c     *checkout.Client
		cfg   reconcile.Config
		want  string
		field string
	}{
		{nil, reconcile.Config{Handle: newHandled().handle}, "checkout: reconcile: new: client: is nil", "client"},
		{c, reconcile.Config{}, "checkout: reconcile: new: Config.Handle: is required", "Config.Handle"},
		{c, reconcile.Config{Handle: newHandled().handle, Grace: -1}, "checkout: reconcile: new: Config.Grace: is negative", "Config.Grace"},
		{c, reconcile.Config{Handle: newHandled().handle, Workers: -1}, "checkout: reconcile: new: Config.Workers: is negative", "Config.Workers"},
		{c, reconcile.Config{Handle: newHandled().handle, Window: 11 * 365 * 24 * time.Hour}, "checkout: reconcile: new: Config.Window: is longer than 10 years", "Config.Window"},
		{c, reconcile.Config{Handle: newHandled().handle, Lease: 5 * time.Second}, "checkout: reconcile: new: Config.Lease: (5s) is not longer than one read, Config.ReadTimeout (20s)", "Config.Lease"},
		{c, reconcile.Config{Handle: newHandled().handle, Grace: time.Hour, Window: time.Hour}, "checkout: reconcile: new: Config.Grace: (1h0m0s) is not shorter than Config.Window (1h0m0s)", "Config.Grace"},
		{c, reconcile.Config{Handle: newHandled().handle, Intervals: []time.Duration{time.Second, 1<<63 - 1}},
			"checkout: reconcile: new: Config.Intervals[1]: (2562047h47m16.854775807s) is longer than Config.Window (24h0m0s)", "Config.Intervals[1]"},
		{c, reconcile.Config{Handle: newHandled().handle, Intervals: []time.Duration{-time.Second}}, "checkout: reconcile: new: Config.Intervals[0]: is negative", "Config.Intervals[0]"},
	} {
		_, err := reconcile.New(tt.c, tt.cfg)
		require.EqualError(t, err, tt.want)
		var ce *validation.ConfigError
		require.ErrorAs(t, err, &ce)
		require.True(t, ce.Err.Has(tt.field), "%v", ce)
	}
}

// New lists every setting it refuses at once, not the first alone.
func TestNewListsEveryProblem(t *testing.T) {
	c, err := checkout.NewClient("shop", "k", checkout.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	_, err = reconcile.New(c, reconcile.Config{Grace: 2 * time.Hour, Window: time.Hour, Lease: time.Second, Workers: -1})
	var ce *validation.ConfigError
	require.ErrorAs(t, err, &ce)
	for _, field := range []string{"Config.Handle", "Config.Workers", "Config.Grace", "Config.Lease"} {
		require.True(t, ce.Err.Has(field), "%s in %v", field, err)
	}
}

// A Reconciler New did not make (nil or zero) answers with an error, and
// its Handler answers 500 so the service sends the event again; a typed
// nil Store is refused by New instead of panicking on the first call.
func TestReconcilerNotMadeByNew(t *testing.T) {
	ctx := context.Background()
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	require.NoError(t, err)
	for name, r := range map[string]*reconcile.Reconciler{"nil": nil, "zero": {}} {
		require.ErrorContains(t, r.Track(ctx, "o1"), "checkout: reconcile: track: the Reconciler is not configured", name)
		require.ErrorContains(t, r.Run(ctx), "checkout: reconcile: run: the Reconciler is not configured", name)
		req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(
			`{"id":"e1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"o1","status":"CHARGED"}}}`))
		req.SetBasicAuth("shop", "hook-secret")
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		r.Handler(v).ServeHTTP(w, req)
		require.Equal(t, http.StatusInternalServerError, w.Code, name)
	}

	c, err := checkout.NewClient("shop", "k", checkout.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	var store *claim.Memory
	_, err = reconcile.New(c, reconcile.Config{Handle: newHandled().handle, Store: store})
	var ce *validation.ConfigError
	require.ErrorAs(t, err, &ce)
	require.True(t, ce.Err.Has("Config.Store"), "%v", err)
}

// Track each order after creating it, serve Handler as the webhook
// endpoint, keep Run running: Handle then runs once per order reaching a
// final status, webhook or not.
func Example() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	client, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))

	paid := make(chan string, 1)
	rec, err := reconcile.New(client, reconcile.Config{
		Handle: func(ctx context.Context, st *checkout.OrderStatus) error {
			if !st.IsFinal() { // its window ended first
				return nil
			}
			paid <- fmt.Sprint(st.OrderID, " ", st.Status)
			return nil
		},
		Grace:     10 * time.Millisecond, // a minute or so in production
		Intervals: []time.Duration{10 * time.Millisecond},
		Tick:      5 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}
	// http.Handle("/webhooks", rec.Handler(verifier))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = rec.Run(ctx) }()

	_, _ = client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord-9", Amount: "10.00"})
	_ = rec.Track(ctx, "ord-9")
	_ = fake.Pay("ord-9") // no webhook URL is set: only the poll sees it
	fmt.Println(<-paid)
	// Output: ord-9 CHARGED
}

// shipped records the orders fulfil shipped, for ExampleReconciler_Handler.
var shipped = make(chan string, 1)

// fulfil is a merchant's one function for an order that reached its end:
// ship it when it is paid for the right amount, else release the cart.
func fulfil(ctx context.Context, st *checkout.OrderStatus) error {
	if err := st.CheckPaid("10.00"); err != nil {
		return nil // failed, or the window ended unpaid: release the cart
	}
	shipped <- st.OrderID
	return nil
}

// A merchant's server: the webhook endpoint and the poll loop feed one
// function, which runs once per order whether the webhook comes or not.
func ExampleReconciler_Handler() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	fake.DropWebhooks(1) // every webhook is lost: the poll must find the payment
	client, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	verifier, _ := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	rec, err := reconcile.New(client, reconcile.Config{
		Handle:    fulfil, // once per order: paid, failed, or its window ended
		Store:     nil,    // in memory; redisclaim.New shares it across replicas
		Grace:     10 * time.Millisecond,
		Intervals: []time.Duration{10 * time.Millisecond},
		Tick:      5 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}
	http.Handle("/webhooks", rec.Handler(verifier))
	go rec.Run(ctx)

	_, err = client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord-10", Amount: "10.00"})
	if err == nil {
		err = rec.Track(ctx, "ord-10")
	}
	_ = fake.Pay("ord-10")
	fmt.Println(<-shipped, err)
	// Output: ord-10 <nil>
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// readmeReconciler is the README's reconciler, compiled: the snippet of
// "When a webhook does not come", line for line.
func readmeReconciler(client *checkout.Client, store claim.Store, recordOutcome func(context.Context, *checkout.OrderStatus) error) *reconcile.Reconciler {
	rec, err := reconcile.New(client, reconcile.Config{
		Handle: recordOutcome, // func(ctx, *checkout.OrderStatus) error: once per order, paid, failed or out of time
		Store:  store,         // claim.NewMemory(claim.MemoryConfig{}) in one process; a redisclaim.Store for replicas
	})
	if err != nil {
		log.Fatal(err)
	}
	return rec
}

// The README's reconciler is built with the store given.
func TestREADMEReconciler(t *testing.T) {
	c, err := checkout.NewClient("shop", "k", checkout.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	rec := readmeReconciler(c, claim.NewMemory(claim.MemoryConfig{}), func(context.Context, *checkout.OrderStatus) error { return nil })
	require.NotNil(t, rec)
}
