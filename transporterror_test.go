package checkout

import (
	"context"
	"errors"
	"fmt"
	"io"
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
			_, err := c.CreateCustomer(ctx, &CreateCustomerRequest{ObjectReferenceID: "cust_1", CustomerDetails: CustomerDetails{MobileNumber: "9876543210", MobileCountryCode: "91"}})
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
		(&TransportError{Op: "refund", Method: "POST", Path: "/orders/o/refunds", Attempts: 1, MaybeDelivered: true, Err: cause}).Error())
	require.Equal(t, "checkout: get order: GET /orders/o: after 2 attempts: connection reset by peer",
		(&TransportError{Op: "get order", Method: "GET", Path: "/orders/o", Attempts: 2, MaybeDelivered: true, Err: cause}).Error())
	require.Equal(t, "checkout: request: transport failure", (&TransportError{}).Error())
	require.Equal(t, "checkout: x: a b", (&TransportError{Op: "x", Err: errors.New("a\nb")}).Error())
	var err error = fmt.Errorf("wrapped: %w", &TransportError{Op: "x", Err: fmt.Errorf("y: %w", context.DeadlineExceeded)})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, context.Canceled)
}
