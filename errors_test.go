package checkout

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOneLine(t *testing.T) {
	require.Equal(t, "a b c", oneLine("a\n\tb\r\n  c", 100))
	require.Equal(t, "abc…", oneLine("abcdef", 3))
	require.Equal(t, "x", oneLine("\x00x\x1b", 10))
}

// The sentinels are constants (this does not compile for variables), so no
// importer can reassign one process-wide.
const _, _, _, _, _, _, _ = ErrUnauthorized, ErrForbidden, ErrNotFound, ErrInvalidRequest, ErrRateLimited, ErrServer, ErrInvalidOption

// A request refused before it was sent matches ErrInvalidRequest like a
// 4xx reply does, and its message names the operation.
func TestValidationErrorIsInvalidRequest(t *testing.T) {
	req := baseSession()
	req.OrderID = ""
	err := req.Validate()
	require.ErrorIs(t, err, ErrInvalidRequest)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)

	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	_, err = c.CreateSession(context.Background(), req)
	require.ErrorIs(t, err, ErrInvalidRequest)
	require.NotErrorIs(t, err, ErrNotFound)
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("order_id"), "%v", err)
	require.True(t, strings.HasPrefix(err.Error(), "checkout: create session: invalid request"), err.Error())
	require.Zero(t, srv.count.Load(), "nothing was sent")
}

// Every error the client returns starts "checkout: <operation>: ", and the
// kinds of error keep matching their sentinels.
func TestErrorStringsNameTheOperation(t *testing.T) {
	ctx := context.Background()
	srv := newRecorder(t, reply{status: 400, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL)
	var nilClient *Client
	_, badClient := NewClient("m", "k", WithBaseURL("ftp://x"))
	_, noEnv := func() (*Client, error) {
		t.Setenv(EnvBaseURL, "")
		return NewClientFromEnv()
	}()
	for _, tt := range []struct {
		prefix string
		err    error
		is     error
	}{
		{"checkout: new client: invalid option: ", badClient, ErrInvalidOption},
		{"checkout: new client from environment: invalid option: ", noEnv, ErrInvalidOption},
		{"checkout: get order: invalid option: ", func() error { _, err := c.GetOrder(ctx, "o", WithHeader("Authorization", "x")); return err }(), ErrInvalidOption},
		{"checkout: refund: client is nil or not made by NewClient", func() error {
			_, err := nilClient.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
			return err
		}(), ErrInvalidClient},
		//lint:ignore SA1012 a nil context is an error, not a panic
		{"checkout: get order: nil context", func() error { _, err := c.GetOrder(nil, "o"); return err }(), nil}, //nolint:staticcheck
		{"checkout: create order: HTTP 400 ERROR", func() error { _, err := c.CreateOrder(ctx, fullOrder()); return err }(), ErrInvalidRequest},
		{"checkout: refund transaction: client is nil or not made by NewClient", func() error {
			_, err := nilClient.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t"})
			return err
		}(), ErrInvalidClient},
		{"checkout: refund transaction: HTTP 400 ERROR", func() error {
			_, err := c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t"})
			return err
		}(), ErrInvalidRequest},
		{"checkout: check paid: order \"o\" is NEW, not CHARGED", (&OrderStatus{OrderID: "o", Status: StatusNew}).CheckPaid("1.00"), ErrNotPaid},
	} {
		require.Error(t, tt.err, tt.prefix)
		require.True(t, strings.HasPrefix(tt.err.Error(), tt.prefix), "%q does not start with %q", tt.err.Error(), tt.prefix)
		require.Equal(t, 1, strings.Count(tt.err.Error(), "checkout:"), "one prefix: %q", tt.err.Error())
		if tt.is != nil {
			require.ErrorIs(t, tt.err, tt.is)
		}
	}
}
