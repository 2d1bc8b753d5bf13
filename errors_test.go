package checkout

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
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
	require.EqualValues(t, 1, srv.count.Load())
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
