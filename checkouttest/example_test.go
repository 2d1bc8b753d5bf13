package checkouttest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/webhook"
)

// A merchant's test: the shop's own client code and webhook handler run
// against the fake; the fake plays the customer paying and the service
// delivering the webhook.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// The shop's webhook receiver, verifying as in production. It listens on
	// loopback, so the source check is switched off for the test.
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	events := make(chan *webhook.Event, 1)
	receiver := httptest.NewServer(v.Handler(func(_ context.Context, ev *webhook.Event) error {
		events <- ev
		return nil
	}))
	defer receiver.Close()

	fake := checkouttest.NewServer(checkouttest.Config{
		MerchantID: "shop",
		APIKey:     "test_key",
		Webhook:    checkouttest.WebhookConfig{URL: receiver.URL, Username: "shop", Password: "hook-secret"},
	})
	defer fake.Close()

	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	sess, err := client.CreateSession(ctx, &checkout.SessionRequest{
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
	fmt.Println("session:", sess.Status, sess.OrderID)

	if err := fake.Pay("ord_1001"); err != nil {
		fmt.Println(err)
		return
	}
	ev := <-events
	fmt.Println("webhook:", ev.Name, ev.OrderID(), ev.Status())

	st, err := client.GetOrder(ctx, "ord_1001")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status:", st.Status, st.Amount)

	_, err = client.GetOrder(ctx, "ord_9999")
	fmt.Println("unknown order is ErrNotFound:", errors.Is(err, checkout.ErrNotFound))
	// Output:
	// session: NEW ord_1001
	// webhook: ORDER_SUCCEEDED ord_1001 CHARGED
	// status: CHARGED 1499.00
	// unknown order is ErrNotFound: true
}

// InjectFault makes the next requests to a path fail, to test what the
// code under test does: here the client retries a 503 with Retry-After, and
// gives a 500 on order creation one attempt only.
func ExampleServer_InjectFault() {
	ctx := context.Background()
	fake, err := checkouttest.New(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fake.Close()
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL),
		checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 10 * time.Millisecond}))
	if err != nil {
		fmt.Println(err)
		return
	}
	order := &checkout.OrderRequest{OrderID: "ord_7", Amount: "10.00"}

	_ = fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 503, RetryAfter: "1"})
	_, err = client.CreateOrder(ctx, order)
	fmt.Println("503: error", err, "after", fake.Count("POST", "/orders"), "attempts")

	_ = fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 500})
	_, err = client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_8", Amount: "10.00"})
	fmt.Println("500: ErrServer", errors.Is(err, checkout.ErrServer), "after", fake.Count("POST", "/orders")-2, "attempt")
	// Output:
	// 503: error <nil> after 2 attempts
	// 500: ErrServer true after 1 attempt
}
