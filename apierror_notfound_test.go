package checkout

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// The service reports an unknown order as HTTP 400 with status "NOT_FOUND"
// (conformance/README.md; no sample of it is published): through GetOrder it
// is ErrNotFound, not ErrInvalidRequest, and is not retried.
func TestOrderNotFoundIsErrNotFound(t *testing.T) {
	body := `{"status":"NOT_FOUND","error_code":"order_not_found","error_message":"Order not found","status_id":-1}`
	srv := newRecorder(t, reply{status: 400, body: body})
	c := newTestClient(t, srv.URL)
	_, err := c.GetOrder(context.Background(), "missing")
	require.ErrorIs(t, err, ErrNotFound)
	require.NotErrorIs(t, err, ErrInvalidRequest)
	var e *APIError
	require.ErrorAs(t, err, &e)
	require.Equal(t, 400, e.HTTPStatus)
	require.Equal(t, "NOT_FOUND", e.Status)
	require.Equal(t, "order_not_found", e.ErrorCode)
	require.Equal(t, "checkout: get order: HTTP 400 NOT_FOUND [order_not_found]: Order not found", err.Error())
	require.Equal(t, "missing", e.OrderID, "the call's order id")
	require.EqualValues(t, 1, srv.count.Load())
}

// The service's published order-not-found reply (HTTP 400, status
// NOT_FOUND, status_id 40, the order id, no error_code): every call about
// one order gives an *APIError matching ErrNotFound whose OrderID is the
// body's order_id, else the call's.
func TestOrderNotFoundOrderID(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(c *Client, id string) error{
		"get order": func(c *Client, id string) error { _, err := c.GetOrder(ctx, id); return err },
		"refund": func(c *Client, id string) error {
			_, err := c.Refund(ctx, id, &RefundRequest{UniqueRequestID: "r"})
			return err
		},
		"refund transaction": func(c *Client, id string) error {
			_, err := c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r", OrderID: id, RefundType: RefundInstant})
			return err
		},
	}
	for _, tt := range []struct {
		name, body, callID, wantID, line string
	}{
		{"published shape", `{"status_id": 40, "status": "NOT_FOUND", "order_id": "TEST1r32766"}`,
			"TEST1r32766", "TEST1r32766", `HTTP 400 NOT_FOUND: no order "TEST1r32766"`},
		{"the body names the order", `{"status_id":40,"status":"NOT_FOUND","order_id":"from-body"}`,
			"from-call", "from-body", `HTTP 400 NOT_FOUND: no order "from-body"`},
		{"no order_id in the body", `{"status_id":"40","status":"NOT_FOUND"}`,
			"o/42", "o/42", `HTTP 400 NOT_FOUND: no order "o/42"`},
		{"status_id 40 alone", `{"status_id":40,"status":"ERROR"}`,
			"o1", "o1", `HTTP 400 ERROR: no order "o1"`},
		{"service message wins", `{"status":"NOT_FOUND","error_message":"Order with id = \"o1\" does not exist"}`,
			"o1", "o1", `HTTP 400 NOT_FOUND: Order with id = "o1" does not exist`},
	} {
		for op, call := range calls {
			t.Run(tt.name+"/"+op, func(t *testing.T) {
				srv := newRecorder(t, reply{status: 400, body: tt.body})
				err := call(newTestClient(t, srv.URL), tt.callID)
				require.ErrorIs(t, err, ErrNotFound)
				require.NotErrorIs(t, err, ErrInvalidRequest)
				var e *APIError
				require.ErrorAs(t, err, &e)
				require.Equal(t, tt.wantID, e.OrderID)
				require.Equal(t, "checkout: "+op+": "+tt.line, err.Error())
				require.Contains(t, fmt.Sprintf("%#v", e), `OrderID:"`+tt.wantID+`"`)
				require.EqualValues(t, 1, srv.count.Load())
			})
		}
	}

	// Another refusal of a call about an order names the order too; a
	// call about no one order leaves OrderID empty.
	srv := newRecorder(t, reply{status: 400, body: `{"status":"ERROR","error_code":"duplicate.call"}`})
	c := newTestClient(t, srv.URL)
	_, err := c.Refund(ctx, "o1", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
	var e *APIError
	require.ErrorAs(t, err, &e)
	require.ErrorIs(t, err, ErrInvalidRequest)
	require.Equal(t, "o1", e.OrderID)
	_, err = c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t"})
	require.ErrorAs(t, err, &e)
	require.Empty(t, e.OrderID)
	_, err = c.CreateSession(ctx, baseSession())
	require.ErrorAs(t, err, &e)
	require.Empty(t, e.OrderID)
}
