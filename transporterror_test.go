package checkout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requireTransportError asserts that err is a *TransportError of the call
// op whose MaybeDelivered is want, and that Error() gives the resend advice
// exactly when a write may have been delivered.
func requireTransportError(t *testing.T, err error, op string, want bool) *TransportError {
	t.Helper()
	var te *TransportError
	require.ErrorAs(t, err, &te)
	require.Equal(t, op, te.Op)
	require.Equal(t, want, te.MaybeDelivered, "MaybeDelivered of %v", err)
	msg := err.Error()
	require.True(t, strings.HasPrefix(msg, "checkout: "+op+": "+te.Method+" "+te.Path+": "), msg)
	require.NotContains(t, msg, "\n")
	check := "GetOrder"
	if strings.HasPrefix(te.Path, "/customers") {
		check = "GetCustomer" // a customer call is checked with the customer
	}
	advice := "may have reached the service; check with " + check + " before resending"
	if want && te.Method != http.MethodGet {
		require.Contains(t, msg, advice)
	} else {
		require.NotContains(t, msg, advice)
	}
	return te
}

// A write whose request was sent and whose reply never came may have taken
// effect: MaybeDelivered, and the advice to reconcile with GetOrder. A
// connection that was never made sent nothing.
func TestTransportErrorMaybeDelivered(t *testing.T) {
	ctx := context.Background()
	t.Run("connection dropped after the request was written", func(t *testing.T) {
		var count atomic.Int64
		srv := httptest.NewServer(hijackClose(&count))
		t.Cleanup(srv.Close)
		c := newTestClient(t, srv.URL)
		for _, p := range postCalls(ctx, c) {
			te := requireTransportError(t, p.call(), p.name, true)
			require.Equal(t, http.MethodPost, te.Method)
			require.Equal(t, 1, te.Attempts)
		}
		te := requireTransportError(t, func() error {
			_, err := c.CreateCustomer(ctx, &CustomerRequest{ObjectReferenceID: "cust_1", MobileNumber: "9876543210", MobileCountryCode: "91"})
			return err
		}(), "create customer", true)
		require.Contains(t, te.Error(), "check with GetCustomer before resending")
		te = requireTransportError(t, func() error { _, err := c.GetOrder(ctx, "o/1"); return err }(), "get order", true)
		require.Equal(t, "/orders/o%2F1", te.Path)
		require.Equal(t, fastRetry.MaxRetries+1, te.Attempts)
		require.Contains(t, te.Error(), "get order: GET /orders/o%2F1: after 3 attempts: ")
	})
	t.Run("connection refused", func(t *testing.T) {
		d := &refusingDialer{refuse: 100}
		c := newTestClient(t, "http://127.0.0.1:1", WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
		for _, p := range postCalls(ctx, c) {
			err := p.call()
			te := requireTransportError(t, err, p.name, false)
			require.ErrorIs(t, err, syscall.ECONNREFUSED)
			require.Equal(t, fastRetry.MaxRetries+1, te.Attempts, "nothing was sent, so it was retried")
			var oe *net.OpError
			require.ErrorAs(t, err, &oe, "errors.As reaches the cause")
		}
	})
	t.Run("context deadline while waiting for the reply", func(t *testing.T) {
		srv := newRecorder(t, reply{status: 200, body: `{}`, delay: 5 * time.Second})
		c := newTestClient(t, srv.URL)
		dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err := c.CreateSession(dctx, baseSession())
		requireTransportError(t, err, "create session", true)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.EqualValues(t, 1, srv.count.Load())
	})
	t.Run("HTTP client timeout", func(t *testing.T) {
		srv := newRecorder(t, reply{status: 200, body: `{}`, delay: 5 * time.Second})
		c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}))
		_, err := c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
		requireTransportError(t, err, "refund", true)
		var ne net.Error
		require.ErrorAs(t, err, &ne)
		require.True(t, ne.Timeout())
	})
	t.Run("context cancelled before sending", func(t *testing.T) {
		srv := newRecorder(t)
		c := newTestClient(t, srv.URL)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := c.CreateOrder(cctx, fullOrder())
		requireTransportError(t, err, "create order", false)
		require.ErrorIs(t, err, context.Canceled)
		require.Zero(t, srv.count.Load())
	})
	t.Run("TLS handshake failure", func(t *testing.T) {
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		dl := &dropListener{Listener: srv.Listener, drop: 100}
		srv.Listener = dl
		srv.StartTLS()
		t.Cleanup(srv.Close)
		c := newTestClient(t, srv.URL, WithHTTPClient(srv.Client()), WithRetry(RetryPolicy{}))
		_, err := c.CreateSession(ctx, baseSession())
		te := requireTransportError(t, err, "create session", false)
		require.Equal(t, 1, te.Attempts)
	})
	t.Run("reply cut short", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte(`{"status":`))
		}))
		t.Cleanup(srv.Close)
		c := newTestClient(t, srv.URL)
		_, err := c.CreateOrder(ctx, fullOrder())
		te := requireTransportError(t, err, "create order", true)
		require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		require.Contains(t, te.Error(), "create order: POST /orders: read response: unexpected EOF")
	})
}

// scriptedTransport answers each attempt in turn with a reply status, or
// with an error when the status is 0, without touching the network: no
// connection is obtained and no header is written.
type scriptedTransport struct {
	statuses []int
	n        atomic.Int64
}

func (s *scriptedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	i := int(s.n.Add(1)) - 1
	if i >= len(s.statuses) || s.statuses[i] == 0 {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	return &http.Response{StatusCode: s.statuses[i], Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{}`)), Request: r}, nil
}

// MaybeDelivered sums up every attempt: a 503 or 429 said the service did
// not act, so a following dial failure leaves it false; a 500 to GetOrder
// may have been acted on, so it stays true.
func TestTransportErrorDeliveryAcrossAttempts(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name     string
		statuses []int
		get      bool
		want     bool
	}{
		{"503 then refused", []int{503, 0, 0}, false, false},
		{"429 then refused", []int{429, 0, 0}, false, false},
		{"refused only", []int{0, 0, 0}, false, false},
		{"500 then refused, GetOrder", []int{500, 0, 0}, true, true},
		{"503 then refused, GetOrder", []int{503, 0, 0}, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &scriptedTransport{statuses: tt.statuses}
			c := newTestClient(t, "https://api.example.com", WithHTTPClient(&http.Client{Transport: tr}))
			var err error
			op := "create session"
			if tt.get {
				op = "get order"
				_, err = c.GetOrder(ctx, "o")
			} else {
				_, err = c.CreateSession(ctx, baseSession())
			}
			te := requireTransportError(t, err, op, tt.want)
			require.Equal(t, 3, te.Attempts)
			require.EqualValues(t, 3, tr.n.Load())
		})
	}
}

func TestTransportErrorString(t *testing.T) {
	var nilErr *TransportError
	require.Equal(t, "checkout: <nil *TransportError>", nilErr.Error())
	require.NoError(t, nilErr.Unwrap())
	cause := errors.New("connection reset by peer")
	require.Equal(t, "checkout: refund: POST /orders/o/refunds: connection reset by peer (may have reached the service; check with GetOrder before resending)",
		(&TransportError{Op: "refund", Method: "POST", Path: "/orders/o/refunds", Attempts: 1, MaybeDelivered: true, Err: cause, write: true}).Error())
	require.Equal(t, "checkout: get order: GET /orders/o: after 2 attempts: connection reset by peer",
		(&TransportError{Op: "get order", Method: "GET", Path: "/orders/o", Attempts: 2, MaybeDelivered: true, Err: cause}).Error())
	require.Equal(t, "checkout: request: transport failure", (&TransportError{}).Error())
	require.Equal(t, "checkout: x: a b", (&TransportError{Op: "x", Err: errors.New("a\nb")}).Error())
	var err error = fmt.Errorf("wrapped: %w", &TransportError{Op: "x", Err: fmt.Errorf("y: %w", context.DeadlineExceeded)})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, context.Canceled)
}

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
	srv := newRecorder(t, reply{status: 200, body: `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{}}`})
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
	require.Equal(t, StatusCreated, o.Status)
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

// noTraceTransport delivers each request through a transport of its own
// (so the client's httptrace hooks see nothing), then loses the reply.
type noTraceTransport struct{}

func (noTraceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r.Clone(context.Background()))
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return nil, errors.New("read tcp: connection reset by peer")
}

// A transport that reports nothing to httptrace cannot say a write was
// not sent: a failure that is not a dial or handshake error may have
// reached the service, so the write is not sent again.
func TestTransportWithoutTraceIsConservative(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{}`})
	c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: noTraceTransport{}}))
	_, err := c.CreateCustomer(context.Background(), &CustomerRequest{ObjectReferenceID: "cust-0001", MobileNumber: "9876543210"})
	var te *TransportError
	require.ErrorAs(t, err, &te)
	require.True(t, te.MaybeDelivered)
	require.EqualValues(t, 1, srv.count.Load(), "sent once")
}

// A 503 asks to wait: a context ended during that wait leaves a write
// not delivered, and no settle read is made on the ended context.
func TestCancelDuringRetryAfterIsNotMaybeDelivered(t *testing.T) {
	srv := newRecorder(t, reply{status: 503, header: map[string]string{"Retry-After": "1"}, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 2 * time.Second}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var m ResponseMeta
	_, err := c.CreateOrder(ctx, fullOrder(), WithResponseMeta(&m))
	require.ErrorIs(t, err, context.Canceled)
	var te *TransportError
	require.ErrorAs(t, err, &te)
	require.False(t, te.MaybeDelivered, "only a 503 came back")
	require.Equal(t, 1, m.Attempts, "no settle read on an ended context")
}
