package e2e_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// TestRetriesMatchTheDesign injects faults into the fake and checks the
// client's retry policy (DESIGN §2): 429 and 503 are retried on every call;
// ambiguous failures (500, 504, a dropped connection, a timeout) are
// retried on GET /orders/{id} only; a write without a reply is replayed
// (checkout.ConflictError): the order read shows nothing was made, so it is
// sent once more.
func TestRetriesMatchTheDesign(t *testing.T) {
	t.Parallel()
	const existing = "ord_exists"
	type call struct {
		name   string
		method string
		path   string
		do     func(ctx context.Context, c *checkout.Client) error
	}
	createOrder := call{"create order", "POST", "/orders", func(ctx context.Context, c *checkout.Client) error {
		_, err := c.CreateOrder(ctx, order("ord_new"))
		return err
	}}
	createSession := call{"create session", "POST", "/session", func(ctx context.Context, c *checkout.Client) error {
		_, err := c.CreateSession(ctx, session("ord_new", checkout.PaymentPage))
		return err
	}}
	refund := call{"refund", "POST", "/orders/" + existing + "/refunds", func(ctx context.Context, c *checkout.Client) error {
		_, err := c.Refund(ctx, existing, &checkout.RefundRequest{UniqueRequestID: "rf_1", Amount: "1.00"})
		return err
	}}
	getOrder := call{"get order", "GET", "/orders/" + existing, func(ctx context.Context, c *checkout.Client) error {
		_, err := c.GetOrder(ctx, existing)
		return err
	}}

	tests := []struct {
		call     call
		fault    checkouttest.Fault
		attempts int
		wantErr  error // nil: the call succeeds in the end
	}{
		{createOrder, checkouttest.Fault{Status: 503, RetryAfter: "1"}, 2, nil},
		{createOrder, checkouttest.Fault{Status: 429, RetryAfter: "1"}, 2, nil},
		{createOrder, checkouttest.Fault{Status: 500}, 2, nil},
		{createOrder, checkouttest.Fault{Status: 504}, 2, nil},
		{createOrder, checkouttest.Fault{Drop: true}, 2, nil},
		{createOrder, checkouttest.Fault{Delay: time.Hour}, 2, nil},
		{createSession, checkouttest.Fault{Status: 503, RetryAfter: "0"}, 2, nil},
		{createSession, checkouttest.Fault{Status: 500}, 2, nil},
		{createSession, checkouttest.Fault{Drop: true}, 2, nil},
		{refund, checkouttest.Fault{Status: 429}, 2, nil},
		{refund, checkouttest.Fault{Status: 500}, 2, nil},
		{refund, checkouttest.Fault{Drop: true}, 2, nil},
		{getOrder, checkouttest.Fault{Status: 500}, 2, nil},
		{getOrder, checkouttest.Fault{Status: 504}, 2, nil},
		{getOrder, checkouttest.Fault{Status: 503, RetryAfter: "1"}, 2, nil},
		{getOrder, checkouttest.Fault{Drop: true}, 2, nil},
		{getOrder, checkouttest.Fault{Delay: time.Hour}, 2, nil},
		{getOrder, checkouttest.Fault{Status: 503, Times: 5}, 3, checkout.ErrServer}, // MaxRetries 2: three attempts, then the last reply
	}
	for _, tt := range tests {
		t.Run(tt.call.name+" "+tt.fault.String(), func(t *testing.T) {
			t.Parallel() // each case has its own fake; the timeouts overlap
			s := newFake(t, checkouttest.Config{})
			_, err := newClient(t, s).CreateOrder(ctxT(t), order(existing))
			require.NoError(t, err)
			require.NoError(t, s.Pay(existing))
			// The client timeout turns the hour-long injected delay into a
			// timeout (the fake lets go when the client hangs up). It is
			// long enough that no answered attempt comes near it, even on
			// a loaded machine beside the 2,000-order test.
			c := newClient(t, s, checkout.WithHTTPClient(&http.Client{Timeout: 5 * time.Second}))

			f := tt.fault
			f.Method, f.Path = tt.call.method, tt.call.path
			require.NoError(t, s.InjectFault(f))
			before := s.Count(tt.call.method, tt.call.path)
			err = tt.call.do(ctxT(t), c)
			require.Equal(t, tt.attempts, s.Count(tt.call.method, tt.call.path)-before, "attempts")
			switch {
			case tt.wantErr == nil:
				require.NoError(t, err)
			case tt.wantErr == errTransport:
				require.Error(t, err)
				var apiErr *checkout.APIError
				require.False(t, errors.As(err, &apiErr), "no reply, so no APIError: %v", err)
			default:
				require.ErrorIs(t, err, tt.wantErr)
			}
		})
	}
}

// errTransport marks cases where no reply arrives (dropped, timed out).
var errTransport = errors.New("transport error")

// TestAmbiguousCreateIsResolvedWithGetOrder: after an ambiguous failure of
// a write the client looks the order up itself, and sends the write again
// when it finds nothing (checkout.ConflictError).
func TestAmbiguousCreateIsResolvedWithGetOrder(t *testing.T) {
	t.Parallel()
	s := newFake(t, checkouttest.Config{})
	c := newClient(t, s)
	require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Drop: true}))
	o, err := c.CreateOrder(ctxT(t), order("ord_amb"))
	require.NoError(t, err)
	require.Equal(t, checkout.StatusCreated, o.Status)
	require.False(t, o.Replayed, "the dropped create did not take effect: sent again, not replayed")
	require.Equal(t, 1, s.Count("GET", "/orders/ord_amb"))
	require.Equal(t, 2, s.Count("POST", "/orders"))
}

// TestRetryAfterFromTheFake: the client waits as the fake's Retry-After
// asks (DESIGN §2), but never longer than MaxWait. Only lower bounds on time
// are checked; the cap shows as the call succeeding at all (the context
// would end long before an hour).
func TestRetryAfterFromTheFake(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		retryAfter string
		maxWait    time.Duration
		minGap     time.Duration
	}{
		{"1", 5 * time.Second, time.Second}, // honoured
		{"3600", 300 * time.Millisecond, 0}, // cut to MaxWait
	} {
		t.Run("Retry-After "+tt.retryAfter, func(t *testing.T) {
			t.Parallel()
			s := newFake(t, checkouttest.Config{})
			c := newClient(t, s, checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: tt.maxWait}))
			require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 429, RetryAfter: tt.retryAfter}))
			_, err := c.CreateOrder(ctxT(t), order("ord_ra"))
			require.NoError(t, err)
			reqs := s.Requests()
			require.Len(t, reqs, 2)
			require.Equal(t, "status 429 retry-after "+tt.retryAfter, reqs[0].Fault)
			require.GreaterOrEqual(t, reqs[1].Time.Sub(reqs[0].Time), tt.minGap)
		})
	}
}
