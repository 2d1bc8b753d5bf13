package checkout

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// The rules of the request types are plain code that write the wire key of
// each problem where the rule is. This test reads the real keys from the
// types' json and url tags (reflection in a test, never on the call path),
// triggers every rule of every request type's Validate and Lint, and fails
// when a problem's path names a key no type sends: a typo in a rule's key
// ("oder_id") fails here.
func TestProblemPathsNameRealKeys(t *testing.T) {
	keys := map[string]bool{}
	addTagKeys(keys, reflect.TypeFor[sessionWire](), "json", "")
	for _, typ := range []reflect.Type{
		reflect.TypeFor[OrderRequest](), reflect.TypeFor[UpdateOrderRequest](), reflect.TypeFor[RefundRequest](),
		reflect.TypeFor[TransactionRefundRequest](), reflect.TypeFor[CreateCustomerRequest](),
	} {
		addTagKeys(keys, typ, "url", "")
	}
	addTagKeys(keys, reflect.TypeFor[RefundRequest](), "json", "")
	collection := map[string]bool{}
	addTagKeys(collection, reflect.TypeFor[collectionDetails](), "json", "")
	addTagKeys(collection, reflect.TypeFor[expiryDetail](), "json", "")
	require.True(t, keys["billing_address_city"] && keys["mandate.start_date"] && keys["metadata.webhook_url"] &&
		keys["mobile_number"] && keys["product_summary"] && collection["expiry_in_mins"], "the key reader reads the tags")

	extra := map[string]bool{"udf1": true, `"\xffkey"`: true, `"bad\x00key"`: true}
	check := func(what string, problems []Problem) {
		t.Helper()
		require.NotEmpty(t, problems, what)
		for _, p := range problems {
			require.True(t, namesRealKey(p.Path, keys, collection, extra), "%s: problem path %q names no key the request sends (%s)", what, p.Path, p.Message)
		}
	}
	problemsOf := func(err error) []Problem {
		ve, ok := err.(*validation.Error)
		require.True(t, ok, "%v", err)
		return ve.Problems
	}

	session := &SessionRequest{
		OrderID: " a-much-too-long-order-id-1 ", Amount: "1.5", CustomerPhone: "+91 98", CustomerEmail: "not-an-email",
		Action: PaymentPage, ReturnURL: "http://shop.example/return", Description: "caf\xe9",
		EMI: "showemi", PaymentFilter: paymentfilter.New().Hide(paymentfilter.Wallet).Show(paymentfilter.Wallet),
		Mandate:    &Mandate{Option: "MAYBE", MaxAmount: "0.5", StartDate: time.Unix(-5, 0), EndDate: time.Unix(-10, 0)},
		WebhookURL: "http://shop.example/hook", GatewayReferenceID: "r\xff",
		Extra: map[string]any{"udf1": "a\xffb", "order_id": "x", "\xffkey": "v", "bad\x00key": "v"},
	}
	check("session Validate", problemsOf(session.Validate()))
	check("session Lint", session.Lint())
	check("session without action", problemsOf((&SessionRequest{Amount: "-1", Mandate: &Mandate{Option: MandateRequired}}).Validate()))
	check("paymentManagement Lint", (&SessionRequest{Action: PaymentManagement, OrderID: "o", Amount: "1"}).Lint())
	check("unknown action Lint", (&SessionRequest{Action: "enach", Mandate: &Mandate{MaxAmount: "5.00"}}).Lint())

	order := &OrderRequest{
		Amount: "1.005", SubventionAmount: "x", WebhookURL: "ftp://x", CustomerEmail: "a@b", CustomerPhone: "9-8",
		ReturnURL: "https://u:p@shop.example", BillingAddress: &Address{City: "K\xf6ln"},
		GatewayMetadata: GatewayMetadataList{{Gateway: "", Key: "k"}, {Gateway: "PAYU", Key: ""}, {Gateway: " PAYU", Key: "k"},
			{Gateway: "SERVICE", Key: "gateway_reference_id"}, {Gateway: "A", Key: "k"}, {Gateway: "A", Key: "k"}},
		CollectionLinks: &CollectionLinks{Links: []CollectionLink{{Method: "PAY", Expiry: 90 * time.Second},
			{Method: "SMS", Expiry: -time.Minute}, {Method: "PAY"}}},
		Extra: map[string]string{"udf1": "\xff", "amount": "1"},
	}
	check("order Validate", problemsOf(order.Validate()))
	check("order Lint", order.Lint())
	check("empty collection links Lint", (&OrderRequest{CollectionLinks: &CollectionLinks{}}).Lint())

	update := &UpdateOrderRequest{Amount: "1.0.0", ShippingAddress: &Address{Line1: "\xff"}, Extra: map[string]string{"amount": "1"}}
	check("update Validate", problemsOf(update.Validate()))
	check("update Lint", (&UpdateOrderRequest{Amount: "01"}).Lint())
	check("refund Validate", problemsOf((&RefundRequest{Amount: "0"}).Validate()))
	check("transaction refund Validate", problemsOf((&TransactionRefundRequest{Amount: "x", RefundType: "\xff"}).Validate()))
	customer := &CreateCustomerRequest{ObjectReferenceID: "c1", CustomerDetails: CustomerDetails{EmailAddress: "x", FirstName: "\xff", MobileCountryCode: "+91"}}
	check("customer Validate", problemsOf(customer.Validate()))
	check("customer Lint", customer.Lint())
	check("details Lint", (&CustomerDetails{MobileNumber: "98 76"}).Lint())

	_, err := orderPath(" ")
	check("order path", problemsOf(err))
	_, err = customerPath("..")
	check("customer path", problemsOf(err))
	links := &CollectionLinks{}
	check("collection link text", problemsOf(links.UnmarshalText([]byte(`{"supported_payment_methods":["PAY"],"expiry_details":[{"payment_method":"QR","expiry_in_mins":"x"}]}`))))

	// The sub-packages own the paths below their keys; their own tests
	// check those.
	require.True(t, namesRealKey("payment_filter.options[0].enable", keys, collection, extra))
	require.False(t, namesRealKey("oder_id", keys, collection, extra), "a typo is caught")
	require.False(t, namesRealKey("metadata[0].Gatway", keys, collection, extra))
	_ = emi.Show
}

// addTagKeys adds the keys the tag (json or url) of struct type t sends,
// with prefix, following embedded structs, pointers to structs whose fields
// are sent under the field's own key (an address: billing_address_city),
// and skipping "-".
func addTagKeys(keys map[string]bool, t reflect.Type, tag, prefix string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get(tag), ",")
		if name == "-" || name == "" {
			continue
		}
		if ft := f.Type; ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && tag == "url" &&
			ft.Elem() == reflect.TypeFor[Address]() {
			addTagKeys(keys, ft.Elem(), tag, prefix+name+"_")
			continue
		}
		keys[prefix+name] = true
	}
}

// namesRealKey reports whether path names a key of keys: the key itself, an
// element of it ("metadata[2]"), a field of a gateway metadata entry
// (".Gateway", ".Key": the entry's own key is made of them), a key of the
// collection links' JSON text (collection), a path inside a sub-package's
// value (payment_filter, product_summary, sdk_udf), or an Extra key of the
// test's (extra). "" is the request as a whole.
func namesRealKey(path string, keys, collection, extra map[string]bool) bool {
	if path == "" || keys[path] || extra[path] {
		return true
	}
	if _, _, ok := splitGatewayKey(path); ok {
		return true // a gateway metadata entry's own key, metadata.<GATEWAY>:<key>
	}
	for k := range keys {
		rest, ok := strings.CutPrefix(path, k)
		if !ok || rest == "" || (rest[0] != '[' && rest[0] != '.') {
			continue
		}
		switch k {
		case keyPaymentFilter, keyProductSummary, keySDKUDF:
			return true
		case keyCollection:
			return collectionPath(rest, collection)
		case keyMetadata:
			_, field, _ := strings.Cut(rest, "]")
			return field == "" || field == ".Gateway" || field == ".Key"
		}
	}
	return collectionPath("."+path, collection)
}

// collectionPath reports whether rest (".a[0].b") walks keys of the
// collection links' JSON text.
func collectionPath(rest string, collection map[string]bool) bool {
	for seg := range strings.SplitSeq(strings.TrimPrefix(rest, "."), ".") {
		name, _, _ := strings.Cut(seg, "[")
		if !collection[name] {
			return false
		}
	}
	return true
}
