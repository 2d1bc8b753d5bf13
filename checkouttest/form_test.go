package checkouttest_test

import (
	"bytes"
	"encoding/json"
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
	"github.com/payorch/checkout-go/internal/conformance"
)

// The client and the fake agree on every rule: one table of requests runs
// through the client's Validate and, as raw HTTP requests (not through the
// client, whose own validation would hide the fake's), through the fake.
// The client accepts a request exactly when the fake does, and when both
// refuse, the fake names the same paths.

// agreeCase is one request of the table.
type agreeCase struct {
	name   string
	path   string // where the request goes
	form   bool   // a form body, else JSON
	body   []byte
	client error // what the client's decoding and Validate say
	// published marks a body in the shape of the service's published
	// examples: it must pass, and reach the fake unchanged.
	published bool
}

// sessionCase reads body as the client does (json.Unmarshal into
// checkout.SessionRequest, then Validate).
func sessionCase(name string, body []byte, published bool) agreeCase {
	var req checkout.SessionRequest
	err := json.Unmarshal(body, &req)
	if err == nil {
		err = req.Validate()
	}
	return agreeCase{name: name, path: "/session", body: body, client: err, published: published}
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
	return agreeCase{name: name, path: path, form: true, body: []byte(form.Encode()), client: req.Validate()}
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

func TestClientAndFakeAgree(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c := newClient(t, s)
	createOrder(t, c, "ord_agree_paid", "100000.00")
	require.NoError(t, s.Pay("ord_agree_paid"))
	createOrder(t, c, "ord_agree_open", "10.00")
	cust, err := c.CreateCustomer(ctxT(t), &checkout.CustomerRequest{ObjectReferenceID: "cust_agree",
		MobileNumber: "9876543210"})
	require.NoError(t, err)

	var cases []agreeCase
	// Every published session body.
	for _, dir := range []string{"session", "payment_links", "payment_filter", "product_summary"} {
		for _, f := range conformance.Files(t, dir, "*.body.json") {
			if !f.Negative() && f.ValidJSON() {
				cases = append(cases, sessionCase(dir+"/"+f.Name, f.Data, false))
			}
		}
	}
	cases = append(cases, sessionCases(t)...)
	cases = append(cases, formCases(t, cust.ID)...)

	accepted, refused := 0, 0
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := authHeaders()
			h.Set("version", version)
			h.Set("Content-Type", "application/json")
			if tc.form {
				h.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			// A fresh order id per case, so that the fake's own rule (one
			// order_id, one amount) does not mix in.
			body := bytes.ReplaceAll(tc.body, []byte("{{n}}"), []byte(fmt.Sprint(i)))
			r := send(t, http.MethodPost, s.URL+tc.path, h, body)
			if tc.client == nil {
				accepted++
				require.Equal(t, 200, r.status, "the client accepts it, so must the fake: %s\n%s", body, r.body)
			} else {
				refused++
				require.Equal(t, 400, r.status, "the client refuses it (%v), so must the fake: %s\n%s", tc.client, body, r.body)
				require.ElementsMatch(t, problemPaths(t, tc.client), r.fieldNames(), "the same paths: %v", tc.client)
			}
			if tc.published {
				require.NoError(t, tc.client, "a body in the shape of the service's examples passes Validate")
				reqs := s.Requests()
				last := reqs[len(reqs)-1]
				require.Equal(t, tc.path, last.Path)
				require.Equal(t, string(body), string(last.Body), "it reaches the fake unchanged")
			}
		})
	}
	require.Greater(t, accepted, 40)
	require.Greater(t, refused, 30)
}

// sessionCases are hand-made session bodies, good and bad. {{n}} is
// replaced by a number unique to the case.
func sessionCases(t *testing.T) []agreeCase {
	const base = `"order_id":"ord_a{{n}}","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop"`
	body := func(rest string) []byte { return []byte("{" + base + rest + "}") }
	filter := func(f string) []byte { return body(`,"amount":"10.00","action":"paymentPage","payment_filter":` + f) }
	published := []struct{ name, body string }{
		{"amount 1.0", `{"order_id":"ord_a{{n}}","amount":"1.0","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"paymentPage"}`},
		{"amount 1", `{"order_id":"ord_a{{n}}","amount":"1","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"paymentPage","return_url":"https://shop.example/done"}`},
		{"enach with its service", `{"order_id":"ord_a{{n}}","amount":"1.00","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"enach","service":"in.juspay.hyperapi","options.create_mandate":"REQUIRED","mandate.max_amount":"5000.00","mandate.start_date":"1644420442","mandate.end_date":"1744420442"}`},
		{"guest paymentManagement", `{"customer_id":"guest_1","payment_page_client_id":"shop","action":"paymentManagement"}`},
		{"extra udf and metadata keys", `{"order_id":"ord_a{{n}}","amount":"10.00","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"paymentPage","udf1":"gift","udf10":"x","metadata.PAYU:offer_key":"diwali","metadata.expiryInMins":"15","mobile_country_code":"91","currency":"INR"}`},
		{"WALLETS and joined codes", `{"order_id":"ord_a{{n}}","amount":"10.00","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"paymentPage","payment_filter":{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLETS","enable":false,"paymentMethods":["LAZYPAY,SIMPL"]}]}}`},
		{"older mandate spelling", `{"order_id":"ord_a{{n}}","amount":"10.00","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"paymentPage","options.create_mandate":"OPTIONAL","mandate_max_amount":"100"}`},
		{"gateway reference in another namespace", `{"order_id":"ord_a{{n}}","amount":"10.00","customer_id":"cust_1","customer_phone":"9876543210","customer_email":"a@example.com","payment_page_client_id":"shop","action":"quickPay","metadata.JUSPAY:gateway_reference_id":"ref_1"}`},
	}
	var out []agreeCase
	for _, p := range published {
		out = append(out, sessionCase("published shape: "+p.name, []byte(p.body), true))
	}
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"empty object", []byte(`{}`)},
		{"an array", []byte(`[1]`)},
		{"null", []byte(`null`)},
		{"without action", body(`,"amount":"1.00"`)},
		{"paymentPage without amount", body(`,"action":"paymentPage"`)},
		{"quickPay without phone", []byte(`{"order_id":"ord_a{{n}}","amount":"1.00","customer_id":"c","customer_email":"e","payment_page_client_id":"p","action":"quickPay"}`)},
		{"amount with three places", body(`,"amount":"1.005","action":"paymentPage"`)},
		{"negative amount", body(`,"amount":"-1.00","action":"paymentPage"`)},
		{"amount with an exponent", body(`,"amount":"1e3","action":"paymentPage"`)},
		{"amount as a number", body(`,"amount":12.5,"action":"paymentPage"`)},
		{"amount as a boolean", body(`,"amount":true,"action":"paymentPage"`)},
		{"customer_id as a number", []byte(`{"customer_id":7,"payment_page_client_id":"p","action":"paymentManagement"}`)},
		{"customer_id null", []byte(`{"customer_id":null,"payment_page_client_id":"p","action":"paymentManagement"}`)},
		{"blank customer_id", []byte(`{"customer_id":"  ","payment_page_client_id":"p","action":"paymentManagement"}`)},
		{"webhook over http", body(`,"amount":"1.00","action":"paymentPage","metadata.webhook_url":"http://shop.example/h"`)},
		{"webhook on loopback", body(`,"amount":"1.00","action":"paymentPage","metadata.webhook_url":"http://127.0.0.1:9/h"`)},
		{"mandate option without maximum", body(`,"amount":"1.00","action":"paymentPage","options.create_mandate":"REQUIRED"`)},
		{"mandate date not seconds", body(`,"amount":"1.00","action":"paymentPage","options.create_mandate":"REQUIRED","mandate.max_amount":"9","mandate.start_date":"2024-01-01"`)},
		{"unknown mandate option", body(`,"amount":"1.00","action":"paymentPage","options.create_mandate":"SOMETIMES","mandate.max_amount":"0.5"`)},
		{"sdk_udf mis-cased", body(`,"amount":"1.00","action":"paymentPage","sdk_udf":"showemi"`)},
		{"sdk_udf known", body(`,"amount":"1.00","action":"paymentPage","sdk_udf":"hideEMI"`)},
		{"product summary as an array", body(`,"amount":"1.00","action":"paymentPage","product_summary":[]`)},
		{"product summary not JSON text", body(`,"amount":"1.00","action":"paymentPage","product_summary":"[["`)},
		{"product summary divider without thickness", body(`,"amount":"1.00","action":"paymentPage","product_summary":"[[{\"type\":\"divider\"}]]"`)},
		{"product summary toggleImage", body(`,"amount":"1.00","action":"paymentPage","product_summary":"[[{\"type\":\"toggleImage\",\"url\":\"https://x.example/a.png\"}]]"`)},
		{"gateway reference twice", body(`,"amount":"1.00","action":"paymentPage","metadata.SERVICE:gateway_reference_id":"a","metadata.JUSPAY:gateway_reference_id":"b"`)},
		{"mis-cased top-level key", body(`,"amount":"1.00","action":"paymentPage","Return_URL":"x"`)},
		{"nested metadata object", body(`,"amount":"1.00","action":"paymentPage","metadata":{"webhook_url":"x"}`)},
		{"filter without allowDefaultOptions", filter(`{"options":[]}`)},
		{"filter as a string", filter(`"CARD"`)},
		{"mis-cased method type", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"card","enable":false}]}`)},
		{"mis-cased option key", filter(`{"allowDefaultOptions":true,"options":[{"paymentmethodtype":"CARD","enable":false}]}`)},
		{"enable as a string", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":"true"}]}`)},
		{"singular card key", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardType":["CREDIT"]}]}]}`)},
		{"mis-cased card type", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["credit"]}]}]}`)},
		{"bad BIN ranges", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["460000::459000","45x"]}]}]}`)},
		{"card filters on a disabled CARD", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":false,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`)},
		{"UPI filters on WALLET", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":true,"upiFilters":[{"enable":false}]}]}`)},
		{"paymentMethods on UPI", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":false,"paymentMethods":["GPAY"]}]}`)},
		{"two blocks of one type", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"NB","enable":false},{"paymentMethodType":"NB","enable":true}]}`)},
		{"mis-cased upiType", filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"enable":false,"upiType":"collect"}]}]}`)},
		{"emi sub filter without enable", filter(`{"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{}}}`)},
		{"emi mis-cased key", filter(`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEMI":{"enable":true}}}`)},
		{"emi tenure range", filter(`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":false,"issuerFilter":{"enable":true,"tenures":["9-12"]}}]}}}}`)},
		{"emi showOnlyEmi", filter(`{"allowDefaultOptions":true,"options":[],"emiOptions":{"showOnlyEmi":true}}`)},
	} {
		out = append(out, sessionCase(c.name, c.body, false))
	}
	// Requests built as Go values: the client's Validate on the value, the
	// fake on the body json.Marshal gives.
	good := func() *checkout.SessionRequest {
		return &checkout.SessionRequest{OrderID: "ord_a{{n}}", Amount: "10.00", CustomerID: "cust_1", CustomerPhone: "9876543210",
			CustomerEmail: "a@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage}
	}
	for _, v := range []struct {
		name string
		edit func(r *checkout.SessionRequest)
	}{
		{"value: complete", func(*checkout.SessionRequest) {}},
		{"value: amount from minor", func(r *checkout.SessionRequest) { r.Amount = checkout.AmountFromMinor(1) }},
		{"value: negative amount", func(r *checkout.SessionRequest) { r.Amount = checkout.AmountFromMinor(-5) }},
		{"value: no action", func(r *checkout.SessionRequest) { r.Action = "" }},
		{"value: quickPay without email", func(r *checkout.SessionRequest) { r.Action, r.CustomerEmail = checkout.QuickPay, "" }},
		{"value: mandate without maximum", func(r *checkout.SessionRequest) { r.Mandate = &checkout.Mandate{Option: checkout.MandateRequired} }},
		{"value: webhook over http", func(r *checkout.SessionRequest) { r.WebhookURL = "http://shop.example/h" }},
		{"value: extra keys", func(r *checkout.SessionRequest) {
			r.Extra = map[string]any{"udf2": "x", "service": "in.juspay.hyperapi"}
		}},
	} {
		r := good()
		v.edit(r)
		b, err := json.Marshal(r)
		require.NoError(t, err, v.name)
		out = append(out, agreeCase{name: v.name, path: "/session", body: b, client: r.Validate()})
	}
	return out
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
