package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/webhook"
)

// The fake's account. The webhook credentials are the username, password
// and custom header a merchant configures in the dashboard, which the
// service sends with every webhook request, and gives its Verifier.
const (
	fakeMerchantID  = "quickstart_shop"
	fakeAPIKey      = "qs_test_key_4f2a"
	webhookUser     = "quickstartshop"
	webhookPassword = "correct horse battery staple"
	webhookHeader   = "X-Shop-Token"
	webhookHeaderV  = "qs-7d1e"
)

// envPaymentPageClientID names the variable holding the session's
// payment_page_client_id: the payment page client id your account was
// given at onboarding. The fake takes any; the quickstart sends
// fakePaymentPageClientID to it when the variable is not set.
const (
	envPaymentPageClientID  = "CHECKOUT_PAYMENT_PAGE_CLIENT_ID"
	fakePaymentPageClientID = "quickstart"
)

// run is the whole quickstart; env reads the environment (os.Getenv in
// main, a map in tests). Output goes to w, a few lines per step.
func run(ctx context.Context, w io.Writer, env func(string) string) error {
	p := printer{w: w}
	base, mid, key := env(checkout.EnvBaseURL), env(checkout.EnvMerchantID), env(checkout.EnvAPIKey)
	clientID := env(envPaymentPageClientID)
	live := base != "" || mid != "" || key != ""
	switch {
	case live && (base == "" || mid == "" || key == ""):
		return fmt.Errorf("set all of %s, %s and %s to use a real environment, or none to use the embedded fake",
			checkout.EnvBaseURL, checkout.EnvMerchantID, checkout.EnvAPIKey)
	case live && clientID == "":
		return fmt.Errorf("set %s to your account's payment page client id to use a real environment (%q is only the fake's)",
			envPaymentPageClientID, fakePaymentPageClientID)
	case clientID == "":
		clientID = fakePaymentPageClientID
	}

	var fake *checkouttest.Server
	if live {
		p.step("Using the environment at %s (merchant %s)", base, mid)
	} else {
		fake = checkouttest.NewServer(checkouttest.Config{
			MerchantID: fakeMerchantID,
			APIKey:     fakeAPIKey,
			Webhook: checkouttest.WebhookConfig{
				Username:      webhookUser,
				Password:      webhookPassword,
				Headers:       map[string]string{webhookHeader: webhookHeaderV},
				RetryInterval: 200 * time.Millisecond,
			},
		})
		defer fake.Close()
		base, mid, key = fake.URL, fakeMerchantID, fakeAPIKey
		p.step("Started the embedded fake service (checkouttest) at %s", fake.URL)
	}

	client, err := checkout.NewClient(mid, key, checkout.WithBaseURL(base))
	if err != nil {
		return err // the SDK's errors name the call already
	}
	orderID := "qs-" + strconv.FormatInt(time.Now().UnixNano(), 36)

	// 1. A checkout session: hide wallets and credit cards, no credit-card
	// plans inside no-cost EMI, and a two-line product summary.
	// (CreateSession validates the filter before sending.)
	filter := paymentfilter.New().
		Hide(paymentfilter.Wallet).
		HideCardTypes(paymentfilter.Credit).
		EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit))
	summary := productsummary.New().
		Line(productsummary.Text{Text: "Running shoes", FontType: productsummary.Bold}, productsummary.Space{Weight: 1}, productsummary.Text{Text: "₹1,499.00"}).
		Divider(1, "#D6C190")
	sess, err := client.CreateSession(ctx, &checkout.SessionRequest{
		OrderID:             orderID,
		Amount:              checkout.AmountFromMinor(149900),
		CustomerID:          "cust_quickstart",
		CustomerPhone:       "9876543210",
		CustomerEmail:       "asha@example.com",
		PaymentPageClientID: clientID,
		Action:              checkout.PaymentPage,
		ReturnURL:           "https://shop.example/return",
		Description:         "Running shoes",
		PaymentFilter:       filter,
		EMI:                 emi.Show,
		ProductSummary:      summary,
	})
	if err != nil {
		return err // the SDK's errors name the call already
	}
	p.step("Created session for order %s (status %s, id %s, payment page client id %s)", sess.OrderID, sess.Status, sess.ID, clientID)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, sess.SDKPayload, "    ", "  "); err != nil {
		return fmt.Errorf("session sdk_payload is not JSON: %w", err)
	}
	// The app must get sess.SDKPayload exactly as it is (json.RawMessage,
	// the service's own bytes); it is indented here only for reading.
	p.line("sdk_payload for the app's process call (%d bytes, send sess.SDKPayload as is; indented here for reading):\n    %s",
		len(sess.SDKPayload), pretty.String())

	// 2. A webhook receiver with a Verifier. On loopback the source check
	// cannot use the service's addresses, so this demo allows any source;
	// production code uses webhook.ProductionSources.
	events := make(chan *webhook.Event, 1)
	var receiver *httptest.Server
	if !live {
		v, err := webhook.NewVerifier(webhook.Config{
			Username:       webhookUser,
			Password:       webhookPassword,
			Headers:        map[string]string{webhookHeader: webhookHeaderV},
			AllowAnySource: true,
		})
		if err != nil {
			return err // the SDK's errors name the call already
		}
		mux := http.NewServeMux()
		mux.Handle("POST /webhooks", v.Handler(func(_ context.Context, ev *webhook.Event) error {
			select {
			case events <- ev:
			default: // a duplicate: the first one is what we print
			}
			return nil
		}))
		receiver = httptest.NewServer(mux)
		defer receiver.Close()
		p.step("Started a webhook receiver at %s/webhooks (Basic credentials and %s checked)", receiver.URL, webhookHeader)
	} else {
		p.step("Skipping the local webhook receiver: the real service cannot reach this machine")
	}

	// 3. An order with UPI QR and intent links.
	req := &checkout.OrderRequest{
		OrderID:       orderID + "-links",
		Amount:        checkout.AmountFromMinor(49900),
		Currency:      "INR",
		CustomerID:    "cust_quickstart",
		CustomerEmail: "asha@example.com",
		CustomerPhone: "9876543210",
		Description:   "Shoe laces",
		CollectionLinks: &checkout.CollectionLinks{Links: []checkout.CollectionLink{
			{Method: checkout.CollectionQR, Expiry: 15 * time.Minute},
			{Method: checkout.CollectionPay, Expiry: 30 * time.Minute},
		}},
	}
	if receiver != nil {
		req.WebhookURL = receiver.URL + "/webhooks"
	}
	order, err := client.CreateOrder(ctx, req)
	if err != nil {
		return err // the SDK's errors name the call already
	}
	p.step("Created order %s (status %s, status_id %d)", order.OrderID, order.Status, order.StatusID)
	p.line("QR link (15 min):     %s", order.CollectionLinks.QR)
	p.line("INTENT link (30 min): %s", order.CollectionLinks.Intent)
	if order.CollectionLinks.QR == "" || order.CollectionLinks.Intent == "" {
		return errors.New("create order: the reply has no QR or INTENT link")
	}

	// 4. The customer pays; the webhook arrives and is verified.
	if live {
		p.step("Skipping the payment: pay %s in the sandbox, then read its status with GetOrder", order.OrderID)
	} else {
		if err := fake.Pay(order.OrderID); err != nil {
			return fmt.Errorf("pay the order in the fake: %w", err)
		}
		p.step("Paid order %s in the fake service", order.OrderID)
		select {
		case ev := <-events:
			p.line("Verified webhook %s: event %s for order %s, status %s", ev.ID, ev.Name, ev.OrderID(), ev.Status())
		case <-ctx.Done():
			return fmt.Errorf("no webhook arrived: %w", ctx.Err())
		}
	}

	// 5. The order status call, used beside webhooks: both are needed, since
	// the browser's redirect after payment can fail.
	st, err := client.GetOrder(ctx, order.OrderID)
	if err != nil {
		return err // the SDK's errors name the call already
	}
	p.step("Order %s status: %s (status_id %d), amount %s %s", st.OrderID, st.Status, st.StatusID, st.Amount, st.Currency)
	p.step("Done.")
	return nil
}

// printer numbers the steps.
type printer struct {
	w io.Writer
	n int
}

func (p *printer) step(format string, args ...any) {
	p.n++
	fmt.Fprintf(p.w, "%d. "+format+"\n", append([]any{p.n}, args...)...)
}

func (p *printer) line(format string, args ...any) {
	fmt.Fprintf(p.w, "   "+format+"\n", args...)
}
