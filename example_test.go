package checkout_test

import (
	"context"
	"crypto"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

// fakeService stands in for the service in these examples: it answers each
// path with a canned reply. Real tests of an integration use checkouttest.
func fakeService() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "POST" && r.URL.Path == "/session":
			fmt.Fprint(w, `{"status":"NEW","id":"ordeh_5d4f","order_id":"ord_1001",`+
				`"payment_links":{"web":"https://pay.example.com/orders/ordeh_5d4f/payment-page"},`+
				`"sdk_payload":{"requestId":"9a1c","service":"in.example.hyperpay","payload":{"clientId":"shop","amount":"1499.00"}}}`)
		case r.Method == "POST" && r.URL.Path == "/orders":
			fmt.Fprint(w, `{"status":"NEW","status_id":10,"id":"ordeh_77","order_id":"ord_1002",`+
				`"links":{"payment_collection_links":{"QR":"https://pay.example.com/qr/ordeh_77","INTENT":"https://pay.example.com/intent/ordeh_77"}}}`)
		case r.Method == "GET" && r.URL.EscapedPath() == "/orders/ord_1001":
			fmt.Fprint(w, `{"order_id":"ord_1001","id":"ordeh_5d4f","status":"CHARGED","status_id":21,"amount":1499,`+
				`"currency":"INR","payment_method_type":"UPI","refunded":false,"amount_refunded":0}`)
		case r.Method == "POST" && r.URL.EscapedPath() == "/orders/ord_1001/refunds":
			fmt.Fprint(w, `{"order_id":"ord_1001","status":"CHARGED","refunded":true,"amount_refunded":"100.0",`+
				`"refunds":[{"unique_request_id":"rf_1","status":"PENDING","amount":100}]}`)
		default:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"status":"NOT_FOUND","error_code":"order_not_found","error_message":"Order not found"}`)
		}
	}))
}

func ExampleNewClient() {
	_, err := checkout.NewClient("merchant_42", "sk_live_…", checkout.WithBaseURL("http://api.example.com"))
	fmt.Println(err)
	fmt.Println(errors.Is(err, checkout.ErrInvalidOption))

	c, err := checkout.NewClient("merchant_42", "sk_live_secret",
		checkout.WithBaseURL("https://api.example.com"),
		checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 3, MinWait: 100 * time.Millisecond, MaxWait: 2 * time.Second}),
		checkout.WithUserAgent("shop/1.4"))
	fmt.Println(err)
	fmt.Printf("%+v\n", c) // the API key is never printed
	// Output:
	// checkout: new client: invalid option: base URL: must be https (http only on a loopback address)
	// true
	// <nil>
	// checkout.Client{merchant: "merchant_42", base: "https://api.example.com", version: "2023-06-30", key: [REDACTED]}
}

func ExampleClient_CreateSession() {
	srv := fakeService()
	defer srv.Close()
	c, err := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	sess, err := c.CreateSession(context.Background(), &checkout.SessionRequest{
		OrderID:             "ord_1001",
		Amount:              checkout.AmountFromMinor(149900),
		CustomerID:          "cust_42",
		CustomerPhone:       "9876543210",
		CustomerEmail:       "asha@example.com",
		PaymentPageClientID: "shop",
		Action:              checkout.PaymentPage,
		PaymentFilter:       paymentfilter.New().Hide(paymentfilter.Wallet),
		EMI:                 emi.Hide,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sess.Status, sess.ID)
	fmt.Println(sess.PaymentLinks.Web)
	fmt.Println(string(sess.SDKPayload)) // hand these exact bytes to the client SDK
	// Output:
	// NEW ordeh_5d4f
	// https://pay.example.com/orders/ordeh_5d4f/payment-page
	// {"requestId":"9a1c","service":"in.example.hyperpay","payload":{"clientId":"shop","amount":"1499.00"}}
}

// Nothing is sent when a request is invalid: every problem is listed with
// the JSON path of its field.
func ExampleValidationError() {
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL("https://api.example.com"))
	_, err := c.CreateSession(context.Background(), &checkout.SessionRequest{
		Action:        checkout.PaymentPage,
		OrderID:       "ord_1001",
		Amount:        "10.005",
		CustomerID:    "cust_42",
		CustomerPhone: "9876543210",
		Extra:         map[string]any{"udf1": "campaign-7", "customer_id": "cust_43"},
	})
	var ve *checkout.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s: %s\n", p.Path, p.Message)
		}
	}
	// Output:
	// amount: must have at most two decimal places
	// payment_page_client_id: is required
	// customer_id: is a typed field of SessionRequest; set it there, not in Extra
}

func ExampleClient_CreateOrder() {
	srv := fakeService()
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	order, err := c.CreateOrder(context.Background(), &checkout.OrderRequest{
		OrderID:    "ord_1002",
		Amount:     "250.00",
		Currency:   "INR",
		CustomerID: "cust_42",
		CollectionLinks: &checkout.CollectionLinks{Links: []checkout.CollectionLink{
			{Method: checkout.CollectionPay, Expiry: 30 * time.Minute},
			{Method: checkout.CollectionQR, Expiry: 15 * time.Minute},
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(order.Status, order.StatusID) // not always CREATED
	fmt.Println("QR:    ", order.CollectionLinks.QR)
	fmt.Println("intent:", order.CollectionLinks.Intent)
	// Output:
	// NEW 10
	// QR:     https://pay.example.com/qr/ordeh_77
	// intent: https://pay.example.com/intent/ordeh_77
}

func ExampleClient_GetOrder() {
	srv := fakeService()
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	st, err := c.GetOrder(context.Background(), "ord_1001")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status, st.Amount, st.Currency, st.PaymentMethodType)

	_, err = c.GetOrder(context.Background(), "ord_unknown")
	fmt.Println(errors.Is(err, checkout.ErrNotFound))
	fmt.Println(err)
	// Output:
	// CHARGED 1499.00 INR UPI
	// true
	// checkout: get order: HTTP 400 NOT_FOUND [order_not_found]: Order not found
}

func ExampleClient_Refund() {
	srv := fakeService()
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	st, err := c.Refund(context.Background(), "ord_1001", &checkout.RefundRequest{
		UniqueRequestID: "rf_1", // reuse it when retrying this refund
		Amount:          "100.00",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Refunded, st.AmountRefunded)
	for _, r := range st.Refunds {
		fmt.Println(r.UniqueRequestID, r.Status, r.Amount)
	}
	// Output:
	// true 100.00
	// rf_1 PENDING 100.00
}

func ExampleAPIError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"status":"ERROR","error_code":"RATE_LIMITED","error_message":"Too many requests"}`)
	}))
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL),
		checkout.WithRetry(checkout.RetryPolicy{})) // no retries, to show the error
	_, err := c.GetOrder(context.Background(), "ord_1001")
	var ae *checkout.APIError
	if errors.As(err, &ae) {
		fmt.Println(ae.HTTPStatus, ae.ErrorCode, ae.RetryAfter)
	}
	fmt.Println(errors.Is(err, checkout.ErrRateLimited))
	// Output:
	// 429 RATE_LIMITED 30s
	// true
}

func ExampleAmountFromMinor() {
	fmt.Println(checkout.AmountFromMinor(12345))
	fmt.Println(checkout.AmountFromMinor(5))

	// A negative amount reads with a minus sign, which no request takes.
	neg := checkout.AmountFromMinor(-5)
	_, err := checkout.ParseAmount(string(neg))
	fmt.Println(neg, err != nil)
	// Output:
	// 123.45
	// 0.05
	// -0.05 true
}

func ExampleParseAmount() {
	for _, s := range []string{"99.50", "99.5", "100", "1.005", "1e3"} {
		a, err := checkout.ParseAmount(s)
		fmt.Printf("%q %v\n", a, err != nil)
	}
	minor, _ := checkout.Amount("1499.5").Minor()
	fmt.Println(minor)
	// Output:
	// "99.50" false
	// "99.5" false
	// "100" false
	// "" true
	// "" true
	// 149950
}

func ExampleWithHeader() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The test server echoes the two headers back in the order status.
		fmt.Fprintf(w, `{"order_id":"ord_1001","udf1":%q,"status":%q}`, r.Header.Get("X-Routing-Id"), r.Header.Get("X-Request-Source"))
	}))
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	st, err := c.GetOrder(context.Background(), "ord_1001",
		checkout.WithRoutingID("cust_42"), checkout.WithHeader("X-Request-Source", "backoffice"))
	fmt.Println(st.UDF1, st.Status, err)

	_, err = c.GetOrder(context.Background(), "ord_1001", checkout.WithHeader("Authorization", "Basic eA=="))
	fmt.Println(strings.Contains(err.Error(), "set by the client"))
	// Output:
	// cust_42 backoffice <nil>
	// true
}

// json.Marshal of a SessionRequest is the body CreateSession sends, with the
// service's flat keys.
func ExampleSessionRequest_MarshalJSON() {
	req := &checkout.SessionRequest{
		OrderID: "ord_1001", Amount: "10.00", CustomerID: "cust_42", CustomerPhone: "9876543210",
		CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage,
		Mandate: &checkout.Mandate{Option: checkout.MandateOptional, MaxAmount: "1000.00",
			StartDate: time.Unix(1644420442, 0)},
		UDFs:  checkout.UDFs{UDF1: "blue"},
		Extra: map[string]any{"mobile_country_code": "91"},
	}
	body, err := json.Marshal(req)
	fmt.Println(string(body), err)
	// Output:
	// {"order_id":"ord_1001","amount":"10.00","customer_id":"cust_42","customer_phone":"9876543210","customer_email":"asha@example.com","payment_page_client_id":"shop","action":"paymentPage","udf1":"blue","options.create_mandate":"OPTIONAL","mandate.max_amount":"1000.00","mandate.start_date":"1644420442","mobile_country_code":"91"} <nil>
}

// The namespace of the gateway reference key follows the deployment.
func ExampleWithNamespace() {
	c, err := checkout.NewClient("merchant_42", "sk_test_key",
		checkout.WithBaseURL("https://api.example.com"), checkout.WithNamespace("JUSPAY"))
	fmt.Println(c.Namespace(), err)
	// Output:
	// JUSPAY <nil>
}

// A nil or zero Client fails every call with ErrInvalidClient instead of
// panicking.
func ExampleErrInvalidClient() {
	var c *checkout.Client
	_, err := c.GetOrder(context.Background(), "ord_1001")
	fmt.Println(errors.Is(err, checkout.ErrInvalidClient))
	// Output:
	// true
}

// newJWEClient makes a client of the JWE+JWS mode from the key id and the
// PEM files of the service's dashboard.
func newJWEClient(baseURL, merchantID, apiKey, keyID string, merchantPEM, servicePEM []byte) (*checkout.Client, error) {
	merchantKey, err := checkout.ParseRSAPrivateKeyPEM(merchantPEM) // PKCS#1 or PKCS#8
	if err != nil {
		return nil, err
	}
	serviceKey, err := checkout.ParseRSAPublicKeyPEM(servicePEM) // PKIX, PKCS#1 or a certificate
	if err != nil {
		return nil, err
	}
	return checkout.NewClient(merchantID, apiKey,
		checkout.WithBaseURL(baseURL),
		checkout.WithJWE(keyID, merchantKey, serviceKey))
}

// newHSMClient makes a client of the JWE+JWS mode whose private key stays
// in an HSM or a key service, reached through Go's crypto interfaces.
func newHSMClient(baseURL, merchantID, apiKey, keyID string, signer crypto.Signer, decrypter crypto.Decrypter, serviceKey *rsa.PublicKey) (*checkout.Client, error) {
	return checkout.NewClient(merchantID, apiKey,
		checkout.WithBaseURL(baseURL),
		checkout.WithJWEKeys(keyID, signer, decrypter, serviceKey)) // both from your HSM's or key service's adapter
}

// A key that never leaves its vault: the fake hands out its merchant key
// with only crypto.Signer and crypto.Decrypter reachable, as an HSM's Go
// adapter would, and the encrypted calls work through them.
func ExampleWithJWEKeys() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	key := fake.MerchantKeyHandle() // in production: your PKCS#11 or key service adapter
	c, err := newHSMClient(fake.URL, "shop", "test_key", fake.JWE().KeyID, key, key, fake.JWE().ServiceKey)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	_, err = c.CreateSession(ctx, &checkout.SessionRequest{OrderID: "ord_1002", Amount: "10.00", CustomerID: "cust_42",
		CustomerPhone: "9876543210", CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := c.GetOrder(ctx, "ord_1002")
	fmt.Println(st.Status, err)
	// Output:
	// NEW <nil>
}

// An account with encrypted API calls switched on: the client signs and
// encrypts CreateSession, GetOrder and Refund with the merchant's key pair
// and reads the service's replies only once they decrypt and verify. Here
// the fake plays the service; in production the PEM files come from the
// service's dashboard.
func ExampleWithJWE() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	keys := fake.JWE() // the key id and the PEM files the dashboard gives

	// In production: the base URL, and os.ReadFile of the PEM files.
	c, err := newJWEClient(fake.URL, "shop", "test_key", keys.KeyID, keys.MerchantKeyPEM, keys.ServiceKeyPEM)
	if err != nil {
		fmt.Println(err)
		return
	}

	sess, err := c.CreateSession(context.Background(), &checkout.SessionRequest{
		OrderID:             "ord_1001",
		Amount:              checkout.AmountFromMinor(149900),
		CustomerID:          "cust_42",
		CustomerPhone:       "9876543210",
		CustomerEmail:       "asha@example.com",
		PaymentPageClientID: "shop",
		Action:              checkout.PaymentPage,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sess.Status, sess.OrderID, len(sess.SDKPayload) > 0)

	st, err := c.GetOrder(context.Background(), "ord_1001")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status, st.Amount)
	for _, r := range fake.Requests() {
		fmt.Println(r.Method, r.Path, "Authorization:", r.Header.Get("Authorization") != "")
	}
	// Output:
	// NEW ord_1001 true
	// NEW 1499.00
	// POST /v4/session Authorization: false
	// POST /v4/order-status Authorization: false
}

// statusService answers GET /orders/ord_2001 with a paid card order, an
// unknown order with the service's not-found reply, and POST /refunds with
// a pending refund.
func statusService() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "GET" && r.URL.Path == "/orders/ord_2001":
			fmt.Fprint(w, `{"order_id":"ord_2001","status":"CHARGED","status_id":21,"amount":"1499.00","currency":"INR",`+
				`"txn_id":"shop-ord_2001-1","payment_method_type":"CARD","payment_method":"VISA",`+
				`"card":{"card_brand":"VISA","last_four_digits":"1111","card_type":"CREDIT"},`+
				`"txn_detail":{"txn_id":"shop-ord_2001-1","status":"CHARGED","gateway":"RAZORPAY","txn_amount":1499}}`)
		case r.Method == "POST" && r.URL.Path == "/refunds":
			fmt.Fprint(w, `{"unique_request_id":"rf_9","txn_id":"shop-ord_2001-1","order_id":"ord_2001",`+
				`"status":"PENDING","refund_type":"STANDARD","gateway":"RAZORPAY","sent_to_gateway":false,"amount":"100.00"}`)
		default:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"status_id":40,"status":"NOT_FOUND","order_id":"ord_404"}`)
		}
	}))
}

// Check the status and the amount before fulfilling an order.
func ExampleOrderStatus_CheckPaid() {
	srv := statusService()
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	st, err := c.GetOrder(context.Background(), "ord_2001")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status, st.IsPaid(), st.IsFinal())
	fmt.Println(st.Card.Brand, st.Card.LastFourDigits, st.TxnDetail.Gateway)

	fmt.Println(st.CheckPaid("1499")) // "1499", "1499.0" and "1499.00" are one amount
	err = st.CheckPaid("1999.00")
	fmt.Println(errors.Is(err, checkout.ErrNotPaid))
	fmt.Println(err)
	// Output:
	// CHARGED true true
	// VISA 1111 RAZORPAY
	// <nil>
	// true
	// checkout: check paid: order "ord_2001" amount is 1499.00, expected 1999.00
}

// An unknown order is ErrNotFound, and the error names the order.
func ExampleAPIError_orderID() {
	srv := statusService()
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	_, err := c.GetOrder(context.Background(), "ord_404")
	var ae *checkout.APIError
	if errors.Is(err, checkout.ErrNotFound) && errors.As(err, &ae) {
		fmt.Println(ae.OrderID)
	}
	fmt.Println(err)
	// Output:
	// ord_404
	// checkout: get order: HTTP 400 NOT_FOUND: no order "ord_404"
}

// Refund one transaction of an order; the reply is the refund itself.
func ExampleClient_RefundTransaction() {
	srv := statusService()
	defer srv.Close()
	c, _ := checkout.NewClient("merchant_42", "sk_test_key", checkout.WithBaseURL(srv.URL))
	r, err := c.RefundTransaction(context.Background(), &checkout.TransactionRefundRequest{
		UniqueRequestID: "rf_9", // reuse it when retrying this refund
		TxnID:           "shop-ord_2001-1",
		Amount:          "100.00",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Status, r.RefundType, r.Gateway, r.Amount, r.OrderID)
	// Output:
	// PENDING STANDARD RAZORPAY 100.00 ord_2001
}
