package checkouttest_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// The form calls, built as Go values and encoded as the client encodes
// them, are judged by the client's Validate and, as raw HTTP requests (not
// through the client, whose own validation would hide the fake's), by the
// fake's own reading of the form. They agree, or the case says why they
// must differ. The session bodies' table is e2e's TestSessionAgreement.

// agreeCase is one request of the table.
type agreeCase struct {
	name   string
	path   string // where the request goes
	body   []byte // the form as the client encodes it
	client error  // what the client's Validate says
	// differs says why the client and the fake must judge this request
	// differently; "" when they agree.
	differs string
}

// formCase encodes req as the client does (its url tags, then Extra) and
// keeps what its Validate says.
func formCase(t *testing.T, name, path string, req interface{ Validate() error }) agreeCase {
	t.Helper()
	form, err := query.Values(req)
	require.NoError(t, err)
	var extra map[string]string
	switch r := req.(type) {
	case *checkout.OrderRequest:
		extra = r.Extra
	case *checkout.UpdateOrderRequest:
		extra = r.Extra
	}
	for k, v := range extra {
		form.Set(k, v)
	}
	return agreeCase{name: name, path: path, body: []byte(form.Encode()), client: req.Validate()}
}

// problemPaths are the paths of the client's problems as the fake names
// them (the body as a whole is "body").
func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	var ve *checkout.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	var out []string
	for _, p := range ve.Problems {
		if p.Path == "" {
			p.Path = "body"
		}
		out = append(out, p.Path)
	}
	return out
}

func TestFormAgreement(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c := newClient(t, s)
	createOrder(t, c, "ord_agree_paid", "100000.00")
	require.NoError(t, s.Pay("ord_agree_paid"))
	createOrder(t, c, "ord_agree_open", "10.00")
	cust, err := c.CreateCustomer(ctxT(t), &checkout.CustomerRequest{ObjectReferenceID: "cust_agree",
		MobileNumber: "9876543210"})
	require.NoError(t, err)

	accepted, refused := 0, 0
	for i, tc := range formCases(t, cust.ID) {
		t.Run(tc.name, func(t *testing.T) {
			h := authHeaders()
			h.Set("version", version)
			h.Set("Content-Type", "application/x-www-form-urlencoded")
			// A fresh id per case, so that the fake's own rule (one
			// order_id, one amount) does not mix in.
			body := bytes.ReplaceAll(tc.body, []byte("{{n}}"), []byte(fmt.Sprint(i)))
			r := send(t, http.MethodPost, s.URL+tc.path, h, body)
			if tc.differs != "" {
				require.NotEqual(t, tc.client == nil, r.status == 200, "the case says they differ (%s): %s\n%s", tc.differs, body, r.body)
				t.Logf("client %v, fake %d: %s", tc.client, r.status, tc.differs)
				return
			}
			if tc.client == nil {
				accepted++
				require.Equal(t, 200, r.status, "the client accepts it, so must the fake: %s\n%s", body, r.body)
			} else {
				refused++
				require.Equal(t, 400, r.status, "the client refuses it (%v), so must the fake: %s\n%s", tc.client, body, r.body)
				require.ElementsMatch(t, problemPaths(t, tc.client), r.fieldNames(), "the same paths: %v", tc.client)
			}
		})
	}
	require.Greater(t, accepted, 10)
	require.Greater(t, refused, 10)
}

// formCases are the form calls, built as Go values and encoded as the
// client encodes them. {{n}} keeps ids unique. Values whose problem is in
// the Go value alone (an Extra key a typed field owns) are left out: their
// form says something else, which is fine.
func formCases(t *testing.T, customerID string) []agreeCase {
	var out []agreeCase
	add := func(name, path string, req interface{ Validate() error }) {
		out = append(out, formCase(t, name, path, req))
	}
	order := func(edit func(r *checkout.OrderRequest)) *checkout.OrderRequest {
		r := &checkout.OrderRequest{OrderID: "ord_f{{n}}", Amount: "10.00"}
		edit(r)
		return r
	}
	add("order: minimal", "/orders", order(func(*checkout.OrderRequest) {}))
	add("order: amount 1", "/orders", order(func(r *checkout.OrderRequest) { r.Amount = "1" }))
	add("order: everything", "/orders", order(func(r *checkout.OrderRequest) {
		r.Currency, r.CustomerID, r.CustomerEmail, r.CustomerPhone, r.ReturnURL = "INR", "c", "a@example.com", "98765", "https://shop.example/r"
		r.BillingAddress = &checkout.Address{City: "Pune", CountryCodeISO: "IND"}
		r.ShippingAddress = &checkout.Address{Line1: "1 Main St"}
		r.GatewayMetadata = checkout.GatewayMetadataList{{Gateway: "PAYU", Key: "offer_key", Value: "diwali"}}
		r.SubventionAmount, r.GatewayReferenceID, r.WebhookURL, r.ClientAuthToken = "1.00", "ref_x", "https://shop.example/h", true
		r.CollectionLinks = &checkout.CollectionLinks{Links: []checkout.CollectionLink{{Method: checkout.CollectionPay}, {Method: checkout.CollectionQR}}}
		r.Extra = map[string]string{"udf1": "x", "metadata.anything": "y"}
	}))
	add("order: unknown collection method", "/orders", order(func(r *checkout.OrderRequest) {
		r.CollectionLinks = &checkout.CollectionLinks{Links: []checkout.CollectionLink{{Method: "UPI_LATER"}, {Method: checkout.CollectionQR}, {Method: checkout.CollectionQR}}}
	}))
	out[len(out)-1].differs = "spec §2.7 lists PAY and QR, so the fake refuses another method; the client sends any method " +
		"it is given (Lint advises), so that one the service adds needs no new client"
	add("order: no order id", "/orders", order(func(r *checkout.OrderRequest) { r.OrderID = "" }))
	add("order: no amount", "/orders", order(func(r *checkout.OrderRequest) { r.Amount = "" }))
	add("order: amount with three places", "/orders", order(func(r *checkout.OrderRequest) { r.Amount = "1.005" }))
	add("order: negative subvention", "/orders", order(func(r *checkout.OrderRequest) { r.SubventionAmount = "-1" }))
	add("order: webhook over http", "/orders", order(func(r *checkout.OrderRequest) { r.WebhookURL = "http://shop.example/h" }))

	add("update: amount", "/orders/ord_agree_open", &checkout.UpdateOrderRequest{Amount: "12", Extra: map[string]string{"udf2": "x"}})
	add("update: address", "/orders/ord_agree_open", &checkout.UpdateOrderRequest{ShippingAddress: &checkout.Address{City: "Goa"}})
	add("update: nothing", "/orders/ord_agree_open", &checkout.UpdateOrderRequest{})
	add("update: bad amount", "/orders/ord_agree_open", &checkout.UpdateOrderRequest{Amount: "ten"})

	add("refund: part", "/orders/ord_agree_paid/refunds", &checkout.RefundRequest{UniqueRequestID: "rf_{{n}}", Amount: "1"})
	add("refund: no id", "/orders/ord_agree_paid/refunds", &checkout.RefundRequest{Amount: "1.00"})
	add("refund: zero", "/orders/ord_agree_paid/refunds", &checkout.RefundRequest{UniqueRequestID: "rf_{{n}}", Amount: "0.00"})
	add("refund: three places", "/orders/ord_agree_paid/refunds", &checkout.RefundRequest{UniqueRequestID: "rf_{{n}}", Amount: "0.001"})

	add("txn refund: by order, instant", "/refunds", &checkout.TransactionRefundRequest{UniqueRequestID: "rf_{{n}}", OrderID: "ord_agree_paid", Amount: "1.00", RefundType: checkout.RefundInstantWithFallback})
	add("txn refund: unknown type", "/refunds", &checkout.TransactionRefundRequest{UniqueRequestID: "rf_{{n}}", OrderID: "ord_agree_paid", Amount: "1.00", RefundType: "SLOW"})
	add("txn refund: neither txn nor order", "/refunds", &checkout.TransactionRefundRequest{UniqueRequestID: "rf_{{n}}", Amount: "1.00"})
	add("txn refund: no id", "/refunds", &checkout.TransactionRefundRequest{OrderID: "ord_agree_paid", Amount: "1.00"})
	add("txn refund: negative", "/refunds", &checkout.TransactionRefundRequest{UniqueRequestID: "rf_{{n}}", OrderID: "ord_agree_paid", Amount: "-1.00"})

	add("customer: create", "/customers", &checkout.CustomerRequest{ObjectReferenceID: "cust_{{n}}",
		MobileNumber: "+91 98765", EmailAddress: "not an email", ClientAuthToken: true})
	add("customer: no reference", "/customers", &checkout.CustomerRequest{MobileNumber: "98765"})
	add("customer: no mobile", "/customers", &checkout.CustomerRequest{ObjectReferenceID: "cust_{{n}}"})
	add("customer: update", "/customers/"+url.PathEscape(customerID), &checkout.UpdateCustomerRequest{FirstName: "Asha"})
	add("customer: update nothing", "/customers/"+url.PathEscape(customerID), &checkout.UpdateCustomerRequest{})
	for i := range out {
		out[i].body = []byte(strings.ReplaceAll(string(out[i].body), url.QueryEscape("{{n}}"), "{{n}}"))
	}
	return out
}
