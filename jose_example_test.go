package checkout_test

import (
	"context"
	"fmt"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// An account with encrypted API calls switched on: the client signs and
// encrypts CreateSession, GetOrder and Refund with the merchant's key pair
// and reads the service's replies only once they decrypt and verify. Here
// the fake plays the service; in production the PEM files come from the
// service's dashboard.
func ExampleWithJWE() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	keys := fake.JWE() // the key id and the PEM files the dashboard gives

	// In production: os.ReadFile("merchant_private_key.pem") and
	// os.ReadFile("service_public_key.pem").
	merchantKey, err := checkout.ParseRSAPrivateKeyPEM(keys.MerchantKeyPEM)
	if err != nil {
		fmt.Println(err)
		return
	}
	serviceKey, err := checkout.ParseRSAPublicKeyPEM(keys.ServiceKeyPEM)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := checkout.NewClient("shop", "test_key",
		checkout.WithBaseURL(fake.URL),
		checkout.WithJWE(keys.KeyID, merchantKey, serviceKey))
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
