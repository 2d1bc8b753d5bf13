package checkout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
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
		reply{status: 200, body: `{"status":"NEW","sdk_payload":{"requestId":"r"}}`})
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

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := newRecorder(t,
		reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: `{}`},
		reply{status: 200, body: `{"status":"NEW","sdk_payload":{}}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 10 * time.Second}))
	start := time.Now()
	_, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.GreaterOrEqual(t, time.Since(start), 900*time.Millisecond)
	require.EqualValues(t, 2, srv.count.Load())
}

func TestRetryAfterIsCappedByMaxWait(t *testing.T) {
	srv := newRecorder(t,
		reply{status: 429, header: map[string]string{"Retry-After": "3600"}, body: `{}`},
		reply{status: 200, body: `{"order_id":"o"}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 20 * time.Millisecond}))
	start := time.Now()
	_, err := c.GetOrder(context.Background(), "o")
	require.NoError(t, err)
	require.Less(t, time.Since(start), time.Minute, "a 3600 s Retry-After must be capped at MaxWait")
	require.EqualValues(t, 2, srv.count.Load())
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

// Ambiguous failures of writes are never retried; the same failures of
// GetOrder are.
func TestAmbiguousStatusRetriedOnlyForGetOrder(t *testing.T) {
	for _, status := range []int{500, 502, 504} {
		srv := newRecorder(t, reply{status: status, body: `{"status":"ERROR"}`})
		c := newTestClient(t, srv.URL)
		ctx := context.Background()

		_, err := c.CreateSession(ctx, baseSession())
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 1, srv.count.Load(), "create session after %d", status)

		_, err = c.CreateOrder(ctx, fullOrder())
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 2, srv.count.Load(), "create order after %d", status)

		_, err = c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 3, srv.count.Load(), "refund after %d", status)

		_, err = c.GetOrder(ctx, "o")
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 3+fastRetry.MaxRetries+1, srv.count.Load(), "get order after %d", status)
	}
}

func TestReadTimeout(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{}`, delay: 2 * time.Second})
	hc := &http.Client{Timeout: 100 * time.Millisecond}
	c := newTestClient(t, srv.URL, WithHTTPClient(hc))

	_, err := c.CreateOrder(context.Background(), fullOrder())
	require.Error(t, err)
	var ne net.Error
	require.ErrorAs(t, err, &ne)
	require.True(t, ne.Timeout())
	require.EqualValues(t, 1, srv.count.Load(), "a timed-out POST may have created the order: one attempt only")

	_, err = c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	require.EqualValues(t, 1+fastRetry.MaxRetries+1, srv.count.Load(), "GetOrder is idempotent and retried")
	require.Contains(t, err.Error(), "after 3 attempts")
}

// hijackClose reads the request and drops the connection without a reply:
// the request reached the server, the outcome is unknown to the client.
func hijackClose(count *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
}

func TestResetAfterWriteNotRetriedForPost(t *testing.T) {
	var count atomic.Int64
	srv := httptest.NewServer(hijackClose(&count))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	_, err := c.CreateSession(context.Background(), baseSession())
	require.Error(t, err)
	require.EqualValues(t, 1, count.Load())
	_, err = c.Refund(context.Background(), "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
	require.Error(t, err)
	require.EqualValues(t, 2, count.Load())

	_, err = c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	require.EqualValues(t, 2+fastRetry.MaxRetries+1, count.Load())
}

// refusingDialer refuses the first n dials (nothing is sent), then dials.
type refusingDialer struct {
	refuse int64
	dials  atomic.Int64
}

func (d *refusingDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.dials.Add(1) <= d.refuse {
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func TestRefusedConnectionRetriedForPost(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{"status":"NEW","sdk_payload":{}}`})
	d := &refusingDialer{refuse: 2}
	c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
	_, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.EqualValues(t, 3, d.dials.Load())
	require.EqualValues(t, 1, srv.count.Load(), "the session was created once")
}

func TestRefusedConnectionGivesUp(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close()) // nothing listens there now
	d := &refusingDialer{}
	c := newTestClient(t, "http://"+addr, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
	_, err = c.CreateOrder(context.Background(), fullOrder())
	require.Error(t, err)
	require.True(t, errors.Is(err, syscall.ECONNREFUSED), "%v", err)
	require.EqualValues(t, fastRetry.MaxRetries+1, d.dials.Load())
	require.Contains(t, err.Error(), "create order")
}

// dropListener closes the first n accepted connections at once: the TLS
// handshake fails and nothing was sent.
type dropListener struct {
	net.Listener
	drop    int64
	accepts atomic.Int64
}

func (l *dropListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.accepts.Add(1) <= l.drop {
			c.Close()
			continue
		}
		return c, nil
	}
}

func TestTLSHandshakeFailureRetriedForPost(t *testing.T) {
	var count atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		w.Write([]byte(`{"status":"CREATED","order_id":"o"}`))
	}))
	dl := &dropListener{Listener: srv.Listener, drop: 2}
	srv.Listener = dl
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, WithHTTPClient(srv.Client()))
	o, err := c.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	require.Equal(t, "CREATED", o.Status)
	require.EqualValues(t, 3, dl.accepts.Load())
	require.EqualValues(t, 1, count.Load())
}

func TestUntrustedCertificateNotRetried(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	dl := &dropListener{Listener: srv.Listener}
	srv.Listener = dl
	srv.Config.ErrorLog = log.New(&bytes.Buffer{}, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL) // default transport: the test CA is not trusted
	_, err := c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	require.EqualValues(t, 1, dl.accepts.Load(), "a certificate error is permanent")
}

func TestCancelEndsWaitAtOnce(t *testing.T) {
	srv := newRecorder(t, reply{status: 429, header: map[string]string{"Retry-After": "3600"}, body: `{}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Second, MaxWait: time.Hour}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for srv.count.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := c.CreateSession(ctx, baseSession())
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 30*time.Second)
	require.EqualValues(t, 1, srv.count.Load())
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

	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"3"}}}
	require.Equal(t, 3*time.Second, backoff(min, 5*time.Second, 0, resp))
	require.Equal(t, max, backoff(min, max, 0, resp))
	resp.StatusCode = 500
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
