package webhook_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/webhook"
)

// A merchant server's webhook endpoint. The function runs once per event:
// the re-sent duplicate is acknowledged without calling it again, and a
// failure answers 500 so that the service re-sends the event later. An
// order is marked paid only once CheckPaid says it is CHARGED for the
// amount its cart asked for.
func ExampleVerifier_Handler() {
	cfg := webhook.Config{
		Username: "shopwebhooks", // as configured in the dashboard
		Password: "correct horse battery staple",
		Sources:  webhook.ProductionSources,
		Headers:  map[string]string{"X-Shop-Env": "production"},
	}
	v, err := webhook.NewVerifier(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	expected := map[string]checkout.Amount{"ord_1001": "1499.00", "ord_1002": "20.00"} // what each cart asked for
	paid := map[string]bool{}
	mux := http.NewServeMux()
	mux.Handle("/webhooks", v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		fmt.Println("processing", ev.Name, ev.OrderID(), ev.Status())
		if ev.Name != webhook.OrderSucceeded {
			return nil // acknowledge the events you do not act on
		}
		order, err := ev.Order()
		if err != nil {
			return err // 500: the service re-sends
		}
		if err := order.CheckPaid(expected[order.OrderID]); err != nil {
			fmt.Println("not shipping:", err)
			return nil // a re-send would not mend it: alert a person instead
		}
		paid[order.OrderID] = true
		return nil
	}))

	body := []byte(`{"id":"evt_V2_1","event_name":"ORDER_SUCCEEDED","date_created":"2023-08-10T07:00:48Z",
		"content":{"order":{"order_id":"ord_1001","status":"CHARGED","amount":1499}}}`)
	underpaid := []byte(`{"id":"evt_V2_2","event_name":"ORDER_SUCCEEDED","date_created":"2023-08-10T07:01:12Z",
		"content":{"order":{"order_id":"ord_1002","status":"CHARGED","amount":"2.00"}}}`)
	for _, r := range []*http.Request{
		webhook.NewTestRequest(cfg, body),      // the delivery
		webhook.NewTestRequest(cfg, body),      // a duplicate
		webhook.NewTestRequest(cfg, underpaid), // CHARGED, but not what the cart asked for
	} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		fmt.Println(rec.Code)
	}

	forged := webhook.NewTestRequest(cfg, body)
	forged.RemoteAddr = "198.51.100.7:5555"
	forged.Header.Set("X-Forwarded-For", "13.126.232.13") // not believed: no trusted proxy
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, forged)
	fmt.Println(rec.Code, paid)
	// Output:
	// processing ORDER_SUCCEEDED ord_1001 CHARGED
	// 200
	// 200
	// processing ORDER_SUCCEEDED ord_1002 CHARGED
	// not shipping: checkout: check paid: order "ord_1002" amount is 2.00, expected 20.00
	// 200
	// 403 map[ord_1001:true]
}

// A handler that switches on the event name and reads the typed content:
// the order of ORDER_SUCCEEDED is the same *checkout.OrderStatus that
// Client.GetOrder returns, checked with CheckPaid before fulfilling; a
// refund event gives the refund; other and unknown events are acknowledged.
func ExampleVerifier_Handler_typedContent() {
	cfg := webhook.Config{Username: "shopwebhooks", Password: "pw", Sources: webhook.ProductionSources}
	v, err := webhook.NewVerifier(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	expected := map[string]checkout.Amount{"ord_1001": "1499.00", "ord_1002": "20.00"} // what each cart asked for
	h := v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		switch ev.Name {
		case webhook.OrderSucceeded:
			order, err := ev.Order()
			if err != nil {
				return err // 500: the service re-sends
			}
			if err := order.CheckPaid(expected[order.OrderID]); err != nil {
				fmt.Println("hold", order.OrderID, "-", err)
				return nil // paid, but not as expected: hold it for a person
			}
			fmt.Println("fulfil", order.OrderID, order.Amount, order.PaymentMethodType, order.TxnDetail.Gateway)
		case webhook.OrderRefunded:
			refund, err := ev.Refund()
			if err != nil {
				return err
			}
			fmt.Println("refunded", ev.OrderID(), refund.UniqueRequestID, refund.Status, refund.Amount)
		default:
			fmt.Println("acknowledge", ev.Name)
		}
		return nil
	})

	for _, body := range []string{
		`{"id":"evt_1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_1001","status":"CHARGED","status_id":21,
			"amount":"1499.00","payment_method_type":"CARD","txn_detail":{"txn_id":"shop-ord_1001-1","gateway":"DUMMY","status":"CHARGED"}}}}`,
		`{"id":"evt_2","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_1002","status":"CHARGED","amount":"2.00"}}}`,
		`{"id":"evt_3","event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"ord_1001","status":"CHARGED",
			"refunds":[{"unique_request_id":"rf_1","status":"SUCCESS","amount":"100.00"}]}}}`,
		`{"id":"evt_4","event_name":"ORDER_GIFTED","content":{"order":{"order_id":"ord_1003"}}}`,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, webhook.NewTestRequest(cfg, []byte(body)))
		fmt.Println(rec.Code)
	}
	// Output:
	// fulfil ord_1001 1499.00 CARD DUMMY
	// 200
	// hold ord_1002 - checkout: check paid: order "ord_1002" amount is 2.00, expected 20.00
	// 200
	// refunded ord_1001 rf_1 SUCCESS 100.00
	// 200
	// acknowledge ORDER_GIFTED
	// 200
}

// Order, Transaction, Mandate and Refund read the content by its shape and
// say what an event lacks.
func ExampleEvent_Order() {
	ev, err := webhook.ParseEvent([]byte(`{"id":"evt_5","event_name":"TXN_FAILED","content":{"txn":{"order_id":"ord_7",
		"txn_id":"shop-ord_7-1","status":"AUTHORIZATION_FAILED","error_message":"Not sufficient funds"}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := ev.Order(); errors.Is(err, webhook.ErrNoContent) {
		fmt.Println(err)
	}
	txn, err := ev.Transaction()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(txn.OrderID, txn.TxnID, txn.Status, txn.Status.IsFinal(), txn.ErrorMessage)
	// Output:
	// checkout: read webhook content: TXN_FAILED event carries no order (its content holds "txn")
	// ord_7 shop-ord_7-1 AUTHORIZATION_FAILED true Not sufficient funds
}

// Verify alone, for a framework with its own routing and reply handling.
func ExampleVerifier_Verify() {
	cfg := webhook.Config{Username: "shopwebhooks", Password: "pw", Sources: webhook.SandboxSources}
	v, err := webhook.NewVerifier(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := webhook.NewTestRequest(cfg, []byte(`{"id":"evt_2","event_name":"TXN_FAILED","content":{"txn":{"order_id":"ord_7","status":"AUTHORIZATION_FAILED"}}}`))
	ev, err := v.Verify(r)
	fmt.Println(ev.Kind(), ev.OrderID(), ev.Status(), err)

	r = webhook.NewTestRequest(cfg, []byte(`{"event_name":"X"}`))
	r.Header.Set("Authorization", webhook.BasicAuthorization("shopwebhooks", "guess"))
	_, err = v.Verify(r)
	fmt.Println(errors.Is(err, webhook.ErrBadCredentials), webhook.StatusFor(err))
	// Output:
	// txn ord_7 AUTHORIZATION_FAILED <nil>
	// true 401
}

// NewVerifier fails closed: no credentials and no source list is an error,
// not a receiver that accepts anything.
func ExampleNewVerifier_failClosed() {
	_, err := webhook.NewVerifier(webhook.Config{Username: "shop.hooks"})
	var ve *webhook.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// Username: must not contain '.'
	// Password: required
	// Sources: required: use ProductionSources or SandboxSources, or set AllowAnySource
}

// Encrypted webhooks: the body is {"JWT": "<compact JWE>"}.
// In production the keys come from PEM files (NewJWEDecrypterFromPEM); here
// Seal plays the service.
func ExampleNewJWEDecrypter() {
	merchant, _ := rsa.GenerateKey(rand.Reader, 2048)
	service, _ := rsa.GenerateKey(rand.Reader, 2048)
	dec, err := webhook.NewJWEDecrypter(webhook.JWEConfig{PrivateKey: merchant, VerificationKey: &service.PublicKey})
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := webhook.Config{Username: "shopwebhooks", Password: "pw", Sources: webhook.ProductionSources, Decrypter: dec}
	v, err := webhook.NewVerifier(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	token, err := webhook.Seal([]byte(`{"id":"evt_3","event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"ord_9","status":"CHARGED"}}}`),
		webhook.SealOptions{Recipient: &merchant.PublicKey, Signer: service})
	if err != nil {
		fmt.Println(err)
		return
	}
	ev, err := v.Verify(webhook.NewTestRequest(cfg, []byte(`{"JWT":"`+token+`"}`)))
	fmt.Println(ev.Encrypted, ev.Name, ev.OrderID(), err)
	// Output:
	// true ORDER_REFUNDED ord_9 <nil>
}
