package checkouttest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The checkers walk untrusted JSON and forms with type switches; whatever
// arrives, the fake must answer 200 or 400 and never panic.

func fuzzServer(tb testing.TB) *Server {
	s := NewServer(Config{MerchantID: "m", APIKey: "k"})
	tb.Cleanup(s.Close)
	return s
}

func serve(s *Server, method, path, contentType string, body []byte) int {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Host = "127.0.0.1"
	req.SetBasicAuth("k", "")
	req.Header.Set("x-merchantid", "m")
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("version", "2023-06-30")
	rec := httptest.NewRecorder()
	s.serveHTTP(rec, req)
	return rec.Code
}

func FuzzSessionBody(f *testing.F) {
	f.Add([]byte(`{"order_id":"o","amount":"1.00","customer_id":"c","customer_phone":"1","customer_email":"e","payment_page_client_id":"p","action":"paymentPage"}`))
	f.Add([]byte(`{"customer_id":"c","customer_phone":"1","customer_email":"e","payment_page_client_id":"p","action":"paymentManagement","payment_filter":{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["1::2"]}]}],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":false,"issuerFilter":{"tenures":["3::6"]}}]}}}}}`))
	f.Add([]byte(`{"product_summary":"[[{\"type\":\"divider\",\"thickness\":1}]]","sdk_udf":"showEMI","metadata":{}}`))
	f.Add([]byte(`[]`))
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if code := serve(s, http.MethodPost, "/session", "application/json", body); code != 200 && code != 400 {
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
		if code := serve(s, http.MethodPost, "/orders", "application/x-www-form-urlencoded", []byte(body)); code != 200 && code != 400 {
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
		req, err := http.NewRequest(method, "http://127.0.0.1"+target, bytes.NewReader(body))
		if err != nil || req.URL.Path == "" {
			return
		}
		req.Header["Authorization"] = []string{auth}
		req.Header["X-Merchantid"] = []string{"m"}
		req.Header["Content-Type"] = []string{contentType}
		req.Header["Version"] = []string{"2023-06-30"}
		rec := httptest.NewRecorder()
		s.serveHTTP(rec, req)
		if rec.Code != 200 && (rec.Code < 400 || rec.Code > 499) {
			t.Fatalf("status %d for %s %q", rec.Code, method, target)
		}
	})
}
