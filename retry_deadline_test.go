package checkout

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// cancelOnAttempt is a slog.Handler that, once the client has logged its
// first attempt (checkRetry logs just before the wait between attempts
// begins), cancels after a delay: the cancel lands inside the wait.
type cancelOnAttempt struct {
	once     sync.Once
	delay    time.Duration
	cancel   context.CancelFunc
	canceled chan time.Time
}

func (h *cancelOnAttempt) Enabled(context.Context, slog.Level) bool { return true }
func (h *cancelOnAttempt) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *cancelOnAttempt) WithGroup(string) slog.Handler            { return h }
func (h *cancelOnAttempt) Handle(context.Context, slog.Record) error {
	h.once.Do(func() {
		go func() {
			time.Sleep(h.delay)
			h.cancel()
			h.canceled <- time.Now()
		}()
	})
	return nil
}

// Cancelling the context while the client waits between attempts (here a
// Retry-After of an hour, and a MaxWait of an hour) ends the call at once
// with context.Canceled; no further attempt is made.
func TestCancelEndsWaitAtOnce(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status int
		header map[string]string
	}{
		{"429 Retry-After", 429, map[string]string{"Retry-After": "3600"}},
		{"503 backoff", 503, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, reply{status: tt.status, header: tt.header, body: `{}`})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := &cancelOnAttempt{delay: 100 * time.Millisecond, cancel: cancel, canceled: make(chan time.Time, 1)}
			c := newTestClient(t, srv.URL, WithLogger(slog.New(h)),
				WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Hour, MaxWait: time.Hour}))
			start := time.Now()
			done := make(chan error, 1)
			go func() { _, err := c.GetOrder(ctx, "o"); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("cancelling the context did not end the wait")
			}
			returned := time.Now()
			require.ErrorIs(t, err, context.Canceled)
			require.Contains(t, err.Error(), "get order")
			canceled := <-h.canceled
			require.GreaterOrEqual(t, canceled.Sub(start), h.delay, "the cancel came during the wait")
			require.Less(t, returned.Sub(canceled), 2*time.Second, "the wait ended at once")
			require.EqualValues(t, 1, srv.count.Load())
		})
	}
}

func TestDeadlineBeforeSend(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.GetOrder(ctx, "o")
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, srv.count.Load())
}

// A Retry-After (capped at MaxWait) that ends after the context's deadline
// is not waited for: the call returns the *APIError at once, with
// RetryAfter as the service sent it, so the caller can schedule the retry.
// A Retry-After that fits before the deadline is still honoured.
func TestRetryAfterBeyondDeadlineReturnsAPIError(t *testing.T) {
	for _, tt := range []struct {
		name       string
		status     int
		retryAfter string
		maxWait    time.Duration
		want       error
		wantAfter  time.Duration
	}{
		{"429 Retry-After beyond the deadline", 429, "10", 30 * time.Second, ErrRateLimited, 10 * time.Second},
		{"503 Retry-After capped at MaxWait, still beyond the deadline", 503, "3600", 5 * time.Second, ErrServer, time.Hour},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t,
				reply{status: tt.status, header: map[string]string{"Retry-After": tt.retryAfter}, body: `{"status":"ERROR","error_message":"busy"}`},
				reply{status: 200, body: `{"status":"NEW","sdk_payload":{}}`})
			c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: tt.maxWait}))
			const budget = 2 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			start := time.Now()
			_, err := c.CreateSession(ctx, baseSession())
			took := time.Since(start)

			require.NotErrorIs(t, err, context.DeadlineExceeded)
			var ae *APIError
			require.ErrorAs(t, err, &ae)
			require.ErrorIs(t, err, tt.want)
			require.Equal(t, tt.status, ae.HTTPStatus)
			require.Equal(t, tt.wantAfter, ae.RetryAfter)
			require.Equal(t, "busy", ae.ErrorMessage)
			require.EqualValues(t, 1, srv.count.Load(), "no second attempt")
			require.Less(t, took, budget/2, "returned at once, not at the deadline (took %s)", took)
		})
	}
	t.Run("a wait that fits is taken", func(t *testing.T) {
		srv := newRecorder(t,
			reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: `{}`},
			reply{status: 200, body: `{"status":"NEW","sdk_payload":{}}`})
		c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 30 * time.Second}))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := c.CreateSession(ctx, baseSession())
		require.NoError(t, err)
		require.EqualValues(t, 2, srv.count.Load())
		require.GreaterOrEqual(t, srv.gap(t), time.Second-50*time.Millisecond)
	})
}

// The jittered backoff of other retryable failures follows the same rule:
// with a wait of up to a day (MinWait = MaxWait = 24 h) and a deadline in
// 300 ms, the call returns the last reply (a 500 of GetOrder) or the last
// transport error (a refused dial) at once. The jitter could draw a wait
// under 300 ms once in about 300,000 runs.
func TestBackoffBeyondDeadlineReturnsLastError(t *testing.T) {
	policy := WithRetry(RetryPolicy{MaxRetries: 3, MinWait: 24 * time.Hour, MaxWait: 24 * time.Hour})
	const budget = 300 * time.Millisecond

	t.Run("500 of GetOrder", func(t *testing.T) {
		srv := newRecorder(t, reply{status: 500, body: `{"status":"ERROR","error_message":"boom"}`})
		c := newTestClient(t, srv.URL, policy)
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		defer cancel()
		start := time.Now()
		_, err := c.GetOrder(ctx, "o")
		took := time.Since(start)
		require.NotErrorIs(t, err, context.DeadlineExceeded)
		var ae *APIError
		require.ErrorAs(t, err, &ae)
		require.ErrorIs(t, err, ErrServer)
		require.Equal(t, "boom", ae.ErrorMessage)
		require.EqualValues(t, 1, srv.count.Load())
		require.Less(t, took, budget, "returned before the deadline (took %s)", took)
	})
	t.Run("refused dial", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close())
		d := &refusingDialer{refuse: 100}
		c := newTestClient(t, "http://"+addr, policy, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		defer cancel()
		start := time.Now()
		_, err = c.CreateOrder(ctx, fullOrder())
		took := time.Since(start)
		require.NotErrorIs(t, err, context.DeadlineExceeded)
		require.ErrorIs(t, err, syscall.ECONNREFUSED)
		require.Contains(t, err.Error(), "create order")
		require.EqualValues(t, 1, d.dials.Load())
		require.Less(t, took, budget, "returned before the deadline (took %s)", took)
	})
}

// The debug log says why no retry was made.
func TestRetryBeyondDeadlineIsLogged(t *testing.T) {
	srv := newRecorder(t, reply{status: 429, header: map[string]string{"Retry-After": "60"}, body: `{}`})
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newTestClient(t, srv.URL, WithLogger(logger), WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Minute}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.GetOrder(ctx, "o")
	require.ErrorIs(t, err, ErrRateLimited)
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	require.Contains(t, out, "no retry: the wait outlasts the context deadline")
	require.Contains(t, out, "wait=1m0s")
	require.Contains(t, out, "op=\"get order\"")
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
