package checkout

import (
	"bytes"
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// namedCall is one call of the client, named as its errors name it.
type namedCall struct {
	name string
	call func() error
}

// postCalls are the writes (POST) of c with valid requests.
func postCalls(ctx context.Context, c *Client) []namedCall {
	return []namedCall{
		{"create session", func() error { _, err := c.CreateSession(ctx, baseSession()); return err }},
		{"create order", func() error { _, err := c.CreateOrder(ctx, fullOrder()); return err }},
		{"refund", func() error {
			_, err := c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
			return err
		}},
		{"refund transaction", func() error {
			_, err := c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", Amount: "1.00"})
			return err
		}},
	}
}

// A read timeout after the request was sent is one attempt for each POST
// (a retry could create the session or order, or refund, twice) and is
// retried for GetOrder.
func TestReadTimeout(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{}`, delay: 2 * time.Second})
	hc := &http.Client{Timeout: 100 * time.Millisecond}
	c := newTestClient(t, srv.URL, WithHTTPClient(hc))
	ctx := context.Background()

	posts := postCalls(ctx, c)
	for i, p := range posts {
		err := p.call()
		require.Error(t, err, p.name)
		var ne net.Error
		require.ErrorAs(t, err, &ne, p.name)
		require.True(t, ne.Timeout(), p.name)
		require.Contains(t, err.Error(), p.name)
		posted := 0 // a replay's GetOrder comes between the POSTs
		srv.mu.Lock()
		for _, r := range srv.requests {
			if r.Method == http.MethodPost {
				posted++
			}
		}
		srv.mu.Unlock()
		require.Equal(t, i+1, posted, "%s: a timed-out POST may have taken effect: one attempt only (a replay reads the order)", p.name)
	}

	before := srv.count.Load()
	_, err := c.GetOrder(ctx, "o")
	require.Error(t, err)
	require.EqualValues(t, fastRetry.MaxRetries+1, srv.count.Load()-before, "GetOrder is idempotent and retried")
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

// A connection dropped after the request was written is one attempt for
// every POST, on a new connection and on one reused from the pool, and is
// retried for GetOrder.
func TestResetAfterWriteNotRetriedForPost(t *testing.T) {
	var count, posted atomic.Int64 // posted: the POSTs (a replay's GetOrder is dropped too)
	drop := hijackClose(&count)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/orders/warm" { // leaves a kept-alive connection in the pool
			w.Write([]byte(`{"order_id":"warm"}`))
			return
		}
		if r.Method == http.MethodPost {
			posted.Add(1)
		}
		drop.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	posts := postCalls(ctx, c)
	var want int64
	for _, reused := range []bool{false, true} {
		for _, p := range posts {
			if reused {
				_, err := c.GetOrder(ctx, "warm")
				require.NoError(t, err)
			}
			err := p.call()
			require.Error(t, err, p.name)
			require.Contains(t, err.Error(), p.name)
			require.NotContains(t, err.Error(), "attempts")
			want++
			require.Equal(t, want, posted.Load(), "%s (reused connection: %v): one attempt only", p.name, reused)
		}
	}

	before := count.Load()
	_, err := c.GetOrder(ctx, "o")
	require.Error(t, err)
	require.Equal(t, int64(fastRetry.MaxRetries)+1, count.Load()-before)
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
		w.Write([]byte(`{"status":"CREATED","order_id":"HD-1707740261"}`))
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
