package checkouttest

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/validation"
)

// The fake reads a form body into the request type of package checkout that
// the client encodes it from, with the keys the service documents written
// out here (not read from the client's tags: a key the client misspells is
// then a key the fake does not know, as it is for the service), so that
// the type's own Validate decides what is refused.

// formOK reads the form into a request with read and, when the service
// would refuse it, writes the refusal; it reports whether the handler goes
// on.
func formOK[T interface{ Validate() error }](w http.ResponseWriter, p *problems, r *http.Request, body []byte, read func(*formReader) T) (T, bool) {
	var req T
	if mt := mediaType(r); mt != "application/x-www-form-urlencoded" {
		p.bad("Content-Type", fmt.Sprintf("must be application/x-www-form-urlencoded, got %q", r.Header.Get("Content-Type")))
	} else if form, err := url.ParseQuery(string(body)); err != nil {
		p.bad("body", "is not a well-formed form: "+err.Error())
	} else {
		req, _, err = readValues(form, read)
		if err == nil {
			err = req.Validate()
		}
		if err != nil {
			p.refuse(err, formDoc(form))
		}
	}
	if !p.empty() {
		p.write(w)
		return req, false
	}
	return req, true
}

// versionedFormOK is formOK for the calls whose version header is
// optional: the header is checked as optionalVersion checks it, and its
// problems are refused together with the form's.
func versionedFormOK[T interface{ Validate() error }](w http.ResponseWriter, r *http.Request, body []byte, read func(*formReader) T) (T, bool) {
	p := &problems{}
	optionalVersion(p, r)
	return formOK(w, p, r, body, read)
}

// readValues reads form with read: the request, and a *validation.Error
// naming each key that could not be read.
func readValues[T any](form url.Values, read func(*formReader) T) (T, url.Values, error) {
	f := &formReader{form: form, used: map[string]bool{}}
	req := read(f)
	return req, form, f.problems.Err()
}

// formReader reads the keys of a form as the service does: each key once;
// what cannot be read is a problem at its key.
type formReader struct {
	form     url.Values
	used     map[string]bool
	problems validation.Error
}

// text returns the value of key, "" when absent. A key sent more than once
// is a problem: a field holds one value.
func (f *formReader) text(key string) string {
	vals, ok := f.form[key]
	if !ok {
		return ""
	}
	f.used[key] = true
	if len(vals) != 1 {
		f.problems.Add(key, "is sent "+strconv.Itoa(len(vals))+" times")
		return ""
	}
	return vals[0]
}

// flag returns the value of key as a boolean: "true" or "false".
func (f *formReader) flag(key string) bool {
	text := f.text(key)
	if text != "" && text != "true" && text != "false" {
		f.problems.Add(key, strconv.Quote(text)+" is neither true nor false")
	}
	return text == "true"
}

// address returns the address sent under prefix (billing_address,
// shipping_address), nil when none of its keys is there.
func (f *formReader) address(prefix string) *checkout.Address {
	a := &checkout.Address{}
	for _, field := range []struct {
		key string
		dst *string
	}{
		{"first_name", &a.FirstName}, {"last_name", &a.LastName}, {"line1", &a.Line1}, {"line2", &a.Line2},
		{"line3", &a.Line3}, {"city", &a.City}, {"state", &a.State}, {"country", &a.Country},
		{"postal_code", &a.PostalCode}, {"phone", &a.Phone}, {"country_code_iso", &a.CountryCodeISO},
	} {
		*field.dst = f.text(prefix + "_" + field.key)
	}
	if *a == (checkout.Address{}) {
		return nil
	}
	return a
}

// rest returns the keys not read yet, for a request's Extra; nil when
// there are none.
func (f *formReader) rest() map[string]string {
	var out map[string]string
	for _, k := range slices.Sorted(maps.Keys(f.form)) {
		if f.used[k] {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = f.text(k)
	}
	return out
}

// readOrder reads the form of POST /orders.
func readOrder(f *formReader) *checkout.OrderRequest {
	r := &checkout.OrderRequest{
		OrderID: f.text("order_id"), Amount: checkout.Amount(f.text("amount")), Currency: f.text("currency"),
		CustomerID: f.text("customer_id"), CustomerEmail: f.text("customer_email"), CustomerPhone: f.text("customer_phone"),
		ProductID: f.text("product_id"), ReturnURL: f.text("return_url"), Description: f.text("description"),
		BillingAddress: f.address("billing_address"), ShippingAddress: f.address("shipping_address"),
		SubventionAmount:   checkout.Amount(f.text("metadata.subvention_amount")),
		GatewayReferenceID: f.text("metadata." + checkout.DefaultNamespace + ":gateway_reference_id"),
		WebhookURL:         f.text("metadata.webhook_url"),
		ClientAuthToken:    f.flag("options.get_client_auth_token"),
		UDFs: checkout.UDFs{UDF1: f.text("udf1"), UDF2: f.text("udf2"), UDF3: f.text("udf3"), UDF4: f.text("udf4"),
			UDF5: f.text("udf5"), UDF6: f.text("udf6"), UDF7: f.text("udf7"), UDF8: f.text("udf8"),
			UDF9: f.text("udf9"), UDF10: f.text("udf10")},
	}
	f.text("options.get_payment_collection_link") // the flag beside the details, which say what is asked
	if text := f.text("payment_collection_link_details"); text != "" {
		r.CollectionLinks = &checkout.CollectionLinks{}
		if err := r.CollectionLinks.UnmarshalText([]byte(text)); err != nil {
			f.problems.Merge("payment_collection_link_details", err)
		}
	}
	r.Extra = f.rest() // metadata.<GATEWAY>:<key>, …
	return r
}

// readUpdateOrder reads the form of POST /orders/{order_id}.
func readUpdateOrder(f *formReader) *checkout.UpdateOrderRequest {
	return &checkout.UpdateOrderRequest{
		Amount:          checkout.Amount(f.text("amount")),
		BillingAddress:  f.address("billing_address"),
		ShippingAddress: f.address("shipping_address"),
		Extra:           f.rest(),
	}
}

// readRefund reads the form of POST /orders/{order_id}/refunds; other keys
// are ignored, as the service ignores them.
func readRefund(f *formReader) *checkout.RefundRequest {
	return &checkout.RefundRequest{UniqueRequestID: f.text("unique_request_id"), Amount: checkout.Amount(f.text("amount"))}
}

// readTxnRefund reads the form of POST /refunds.
func readTxnRefund(f *formReader) *checkout.TransactionRefundRequest {
	return &checkout.TransactionRefundRequest{
		UniqueRequestID: f.text("unique_request_id"), TxnID: f.text("txn_id"), OrderID: f.text("order_id"),
		Amount: checkout.Amount(f.text("amount")), RefundType: checkout.RefundType(f.text("refund_type")),
	}
}

// readCustomerDetails reads a customer's details, as the customer calls
// send them.
func readCustomerDetails(f *formReader) *checkout.UpdateCustomerRequest {
	return &checkout.UpdateCustomerRequest{
		MobileNumber: f.text("mobile_number"), EmailAddress: f.text("email_address"), FirstName: f.text("first_name"),
		LastName: f.text("last_name"), MobileCountryCode: f.text("mobile_country_code"),
	}
}

// readCreateCustomer reads the form of POST /customers.
func readCreateCustomer(f *formReader) *checkout.CustomerRequest {
	d := readCustomerDetails(f)
	return &checkout.CustomerRequest{
		ObjectReferenceID: f.text("object_reference_id"),
		MobileNumber:      d.MobileNumber, EmailAddress: d.EmailAddress, FirstName: d.FirstName,
		LastName: d.LastName, MobileCountryCode: d.MobileCountryCode,
		ClientAuthToken: f.flag("options.get_client_auth_token"),
	}
}

// customerQuery is the query of GET /customers/{id}.
type customerQuery struct{ checkout.CustomerQuery }

// Validate lets every query through: its one flag was read already.
func (customerQuery) Validate() error { return nil }

// readCustomerQuery reads the query of GET /customers/{id}.
func readCustomerQuery(f *formReader) customerQuery {
	return customerQuery{checkout.CustomerQuery{ClientAuthToken: f.flag("options.get_client_auth_token")}}
}
