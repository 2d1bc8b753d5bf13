package checkouttest_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

func TestAuth(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	body, _ := json.Marshal(sessionBody("ord_auth"))
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"key with trailing colon", http.Header{"Authorization": {basic(apiKey + ":")}, "X-Merchantid": {merchantID}}, 200},
		{"key without colon", http.Header{"Authorization": {basic(apiKey)}, "X-Merchantid": {merchantID}}, 200},
		{"scheme is case-insensitive", http.Header{"Authorization": {"basic " + strings.TrimPrefix(basic(apiKey+":"), "Basic ")}, "X-Merchantid": {merchantID}}, 200},
		{"missing Authorization", http.Header{"X-Merchantid": {merchantID}}, 401},
		{"wrong key", http.Header{"Authorization": {basic("key_other:")}, "X-Merchantid": {merchantID}}, 401},
		{"key as password", http.Header{"Authorization": {basic(":" + apiKey)}, "X-Merchantid": {merchantID}}, 401},
		{"key with a password", http.Header{"Authorization": {basic(apiKey + ":x")}, "X-Merchantid": {merchantID}}, 401},
		{"bearer scheme", http.Header{"Authorization": {"Bearer " + apiKey}, "X-Merchantid": {merchantID}}, 401},
		{"not base64", http.Header{"Authorization": {"Basic %%%"}, "X-Merchantid": {merchantID}}, 401},
		{"wrong merchant id", http.Header{"Authorization": {basic(apiKey + ":")}, "X-Merchantid": {"shop_43"}}, 401},
		{"missing merchant id", http.Header{"Authorization": {basic(apiKey + ":")}}, 401},
		{"merchant id in other case", http.Header{"Authorization": {basic(apiKey + ":")}, "X-Merchantid": {"SHOP_42"}}, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header.Clone()
			h.Set("Content-Type", "application/json")
			r := send(t, http.MethodPost, s.URL+"/session", h, body)
			require.Equal(t, tt.want, r.status, string(r.body))
			if tt.want == 401 {
				require.Equal(t, "access_denied", r.json["error_code"])
				require.Equal(t, "error", r.json["status"])
				info := r.json["error_info"].(map[string]any)
				require.Equal(t, "UNAUTHORIZED", info["code"])
				require.Equal(t, "Unauthorized.", info["user_message"])
				require.NotContains(t, string(r.body), apiKey)
			}
		})
	}
}

// TestAuthEveryEndpoint: each endpoint refuses a wrong key and a wrong
// merchant id before it looks at the request, with the 401 body whose
// developer_message names what was wrong.
func TestAuthEveryEndpoint(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_auth")).status)
	require.NoError(t, s.Pay("ord_auth"))
	endpoints := []struct{ method, path, contentType string }{
		{http.MethodPost, "/session", "application/json"},
		{http.MethodPost, "/orders", "application/x-www-form-urlencoded"},
		{http.MethodGet, "/orders/ord_auth", ""},
		{http.MethodPost, "/orders/ord_auth/refunds", "application/x-www-form-urlencoded"},
		{http.MethodPost, "/orders/ord_auth", "application/x-www-form-urlencoded"},
		{http.MethodPost, "/refunds", "application/x-www-form-urlencoded"},
		{http.MethodPost, "/customers", "application/x-www-form-urlencoded"},
		{http.MethodGet, "/customers/cst_1", ""},
		{http.MethodPost, "/customers/cst_1", "application/x-www-form-urlencoded"},
	}
	wrong := []struct {
		name, auth, merchant, names string
	}{
		{"missing key", "", merchantID, "API Key"},
		{"wrong key", basic("key_other:"), merchantID, "API Key"},
		{"wrong key without colon", basic("key_other"), merchantID, "API Key"},
		{"missing merchant id", basic(apiKey + ":"), "", "x-merchantid"},
		{"wrong merchant id", basic(apiKey + ":"), "shop_43", "x-merchantid"},
	}
	for _, e := range endpoints {
		for _, w := range wrong {
			t.Run(e.method+" "+e.path+" "+w.name, func(t *testing.T) {
				h := http.Header{}
				if w.auth != "" {
					h.Set("Authorization", w.auth)
				}
				if w.merchant != "" {
					h.Set("X-Merchantid", w.merchant)
				}
				if e.contentType != "" {
					h.Set("Content-Type", e.contentType)
				}
				h.Set("version", version)
				r := send(t, e.method, s.URL+e.path, h, []byte("unique_request_id=rf&amount=1.00"))
				require.Equal(t, 401, r.status, string(r.body))
				require.Equal(t, "access_denied", r.json["error_code"])
				require.Contains(t, r.json["error_info"].(map[string]any)["developer_message"], w.names)
			})
		}
	}
	o, err := s.Order("ord_auth")
	require.NoError(t, err)
	require.Empty(t, o.Refunds, "a refused refund changes nothing")
	require.Equal(t, 1+len(wrong), s.Count(http.MethodPost, "/orders"), "refused calls are recorded too")
}

func TestRequestsAreRecordedRedacted(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_rec")).status)
	reqs := s.Requests()
	require.Len(t, reqs, 1)
	require.Equal(t, "POST", reqs[0].Method)
	require.Equal(t, "/orders", reqs[0].Path)
	require.Equal(t, "REDACTED", reqs[0].Header.Get("Authorization"))
	require.Equal(t, version, reqs[0].Header.Get("version"))
	form, err := reqs[0].Form()
	require.NoError(t, err)
	require.Equal(t, "ord_rec", form.Get("order_id"))
	require.Equal(t, 1, s.Count("POST", "/orders"))
	require.NotContains(t, strings.Join(reqs[0].Header.Values("Authorization"), ""), basic(apiKey+":"))
}

// fakeClock is a settable clock for Config.Now.
type fakeClock struct {
	mu chanMutex
	t  time.Time
}

type chanMutex chan struct{}

func (c *fakeClock) lock() {
	if c.mu == nil {
		c.mu = make(chanMutex, 1)
	}
	c.mu <- struct{}{}
}

func (c *fakeClock) Now() time.Time {
	c.lock()
	defer func() { <-c.mu }()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.lock()
	defer func() { <-c.mu }()
	c.t = t
}

func TestPathEscapedOrderID(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("shop/2026/17")).status)
	r := getOrder(t, s, "shop/2026/17")
	require.Equal(t, 200, r.status, string(r.body))
	require.Equal(t, "shop/2026/17", r.json["order_id"])
	require.NoError(t, s.Pay("shop/2026/17"))
	require.Equal(t, 200, postRefund(t, s, "shop/2026/17", "rf", "1.00").status)

	h := authHeaders()
	h.Set("version", "2023-6-30")
	r = send(t, http.MethodGet, s.URL+"/orders/"+url.PathEscape("shop/2026/17"), h, nil)
	require.Equal(t, 400, r.status)
	require.Equal(t, []string{"version"}, r.fieldNames())
}

// A fake on a listener of the caller's (the checkout command's --addr)
// serves there, and Close closes that listener.
func TestNewServerOnListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey, Listener: l})
	require.Equal(t, "http://"+addr, s.URL)
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_start")).status)
	s.Close()
	require.ErrorIs(t, s.Pay("ord_start"), checkouttest.ErrClosed)
	_, err = net.Dial("tcp", addr)
	require.Error(t, err, "the listener is closed")
	l2, err := net.Listen("tcp", addr)
	require.NoError(t, err, "the address is free again")
	require.NoError(t, l2.Close())
}
