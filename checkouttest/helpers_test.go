package checkouttest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

const (
	merchantID = "shop_42"
	apiKey     = "key_test_5f1c"
	version    = "2023-06-30"
)

func newServer(t *testing.T, cfg checkouttest.Config) *checkouttest.Server {
	t.Helper()
	if cfg.MerchantID == "" {
		cfg.MerchantID = merchantID
	}
	if cfg.APIKey == "" {
		cfg.APIKey = apiKey
	}
	s := checkouttest.NewServer(cfg)
	t.Cleanup(s.Close)
	return s
}

func basic(userpass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(userpass))
}

// authHeaders are the headers of a correct server-to-server call.
func authHeaders() http.Header {
	return http.Header{"Authorization": {basic(apiKey + ":")}, "X-Merchantid": {merchantID}}
}

type reply struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

// fieldNames lists error_info.fields[].field_name of an error reply.
func (r reply) fieldNames() []string {
	info, _ := r.json["error_info"].(map[string]any)
	fs, _ := info["fields"].([]any)
	var out []string
	for _, f := range fs {
		out = append(out, f.(map[string]any)["field_name"].(string))
	}
	return out
}

func send(t *testing.T, method, u string, h http.Header, body []byte) reply {
	t.Helper()
	r, err := do(method, u, h, body)
	require.NoError(t, err)
	return r
}

// do is send for goroutines other than the test's: it returns the error.
func do(method, u string, h http.Header, body []byte) (reply, error) {
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	r := reply{status: resp.StatusCode, header: resp.Header, body: data}
	_ = json.Unmarshal(data, &r.json)
	return r, nil
}

func postSession(t *testing.T, s *checkouttest.Server, body any) reply {
	t.Helper()
	data, ok := body.([]byte)
	if !ok {
		var err error
		data, err = json.Marshal(body)
		require.NoError(t, err)
	}
	h := authHeaders()
	h.Set("Content-Type", "application/json")
	return send(t, http.MethodPost, s.URL+"/session", h, data)
}

func postOrder(t *testing.T, s *checkouttest.Server, form url.Values) reply {
	t.Helper()
	h := authHeaders()
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("version", version)
	return send(t, http.MethodPost, s.URL+"/orders", h, []byte(form.Encode()))
}

// postForm posts form to path with the headers of a correct call.
func postForm(t *testing.T, s *checkouttest.Server, path string, form url.Values) reply {
	t.Helper()
	h := authHeaders()
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("version", version)
	return send(t, http.MethodPost, s.URL+path, h, []byte(form.Encode()))
}

func getOrder(t *testing.T, s *checkouttest.Server, id string) reply {
	t.Helper()
	return send(t, http.MethodGet, s.URL+"/orders/"+url.PathEscape(id), authHeaders(), nil)
}

func postRefund(t *testing.T, s *checkouttest.Server, id, uniqueID, amount string) reply {
	t.Helper()
	h := authHeaders()
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	form := url.Values{"unique_request_id": {uniqueID}, "amount": {amount}}
	return send(t, http.MethodPost, s.URL+"/orders/"+url.PathEscape(id)+"/refunds", h, []byte(form.Encode()))
}

// sessionBody is a valid paymentPage session request.
func sessionBody(orderID string) map[string]any {
	return map[string]any{
		"order_id": orderID, "amount": "10.00", "customer_id": "cust_1", "customer_phone": "9876543210",
		"customer_email": "a@example.com", "payment_page_client_id": "shop", "action": "paymentPage",
	}
}

func orderForm(orderID string) url.Values {
	return url.Values{"order_id": {orderID}, "amount": {"25.50"}, "customer_id": {"cust_1"}, "currency": {"INR"}}
}

func newClient(t *testing.T, s *checkouttest.Server) *checkout.Client {
	t.Helper()
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func createOrder(t *testing.T, c *checkout.Client, orderID string, amount checkout.Amount) {
	t.Helper()
	_, err := c.CreateOrder(ctxT(t), &checkout.OrderRequest{OrderID: orderID, Amount: amount, CustomerID: "cust_1"})
	require.NoError(t, err)
}

func apiError(t *testing.T, err error) *checkout.APIError {
	t.Helper()
	var e *checkout.APIError
	require.ErrorAs(t, err, &e)
	return e
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
