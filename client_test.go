package checkout

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

func TestNewClientOptions(t *testing.T) {
	tests := []struct {
		name     string
		merchant string
		key      string
		opts     []Option
		wantErr  string
	}{
		{"ok https", "m", "k", []Option{WithBaseURL("https://api.example.com")}, ""},
		{"ok loopback http", "m", "k", []Option{WithBaseURL("http://127.0.0.1:8080")}, ""},
		{"ok localhost", "m", "k", []Option{WithBaseURL("http://localhost:1")}, ""},
		{"ok ipv6 loopback", "m", "k", []Option{WithBaseURL("http://[::1]:9")}, ""},
		{"empty merchant", "", "k", []Option{WithBaseURL("https://a.example")}, "merchant id is empty"},
		{"empty key", "m", " ", []Option{WithBaseURL("https://a.example")}, "API key is empty"},
		{"key with newline", "m", "k\n", []Option{WithBaseURL("https://a.example")}, "control characters"},
		{"merchant not UTF-8", "m\xff", "k", []Option{WithBaseURL("https://a.example")}, "merchant id is not valid UTF-8"},
		{"no base URL", "m", "k", nil, "WithBaseURL is required"},
		{"http remote", "m", "k", []Option{WithBaseURL("http://api.example.com")}, "must be https"},
		{"http lookalike", "m", "k", []Option{WithBaseURL("http://127.0.0.1.example.com")}, "must be https"},
		{"ftp", "m", "k", []Option{WithBaseURL("ftp://api.example.com")}, "scheme"},
		{"no host", "m", "k", []Option{WithBaseURL("https://")}, "no host"},
		{"user info", "m", "k", []Option{WithBaseURL("https://u:p@api.example.com")}, "user information"},
		{"query", "m", "k", []Option{WithBaseURL("https://api.example.com?x=1")}, "query"},
		{"garbage", "m", "k", []Option{WithBaseURL("::::")}, "base URL"},
		{"loopback without scheme", "m", "k", []Option{WithBaseURL("127.0.0.1:8080")}, "write http://127.0.0.1:8080"},
		{"nil http client", "m", "k", []Option{WithBaseURL("https://a.example"), WithHTTPClient(nil)}, "nil"},
		{"version bad format", "m", "k", []Option{WithBaseURL("https://a.example"), WithAPIVersion("2023-6-30")}, "YYYY-MM-DD"},
		{"version bad date", "m", "k", []Option{WithBaseURL("https://a.example"), WithAPIVersion("2023-02-30")}, "YYYY-MM-DD"},
		{"version empty", "m", "k", []Option{WithBaseURL("https://a.example"), WithAPIVersion("")}, "YYYY-MM-DD"},
		{"retry negative", "m", "k", []Option{WithBaseURL("https://a.example"), WithRetry(RetryPolicy{MaxRetries: -1})}, "MaxRetries"},
		{"retry too many", "m", "k", []Option{WithBaseURL("https://a.example"), WithRetry(RetryPolicy{MaxRetries: 11})}, "MaxRetries"},
		{"retry max below min", "m", "k", []Option{WithBaseURL("https://a.example"), WithRetry(RetryPolicy{MaxRetries: 1, MinWait: 2, MaxWait: 1})}, "MaxWait"},
		{"user agent", "m", "k", []Option{WithBaseURL("https://a.example"), WithUserAgent("a\r\nX-Evil: 1")}, "user agent"},
		{"nil option ignored", "m", "k", []Option{nil, WithBaseURL("https://a.example")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c *Client
			var err error
			require.NotPanics(t, func() { c, err = NewClient(tt.merchant, tt.key, tt.opts...) })
			if tt.wantErr == "" {
				require.NoError(t, err)
				require.NotNil(t, c)
				return
			}
			require.ErrorIs(t, err, ErrInvalidOption)
			require.Contains(t, err.Error(), tt.wantErr)
			require.Nil(t, c)
		})
	}
}

// An address without a scheme, as "checkout fake --addr" takes it, is
// refused with the URL to write: http:// on loopback, https:// elsewhere,
// and only when that URL would be accepted (the input is never quoted).
func TestWithBaseURLSuggestsTheURLToWrite(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:8080":       "checkout: new client: invalid option: base URL: no scheme: write http://127.0.0.1:8080",
		"localhost:8080":       "checkout: new client: invalid option: base URL: no scheme: write http://localhost:8080",
		"[::1]:9":              "checkout: new client: invalid option: base URL: no scheme: write http://[::1]:9",
		"api.example.com/v1":   "checkout: new client: invalid option: base URL: no scheme: write https://api.example.com/v1",
		"u:secret@example.com": "checkout: new client: invalid option: base URL: scheme must be https",
		"example.com?k=secret": "checkout: new client: invalid option: base URL: scheme must be https",
		"":                     "checkout: new client: invalid option: base URL: scheme must be https",
	} {
		_, err := NewClient("m", "k", WithBaseURL(in))
		require.ErrorIs(t, err, ErrInvalidOption, in)
		require.EqualError(t, err, want, in)
	}
	// The suggestion is a URL the option takes.
	_, err := NewClient("m", "k", WithBaseURL("http://127.0.0.1:8080"))
	require.NoError(t, err)
}

func TestNewClientFromEnv(t *testing.T) {
	t.Setenv(EnvBaseURL, "")
	t.Setenv(EnvMerchantID, "")
	t.Setenv(EnvAPIKey, "")
	_, err := NewClientFromEnv()
	require.ErrorIs(t, err, ErrInvalidOption)
	require.Contains(t, err.Error(), "CHECKOUT_BASE_URL, CHECKOUT_MERCHANT_ID, CHECKOUT_API_KEY")

	hc := gockHTTPClient(t)
	t.Setenv(EnvBaseURL, gockBase+"\n")
	t.Setenv(EnvMerchantID, " "+testMerchant)
	t.Setenv(EnvAPIKey, testKey+"\n")
	c, err := NewClientFromEnv(WithHTTPClient(hc))
	require.NoError(t, err)
	gock.New(gockBase).Get("^/orders/o1$").
		MatchHeader("Authorization", "^"+regexpQuote(testAuth)+"$").
		MatchHeader("X-Merchantid", "^"+testMerchant+"$").
		Reply(200).JSON(map[string]any{"order_id": "o1", "status": "NEW"})
	_, err = c.GetOrder(context.Background(), "o1")
	require.NoError(t, err)

	t.Setenv(EnvBaseURL, "http://api.example.com")
	_, err = NewClientFromEnv()
	require.ErrorIs(t, err, ErrInvalidOption)
}

func TestAuthorizationHeader(t *testing.T) {
	dec, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(testAuth, "Basic "))
	require.NoError(t, err)
	require.Equal(t, testKey+":", string(dec), "RFC 7617: user = API key, empty password")
	c := newTestClient(t, "https://api.example.com")
	require.Equal(t, testAuth, c.cred.authorization)
}

// No fmt verb shows the API key or the Authorization value, on the pointer,
// on a copy, or nested in another value.
func TestClientFormattingHidesKey(t *testing.T) {
	c := newTestClient(t, "https://api.example.com")
	encoded := strings.TrimPrefix(testAuth, "Basic ")
	values := []any{c, *c, struct{ C *Client }{c}, struct{ C Client }{*c}, []*Client{c}, map[string]*Client{"c": c}}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%p"}
	for _, v := range values {
		for _, verb := range verbs {
			out := fmt.Sprintf(verb, v)
			require.NotContains(t, out, testKey, verb)
			require.NotContains(t, out, encoded, verb)
			require.NotContains(t, strings.ToLower(out), fmt.Sprintf("%x", testKey), verb)
		}
	}
	require.Contains(t, c.String(), testMerchant)
	require.Contains(t, c.String(), "[REDACTED]")
	require.Equal(t, "[REDACTED]", fmt.Sprintf("%#v", c.cred))
}

// gockBase is the base URL of the gock tests: gock answers, nothing is
// sent.
const gockBase = "https://api.example.com"

// gockHTTPClient returns an http.Client whose requests gock answers, for
// the wire-contract tests of single calls. gock's mocks are process-wide,
// so these tests never run in parallel. At the end of the test every mock
// must have been used and no request may have gone unmatched.
func gockHTTPClient(t *testing.T) *http.Client {
	t.Helper()
	hc := &http.Client{}
	gock.InterceptClient(hc)
	t.Cleanup(func() {
		defer gock.OffAll()
		defer gock.RestoreClient(hc)
		if !gock.IsDone() {
			t.Errorf("%d gock mocks were not used", len(gock.Pending()))
		}
		if gock.HasUnmatchedRequest() {
			t.Errorf("requests matched no gock mock: %d", len(gock.GetUnmatchedRequests()))
		}
	})
	return hc
}

// newGockClient is a client without retries whose requests gock answers.
func newGockClient(t *testing.T, base string, opts ...Option) *Client {
	t.Helper()
	c, err := NewClient(testMerchant, testKey,
		append([]Option{WithBaseURL(base), WithHTTPClient(gockHTTPClient(t)), WithRetry(RetryPolicy{})}, opts...)...)
	require.NoError(t, err)
	return c
}

// Wire contract of the four calls, with anchored gock matchers.
func TestWireContractGock(t *testing.T) {
	c := newGockClient(t, gockBase+"/v1")
	ctx := context.Background()
	common := func(r *gock.Request) *gock.Request {
		return r.MatchHeader("Authorization", "^"+regexpQuote(testAuth)+"$").
			MatchHeader("X-Merchantid", "^"+testMerchant+"$").
			MatchHeader("User-Agent", "^checkout-go/")
	}

	sessBody, err := baseSession().encode(DefaultNamespace)
	require.NoError(t, err)
	common(gock.New(gockBase).Post("^/v1/session$")).
		MatchType("json").AddMatcher(exactType("application/json")).
		BodyString("^" + regexpQuote(string(sessBody)) + "$").
		AddMatcher(func(r *http.Request, _ *gock.Request) (bool, error) { return r.Header.Get("Version") == "", nil }).
		Reply(200).JSON(map[string]any{"status": "NEW", "order_id": "order_dummy_1", "sdk_payload": map[string]any{"requestId": "x"}})
	s, err := c.CreateSession(ctx, baseSession())
	require.NoError(t, err)
	require.JSONEq(t, `{"requestId":"x"}`, string(s.SDKPayload))

	form, err := fullOrder().form(DefaultNamespace)
	require.NoError(t, err)
	common(gock.New(gockBase).Post("^/v1/orders$")).
		MatchType("url").AddMatcher(exactType("application/x-www-form-urlencoded")).
		MatchHeader("Version", "^2023-06-30$").
		BodyString("^" + regexpQuote(form.Encode()) + "$").
		Reply(200).JSON(map[string]any{"status": "CREATED", "status_id": 1, "order_id": "HD-1707740261"})
	o, err := c.CreateOrder(ctx, fullOrder())
	require.NoError(t, err)
	require.Equal(t, StatusCreated, o.Status)

	common(gock.New(gockBase).Get("^/v1/orders/HD-1707740261$")).
		MatchHeader("Version", "^2023-06-30$").
		Reply(200).JSON(map[string]any{"status": "CHARGED", "order_id": "HD-1707740261", "amount": 1499})
	st, err := c.GetOrder(ctx, "HD-1707740261")
	require.NoError(t, err)
	require.Equal(t, Amount("1499.00"), st.Amount)

	common(gock.New(gockBase).Post("^/v1/orders/HD-1707740261/refunds$")).
		MatchType("url").AddMatcher(exactType("application/x-www-form-urlencoded")).
		BodyString("^amount=10.00&unique_request_id=rf-1$").
		Reply(200).JSON(map[string]any{"status": "CHARGED", "order_id": "HD-1707740261", "refunded": true})
	st, err = c.Refund(ctx, "HD-1707740261", &RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.NoError(t, err)
	require.True(t, bool(st.Refunded))

	common(gock.New(gockBase).Get("^/v1/orders/missing$")).
		Reply(400).JSON(map[string]any{"status": "NOT_FOUND", "error_code": "order_not_found", "error_message": "Order not found"})
	_, err = c.GetOrder(ctx, "missing")
	require.ErrorIs(t, err, ErrNotFound)
}

// exactHeaders matches a request whose headers are exactly want: the same
// names, each with exactly one value, equal to want's (no regular
// expressions, so nothing is left unanchored).
func exactHeaders(want map[string]string) gock.MatchFunc {
	return func(r *http.Request, _ *gock.Request) (bool, error) {
		if len(r.Header) != len(want) {
			return false, nil
		}
		for name, v := range want {
			if got := r.Header.Values(name); len(got) != 1 || got[0] != v {
				return false, nil
			}
		}
		return true, nil
	}
}

// Each call sends exactly the headers the service expects, with the
// client-wide and per-call options applied: no more, no fewer, one value
// each.
func TestRequestHeadersGock(t *testing.T) {
	c := newGockClient(t, gockBase, WithUserAgent("shop/1.4"), WithAPIVersion("2024-02-01"))
	ctx := context.Background()
	base := func(contentType string, extra map[string]string) map[string]string {
		return sentHeaders("shop/1.4 checkout-go/"+SDKVersion, contentType, extra)
	}
	const jsonType, formType = "application/json", "application/x-www-form-urlencoded"
	for _, tt := range []struct {
		name   string
		method string
		path   string
		want   map[string]string
		call   func() error
	}{
		{"session without version", "POST", "/session", base(jsonType, map[string]string{"X-Routing-Id": "cust-7"}),
			func() error { _, err := c.CreateSession(ctx, baseSession(), WithRoutingID("cust-7")); return err }},
		{"session with a per-call version", "POST", "/session", base(jsonType, map[string]string{"Version": "2025-01-31"}),
			func() error { _, err := c.CreateSession(ctx, baseSession(), WithAPIVersion("2025-01-31")); return err }},
		{"order with the client's version", "POST", "/orders", base(formType, map[string]string{"Version": "2024-02-01", "X-Shop": "blue"}),
			func() error { _, err := c.CreateOrder(ctx, fullOrder(), WithHeader("x-shop", "blue")); return err }},
		{"get order", "GET", "/orders/o1", base("", map[string]string{"Version": "2025-01-31", "X-Routing-Id": "cust-7"}),
			func() error {
				_, err := c.GetOrder(ctx, "o1", WithAPIVersion("2025-01-31"), WithRoutingID("cust-7"))
				return err
			}},
		{"refund", "POST", "/orders/o1/refunds", base(formType, map[string]string{"Version": "2024-02-01"}),
			func() error {
				_, err := c.Refund(ctx, "o1", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
				return err
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reply := map[string]any{"status": "NEW", "order_id": "o1", "sdk_payload": map[string]any{}}
			switch tt.path { // a reply names the order of its request
			case "/session":
				reply["order_id"] = baseSession().OrderID
			case "/orders":
				reply["order_id"] = fullOrder().OrderID
			}
			mock := gock.New(gockBase)
			if tt.method == http.MethodGet {
				mock.Get("^" + regexpQuote(tt.path) + "$")
			} else {
				mock.Post("^" + regexpQuote(tt.path) + "$")
			}
			mock.AddMatcher(exactHeaders(tt.want)).
				Reply(200).JSON(reply)
			require.NoError(t, tt.call())
			require.True(t, gock.IsDone(), "the request carried other headers than %v", tt.want)
		})
	}
}

// exactType matches the Content-Type header exactly (gock's own header
// matcher cannot be anchored for Content-Type when a body is matched too).
func exactType(want string) gock.MatchFunc {
	return func(r *http.Request, _ *gock.Request) (bool, error) {
		return r.Header.Get("Content-Type") == want, nil
	}
}

// regexpQuote escapes s for gock's regular-expression body matcher.
func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	srv := newRecorder(t, reply{status: 302, header: map[string]string{"Location": "https://evil.example/steal"}})
	c := newTestClient(t, srv.URL)
	_, err := c.GetOrder(context.Background(), "o1")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, 302, ae.HTTPStatus)
	require.EqualValues(t, 1, srv.count.Load())
}

// The client never follows a redirect, whatever http.Client it is given: a
// redirect-following client would turn a refund POST into a GET that
// "succeeds" and carry Authorization to wherever Location points. A 3xx is
// an *APIError naming the status, and nothing reaches the other place.
func TestRedirectingClientDoesNotFollow(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte(`{"order_id":"o1","status":"CHARGED"}`))
	}))
	t.Cleanup(other.Close)
	for _, status := range []int{301, 302, 303, 307, 308} {
		srv := newRecorder(t, reply{status: status, header: map[string]string{"Location": other.URL + "/steal"}})
		c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{})) // the standard client follows redirects
		_, err := c.Refund(context.Background(), "o1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
		var ae *APIError
		require.ErrorAs(t, err, &ae, "status %d", status)
		require.Equal(t, status, ae.HTTPStatus)
		require.ErrorContains(t, err, "redirect", "status %d", status)
		require.EqualValues(t, 1, srv.count.Load())
	}
	require.Zero(t, elsewhere.Load(), "nothing was sent where Location points")
}

func TestBaseURLPathPrefix(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{"order_id":"o"}`})
	c := newTestClient(t, srv.URL+"/api/v2/")
	_, err := c.GetOrder(context.Background(), "o")
	require.NoError(t, err)
	require.Equal(t, "/api/v2/orders/o", srv.last(t).RequestURI)
}

func TestNilContext(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	//lint:ignore SA1012 checking that a nil context is an error, not a panic
	_, err := c.GetOrder(nil, "o") //nolint:staticcheck
	require.Error(t, err)
	require.Zero(t, srv.count.Load())
}

func TestHTTPClientSetup(t *testing.T) {
	c := newTestClient(t, "https://api.example.com")
	tr, ok := c.hc.Transport.(*http.Transport)
	require.True(t, ok)
	require.GreaterOrEqual(t, tr.MaxIdleConnsPerHost, 64, "the standard library's 2 idle connections per host is a trap")
	require.Positive(t, tr.TLSHandshakeTimeout)
	require.Positive(t, tr.ResponseHeaderTimeout)
	require.Positive(t, c.hc.Timeout)
	require.NotNil(t, c.hc.CheckRedirect)

	own := &http.Client{Transport: &http.Transport{}, Timeout: 3 * time.Second}
	before := *own
	c = newTestClient(t, "https://api.example.com", WithHTTPClient(own))
	require.Equal(t, before.Transport, own.Transport, "the caller's client is not modified")
	require.Equal(t, before.Timeout, own.Timeout)
	require.Equal(t, 3*time.Second, c.hc.Timeout)
	require.Same(t, own.Transport, c.hc.Transport)
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
	c := newGockClient(t, gockBase)
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
	// gockHTTPClient fails the test if any of those was sent.

	gock.New(gockBase).Get("^/orders/o$").
		MatchHeader("X-Routing-Id", "^a$").
		MatchHeader("X-Other", "^1$").
		AddMatcher(func(r *http.Request, _ *gock.Request) (bool, error) {
			return len(r.Header.Values("X-Routing-Id")) == 1, nil
		}).
		Reply(200).JSON(map[string]any{"order_id": "o"})
	_, err := c.GetOrder(ctx, "o", WithRoutingID("a"), WithHeader("X-Other", "1"))
	require.NoError(t, err)
}

// Methods called on nil pointers return errors instead of panicking: a nil
// *APIError's Error and Is (errors.Is on a typed nil).
func TestNilReceivers(t *testing.T) {
	var e *APIError
	require.NotPanics(t, func() {
		require.Equal(t, "checkout: <nil *APIError>", e.Error())
		for _, s := range []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrInvalidRequest, ErrRateLimited, ErrServer} {
			require.False(t, errors.Is(error(e), s))
		}
		require.Equal(t, "(*checkout.APIError)(nil)", e.GoString())
	})
}

// More concurrent calls than the default transport's 64 connections share
// those 64: the calls beyond them wait for a free connection instead of
// dialling more, and all succeed.
func TestConnectionsBoundedAt64(t *testing.T) {
	const workers = 2 * maxConnsPerHost
	var inFlight, peak atomic.Int64
	srv, conns := newConnCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(20 * time.Millisecond) // hold the connection so the calls overlap
		w.Write([]byte(`{"status":"NEW","order_id":"order_dummy_1","sdk_payload":{}}`))
	})
	c := newTestClient(t, srv.URL)

	createSessions(t, c, workers, 1)
	require.LessOrEqual(t, conns.Load(), int64(maxConnsPerHost), "opened %d connections", conns.Load())
	require.LessOrEqual(t, peak.Load(), int64(maxConnsPerHost))
	require.Greater(t, peak.Load(), int64(1), "the calls ran concurrently")
}
