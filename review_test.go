package checkout

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

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

// A nil *Client and the zero Client return ErrInvalidClient from every
// method instead of panicking.
func TestNilAndZeroClient(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*Client{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateSession(ctx, baseSession())
			require.ErrorIs(t, err, ErrInvalidClient)
			_, err = c.CreateOrder(ctx, fullOrder())
			require.ErrorIs(t, err, ErrInvalidClient)
			_, err = c.GetOrder(ctx, "o")
			require.ErrorIs(t, err, ErrInvalidClient)
			_, err = c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
			require.ErrorIs(t, err, ErrInvalidClient)
			require.Contains(t, err.Error(), "refund")
		})
	}
}

// One call carries at most one routing id, whatever the option order.
func TestRoutingIDOnce(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{"order_id":"o"}`})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for name, opts := range map[string][]RequestOption{
		"routing then header": {WithRoutingID("a"), WithHeader("X-Routing-Id", "b")},
		"header then routing": {WithHeader("x-routing-id", "b"), WithRoutingID("a")},
		"header alone":        {WithHeader("X-ROUTING-ID", "b")},
		"routing twice":       {WithRoutingID("a"), WithRoutingID("b")},
		"routing twice equal": {WithRoutingID("a"), WithRoutingID("a")},
	} {
		_, err := c.GetOrder(ctx, "o", opts...)
		require.ErrorIs(t, err, ErrInvalidOption, name)
		require.Contains(t, err.Error(), "WithRoutingID", name)
	}
	require.Zero(t, srv.count.Load(), "nothing was sent")

	_, err := c.GetOrder(ctx, "o", WithRoutingID("a"), WithHeader("X-Other", "1"))
	require.NoError(t, err)
	require.Equal(t, []string{"a"}, srv.requests[0].Header.Values("X-Routing-Id"))
}

// A negative minor amount gives text with a minus sign, which ParseAmount
// and Validate reject, as the doc comment says.
func TestAmountFromMinorNegative(t *testing.T) {
	a := AmountFromMinor(-5)
	require.Equal(t, Amount("-0.05"), a)
	require.Equal(t, Amount("-123.45"), AmountFromMinor(-12345))
	_, err := ParseAmount(string(a))
	require.Error(t, err)
	_, err = a.Minor()
	require.Error(t, err)
	r := fullOrder()
	r.Amount = a
	var ve *ValidationError
	require.ErrorAs(t, r.Validate(), &ve)
	require.Equal(t, "amount", ve.Problems[0].Path)
}

// Zero waits take the defaults, negative waits are option errors, and a
// Retry-After shorter than MinWait waits MinWait.
func TestRetryPolicyDefaults(t *testing.T) {
	for _, tc := range []struct {
		in, want RetryPolicy
	}{
		{RetryPolicy{MaxRetries: 2}, DefaultRetryPolicy()},
		{RetryPolicy{}, RetryPolicy{MinWait: 200 * time.Millisecond, MaxWait: 5 * time.Second}},
		{RetryPolicy{MaxRetries: 1, MaxWait: time.Millisecond}, RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond}},
		{RetryPolicy{MaxRetries: 1, MaxWait: time.Second}, RetryPolicy{MaxRetries: 1, MinWait: 200 * time.Millisecond, MaxWait: time.Second}},
		{RetryPolicy{MaxRetries: 1, MinWait: 10 * time.Second}, RetryPolicy{MaxRetries: 1, MinWait: 10 * time.Second, MaxWait: 10 * time.Second}},
		{RetryPolicy{MaxRetries: 1, MinWait: time.Second}, RetryPolicy{MaxRetries: 1, MinWait: time.Second, MaxWait: 5 * time.Second}},
		{fastRetry, fastRetry},
	} {
		c, err := NewClient("m", "k", WithBaseURL("https://a.example"), WithRetry(tc.in))
		require.NoError(t, err)
		require.Equal(t, tc.want, c.retry, "%+v", tc.in)
		require.Equal(t, tc.want.MinWait, c.rc.RetryWaitMin)
		require.Equal(t, tc.want.MaxWait, c.rc.RetryWaitMax)
	}
	for _, p := range []RetryPolicy{{MaxRetries: 1, MinWait: -1}, {MaxRetries: 1, MaxWait: -time.Second}} {
		_, err := NewClient("m", "k", WithBaseURL("https://a.example"), WithRetry(p))
		require.ErrorIs(t, err, ErrInvalidOption)
		require.Contains(t, err.Error(), "negative")
	}

	resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"0"}}}
	require.Equal(t, 200*time.Millisecond, backoff(200*time.Millisecond, 5*time.Second, 0, resp), "Retry-After: 0 waits MinWait")
	resp.Header.Set("Retry-After", "3600")
	require.Equal(t, 5*time.Second, backoff(200*time.Millisecond, 5*time.Second, 0, resp), "capped at MaxWait")
	resp.Header.Set("Retry-After", "2")
	require.Equal(t, 2*time.Second, backoff(200*time.Millisecond, 5*time.Second, 0, resp))
}

// RetryPolicy{MaxRetries: 2} with a server answering "Retry-After: 0" waits
// between attempts instead of spinning.
func TestRetryAfterZeroDoesNotSpin(t *testing.T) {
	srv := newRecorder(t, reply{status: 503, header: map[string]string{"Retry-After": "0"}, body: `{}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MaxWait: 50 * time.Millisecond}))
	start := time.Now()
	_, err := c.GetOrder(context.Background(), "o")
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 2, srv.count.Load())
	require.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "MinWait (here min(200 ms, MaxWait)) is waited")
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// Methods called on nil pointers return errors instead of panicking: a nil
// *APIError's Error and Is (errors.Is on a typed nil), and every
// UnmarshalJSON method called directly on a nil pointer.
func TestNilReceivers(t *testing.T) {
	var e *APIError
	require.NotPanics(t, func() {
		require.Equal(t, "checkout: <nil *APIError>", e.Error())
		for _, s := range []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrInvalidRequest, ErrRateLimited, ErrServer} {
			require.False(t, errors.Is(error(e), s))
		}
		require.Equal(t, "(*checkout.APIError)(nil)", e.GoString())
	})
	for name, u := range map[string]json.Unmarshaler{
		"SessionRequest": (*SessionRequest)(nil),
		"Session":        (*Session)(nil),
		"Order":          (*Order)(nil),
		"OrderStatus":    (*OrderStatus)(nil),
		"Refund":         (*Refund)(nil),
		"Amount":         (*Amount)(nil),
	} {
		t.Run(name, func(t *testing.T) {
			for _, in := range []string{`{}`, `null`, `"1.00"`} {
				var err error
				require.NotPanics(t, func() { err = u.UnmarshalJSON([]byte(in)) })
				require.EqualError(t, err, "checkout: "+name+".UnmarshalJSON on nil pointer")
			}
		})
	}
}
