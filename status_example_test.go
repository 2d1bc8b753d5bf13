package checkout_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	checkout "github.com/payorch/checkout-go"
)

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
