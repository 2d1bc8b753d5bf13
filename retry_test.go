package checkout

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRetryServiceUnavailableThenSuccess(t *testing.T) {
	srv := newRecorder(t,
		reply{status: 503, body: `{"status":"ERROR"}`},
		reply{status: 503, body: `{"status":"ERROR"}`},
		reply{status: 200, body: `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{"requestId":"r"}}`})
	c := newTestClient(t, srv.URL)
	s, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.Equal(t, "NEW", s.Status)
	all := srv.all()
	require.Len(t, all, 3)
	for _, r := range all[1:] {
		require.Equal(t, string(all[0].Body), string(r.Body), "the body is replayed unchanged")
		require.Equal(t, all[0].Header.Get("Authorization"), r.Header.Get("Authorization"))
	}
}

func TestRetryExhaustedReturnsLastAPIError(t *testing.T) {
	srv := newRecorder(t, reply{status: 503, header: map[string]string{"Retry-After": "0"}, body: `{"status":"ERROR","error_message":"maintenance"}`})
	c := newTestClient(t, srv.URL)
	_, err := c.CreateOrder(context.Background(), fullOrder())
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrServer)
	require.Equal(t, 503, ae.HTTPStatus)
	require.Equal(t, "maintenance", ae.ErrorMessage)
	require.EqualValues(t, fastRetry.MaxRetries+1, srv.count.Load())
}

// Ambiguous failures of writes are never sent again blindly: the client
// reads the order first (a GET, retried as GETs are), and as the read fails
// too the error stands. The same failures of GetOrder are retried.
func TestAmbiguousStatusRetriedOnlyForGetOrder(t *testing.T) {
	for _, status := range []int{500, 502, 504} {
		srv := newRecorder(t, reply{status: status, body: `{"status":"ERROR"}`})
		c := newTestClient(t, srv.URL)
		ctx := context.Background()
		posts := func() (n int) {
			for _, r := range srv.all() {
				if r.Method == http.MethodPost {
					n++
				}
			}
			return n
		}

		_, err := c.CreateSession(ctx, baseSession())
		require.ErrorIs(t, err, ErrServer)
		require.Equal(t, 1, posts(), "create session after %d", status)

		_, err = c.CreateOrder(ctx, fullOrder())
		require.ErrorIs(t, err, ErrServer)
		require.Equal(t, 2, posts(), "create order after %d", status)

		_, err = c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
		require.ErrorIs(t, err, ErrServer)
		require.Equal(t, 3, posts(), "refund after %d", status)

		before := srv.count.Load()
		_, err = c.GetOrder(ctx, "o")
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, fastRetry.MaxRetries+1, srv.count.Load()-before, "get order after %d", status)
	}
}

// go-retryablehttp logs nothing of its own (its Logger is nil): the
// standard logger stays silent through retries and failures.
func TestRetryablehttpDoesNotLog(t *testing.T) {
	var buf bytes.Buffer
	prev, flags := log.Writer(), log.Flags()
	log.SetOutput(&buf)
	t.Cleanup(func() { log.SetOutput(prev); log.SetFlags(flags) })

	srv := newRecorder(t, reply{status: 503, body: `{}`})
	c := newTestClient(t, srv.URL)
	_, err := c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	d := &refusingDialer{refuse: 100}
	c = newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
	_, err = c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	require.Empty(t, buf.String())
}

// Concurrent calls keep their own attempt state: each call's first attempt
// gets 503 and its second succeeds, whatever the others do meanwhile.
func TestConcurrentRetriesKeepTheirOwnState(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		first := hits[r.URL.Path] == 1
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, `{"order_id":%q,"status":"CHARGED"}`, strings.TrimPrefix(r.URL.Path, "/orders/"))
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("o-%d", i)
			st, err := c.GetOrder(context.Background(), id)
			if assert.NoError(t, err) {
				assert.Equal(t, id, st.OrderID)
			}
		}()
	}
	wg.Wait()
	require.Len(t, hits, 32)
	for p, n := range hits {
		require.Equal(t, 2, n, p)
	}
}

// A 429 with Retry-After: 1 on a POST is retried after about a second: not
// after the jittered backoff (at most MinWait, 1 ms, here) and not after
// MaxWait (30 s).
func TestRetryAfterIsHonoured(t *testing.T) {
	srv := newRecorder(t,
		reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: `{}`},
		reply{status: 200, body: `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{}}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 30 * time.Second}))
	_, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.EqualValues(t, 2, srv.count.Load())
	gap := srv.gap(t)
	require.GreaterOrEqual(t, gap, time.Second-50*time.Millisecond, "waited %s", gap)
	require.Less(t, gap, 5*time.Second, "waited %s: Retry-After 1 is about a second", gap)
}

// A Retry-After of an hour, on 429 and on 503, is cut to MaxWait: the retry
// comes after MaxWait (so the header was read: the jittered backoff would
// wait at most MinWait), and long before the hour.
func TestRetryAfterIsCappedByMaxWait(t *testing.T) {
	const maxWait = 50 * time.Millisecond
	for _, status := range []int{429, 503} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := newRecorder(t,
				reply{status: status, header: map[string]string{"Retry-After": "3600"}, body: `{}`},
				reply{status: 200, body: `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{}}`})
			c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: maxWait}))
			// An uncapped wait fails here at once instead of hanging the test.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := c.CreateSession(ctx, baseSession())
			require.NoError(t, err)
			require.EqualValues(t, 2, srv.count.Load())
			gap := srv.gap(t)
			require.GreaterOrEqual(t, gap, maxWait, "waited %s", gap)
			require.Less(t, gap, 5*time.Second, "waited %s: a 3600 s Retry-After must be capped at MaxWait", gap)
		})
	}
}

func TestRateLimitedAfterRetries(t *testing.T) {
	srv := newRecorder(t, reply{status: 429, header: map[string]string{"Retry-After": "2"}, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MaxWait: time.Millisecond}))
	_, err := c.GetOrder(context.Background(), "o")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrRateLimited)
	require.Equal(t, 2*time.Second, ae.RetryAfter)
	require.EqualValues(t, 2, srv.count.Load())
}

// RetryPolicy{MaxRetries: 2} with a server answering "Retry-After: 0" waits
// between attempts instead of spinning.
func TestRetryAfterZeroDoesNotSpin(t *testing.T) {
	srv := newRecorder(t, reply{status: 503, header: map[string]string{"Retry-After": "0"}, body: `{}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MaxWait: 50 * time.Millisecond}))
	start := time.Now()
	_, err := c.GetOrder(context.Background(), "o")
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 2, srv.count.Load())
	require.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "MinWait (here min(200 ms, MaxWait)) is waited")
}

func TestBackoffFullJitter(t *testing.T) {
	const min, max = 10 * time.Millisecond, 200 * time.Millisecond
	for n, ceil := range []time.Duration{10, 20, 40, 80, 160, 200, 200} {
		ceil *= time.Millisecond
		var lo, hi time.Duration = time.Hour, 0
		for range 2000 {
			d := backoff(min, max, n, nil)
			require.GreaterOrEqual(t, d, time.Duration(0))
			require.LessOrEqual(t, d, ceil, "attempt %d", n)
			lo, hi = minDur(lo, d), maxDur(hi, d)
		}
		require.Less(t, lo, ceil/4, "full jitter reaches near zero")
		require.Greater(t, hi, ceil*3/4, "full jitter reaches near the ceiling")
	}
	require.Zero(t, backoff(0, 0, 3, nil))
	require.LessOrEqual(t, backoff(time.Second, 2*time.Second, 80, nil), 2*time.Second, "no overflow")

	for _, status := range []int{429, 503} {
		resp := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {"3"}}}
		require.Equal(t, 3*time.Second, backoff(min, 5*time.Second, 0, resp), "Retry-After is honoured")
		require.Equal(t, 3*time.Second, backoff(min, 5*time.Second, 4, resp), "on every retry")
		require.Equal(t, max, backoff(min, max, 0, resp), "capped at max")
		resp.Header.Set("Retry-After", "0")
		require.Equal(t, min, backoff(min, max, 0, resp), "never below min")
		resp.Header.Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
		require.Equal(t, max, backoff(min, max, 0, resp), "an HTTP date is capped at max too")
		resp.Header.Set("Retry-After", "soon")
		require.LessOrEqual(t, backoff(min, max, 0, resp), min, "an unreadable Retry-After falls back to jitter")
	}
	resp := &http.Response{StatusCode: 500, Header: http.Header{"Retry-After": {"3"}}}
	require.LessOrEqual(t, backoff(min, max, 0, resp), min, "Retry-After counts on 429 and 503 only")
}

func minDur(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// Zero waits take the defaults, negative waits are option errors, and a
// Retry-After shorter than MinWait waits MinWait.
func TestRetryPolicyDefaults(t *testing.T) {
	for _, tc := range []struct {
		in, want RetryPolicy
	}{
		{RetryPolicy{MaxRetries: 2}, DefaultRetryPolicy()},
		{RetryPolicy{}, RetryPolicy{MinWait: 200 * time.Millisecond, MaxWait: 5 * time.Second}},
		{RetryPolicy{MaxRetries: 1, MaxWait: time.Millisecond}, RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond}},
		{RetryPolicy{MaxRetries: 1, MaxWait: time.Second}, RetryPolicy{MaxRetries: 1, MinWait: 200 * time.Millisecond, MaxWait: time.Second}},
		{RetryPolicy{MaxRetries: 1, MinWait: 10 * time.Second}, RetryPolicy{MaxRetries: 1, MinWait: 10 * time.Second, MaxWait: 10 * time.Second}},
		{RetryPolicy{MaxRetries: 1, MinWait: time.Second}, RetryPolicy{MaxRetries: 1, MinWait: time.Second, MaxWait: 5 * time.Second}},
		{fastRetry, fastRetry},
	} {
		c, err := NewClient("m", "k", WithBaseURL("https://a.example"), WithRetry(tc.in))
		require.NoError(t, err)
		require.Equal(t, tc.want, c.retry, "%+v", tc.in)
	}
	for _, p := range []RetryPolicy{{MaxRetries: 1, MinWait: -1}, {MaxRetries: 1, MaxWait: -time.Second}} {
		_, err := NewClient("m", "k", WithBaseURL("https://a.example"), WithRetry(p))
		require.ErrorIs(t, err, ErrInvalidOption)
		require.Contains(t, err.Error(), "negative")
	}

	resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"0"}}}
	require.Equal(t, 200*time.Millisecond, backoff(200*time.Millisecond, 5*time.Second, 0, resp), "Retry-After: 0 waits MinWait")
	resp.Header.Set("Retry-After", "3600")
	require.Equal(t, 5*time.Second, backoff(200*time.Millisecond, 5*time.Second, 0, resp), "capped at MaxWait")
	resp.Header.Set("Retry-After", "2")
	require.Equal(t, 2*time.Second, backoff(200*time.Millisecond, 5*time.Second, 0, resp))
}

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
				reply{status: 200, body: `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{}}`})
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
			reply{status: 200, body: `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{}}`})
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

// Retryable is the client's one answer to "may this read succeed later?",
// the one AwaitFinal and the reconciler wait on.
func TestRetryable(t *testing.T) {
	for name, tt := range map[string]struct {
		err  error
		want bool
	}{
		"nil":                  {nil, false},
		"not the client's":     {errors.New("x"), false},
		"connection refused":   {&TransportError{Op: "get order", Err: syscall.ECONNREFUSED}, true},
		"no cause":             {&TransportError{Op: "get order"}, true},
		"reply lost":           {&TransportError{Op: "get order", MaybeDelivered: true, Err: io.ErrUnexpectedEOF}, true},
		"certificate refused":  {&TransportError{Op: "get order", Err: x509.UnknownAuthorityError{}}, false},
		"rate limited":         {&APIError{HTTPStatus: 429}, true},
		"service error":        {&APIError{HTTPStatus: 500}, true},
		"gateway timeout":      {&APIError{HTTPStatus: 504}, true},
		"unavailable, wrapped": {fmt.Errorf("poll: %w", &APIError{HTTPStatus: 503}), true},
		"not implemented":      {&APIError{HTTPStatus: 501}, true},
		"origin unreachable":   {&APIError{HTTPStatus: 523}, true},
		"typed nil transport":  {(*TransportError)(nil), false},
		"typed nil API error":  {(*APIError)(nil), false},
		"unknown order":        {&APIError{HTTPStatus: 404}, false},
		"bad credentials":      {&APIError{HTTPStatus: 401}, false},
		"refused request":      {&APIError{HTTPStatus: 400}, false},
	} {
		require.Equal(t, tt.want, Retryable(tt.err), name)
	}
}
