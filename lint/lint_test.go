package lint_test

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/lint"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// tagKeys adds to keys the names the tag (json or url) of struct type t
// gives its fields, promoted fields included.
func tagKeys(keys map[string]bool, tag string, types ...reflect.Type) {
	for _, t := range types {
		for _, f := range reflect.VisibleFields(t) {
			if name, _, _ := strings.Cut(f.Tag.Get(tag), ","); f.IsExported() && name != "" && name != "-" {
				keys[name] = true
			}
		}
	}
}

// index matches the indexes of a path segment: "[0][1]".
var index = regexp.MustCompile(`(\[\d+\])+$`)

// The rules of package lint write the wire key of each piece of advice
// where the rule is. This test reads the real keys from the types' tags
// (reflection in a test), triggers every rule of every type, and fails
// when a path names a key no type sends: a typo in a rule's key
// ("oder_id") fails here.
func TestPathsNameRealKeys(t *testing.T) {
	top := map[string]bool{"mandate.start_date": true, "mandate.end_date": true} // written beside the tagged fields
	tagKeys(top, "json", reflect.TypeFor[checkout.SessionRequest](), reflect.TypeFor[checkout.Mandate]())
	tagKeys(top, "url", reflect.TypeFor[checkout.OrderRequest](), reflect.TypeFor[checkout.UpdateOrderRequest](),
		reflect.TypeFor[checkout.CustomerRequest](), reflect.TypeFor[checkout.UpdateCustomerRequest]())
	nested := map[string]bool{ // the JSON text of collection links, a type of its own inside package checkout
		"supported_payment_methods": true, "expiry_details": true, "payment_method": true, "expiry_in_mins": true}
	tagKeys(nested, "json", reflect.TypeFor[pf.Filter](), reflect.TypeFor[pf.Option](), reflect.TypeFor[pf.CardFilter](),
		reflect.TypeFor[pf.UPIFilter](), reflect.TypeFor[emi.Options](), reflect.TypeFor[emi.SubFilter](),
		reflect.TypeFor[emi.Group](), reflect.TypeFor[emi.Filter](), reflect.TypeFor[emi.IssuerFilter]())
	require.True(t, top["payment_filter"] && top["mandate.max_amount"] && top["metadata.subvention_amount"] && top["mobile_number"] &&
		nested["cardTypes"] && nested["issuerFilter"], "the key reader reads the tags")

	real := func(path string) bool {
		switch {
		case path == "" || top[path] || strings.HasPrefix(path, `"`):
			return true // the request, a key, an Extra key quoted
		case top[index.ReplaceAllString(path, "")]:
			return true // metadata[1]
		}
		rest, ok := strings.CutPrefix(path, "emiOptions.")
		for k := range top {
			if r, found := strings.CutPrefix(path, k+"."); found && !ok {
				rest, ok = r, true
			}
		}
		if !ok {
			return false
		}
		for _, seg := range strings.Split(rest, ".") {
			if !nested[index.ReplaceAllString(seg, "")] {
				return false
			}
		}
		return true
	}
	require.False(t, real("oder_id"), "a typo is caught")
	require.False(t, real("payment_filter.options[0].cardTypos[0]"))

	session := &checkout.SessionRequest{
		OrderID: " a-much-too-long-order-id-1 ", Amount: "1.5", CustomerPhone: "+91 98", Action: checkout.PaymentPage,
		ReturnURL: "http://shop.example/return", EMI: "showEMl",
		PaymentFilter: pf.Only(pf.UPI).HideMethods(pf.Wallet, "PAYTM").AddCardFilter(pf.CardFilter{}).HideCardTypes("CREDTI").
			Hide("WALLLET").AddUPIFilter(pf.UPIFilter{UPIType: "INTNET"}).
			EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI").AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "UIP"})),
		Mandate: &checkout.Mandate{Option: "MAYBE", MaxAmount: "0.5", StartDate: time.Unix(-5, 0), EndDate: time.Unix(-10, 0)},
		Extra:   map[string]any{"bad\x00key": "v", "": 1, "udf1": "x"},
	}
	var all []validation.Problem
	all = append(all, lint.Check(session)...)
	all = append(all, lint.Check(&checkout.SessionRequest{Action: checkout.PaymentManagement, OrderID: "o", Amount: "1"})...)
	all = append(all, lint.Check(&checkout.SessionRequest{Action: "enach"})...)
	all = append(all, lint.Check(&checkout.OrderRequest{OrderID: " o", Amount: "01.5", SubventionAmount: "5", CustomerEmail: "a@b",
		CustomerPhone: "9-8", ReturnURL: "https://u:p@shop.example", GatewayMetadata: checkout.GatewayMetadataList{{Gateway: " PAYU", Key: "k"}},
		CollectionLinks: &checkout.CollectionLinks{Links: []checkout.CollectionLink{{Method: "SMS"}, {Method: "SMS"}}},
		Extra:           map[string]string{"": "x"}})...)
	all = append(all, lint.Check(&checkout.OrderRequest{CollectionLinks: &checkout.CollectionLinks{}})...)
	all = append(all, lint.Check(&checkout.UpdateOrderRequest{})...)
	all = append(all, lint.Check(&checkout.UpdateOrderRequest{Amount: "01"})...)
	all = append(all, lint.Check(&checkout.CustomerRequest{ObjectReferenceID: "c1", MobileNumber: "98 76", EmailAddress: "x", MobileCountryCode: "+91"})...)
	all = append(all, lint.Check(&checkout.UpdateCustomerRequest{MobileNumber: "98 76"})...)
	all = append(all, lint.Check(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI"))...)
	require.Greater(t, len(all), 35)
	for _, p := range all {
		require.True(t, real(p.Path), "advice at %q names no key a request sends (%s)", p.Path, p.Message)
	}
}
