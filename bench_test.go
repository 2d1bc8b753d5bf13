package checkout

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// benchSessionReply is a realistic session reply (about 1 KB).
const benchSessionReply = `{"status":"NEW","id":"ordeh_662673ccb6ac44eda5856491e153afc4","order_id":"order_dummy_1",` +
	`"payment_links":{"web":"https://sandbox.example.com/orders/ordeh_662673ccb6ac44eda5856491e153afc4/payment-page","expiry":"2023-12-30T21:46:57Z"},` +
	`"sdk_payload":{"requestId":"af2f666419a24155991764369ccaed86","service":"in.example.hyperpay","payload":{"amount":"100.0","currency":"INR",` +
	`"orderId":"order_dummy_1","merchantId":"merchant_42","clientId":"picasso","customerId":"customer_id","customerPhone":"8888899999",` +
	`"customerEmail":"asdf@gmail.com","clientAuthToken":"tkn_9e414695b9654c529c8161d1807a47cd","clientAuthTokenExpiry":"2023-12-28T13:24:57Z",` +
	`"environment":"sandbox","action":"paymentPage","returnUrl":"https://shop.example.com/return","description":"This is Payment Description.",` +
	`"firstName":"John","lastName":"Doe"},"expiry":"2023-12-30T21:46:57Z"},"order_expiry":"2023-12-30T21:46:57Z"}`

func benchRequest() *SessionRequest {
	r := baseSession()
	r.ReturnURL = "https://shop.example.com/return"
	r.Description = "This is Payment Description."
	r.FirstName, r.LastName = "John", "Doe"
	r.GatewayReferenceID = "payu_test"
	r.WebhookURL = "https://shop.example.com/webhooks"
	return r
}

// rawSessionBody is the same body the plain way would write by hand.
type rawSessionBody struct {
	OrderID             string `json:"order_id"`
	Amount              string `json:"amount"`
	CustomerID          string `json:"customer_id"`
	CustomerPhone       string `json:"customer_phone"`
	CustomerEmail       string `json:"customer_email"`
	PaymentPageClientID string `json:"payment_page_client_id"`
	Action              string `json:"action"`
	ReturnURL           string `json:"return_url"`
	Description         string `json:"description"`
	FirstName           string `json:"first_name"`
	LastName            string `json:"last_name"`
	GatewayReferenceID  string `json:"metadata.SERVICE:gateway_reference_id"`
	WebhookURL          string `json:"metadata.webhook_url"`
}

type rawSessionReply struct {
	Status     string          `json:"status"`
	ID         string          `json:"id"`
	OrderID    string          `json:"order_id"`
	SDKPayload json.RawMessage `json:"sdk_payload"`
}

func benchServer(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, benchSessionReply)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// Both benchmarks send the same bytes to the same kind of loopback server;
// run them together to compare:
//
//	go test -run '^$' -bench 'CreateSession' -benchmem -benchtime=2000x -count=5 .
func BenchmarkCreateSession(b *testing.B) {
	srv := benchServer(b)
	c, err := NewClient(testMerchant, testKey, WithBaseURL(srv.URL))
	if err != nil {
		b.Fatal(err)
	}
	req := benchRequest()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := c.CreateSession(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.SDKPayload) == 0 {
			b.Fatal("no payload")
		}
	}
}

func BenchmarkCreateSessionRawHTTP(b *testing.B) {
	srv := benchServer(b)
	hc := &http.Client{Transport: newTransport(), Timeout: 60 * time.Second}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))
	r := benchRequest()
	body := rawSessionBody{
		OrderID: r.OrderID, Amount: string(r.Amount), CustomerID: r.CustomerID, CustomerPhone: r.CustomerPhone,
		CustomerEmail: r.CustomerEmail, PaymentPageClientID: r.PaymentPageClientID, Action: string(r.Action),
		ReturnURL: r.ReturnURL, Description: r.Description, FirstName: r.FirstName, LastName: r.LastName,
		GatewayReferenceID: r.GatewayReferenceID, WebhookURL: r.WebhookURL,
	}
	sdk, _ := r.encode()
	raw, _ := json.Marshal(body)
	if !bytes.Equal(sdk, raw) {
		b.Fatalf("the two benchmarks must send the same body:\n%s\n%s", sdk, raw)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		data, err := json.Marshal(body)
		if err != nil {
			b.Fatal(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/session", bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", auth)
		req.Header.Set("X-Merchantid", testMerchant)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		respBody, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			b.Fatal(fmt.Sprint("status ", resp.StatusCode))
		}
		var out rawSessionReply
		if err := json.Unmarshal(respBody, &out); err != nil {
			b.Fatal(err)
		}
		if len(out.SDKPayload) == 0 {
			b.Fatal("no payload")
		}
	}
}
