package checkout

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every call that names an order refuses a reply about another order (a
// misrouting proxy or cache): Refund, UpdateOrder and RefundTransaction by
// order, as GetOrder does. CheckPaid would otherwise approve the wrong one.
func TestRepliesAboutAnotherOrderAreRefused(t *testing.T) {
	other := `{"order_id":"o2","id":"ordeh_2","status":"CHARGED","amount":"1.00","refunds":[]}`
	c, _ := replyingClient(t, other)
	ctx := context.Background()
	_, err := c.Refund(ctx, "o1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
	require.ErrorContains(t, err, `checkout: refund: decode response: the reply is about another order than "o1"`)
	_, err = c.UpdateOrder(ctx, "o1", &UpdateOrderRequest{Amount: "2.00"})
	require.ErrorContains(t, err, `checkout: update order: decode response: the reply is about another order than "o1"`)

	c, _ = replyingClient(t, `{"id":"rf_1","unique_request_id":"r1","order_id":"o2","status":"PENDING"}`)
	_, err = c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r1", OrderID: "o1", Amount: "1.00"})
	require.ErrorContains(t, err, `checkout: refund transaction: decode response: the reply is about another order than "o1"`)
	_, err = c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r1", TxnID: "t1", Amount: "1.00"})
	require.NoError(t, err, "a refund by transaction names no order to compare")

	c, _ = replyingClient(t, `{"order_id":"o1","status":"CHARGED","refunds":[]}`)
	_, err = c.Refund(ctx, "o1", &RefundRequest{UniqueRequestID: "r1"})
	require.NoError(t, err)
}

// The client never follows a redirect, whatever http.Client it is given: a
// redirect-following client would turn a refund POST into a GET that
// "succeeds" and carry Authorization to wherever Location points. A 3xx is
// an *APIError naming the status, and nothing reaches the other place.
func TestRedirectingClientDoesNotFollow(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte(`{"order_id":"o1","status":"CHARGED"}`))
	}))
	t.Cleanup(other.Close)
	for _, status := range []int{301, 302, 303, 307, 308} {
		srv := newRecorder(t, reply{status: status, header: map[string]string{"Location": other.URL + "/steal"}})
		c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{})) // the standard client follows redirects
		_, err := c.Refund(context.Background(), "o1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
		var ae *APIError
		require.ErrorAs(t, err, &ae, "status %d", status)
		require.Equal(t, status, ae.HTTPStatus)
		require.ErrorContains(t, err, "redirect", "status %d", status)
		require.EqualValues(t, 1, srv.count.Load())
	}
	require.Zero(t, elsewhere.Load(), "nothing was sent where Location points")
}
