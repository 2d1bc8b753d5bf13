package redisdedup_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/webhook"
	"github.com/payorch/checkout-go/webhook/redisdedup"
)

// ledger counts, per event, the merchant function's calls and successes,
// and whether two calls for one event ever overlapped.
type ledger struct {
	calls, successes, running []atomic.Int32
	overlaps                  atomic.Int32
	failFirst                 []bool
}

func newLedger(n int) *ledger {
	return &ledger{calls: make([]atomic.Int32, n), successes: make([]atomic.Int32, n), running: make([]atomic.Int32, n), failFirst: make([]bool, n)}
}

// process is the merchant's function: events marked failFirst fail on
// their first call, as a database hiccup would.
func (l *ledger) process(_ context.Context, ev *webhook.Event) error {
	n, err := strconv.Atoi(strings.TrimPrefix(ev.ID, "evt_V2_"))
	if err != nil || n < 0 || n >= len(l.calls) {
		return fmt.Errorf("unexpected event %q", ev.ID)
	}
	if l.running[n].Add(1) != 1 {
		l.overlaps.Add(1)
	}
	defer l.running[n].Add(-1)
	if l.calls[n].Add(1) == 1 && l.failFirst[n] {
		return errors.New("first attempt fails")
	}
	l.successes[n].Add(1)
	return nil
}

// replicas starts n webhook receivers, each with its own Redis client and
// Deduplicator on one Redis and one prefix, as n instances behind a load
// balancer would be.
func replicas(t *testing.T, n int, addr string, fn func(context.Context, *webhook.Event) error, cfg redisdedup.Config, dupWait time.Duration) (urls []string, wcfg webhook.Config) {
	t.Helper()
	cfg.Prefix = testPrefix()
	for range n {
		cfg.Client = newClient(t, addr)
		d, err := redisdedup.New(cfg)
		require.NoError(t, err)
		wcfg = verifierConfig(d)
		wcfg.DuplicateWait = dupWait
		v, err := webhook.NewVerifier(wcfg)
		require.NoError(t, err)
		srv := httptest.NewServer(v.Handler(fn))
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
	}
	return urls, wcfg
}

// sender delivers webhooks as the service does: POST with the Basic
// credentials, re-sent after any reply but 200, a bounded number of times.
type sender struct {
	hc         *http.Client
	user, pass string
	posts      atomic.Int64
}

func newSender(t *testing.T, cfg webhook.Config) *sender {
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 64}
	t.Cleanup(tr.CloseIdleConnections)
	return &sender{hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}, user: cfg.Username, pass: cfg.Password}
}

// post sends body once and returns the status.
func (s *sender) post(url string, body []byte) (int, error) {
	s.posts.Add(1)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(s.user, s.pass)
	resp, err := s.hc.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// deliver re-sends body until a 200, at most 200 attempts.
func (s *sender) deliver(url string, body []byte) error {
	wait := time.Millisecond
	for attempt := 1; attempt <= 200; attempt++ {
		status, err := s.post(url, body)
		if err == nil && status == http.StatusOK {
			return nil
		}
		if err == nil && status != http.StatusInternalServerError && status != http.StatusConflict {
			return fmt.Errorf("unexpected status %d", status)
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
	return errors.New("no 200 after 200 attempts")
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
