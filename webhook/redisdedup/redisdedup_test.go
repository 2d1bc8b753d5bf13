package redisdedup_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/payorch/checkout-go/webhook"
	"github.com/payorch/checkout-go/webhook/redisdedup"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
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

// A claim whose reply is lost is re-sent by go-redis; the second run finds
// the caller's own token and answers DedupNew, not DedupInFlight, so the
// event is processed now rather than refused until the lease ends
// (issue 26 item 10).
func TestBeginResentAfterLostReply(t *testing.T) {
	ctx := context.Background()
	addr := redisAddr(t)
	proxy := newSwallowProxy(t, addr)
	client := redis.NewClient(&redis.Options{Addr: proxy.addr, MaxRetries: 3, DialTimeout: time.Second, ReadTimeout: time.Second})
	t.Cleanup(func() { _ = client.Close() })
	prefix := testPrefix()
	d := newDedup(t, redisdedup.Config{Client: client, Prefix: prefix})

	// A first claim loads the script, so the lost reply is one Redis ran.
	st, tok, err := d.Begin(ctx, "warm-up")
	require.NoError(t, err)
	require.Equal(t, webhook.DedupNew, st)
	require.NoError(t, d.Done(ctx, "warm-up", tok))

	proxy.armed.Store(true)
	st, tok, err = d.Begin(ctx, "id:ORDER_SUCCEEDED:evt_lost")
	require.NoError(t, err)
	require.Equal(t, int32(1), proxy.drops.Load(), "one reply was swallowed")
	require.Equal(t, webhook.DedupNew, st, "the claim Redis made for this call is this call's")
	require.NotEmpty(t, tok)

	direct := newClient(t, addr)
	v, err := direct.Get(ctx, prefix+"id:ORDER_SUCCEEDED:evt_lost").Result()
	require.NoError(t, err)
	require.Equal(t, "inflight:"+string(tok), v)
	require.NoError(t, d.Abandon(ctx, "id:ORDER_SUCCEEDED:evt_lost", tok))
	require.Equal(t, int64(0), direct.Exists(ctx, prefix+"id:ORDER_SUCCEEDED:evt_lost").Val(), "its own token releases it")
}

// TestEightReplicasTenThousandEvents: 8 receivers share one Redis; 10,000
// events arrive, 30% of them as two concurrent deliveries to two different
// replicas, and the merchant's function fails the first call of 10% of
// them. Every event must be processed exactly once, never concurrently,
// and every failed first call must be followed by exactly one more.
func TestEightReplicasTenThousandEvents(t *testing.T) {
	const events, nReplicas = 10_000, 8
	addr := redisAddr(t)
	l := newLedger(events)
	rng := rand.New(rand.NewPCG(13, 10_000))
	dup := make([]bool, events)
	var nDup, nFail int
	for i := range events {
		dup[i], l.failFirst[i] = rng.Float64() < 0.30, rng.Float64() < 0.10
		if dup[i] {
			nDup++
		}
		if l.failFirst[i] {
			nFail++
		}
	}
	urls, wcfg := replicas(t, nReplicas, addr, l.process, redisdedup.Config{}, 0)
	s := newSender(t, wcfg)

	start := time.Now()
	work := make(chan int)
	errs := make(chan error, events)
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				body := eventBody(i)
				if !dup[i] {
					if err := s.deliver(urls[i%nReplicas], body); err != nil {
						errs <- fmt.Errorf("event %d: %w", i, err)
					}
					continue
				}
				var pair sync.WaitGroup
				for _, r := range []int{i % nReplicas, (i + 1 + i/nReplicas%(nReplicas-1)) % nReplicas} {
					pair.Add(1)
					go func() {
						defer pair.Done()
						if err := s.deliver(urls[r], body); err != nil {
							errs <- fmt.Errorf("event %d to replica %d: %w", i, r, err)
						}
					}()
				}
				pair.Wait()
			}
		}()
	}
	for i := range events {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	elapsed := time.Since(start)

	calls := 0
	for i := range events {
		require.EqualValues(t, 1, l.successes[i].Load(), "event %d processed once", i)
		want := 1
		if l.failFirst[i] {
			want = 2
		}
		require.EqualValues(t, want, l.calls[i].Load(), "event %d: calls", i)
		calls += want
	}
	require.Zero(t, l.overlaps.Load(), "no event ran twice at once")
	t.Logf("%d events (%d delivered twice concurrently, %d failing first) through %d replicas on one Redis: %d POSTs, %d function calls, %s (%.0f events/s)",
		events, nDup, nFail, nReplicas, s.posts.Load(), calls, elapsed.Round(time.Millisecond), float64(events)/elapsed.Seconds())
	require.Less(t, elapsed, time.Minute)
}

// TestRedisRestart: Redis crashes (killed) and comes back empty. While it is
// down every delivery gets a 500 without the function running, so nothing
// is lost: after the restart the re-sends are processed, once each.
func TestRedisRestart(t *testing.T) {
	srv := startRedis(t)
	l := newLedger(200)
	urls, wcfg := replicas(t, 2, srv.addr, l.process, redisdedup.Config{Lease: 5 * time.Second}, time.Second)
	// A claim left behind by the crash would show as an event processed
	// twice once its short lease ends, instead of a long wait.
	s := newSender(t, wcfg)

	for i := range 50 {
		require.NoError(t, s.deliver(urls[i%2], eventBody(i)))
	}

	srv.stop()
	down := time.Now()
	var wg sync.WaitGroup
	statuses := make([]int, 100)
	for i := 50; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = s.post(urls[i%2], eventBody(i))
		}()
	}
	wg.Wait()
	for i := 50; i < 100; i++ {
		require.Equal(t, http.StatusInternalServerError, statuses[i], "event %d while Redis is down", i)
	}
	t.Logf("50 deliveries while Redis was down: 500 within %s", time.Since(down).Round(time.Millisecond))
	// A re-send of an event processed before the crash is not acknowledged
	// blindly either: the store cannot say, so the service must ask again.
	status, err := s.post(urls[0], eventBody(0))
	require.NoError(t, err)
	require.Equal(t, http.StatusInternalServerError, status)
	for i := 50; i < 100; i++ {
		require.Zero(t, l.calls[i].Load(), "event %d: the function did not run without a claim", i)
	}

	srv.restart()
	for i := 50; i < 100; i++ {
		wg.Add(2) // the service re-sends, twice at once to two replicas
		for r := range 2 {
			go func() {
				defer wg.Done()
				if err := s.deliver(urls[r], eventBody(i)); err != nil {
					t.Errorf("event %d after the restart: %v", i, err)
				}
			}()
		}
	}
	wg.Wait()
	for i := range 100 {
		require.EqualValues(t, 1, l.successes[i].Load(), "event %d processed once", i)
	}
	require.Zero(t, l.overlaps.Load())
}

// FuzzRedisKeys sends event keys as a stranger's webhook body makes them
// (Event.DedupKey of any event name, id and body) and as any caller of
// Begin may pass them (any bytes) through a real Redis. Every key behaves
// alike: claimed once, in flight for a second delivery, released by its
// own token only, then done; and a key never shares its state with
// another.
func FuzzRedisKeys(f *testing.F) {
	// Fuzzing runs the target in worker processes: they use the Redis the
	// first process started rather than start their own.
	f.Setenv("CHECKOUT_REDIS_ADDR", redisAddr(f))
	client := newClient(f, redisAddr(f))
	for _, seed := range []struct{ name, id, raw string }{
		{"ORDER_SUCCEEDED", "evt_V2_7c1b8e0f5a4d4e2b9f3a", `{"id":"evt_V2_7c1b8e0f5a4d4e2b9f3a","event_name":"ORDER_SUCCEEDED"}`},
		{"ORDER_REFUNDED", "", `{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"ord_1"}}}`},
		{"MANDATE:ACTIVATED", "evt 1", "inflight:x"},
		{"ORDER_FAILED", strings.Repeat("9", 200), "done"},
		{"", "ஆ\x00\r\n", "{*}[]%s KEYS[1] ' \" \\"},
	} {
		f.Add(seed.name, seed.id, seed.raw)
	}
	f.Fuzz(func(t *testing.T, name, id, raw string) {
		ctx := context.Background()
		d, err := redisdedup.New(redisdedup.Config{Client: client, Prefix: testPrefix(), TTL: time.Minute, Lease: time.Minute})
		require.NoError(t, err)
		keys := []string{
			(&webhook.Event{Name: name, ID: id}).DedupKey(),
			(&webhook.Event{Name: name, Raw: []byte(raw)}).DedupKey(),
			raw,
		}
		for _, k := range keys[:2] {
			require.LessOrEqual(t, len(k), 128, "%q", k)
			for i := 0; i < len(k); i++ {
				require.True(t, k[i] >= 0x21 && k[i] <= 0x7e, "printable ASCII: %q", k)
			}
		}
		for i, k := range keys {
			if i > 0 && k == keys[i-1] || i == 2 && k == keys[0] {
				continue // the same key, already run
			}
			st, tok, err := d.Begin(ctx, k)
			require.NoError(t, err)
			require.Equal(t, webhook.DedupNew, st, "key %q is new", k)
			st, _, err = d.Begin(ctx, k)
			require.NoError(t, err)
			require.Equal(t, webhook.DedupInFlight, st)
			require.NoError(t, d.Abandon(ctx, k, tok+"x"))
			st, _, _ = d.Begin(ctx, k)
			require.Equal(t, webhook.DedupInFlight, st, "another token releases nothing")
			require.NoError(t, d.Abandon(ctx, k, tok))
			st, tok, err = d.Begin(ctx, k)
			require.NoError(t, err)
			require.Equal(t, webhook.DedupNew, st)
			require.NoError(t, d.Done(ctx, k, tok))
			st, _, _ = d.Begin(ctx, k)
			require.Equal(t, webhook.DedupDone, st)
		}
	})
}
