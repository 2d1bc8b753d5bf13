package checkout_test

import (
	"context"
	"fmt"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

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
