package checkout

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

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
	require.NotContains(t, fmt.Sprint(ae.Body, ae.ErrorCode, *ae.Info), testKey)
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
			all := ae.Status + ae.ErrorCode + ae.ErrorMessage
			if ae.Info != nil {
				all += ae.Info.DeveloperMessage + ae.Info.RequestID
			}
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
