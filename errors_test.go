package checkout

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
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
		e := newAPIError("get order", 401, 0, []byte(body), c)
		require.NotContains(t, string(e.Body), echoed, name)
		require.Contains(t, string(e.Body), redacted, name)
		require.NotContains(t, e.ErrorMessage+e.Info.DeveloperMessage+e.Error(), key, name)
		var back map[string]any
		require.NoError(t, json.Unmarshal(e.Body, &back), "%s: still JSON: %s", name, e.Body)
		require.NotContains(t, fmt.Sprint(back), key, name)
	}
}

func TestAPIErrorIs(t *testing.T) {
	sentinels := []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrInvalidRequest, ErrRateLimited, ErrServer}
	tests := []struct {
		status int
		body   string
		want   error // nil: matches none
	}{
		{401, `{"status":"error","error_code":"access_denied"}`, ErrUnauthorized},
		{403, ``, ErrForbidden},
		{404, `<html>nope</html>`, ErrNotFound},
		{400, `{"status":"NOT_FOUND","error_code":"order_not_found","error_message":"Order not found"}`, ErrNotFound},
		{400, `{"status":"Not Found"}`, ErrNotFound},
		{400, `{"status":"ERROR","error_code":"INVALID_REQUEST"}`, ErrInvalidRequest},
		{422, `{}`, ErrInvalidRequest},
		{429, `{}`, ErrRateLimited},
		{500, `{"status":"NOT_FOUND"}`, ErrServer},
		{502, `bad gateway`, ErrServer},
		{503, ``, ErrServer},
		{302, ``, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %s", tt.status, tt.body), func(t *testing.T) {
			e := decodeAPIError("get order", tt.status, http.Header{}, []byte(tt.body), time.Now())
			var err error = fmt.Errorf("wrapped: %w", e)
			for _, s := range sentinels {
				require.Equal(t, s == tt.want, errors.Is(err, s), "%v", s)
			}
		})
	}
}

// The service echoing the key or the Authorization value in a message must
// not put either into Error(); the body never appears there either.
func TestAPIErrorNeverLeaks(t *testing.T) {
	body := `{"status":"error","error_code":"access_denied: ` + testKey + `","error_message":"bad header ` + testAuth +
		`\nsecond line","error_info":{"user_message":"key ` + testKey + `","request_id":"r-1"},"secret_body_marker":"x"}`
	srv := newRecorder(t, reply{status: 401, body: body})
	c := newTestClient(t, srv.URL)
	_, err := c.GetOrder(context.Background(), "o1")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrUnauthorized)
	for _, s := range []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", ae)} {
		require.NotContains(t, s, testKey)
		require.NotContains(t, s, strings.TrimPrefix(testAuth, "Basic "))
		require.NotContains(t, s, "secret_body_marker")
	}
	require.NotContains(t, err.Error(), "\n")
	require.Contains(t, err.Error(), "get order")
	require.Contains(t, err.Error(), "HTTP 401")
	require.Equal(t, strings.NewReplacer(testKey, "[REDACTED]", strings.TrimPrefix(testAuth, "Basic "), "[REDACTED]").Replace(body),
		string(ae.Body), "Body keeps what the service sent, the key redacted")
	require.Contains(t, err.Error(), "[REDACTED]")
	// Every field holds the service's text with the key replaced, so no
	// rendering of the value (any fmt verb, JSON, a field printed on its
	// own) can show it.
	require.Equal(t, "access_denied: [REDACTED]", ae.ErrorCode)
	require.Equal(t, "bad header Basic [REDACTED]\nsecond line", ae.ErrorMessage)
	require.Equal(t, "key [REDACTED]", ae.UserMessage)
	require.Equal(t, "key [REDACTED]", ae.Info.UserMessage)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
		for _, v := range []any{ae, *ae} {
			s := fmt.Sprintf(verb, v)
			require.NotContains(t, s, testKey, verb)
			require.NotContains(t, s, strings.TrimPrefix(testAuth, "Basic "), verb)
			require.NotContains(t, s, "secret_body_marker", "%s prints no body", verb)
		}
	}
	require.NotContains(t, fmt.Sprint(ae.Body, ae.ErrorCode, ae.Info), testKey)
}

// A key of at least minSecretLen bytes echoed anywhere Error() quotes is
// redacted in every field and in Body, also where Error() cuts a quoted
// field short.
func TestAPIErrorRedactsEveryField(t *testing.T) {
	for _, key := range []string{"test_key", "sk_live_0123456789abcdefghijklmnop"} {
		auth := "Basic " + b64(key+":")
		long := strings.Repeat("x", maxMessage-5) + key // cut inside the key
		for _, body := range []string{
			`{"status":"` + key + `","error_code":"c"}`,
			`{"error_code":"` + key + `"}`,
			`{"error_message":"header ` + auth + `"}`,
			`{"error_message":"` + long + `"}`,
			`{"error_info":{"developer_message":"dev ` + key + `","request_id":"` + key + `"}}`,
		} {
			srv := newRecorder(t, reply{status: 400, body: body})
			c, err := NewClient(testMerchant, key, WithBaseURL(srv.URL), WithRetry(RetryPolicy{}))
			require.NoError(t, err)
			_, err = c.CreateOrder(context.Background(), fullOrder())
			var ae *APIError
			require.ErrorAs(t, err, &ae)
			require.NotContains(t, err.Error(), key, body)
			require.NotContains(t, err.Error(), key[:minSecretLen], body)
			require.NotContains(t, err.Error(), b64(key+":"), body)
			require.Contains(t, err.Error(), "[REDA", body) // cut short in the long message
			require.NotContains(t, string(ae.Body), key, body)
			require.NotContains(t, string(ae.Body), b64(key+":"), body)
			require.Contains(t, string(ae.Body), "[REDACTED]", body)
			all := ae.Status + ae.ErrorCode + ae.ErrorMessage + ae.Info.DeveloperMessage + ae.Info.RequestID
			require.NotContains(t, all, key, body)
			require.NotContains(t, all, b64(key+":"), body)
			require.Contains(t, all, "[REDACTED]", body)
			require.NotContains(t, fmt.Sprintf("%#v", ae), key)
			require.NotContains(t, fmt.Sprintf("%#v", ae), b64(key+":"))
		}
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// An APIError encoded as JSON (to store or log it) never holds the API key,
// even when the service echoed it in its messages.
func TestAPIErrorJSONScrubsTheKey(t *testing.T) {
	srv := newRecorder(t, reply{status: 400, body: `{"status":"ERROR","error_code":"BAD","error_message":"key ` + testKey + ` refused",` +
		`"error_info":{"developer_message":"saw ` + testKey + `","fields":[{"field_name":"auth","reason":"` + testKey + `"}]}}`})
	_, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, "key [REDACTED] refused", ae.ErrorMessage, "the field holds the service's text, the key redacted")
	b, err := json.Marshal(ae)
	require.NoError(t, err)
	require.NotContains(t, string(b), testKey)
	require.Contains(t, string(b), `"error_message":"key [REDACTED] refused"`)
	require.Contains(t, string(b), `"reason":"[REDACTED]"`)
	require.NotContains(t, string(b), "HTTPStatus")
}

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
	// call about no one order (a refund by txn_id) leaves OrderID empty.
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
	require.Equal(t, baseSession().OrderID, e.OrderID, "a session is about its order")
}
