package checkouttest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

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

// The checkers walk untrusted JSON and forms with type switches; whatever
// arrives, the fake must answer 200 or 400 and never panic.

func fuzzServer(tb testing.TB) *checkouttest.Server {
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: "m", APIKey: "k"})
	tb.Cleanup(s.Close)
	return s
}

func serve(t *testing.T, s *checkouttest.Server, method, path, contentType string, body []byte) int {
	h := http.Header{"Authorization": {basic("k:")}, "X-Merchantid": {"m"}, "Content-Type": {contentType}, "Version": {"2023-06-30"}}
	return send(t, method, s.URL+path, h, body).status
}

func FuzzSessionBody(f *testing.F) {
	f.Add([]byte(`{"order_id":"o","amount":"1.00","customer_id":"c","customer_phone":"1","customer_email":"e","payment_page_client_id":"p","action":"paymentPage"}`))
	f.Add([]byte(`{"customer_id":"c","customer_phone":"1","customer_email":"e","payment_page_client_id":"p","action":"paymentManagement","payment_filter":{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["1::2"]}]}],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":false,"issuerFilter":{"tenures":["3::6"]}}]}}}}}`))
	f.Add([]byte(`{"product_summary":"[[{\"type\":\"divider\",\"thickness\":1}]]","sdk_udf":"showEMI","metadata":{}}`))
	f.Add([]byte(`[]`))
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if code := serve(t, s, http.MethodPost, "/session", "application/json", body); code != 200 && code != 400 {
			t.Fatalf("status %d for %q", code, body)
		}
	})
}

func FuzzOrderForm(f *testing.F) {
	f.Add("order_id=o&amount=1.00&options.get_payment_collection_link=1&payment_collection_link_details=%7B%22supported_payment_methods%22%3A%5B%22QR%22%5D%7D")
	f.Add("order_id=o&amount=1&payment_collection_link_details=%7B%22supported_payment_methods%22%3A%5B%22QR%22%2C%22QR%22%5D%2C%22expiry_details%22%3A%5B%7B%22payment_method%22%3A%22QR%22%2C%22expiry_in_mins%22%3A%225%22%7D%5D%7D")
	f.Add("%zz")
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		if code := serve(t, s, http.MethodPost, "/orders", "application/x-www-form-urlencoded", []byte(body)); code != 200 && code != 400 {
			t.Fatalf("status %d for %q", code, body)
		}
	})
}

// FuzzAnyRequest sends whatever method, path, Authorization, Content-Type
// and body: the fake answers with a 4xx or 200, never a panic or a 5xx.
func FuzzAnyRequest(f *testing.F) {
	f.Add("POST", "/orders/o/refunds", "Basic azo=", "application/x-www-form-urlencoded", []byte("unique_request_id=r&amount=1.00"))
	f.Add("GET", "/orders/%2F", "basic aw==", "", []byte(nil))
	f.Add("GET", "/links/qr/x", "", "", []byte(nil))
	f.Add("POST", "/session", "Basic", "application/json; charset=\"", []byte(`{}`))
	f.Add("POST", "/refunds", "Basic azo=", "application/x-www-form-urlencoded", []byte("unique_request_id=r&txn_id=t&refund_type=INSTANT"))
	f.Add("POST", "/orders/o", "Basic azo=", "application/x-www-form-urlencoded", []byte("amount=1&billing_address_city=X&udf1=y"))
	f.Add("POST", "/customers", "Basic azo=", "application/x-www-form-urlencoded", []byte("object_reference_id=c&mobile_number=1&options.get_client_auth_token=true"))
	f.Add("GET", "/customers/c?options.get_client_auth_token=maybe", "Basic azo=", "", []byte(nil))
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, method, target, auth, contentType string, body []byte) {
		h := http.Header{"Authorization": {auth}, "X-Merchantid": {"m"}, "Content-Type": {contentType}, "Version": {"2023-06-30"}}
		if u, err := url.Parse(s.URL + target); err != nil || u.Path == "" {
			return // no client sends it
		}
		r, err := do(method, s.URL+target, h, body)
		if err != nil {
			return // the client refused to send it
		}
		if r.status != 200 && (r.status < 400 || r.status > 499) {
			t.Fatalf("status %d for %s %q", r.status, method, target)
		}
	})
}
