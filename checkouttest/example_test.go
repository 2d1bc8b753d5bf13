package checkouttest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
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
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
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

	// A 500 may hide an order that was made: the client reads the order,
	// finds none, and sends it again.
	_ = fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 500})
	_, err = client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_8", Amount: "10.00"})
	fmt.Println("500: error", err, "after", fake.Count("POST", "/orders")-2, "attempts and", fake.Count("GET", "/orders/ord_8"), "read")
	// Output:
	// 503: error <nil> after 2 attempts
	// 500: error <nil> after 2 attempts and 1 read
}

// A fault after processing makes the order and then loses the reply, as a
// gateway timing out behind the service would: the client cannot know the
// order was made. CreateOrder reads the order before sending it again,
// finds it, and returns it marked Replayed; the order is sent once.
func ExampleFault_afterProcessing() {
	ctx := context.Background()
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 502, AfterProcessing: true})
	order, err := client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_9", Amount: "10.00"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("order", order.OrderID, "replayed:", order.Replayed)
	fmt.Println("sent", fake.Count("POST", "/orders"), "time; read", fake.Count("GET", "/orders/ord_9"), "time")
	// Output:
	// order ord_9 replayed: true
	// sent 1 time; read 1 time
}

// Deliveries shows what the fake sent: here a receiver that answers 500
// once gets the event again (spec §6.1.4), and Duplicates sends every event
// twice (spec §6.1.5); every delivery ends notified.
func ExampleServer_Deliveries() {
	var calls atomic.Int32
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer receiver.Close()
	fake := checkouttest.NewServer(checkouttest.Config{
		MerchantID: "shop",
		APIKey:     "test_key",
		Webhook: checkouttest.WebhookConfig{
			URL: receiver.URL, Username: "shop", Password: "hook-secret",
			RetryInterval: 10 * time.Millisecond, Duplicates: 1,
		},
	})
	defer fake.Close()
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := client.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_9", Amount: "10.00"}); err != nil {
		fmt.Println(err)
		return
	}
	if err := fake.Pay("ord_9"); err != nil {
		fmt.Println(err)
		return
	}
	if err := fake.WaitDeliveries(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	attempts := 0
	for _, d := range fake.Deliveries() {
		fmt.Println(d.EventName, d.OrderID, "notified:", d.Notified)
		attempts += len(d.Attempts)
	}
	fmt.Println("attempts:", attempts, "receiver calls:", calls.Load())
	// Output:
	// ORDER_SUCCEEDED ord_9 notified: true
	// ORDER_SUCCEEDED ord_9 notified: true
	// attempts: 3 receiver calls: 3
}

// The shop's server often needs the fake's URL before it can start (its
// client is built from it), so the fake starts first and the webhook URL is
// set once the shop listens.
func ExampleServer_SetWebhook() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()

	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	paid := make(chan string, 1)
	shop := httptest.NewServer(v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		st, err := client.GetOrder(ctx, ev.OrderID()) // the shop confirms with the service
		if err != nil {
			return err
		}
		paid <- st.OrderID + " " + string(st.Status)
		return nil
	}))
	defer shop.Close()

	if err := fake.SetWebhook(checkouttest.WebhookConfig{URL: shop.URL, Username: "shop", Password: "hook-secret"}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := client.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_5", Amount: "10.00"}); err != nil {
		fmt.Println(err)
		return
	}
	_ = fake.Pay("ord_5")
	fmt.Println(<-paid)
	// Output:
	// ord_5 CHARGED
}

// What a filter leaves on the payment page, and why: wallets hidden, one
// UPI app hidden, and EMI switched off by sdk_udf.
func ExamplePreviewPage() {
	f := paymentfilter.New().Hide(paymentfilter.Wallet).HideUPIApps("PHONEPE")
	p := checkouttest.PreviewPage(f, emi.Hide)
	for _, o := range p.Options {
		if o.Section == "UPI apps" || o.Value == "WALLET:PAYTM" || o.Value == "EMI:noCostEmi:credit:SVC_HDFC:3" {
			fmt.Printf("%-5v %-33s %s\n", o.Visible, o.Value, o.Why)
		}
	}
	fmt.Println(len(p.Visible()), "of", len(p.Options), "options shown")
	// Output:
	// true  UPI:GPAY                          payment_filter.options[1]: UPI enable: true
	// false UPI:PHONEPE                       payment_filter.options[1].upiFilters[0] (enable: false) matches it
	// true  UPI:PAYTM                         payment_filter.options[1]: UPI enable: true
	// true  UPI:BHIM                          payment_filter.options[1]: UPI enable: true
	// true  UPI:CRED                          payment_filter.options[1]: UPI enable: true
	// false WALLET:PAYTM                      payment_filter.options[0]: WALLET enable: false hides the type
	// false EMI:noCostEmi:credit:SVC_HDFC:3   sdk_udf hideEMI hides EMI
	// 32 of 114 options shown
}

// A session's payment_links.web is the fake's payment page. A test that
// has no browser posts its form as a browser would: the option (a
// control's value) and the outcome. The fake pays the order, sends the
// webhook and redirects to the return_url, signed for VerifyReturn.
func Example_paymentPage() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key", ResponseKey: "resp_key"})
	defer fake.Close()
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	sess, err := client.CreateSession(context.Background(), &checkout.SessionRequest{
		OrderID: "ord_2001", Amount: "1499.00", CustomerID: "cust_42", CustomerPhone: "9876543210",
		CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage,
		ReturnURL:     "https://shop.example/return",
		PaymentFilter: paymentfilter.Only(paymentfilter.UPI),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(sess.PaymentLinks.Web, url.Values{"option": {"UPI:GPAY"}, "outcome": {"success"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	to, _ := url.Parse(resp.Header.Get("Location"))
	ret, err := checkout.VerifyReturn(to.Query(), "resp_key")
	fmt.Println(resp.StatusCode, strings.Split(to.String(), "?")[0])
	fmt.Println(ret.OrderID, ret.Status, err)
	// Output:
	// 303 https://shop.example/return
	// ord_2001 CHARGED <nil>
}
