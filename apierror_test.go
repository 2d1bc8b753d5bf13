package checkout

import (
	"context"
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

func TestAPIErrorNonJSON(t *testing.T) {
	e := decodeAPIError("refund", 502, http.Header{}, []byte("<html><body>Bad Gateway</body></html>"), time.Now())
	require.Equal(t, "checkout: refund: HTTP 502: Bad Gateway", e.Error())
	require.Nil(t, e.Info)
	e = decodeAPIError("refund", 500, http.Header{}, []byte(`{"error_info":"FILTERED","status_id":"x"}`), time.Now())
	require.Nil(t, e.Info)
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

	cred := &credential{key: "sk_live_0123456789abcdef", authorization: "Basic " + b64("sk_live_0123456789abcdef:")}
	e = APIError{HTTPStatus: 400, Operation: "refund", Body: []byte("b"), RetryAfter: time.Second,
		StatusID: 7, ErrorCode: "OLD", OrderID: "o", cred: cred}
	require.NoError(t, json.Unmarshal([]byte(`{"status":"ERROR","error_message":"key sk_live_0123456789abcdef refused"}`), &e))
	require.Equal(t, APIError{HTTPStatus: 400, Operation: "refund", Body: []byte("b"), RetryAfter: time.Second,
		Status: "ERROR", ErrorMessage: "key [REDACTED] refused", cred: cred}, e,
		"what is not in the body stays; every field of the body is replaced, the client's key redacted")
	require.NotContains(t, e.Error(), "sk_live_0123456789abcdef", "the client's key is still scrubbed")
	require.Contains(t, e.Error(), "[REDACTED]")
}
