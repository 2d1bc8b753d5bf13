package redisdedup_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/webhook"
	"github.com/payorch/checkout-go/webhook/redisdedup"
)

func newDedup(t *testing.T, cfg redisdedup.Config) *redisdedup.Deduplicator {
	t.Helper()
	if cfg.Prefix == "" {
		cfg.Prefix = testPrefix()
	}
	d, err := redisdedup.New(cfg)
	require.NoError(t, err)
	return d
}

// Two replicas share one Redis: a claim, a release and a record made by
// one are seen by the other.
func TestStatesAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	addr := redisAddr(t)
	prefix := testPrefix()
	a := newDedup(t, redisdedup.Config{Client: newClient(t, addr), Prefix: prefix})
	b := newDedup(t, redisdedup.Config{Client: newClient(t, addr), Prefix: prefix})

	st, tokA, err := a.Begin(ctx, "id:ORDER_SUCCEEDED:evt_1")
	require.NoError(t, err)
	require.Equal(t, webhook.DedupNew, st)
	require.NotEmpty(t, tokA)
	st, tok, err := b.Begin(ctx, "id:ORDER_SUCCEEDED:evt_1")
	require.NoError(t, err)
	require.Equal(t, webhook.DedupInFlight, st, "the other replica sees the claim")
	require.Empty(t, tok)

	require.NoError(t, a.Abandon(ctx, "id:ORDER_SUCCEEDED:evt_1", tokA))
	st, tokB, err := b.Begin(ctx, "id:ORDER_SUCCEEDED:evt_1")
	require.NoError(t, err)
	require.Equal(t, webhook.DedupNew, st, "released: the re-send is processed")
	require.NotEqual(t, tokA, tokB)
	require.NoError(t, b.Done(ctx, "id:ORDER_SUCCEEDED:evt_1", tokB))
	for _, d := range []*redisdedup.Deduplicator{a, b} {
		st, _, err = d.Begin(ctx, "id:ORDER_SUCCEEDED:evt_1")
		require.NoError(t, err)
		require.Equal(t, webhook.DedupDone, st)
	}

	// Abandon with a spent token, or none, does nothing to a processed key.
	require.NoError(t, a.Abandon(ctx, "id:ORDER_SUCCEEDED:evt_1", tokA))
	require.NoError(t, a.Abandon(ctx, "id:ORDER_SUCCEEDED:evt_1", tokB))
	require.NoError(t, a.Abandon(ctx, "id:ORDER_SUCCEEDED:evt_1", ""))
	st, _, _ = b.Begin(ctx, "id:ORDER_SUCCEEDED:evt_1")
	require.Equal(t, webhook.DedupDone, st)

	// A different prefix is a different receiver.
	other := newDedup(t, redisdedup.Config{Client: newClient(t, addr)})
	st, _, err = other.Begin(ctx, "id:ORDER_SUCCEEDED:evt_1")
	require.NoError(t, err)
	require.Equal(t, webhook.DedupNew, st)
}

func TestTTLAndLease(t *testing.T) {
	ctx := context.Background()
	addr := redisAddr(t)
	prefix := testPrefix()
	a := newDedup(t, redisdedup.Config{Client: newClient(t, addr), Prefix: prefix, TTL: 300 * time.Millisecond, Lease: 300 * time.Millisecond})
	b := newDedup(t, redisdedup.Config{Client: newClient(t, addr), Prefix: prefix, TTL: 300 * time.Millisecond, Lease: 300 * time.Millisecond})

	st, tok, _ := a.Begin(ctx, "done-key")
	require.Equal(t, webhook.DedupNew, st)
	require.NoError(t, a.Done(ctx, "done-key", tok))
	st, _, _ = b.Begin(ctx, "done-key")
	require.Equal(t, webhook.DedupDone, st)

	// A replica that crashed mid-function never ends its claim: the lease does.
	st, tokA, _ := a.Begin(ctx, "crashed")
	require.Equal(t, webhook.DedupNew, st)
	st, _, _ = b.Begin(ctx, "crashed")
	require.Equal(t, webhook.DedupInFlight, st)

	time.Sleep(450 * time.Millisecond)
	st, _, _ = b.Begin(ctx, "done-key")
	require.Equal(t, webhook.DedupNew, st, "forgotten after the TTL")
	st, _, _ = b.Begin(ctx, "crashed")
	require.Equal(t, webhook.DedupNew, st, "the lease ended; b owns it now")

	// a comes back late and fails: it must not release b's claim.
	require.NoError(t, a.Abandon(ctx, "crashed", tokA))
	st, _, _ = newDedup(t, redisdedup.Config{Client: newClient(t, addr), Prefix: prefix}).Begin(ctx, "crashed")
	require.Equal(t, webhook.DedupInFlight, st, "b's claim survives a's Abandon")
}

// Two deliveries in one process: A's claim outlives its lease, B claims
// the event, and A then fails. A's Abandon must release A's claim only, so
// a third delivery C still finds B's claim and does not run the function
// beside B. (With one claim remembered per key, A's Abandon deleted B's.)
// A's late Done records the event as processed, which it is; B's own
// Abandon then leaves that record alone.
func TestLateDeliveryReleasesOnlyItsOwnClaim(t *testing.T) {
	ctx := context.Background()
	d := newDedup(t, redisdedup.Config{Client: newClient(t, redisAddr(t)), Lease: 200 * time.Millisecond})

	st, tokA, err := d.Begin(ctx, "k") // A
	require.NoError(t, err)
	require.Equal(t, webhook.DedupNew, st)
	time.Sleep(300 * time.Millisecond) // A's lease ends while its function runs
	st, tokB, err := d.Begin(ctx, "k") // B
	require.NoError(t, err)
	require.Equal(t, webhook.DedupNew, st)
	require.NotEqual(t, tokA, tokB)

	require.NoError(t, d.Abandon(ctx, "k", tokA)) // A fails late
	st, _, err = d.Begin(ctx, "k")                // C
	require.NoError(t, err)
	require.Equal(t, webhook.DedupInFlight, st, "B still holds the claim")

	require.NoError(t, d.Done(ctx, "k", tokA)) // or A succeeds late
	require.NoError(t, d.Abandon(ctx, "k", tokB))
	st, _, _ = d.Begin(ctx, "k")
	require.Equal(t, webhook.DedupDone, st, "the event was processed; B's failure does not undo that")
}

func TestRefusesForeignValues(t *testing.T) {
	ctx := context.Background()
	addr := redisAddr(t)
	c := newClient(t, addr)
	prefix := testPrefix()
	require.NoError(t, c.Set(ctx, prefix+"k", "something else", time.Minute).Err())
	d := newDedup(t, redisdedup.Config{Client: c, Prefix: prefix})
	_, _, err := d.Begin(ctx, "k")
	require.ErrorContains(t, err, "checkout: deduplicate webhook: redis begin: ")
	require.ErrorContains(t, err, "did not write")
}

func TestConfig(t *testing.T) {
	_, err := redisdedup.New(redisdedup.Config{TTL: -1, Lease: -1, Timeout: -1})
	require.EqualError(t, err, "checkout: new redis deduplicator: Client is required; TTL may not be negative; Lease may not be negative; Timeout may not be negative")

	var nilD *redisdedup.Deduplicator
	require.NotPanics(t, func() {
		_, _, err := nilD.Begin(context.Background(), "k")
		require.Error(t, err)
		require.Error(t, nilD.Done(context.Background(), "k", ""))
		require.Error(t, nilD.Abandon(context.Background(), "k", "t"))
	})
}

// A Redis that is down, or that accepts connections and never answers,
// turns every delivery into a 500 within the Timeout: the merchant's
// function does not run and the service re-sends.
func TestRedisUnreachableOrHung(t *testing.T) {
	hung, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = hung.Close() })
	var (
		mu    sync.Mutex
		conns []net.Conn // read nothing, answer nothing
	)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	go func() {
		for {
			c, err := hung.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	down, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	downAddr := down.Addr().String()
	require.NoError(t, down.Close()) // nothing listens there now

	for name, addr := range map[string]string{"down": downAddr, "hung": hung.Addr().String()} {
		t.Run(name, func(t *testing.T) {
			d := newDedup(t, redisdedup.Config{Client: newClient(t, addr), Timeout: 300 * time.Millisecond})
			var calls atomic.Int32
			cfg := verifierConfig(d)
			h, err := webhook.NewVerifier(cfg)
			require.NoError(t, err)
			handler := h.Handler(func(context.Context, *webhook.Event) error { calls.Add(1); return nil })
			start := time.Now()
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, webhook.NewTestRequest(cfg, eventBody(1)))
			require.Equal(t, http.StatusInternalServerError, rec.Code)
			require.Zero(t, calls.Load(), "the function never runs without a claim")
			require.Less(t, time.Since(start), 5*time.Second, "bounded by the Timeout, not by go-redis's own")
			_, _, err = d.Begin(context.Background(), "k")
			require.ErrorContains(t, err, "checkout: deduplicate webhook: redis begin: ")
		})
	}
}

func verifierConfig(d webhook.Deduplicator) webhook.Config {
	return webhook.Config{
		Username: "shopuser", Password: "hook password",
		Sources:      []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")},
		Deduplicator: d,
	}
}

// eventBody is an ORDER_SUCCEEDED webhook body for event number n.
func eventBody(n int) []byte {
	id := strconv.Itoa(n)
	return []byte(`{"id":"evt_V2_` + id + `","event_name":"ORDER_SUCCEEDED","date_created":"2026-01-02T10:00:00Z",` +
		`"content":{"order":{"order_id":"ord_` + id + `","status":"CHARGED","status_id":21,"amount":10.0}}}`)
}
