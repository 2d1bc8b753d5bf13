package checkout

import (
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// The rules of the request types are plain code that write the wire key of
// each problem where the rule is. This test reads the real keys from the
// types' json and url tags (reflection in a test, never on the call path),
// triggers every rule of every request type's Validate, and fails
// when a problem's path names a key no type sends: a typo in a rule's key
// ("oder_id") fails here.
func TestProblemPathsNameRealKeys(t *testing.T) {
	keys := map[string]bool{}
	addTagKeys(keys, reflect.TypeFor[SessionRequest](), "json", "")
	addTagKeys(keys, reflect.TypeFor[Mandate](), "json", "")          // top-level keys of the body, written by MarshalJSON
	keys["mandate.start_date"], keys["mandate.end_date"] = true, true // the dates' text, written by MarshalJSON
	for _, typ := range []reflect.Type{
		reflect.TypeFor[OrderRequest](), reflect.TypeFor[UpdateOrderRequest](), reflect.TypeFor[RefundRequest](),
		reflect.TypeFor[TransactionRefundRequest](), reflect.TypeFor[CustomerRequest](), reflect.TypeFor[UpdateCustomerRequest](),
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
	check("session without action", problemsOf((&SessionRequest{Amount: "-1", Mandate: &Mandate{Option: MandateRequired}}).Validate()))

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

	update := &UpdateOrderRequest{Amount: "1.0.0", ShippingAddress: &Address{Line1: "\xff"}, Extra: map[string]string{"amount": "1"}}
	check("update Validate", problemsOf(update.Validate()))
	check("refund Validate", problemsOf((&RefundRequest{Amount: "0"}).Validate()))
	check("transaction refund Validate", problemsOf((&TransactionRefundRequest{Amount: "x", RefundType: "\xff"}).Validate()))
	customer := &CustomerRequest{ObjectReferenceID: "c1", EmailAddress: "x", FirstName: "\xff", MobileCountryCode: "+91"}
	check("customer Validate", problemsOf(customer.Validate()))
	check("customer update Validate", problemsOf((&UpdateCustomerRequest{LastName: "\xff"}).Validate()))

	_, err := orderPath(" ")
	check("order path", problemsOf(err))
	_, err = customerPath("..")
	check("customer path", problemsOf(err))
	links := &OrderRequest{OrderID: "o1", Amount: "1", CollectionLinks: &CollectionLinks{Links: []CollectionLink{{Method: CollectionQR, Expiry: 90 * time.Second}}}}
	check("collection link expiry", problemsOf(links.Validate()))

	// The sub-packages own the paths below their keys; their own tests
	// check those.
	require.True(t, namesRealKey("payment_filter.options[0].enable", keys, collection, extra))
	require.False(t, namesRealKey("oder_id", keys, collection, extra), "a typo is caught")
	require.False(t, namesRealKey("metadata[0].Gatway", keys, collection, extra))
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
		case "payment_filter", "product_summary", "sdk_udf":
			return true
		case "payment_collection_link_details":
			return collectionPath(rest, collection)
		case "metadata":
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

// Extra values with invalid UTF-8 anywhere inside, and keys that are not
// valid UTF-8 or that a typed field writes, are refused by Validate and
// MarshalJSON; keys that are empty or hold control characters can be sent
// (package lint reports them).
func TestSessionExtraChecked(t *testing.T) {
	for _, tc := range []struct {
		extra map[string]any
		path  string
		msg   string
	}{
		{map[string]any{"udf1": "a\xffb"}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": map[string]any{"x": []any{"ok", "\xfe"}}}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": map[string]string{"\xff": "v"}}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": []string{"a", "b\xc0"}}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": json.RawMessage("\"\xff\"")}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": &struct{ Name string }{"\xff"}}, "udf1", "not valid UTF-8"},
		{map[string]any{"\xffkey": "v"}, `"\xffkey"`, "not valid UTF-8"},
		{map[string]any{"order_id": "v"}, "order_id", "typed field"},
		{map[string]any{"customer_id": "v"}, "customer_id", "typed field"},
		// Values JSON cannot hold are refused by Validate as by encoding.
		{map[string]any{"x": math.Inf(1)}, "x", "cannot be encoded as JSON"},
		{map[string]any{"x": []any{1.0, math.NaN()}}, "x", "cannot be encoded as JSON"},
		{map[string]any{"x": make(chan int)}, "x", "cannot be encoded as JSON"},
		{map[string]any{"x": json.RawMessage(`{"a":`)}, "x", "cannot be encoded as JSON"},
		{map[string]any{"x": json.Number("12abc")}, "x", "cannot be encoded as JSON"},
	} {
		r := baseSession()
		r.Extra = tc.extra
		for _, err := range []error{r.Validate(), func() error { _, err := json.Marshal(r); return err }()} {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve, "%q", tc.extra)
			require.Len(t, ve.Problems, 1, "%v", ve)
			require.Equal(t, tc.path, ve.Problems[0].Path)
			require.Contains(t, ve.Problems[0].Message, tc.msg)
		}
	}
	for _, tc := range []struct {
		extra map[string]any
		path  string
		msg   string
	}{
		{map[string]any{"bad\x00key": "v"}, `"bad\x00key"`, "control characters"},
		{map[string]any{"bad\nkey": "v"}, `"bad\nkey"`, "control characters"},
		{map[string]any{"": "v"}, "", "empty key"},
	} {
		r := baseSession()
		r.Extra = tc.extra
		require.NoError(t, r.Validate())
		body, err := json.Marshal(r)
		require.NoError(t, err)
		require.Equal(t, "v", wiretest.Object(t, body)[slices.Sorted(maps.Keys(tc.extra))[0]], "sent as given")
	}
	r := baseSession()
	r.Extra = map[string]any{"udf1": map[string]any{"x": []any{"ok", json.Number("1")}}, "udf2": "ü"}
	require.NoError(t, r.Validate())
}

func TestOrderExtraChecked(t *testing.T) {
	for _, tc := range []struct {
		extra map[string]string
		path  string
		msg   string
		lint  bool // advice only: Validate passes
	}{
		{map[string]string{"udf1": "a\xffb"}, "udf1", "not valid UTF-8", false},
		{map[string]string{"\xff": "v"}, `"\xff"`, "not valid UTF-8", false},
		{map[string]string{"amount": "5"}, "amount", "typed field", false},
		{map[string]string{"udf\x001": "v"}, `"udf\x001"`, "control characters", true},
		{map[string]string{"udf\x7f": "v"}, `"udf\x7f"`, "control characters", true},
		{map[string]string{"": "v"}, "", "empty key", true},
	} {
		r := fullOrder()
		r.Extra = tc.extra
		if tc.lint {
			require.NoError(t, r.Validate(), "sent as given: package lint reports it")
			continue
		}
		var ve *ValidationError
		require.ErrorAs(t, r.Validate(), &ve)
		_, err := r.Values()
		require.ErrorAs(t, err, &ve)
		require.Len(t, ve.Problems, 1, "%v", ve.Problems)
		require.Equal(t, tc.path, ve.Problems[0].Path)
		require.Contains(t, ve.Problems[0].Message, tc.msg)
	}
}

func TestInvalidUTF8IsAProblemNotAFixUp(t *testing.T) {
	r := baseSession()
	r.Description = "caf\xe9"
	r.Extra = map[string]any{"udf\xff": "x"}
	err := r.Validate()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("description"))
	require.True(t, ve.Has(`"udf\xff"`))

	o := &OrderRequest{OrderID: "o", Amount: "1.00", BillingAddress: &Address{City: "K\xf6ln"},
		Extra: map[string]string{"udf1": "\xff"}}
	err = o.Validate()
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("billing_address_city"))
	require.True(t, ve.Has("udf1"))
}

// sessionKeys returns every key a typed field of SessionRequest writes when
// set, read from the json tags (reflection in a test): its declaration.
func sessionKeys() map[string]bool {
	keys := map[string]bool{}
	addTagKeys(keys, reflect.TypeFor[SessionRequest](), "json", "")
	addTagKeys(keys, reflect.TypeFor[Mandate](), "json", "")
	keys["mandate.start_date"], keys["mandate.end_date"] = true, true // the dates' text
	return keys
}
