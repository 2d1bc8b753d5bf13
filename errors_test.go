package checkout

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// sampleStatus is the HTTP status a published error sample was served with,
// as its file name says ("…_400_…", "…_response_401.json"); 400 when the
// name does not say (the wallet-link sample, an "Invalid Request").
func sampleStatus(name string) int {
	if m := regexp.MustCompile(`(?:^|_)([45]\d\d)(?:_|\.json$)`).FindStringSubmatch(name); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return http.StatusBadRequest
}

// Every published error body, served by a test server with the HTTP status
// it was published with, comes back from a call as an *APIError that agrees
// with a generic decoding of the same bytes, matches the sentinel of its
// status (and no other), and whose Error() is one short line without the
// body or the client's credentials.
func TestAPIErrorDecodeConformance(t *testing.T) {
	samples := conformance.Files(t, "errors", "*.json")
	seen := map[int]int{}
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			require.True(t, s.ValidJSON())
			status := sampleStatus(s.Name)
			seen[status]++
			srv := newRecorder(t, reply{status: status, body: string(s.Data)})
			c := newTestClient(t, srv.URL)
			_, err := c.CreateSession(context.Background(), baseSession())
			var e *APIError
			require.ErrorAs(t, err, &e)
			require.EqualValues(t, 1, srv.count.Load(), "a %d is not retried", status)
			require.Equal(t, status, e.HTTPStatus)
			require.Equal(t, "create session", e.Operation)

			var m map[string]any
			require.NoError(t, json.Unmarshal(s.Data, &m))
			require.Equal(t, m["status"], e.Status)
			require.Equal(t, m["error_code"], e.ErrorCode)
			if msg, ok := m["error_message"].(string); ok {
				require.Equal(t, msg, e.ErrorMessage)
			}
			if id, ok := m["status_id"].(float64); ok {
				require.Equal(t, int(id), e.StatusID)
			}
			info, ok := m["error_info"].(map[string]any)
			if !ok {
				require.Nil(t, e.Info)
			} else {
				require.NotNil(t, e.Info)
				require.Equal(t, info["code"], e.Info.Code)
				require.Equal(t, info["user_message"], e.Info.UserMessage)
				require.Equal(t, info["user_message"], e.UserMessage)
				if dm, ok := info["developer_message"].(string); ok {
					require.Equal(t, dm, e.Info.DeveloperMessage)
					if _, has := m["error_message"]; !has {
						require.Equal(t, dm, e.ErrorMessage, "developer_message stands in for a missing error_message")
					}
				}
				if id, ok := info["request_id"]; ok {
					require.Equal(t, id, e.Info.RequestID)
					require.Contains(t, e.Error(), e.Info.RequestID)
				}
				fields, _ := info["fields"].([]any)
				require.Len(t, e.Info.Fields, len(fields))
				for i, f := range fields {
					require.Equal(t, f.(map[string]any)["field_name"], e.Info.Fields[i].FieldName)
					require.Equal(t, f.(map[string]any)["reason"], e.Info.Fields[i].Reason)
				}
			}
			require.Equal(t, s.Data, e.Body)

			want := map[int]error{400: ErrInvalidRequest, 401: ErrUnauthorized}[status]
			require.NotNil(t, want, "no sentinel expected for HTTP %d", status)
			for _, sentinel := range []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrInvalidRequest, ErrRateLimited, ErrServer} {
				require.Equal(t, sentinel == want, errors.Is(err, sentinel), "%v", sentinel)
			}

			msg := err.Error()
			require.NotContains(t, msg, "\n")
			require.LessOrEqual(t, len([]rune(msg)), 400, "Error() must stay short even for huge messages")
			require.True(t, strings.HasPrefix(msg, fmt.Sprintf("checkout: create session: HTTP %d", status)), msg)
			require.NotContains(t, msg, string(s.Data))
			require.NotContains(t, msg, testKey)
			require.NotContains(t, msg, strings.TrimPrefix(testAuth, "Basic "))
		})
	}
	if len(samples) > 0 {
		require.Positive(t, seen[400], "samples of HTTP 400")
		require.Positive(t, seen[401], "samples of HTTP 401")
	}
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

func TestAPIErrorRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	h.Set("Retry-After", "7")
	require.Equal(t, 7*time.Second, decodeAPIError("x", 429, h, nil, now).RetryAfter)
	h.Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
	require.Equal(t, 90*time.Second, decodeAPIError("x", 503, h, nil, now).RetryAfter)
	require.Zero(t, decodeAPIError("x", 400, h, nil, now).RetryAfter, "only 429 and 503 carry a delay")
	h.Set("Retry-After", "soon")
	require.Zero(t, decodeAPIError("x", 429, h, nil, now).RetryAfter)
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
	require.Equal(t, body, string(ae.Body), "Body keeps what the service sent")
	require.Contains(t, err.Error(), "[REDACTED]")
	// The fields keep the service's text: only Error() is scrubbed.
	require.Equal(t, "access_denied: "+testKey, ae.ErrorCode)
	require.Equal(t, "bad header "+testAuth+"\nsecond line", ae.ErrorMessage)
	require.Equal(t, "key "+testKey, ae.UserMessage)
	require.Equal(t, "key "+testKey, ae.Info.UserMessage)
}

func TestAPIErrorNonJSON(t *testing.T) {
	e := decodeAPIError("refund", 502, http.Header{}, []byte("<html><body>Bad Gateway</body></html>"), time.Now())
	require.Equal(t, "checkout: refund: HTTP 502: Bad Gateway", e.Error())
	require.Nil(t, e.Info)
	e = decodeAPIError("refund", 500, http.Header{}, []byte(`{"error_info":"FILTERED","status_id":"x"}`), time.Now())
	require.Nil(t, e.Info)
	require.Zero(t, e.StatusID)
}

func TestOneLine(t *testing.T) {
	require.Equal(t, "a b c", oneLine("a\n\tb\r\n  c", 100))
	require.Equal(t, "abc…", oneLine("abcdef", 3))
	require.Equal(t, "x", oneLine("\x00x\x1b", 10))
}

func FuzzDecodeAPIError(f *testing.F) {
	f.Add(400, []byte(`{"status":"NOT_FOUND","error_code":"x","error_info":{"fields":[{"field_name":"a"}]}}`))
	f.Add(429, []byte(`{"status":1,"status_id":"2","error_info":"FILTERED"}`))
	f.Add(500, []byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := decodeAPIError("get order", status, http.Header{"Retry-After": {"3"}}, body, time.Now())
		msg := e.Error()
		if strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("Error() has a line break: %q", msg)
		}
		if len(msg) > 1200 {
			t.Fatalf("Error() too long: %d", len(msg))
		}
		if len(e.Body) > maxErrorBody {
			t.Fatalf("Body not bounded")
		}
		_ = errors.Is(e, ErrNotFound)
	})
}

// The sentinels are constants (this does not compile for variables), so no
// importer can reassign one process-wide.
const _, _, _, _, _, _, _ = ErrUnauthorized, ErrForbidden, ErrNotFound, ErrInvalidRequest, ErrRateLimited, ErrServer, ErrInvalidOption

// The decoded fields of an APIError are the service's text whatever the API
// key is; only Error() is scrubbed, and only of keys long enough to be a
// secret (minSecretLen).
func TestAPIErrorFieldsKeepServiceText(t *testing.T) {
	samples := conformance.Files(t, "errors", "*.json")
	keys := []string{"k", "key", "test_key", "sk_live_0123456789abcdefghijklmnop"}
	for _, key := range keys {
		for _, s := range samples {
			t.Run(key+"/"+s.Name, func(t *testing.T) {
				srv := newRecorder(t, reply{status: 401, body: string(s.Data)})
				c, err := NewClient(testMerchant, key, WithBaseURL(srv.URL), WithRetry(RetryPolicy{}))
				require.NoError(t, err)
				_, err = c.GetOrder(context.Background(), "o")
				var got *APIError
				require.ErrorAs(t, err, &got)

				want := decodeAPIError("get order", 401, http.Header{}, s.Data, time.Now())
				require.Equal(t, string(s.Data), string(got.Body), "Body is the body as sent")
				require.Equal(t, want.Status, got.Status)
				require.Equal(t, want.ErrorCode, got.ErrorCode)
				require.Equal(t, want.ErrorMessage, got.ErrorMessage)
				require.Equal(t, want.UserMessage, got.UserMessage)
				require.Equal(t, want.Info, got.Info)
				if strings.Contains(s.Name, "401") {
					require.Equal(t, "Invalid API Key. Please pass a valid and active api key.", got.ErrorMessage)
					require.Equal(t, "Invalid API Key. Please pass a valid and active api key.", got.Info.DeveloperMessage)
				}
				if len(key) >= minSecretLen {
					require.NotContains(t, got.Error(), key)
				}
				// The samples do not echo the long keys, so Error() is the
				// unscrubbed message: no word of the service is garbled.
				require.Equal(t, want.Error(), got.Error())
			})
		}
	}
}

// A key of at least minSecretLen bytes echoed anywhere Error() quotes is
// scrubbed there, also when the quoted field is cut short; the fields keep it.
func TestAPIErrorScrubsOnlyError(t *testing.T) {
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
			require.Equal(t, body, string(ae.Body))
			all := ae.Status + ae.ErrorCode + ae.ErrorMessage
			if ae.Info != nil {
				all += ae.Info.DeveloperMessage + ae.Info.RequestID
			}
			if strings.Contains(body, "Basic") {
				require.Contains(t, all, auth, "fields keep the service's text")
			} else {
				require.Contains(t, all, key, "fields keep the service's text")
			}
			require.NotContains(t, fmt.Sprintf("%#v", ae), key)
			require.NotContains(t, fmt.Sprintf("%#v", ae), b64(key+":"))
		}
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

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
	advice := "may have reached the service; check with GetOrder before resending"
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
		te := requireTransportError(t, func() error { _, err := c.GetOrder(ctx, "o/1"); return err }(), "get order", true)
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

// The service's error bodies decode straight into APIError as every reply
// does: status_id as a number or as text, a number where text is expected
// as its text, an error_info that is not an object left out, values that
// fit no field skipped and the others kept.
func TestAPIErrorUnmarshalJSON(t *testing.T) {
	for _, tt := range []struct {
		body string
		want APIError
	}{
		{`{"status":"ERROR","status_id":-1,"error_code":"E"}`, APIError{Status: "ERROR", StatusID: -1, ErrorCode: "E"}},
		{`{"status_id":"-1","error_message":"m"}`, APIError{StatusID: -1, ErrorMessage: "m"}},
		{`{"status_id":" 21 "}`, APIError{StatusID: 21}},
		{`{"status_id":2.0}`, APIError{StatusID: 2}},
		{`{"status_id":"x","error_info":"FILTERED","error_code":"E"}`, APIError{ErrorCode: "E"}},
		{`{"status":1,"error_code":"E","error_info":null}`, APIError{Status: "1", ErrorCode: "E"}},
		{`{"status":false,"error_message":false,"user_message":0,"error_info":{"developer_message":"d","user_message":"u"}}`,
			APIError{Status: "false", ErrorMessage: "d", UserMessage: "u", Info: &ErrorInfo{DeveloperMessage: "d", UserMessage: "u"}}},
		{`{"error_info":{"code":"C","fields":"FILTERED","user_message":"u","developer_message":"d"}}`,
			APIError{ErrorMessage: "d", UserMessage: "u", Info: &ErrorInfo{Code: "C", UserMessage: "u", DeveloperMessage: "d"}}},
		{`{"error_message":"top","error_info":{"developer_message":"d","fields":[{"field_name":"a","reason":7},{"field_name":"b","reason":"r"}]}}`,
			APIError{ErrorMessage: "top", Info: &ErrorInfo{DeveloperMessage: "d", Fields: []FieldError{{FieldName: "a", Reason: "7"}, {FieldName: "b", Reason: "r"}}}}},
	} {
		var got APIError
		require.NoError(t, json.Unmarshal([]byte(tt.body), &got), tt.body)
		require.Equal(t, tt.want, got, tt.body)
	}
	var e APIError
	require.Error(t, json.Unmarshal([]byte(`{"status":`), &e), "malformed JSON is an error")
	require.EqualError(t, (*APIError)(nil).UnmarshalJSON([]byte(`{}`)), "checkout: APIError.UnmarshalJSON on nil pointer")

	cred := &credential{key: "sk_live_0123456789abcdef"}
	e = APIError{HTTPStatus: 400, Operation: "refund", Body: []byte("b"), RetryAfter: time.Second,
		StatusID: 7, ErrorCode: "OLD", OrderID: "o", cred: cred}
	require.NoError(t, json.Unmarshal([]byte(`{"status":"ERROR","error_message":"key sk_live_0123456789abcdef refused"}`), &e))
	require.Equal(t, APIError{HTTPStatus: 400, Operation: "refund", Body: []byte("b"), RetryAfter: time.Second,
		Status: "ERROR", ErrorMessage: "key sk_live_0123456789abcdef refused", cred: cred}, e,
		"what is not in the body stays; every field of the body is replaced")
	require.NotContains(t, e.Error(), "sk_live_0123456789abcdef", "the client's key is still scrubbed")
	require.Contains(t, e.Error(), "[REDACTED]")
}

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

// An APIError encoded as JSON (to store or log it) never holds the API key,
// even when the service echoed it in its messages.
func TestAPIErrorJSONScrubsTheKey(t *testing.T) {
	srv := newRecorder(t, reply{status: 400, body: `{"status":"ERROR","error_code":"BAD","error_message":"key ` + testKey + ` refused",` +
		`"error_info":{"developer_message":"saw ` + testKey + `","fields":[{"field_name":"auth","reason":"` + testKey + `"}]}}`})
	_, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.Contains(t, ae.ErrorMessage, testKey, "the field keeps the service's text")
	b, err := json.Marshal(ae)
	require.NoError(t, err)
	require.NotContains(t, string(b), testKey)
	require.Contains(t, string(b), `"error_message":"key [REDACTED] refused"`)
	require.Contains(t, string(b), `"reason":"[REDACTED]"`)
	require.NotContains(t, string(b), "HTTPStatus")
}
