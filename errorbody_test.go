package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
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
				require.EqualValues(t, int(id), e.StatusID)
			}
			info, ok := m["error_info"].(map[string]any)
			if !ok {
				require.Zero(t, e.Info)
			} else {
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

func TestAPIErrorRetryAfter(t *testing.T) {
	now := time.Now()
	h := http.Header{}
	h.Set("Retry-After", "7")
	require.Equal(t, 7*time.Second, decodeAPIError("x", 429, h, nil, now).RetryAfter)
	h.Set("Retry-After", now.Add(90*time.Second).UTC().Format(http.TimeFormat))
	require.InDelta(t, float64(90*time.Second), float64(decodeAPIError("x", 503, h, nil, now).RetryAfter), float64(2*time.Second))
	require.Zero(t, decodeAPIError("x", 400, h, nil, now).RetryAfter, "only 429 and 503 carry a delay")
	h.Set("Retry-After", "soon")
	require.Zero(t, decodeAPIError("x", 429, h, nil, now).RetryAfter)
}

func TestAPIErrorNonJSON(t *testing.T) {
	e := decodeAPIError("refund", 502, http.Header{}, []byte("<html><body>Bad Gateway</body></html>"), time.Now())
	require.Equal(t, "checkout: refund: HTTP 502: Bad Gateway", e.Error())
	require.Zero(t, e.Info)
	e = decodeAPIError("refund", 500, http.Header{}, []byte(`{"error_info":"FILTERED","status_id":"x"}`), time.Now())
	require.Zero(t, e.Info)
	require.Zero(t, e.StatusID)
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

// The service's error bodies fill an APIError whatever their shape:
// status_id as a number or as text; a value of another JSON type than its
// field's (a number where text is expected, an error_info that is not an
// object) left out, the others kept, and Body keeping everything.
func TestAPIErrorBodyShapes(t *testing.T) {
	for _, tt := range []struct {
		body string
		want APIError
	}{
		{`{"status":"ERROR","status_id":-1,"error_code":"E"}`, APIError{Status: "ERROR", StatusID: -1, ErrorCode: "E"}},
		{`{"status_id":"-1","error_message":"m"}`, APIError{StatusID: -1, ErrorMessage: "m"}},
		{`{"status_id":" 21 "}`, APIError{StatusID: 21}},
		{`{"status_id":2.0}`, APIError{StatusID: 2}},
		{`{"status_id":"x","error_info":"FILTERED","error_code":"E"}`, APIError{ErrorCode: "E"}},
		{`{"status":1,"error_code":"E","error_info":null}`, APIError{ErrorCode: "E"}},
		{`{"error_code":12345678901234567890123,"order_id":42,"status":{"a":1},"error_message":"m"}`, APIError{ErrorMessage: "m"}},
		{`{"error_info":{"code":true,"request_id":"r1","fields":["x",{"field_name":null,"reason":"r"}]}}`,
			APIError{Info: ErrorInfo{RequestID: "r1", Fields: []FieldError{{}, {Reason: "r"}}}}},
		{`["not","an","object"]`, APIError{}},
		{`{"status":false,"error_message":false,"user_message":0,"error_info":{"developer_message":"d","user_message":"u"}}`,
			APIError{ErrorMessage: "d", UserMessage: "u", Info: ErrorInfo{DeveloperMessage: "d", UserMessage: "u"}}},
		{`{"error_info":{"code":"C","fields":"FILTERED","user_message":"u","developer_message":"d"}}`,
			APIError{ErrorMessage: "d", UserMessage: "u", Info: ErrorInfo{Code: "C", UserMessage: "u", DeveloperMessage: "d"}}},
		{`{"error_message":"top","error_info":{"developer_message":"d","fields":[{"field_name":"a","reason":7},{"field_name":"b","reason":"r"}]}}`,
			APIError{ErrorMessage: "top", Info: ErrorInfo{DeveloperMessage: "d", Fields: []FieldError{{FieldName: "a"}, {FieldName: "b", Reason: "r"}}}}},
	} {
		var got APIError
		got.fill([]byte(tt.body))
		require.Equal(t, tt.want, got, tt.body)
	}
	e := decodeAPIError("refund", 400, http.Header{}, []byte(`{"status":"ERROR",`), time.Now())
	require.Equal(t, &APIError{HTTPStatus: 400, Operation: "refund", Body: []byte(`{"status":"ERROR",`)}, e,
		"malformed JSON fills no field")

	key := "sk_live_0123456789abcdef"
	cred := &credential{key: key, authorization: "Basic " + b64(key+":")}
	e = newAPIError("refund", 400, 0, []byte(`{"status":"ERROR","error_message":"key `+key+` refused"}`), cred)
	require.Equal(t, &APIError{HTTPStatus: 400, Operation: "refund", Body: []byte(`{"status":"ERROR","error_message":"key [REDACTED] refused"}`),
		Status: "ERROR", ErrorMessage: "key [REDACTED] refused", cred: cred}, e, "the client's key redacted in the fields and the body")
	require.NotContains(t, e.Error(), key)
	require.Contains(t, e.Error(), "[REDACTED]")
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

// decodeAPIError is the APIError the call loop makes of a reply (the wait
// as classify reads it), without a key to redact.
func decodeAPIError(op string, status int, header http.Header, body []byte, _ time.Time) *APIError {
	return newAPIError(op, status, classify(false, true, status, header, nil).wait, body, nil)
}

// The older error body some endpoints still write (a refund's 500:
// {"error": true, "errorMessage", "userMessage"}) fills the APIError's
// messages; the newer keys win when a body has both.
func TestAPIErrorOlderBody(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "error_older_body.json"))
	require.NoError(t, err)
	srv := newRecorder(t, reply{status: 500, body: string(body)})
	c := newTestClient(t, srv.URL)
	_, err = c.Refund(context.Background(), "ord_1", &RefundRequest{UniqueRequestID: "rf_1", Amount: "10.00"})
	var e *APIError
	require.ErrorAs(t, err, &e)
	require.ErrorIs(t, err, ErrServer)
	require.Equal(t, "Internal error.", e.ErrorMessage)
	require.Equal(t, "Internal error. Something went wrong.", e.UserMessage)
	require.Equal(t, "checkout: refund: HTTP 500: Internal error.", e.Error())
	require.Equal(t, body, e.Body)

	var both APIError
	both.fill([]byte(`{"error_message":"new","errorMessage":"old","userMessage":"old user"}`))
	require.Equal(t, APIError{ErrorMessage: "new", UserMessage: "old user"}, both)
}
