package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

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

// The service may echo the API key in any escaping: JSON \u escapes (as
// encoding/json writes "&" and "<"), every character escaped, a "\/",
// or URL-escaped. None of it survives in Body or a field.
func TestAPIErrorScrubsEscapedKey(t *testing.T) {
	key := `sk_live/a&b<c>d+e=f`
	c := &credential{key: key}
	hex := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, `\u%04X`, r)
		}
		return b.String()
	}
	htmlEsc, _ := json.Marshal(key)
	for name, echoed := range map[string]string{
		"encoding/json": strings.Trim(string(htmlEsc), `"`),
		"all escaped":   hex(key),
		"solidus":       strings.ReplaceAll(key, "/", `\/`),
		"query":         url.QueryEscape(key),
		"path":          url.PathEscape(key),
	} {
		body := `{"error_message":"bad key ` + echoed + `","error_info":{"developer_message":"` + echoed + `"}}`
		e := newAPIError("get order", 401, http.Header{}, []byte(body), time.Now(), c)
		require.NotContains(t, string(e.Body), echoed, name)
		require.Contains(t, string(e.Body), redacted, name)
		require.NotContains(t, e.ErrorMessage+e.Info.DeveloperMessage+e.Error(), key, name)
		var back map[string]any
		require.NoError(t, json.Unmarshal(e.Body, &back), "%s: still JSON: %s", name, e.Body)
		require.NotContains(t, fmt.Sprint(back), key, name)
	}
}

// A Retry-After written as an HTTP date far ahead is capped at 24 h, as the
// seconds form is.
func TestRetryAfterDateCapped(t *testing.T) {
	now := time.Now()
	h := http.Header{"Retry-After": {"Fri, 31 Dec 9999 23:59:59 GMT"}}
	require.Equal(t, 24*time.Hour, decodeAPIError("x", 429, h, nil, now).RetryAfter)
	h.Set("Retry-After", "999999999999")
	require.Equal(t, 24*time.Hour, decodeAPIError("x", 503, h, nil, now).RetryAfter)
	h.Set("Retry-After", now.Add(time.Hour).UTC().Format(http.TimeFormat))
	require.InDelta(t, float64(time.Hour), float64(decodeAPIError("x", 429, h, nil, now).RetryAfter), float64(2*time.Second))
}
