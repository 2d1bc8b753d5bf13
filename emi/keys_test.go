package emi_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/validation"
)

// realKeys are the keys the json tags of the types declare, and the other
// spelling decoding accepts.
func realKeys() map[string]bool {
	keys := map[string]bool{"issuerFilters": true}
	for _, t := range []reflect.Type{reflect.TypeFor[emi.Options](), reflect.TypeFor[emi.SubFilter](),
		reflect.TypeFor[emi.Group](), reflect.TypeFor[emi.Filter](), reflect.TypeFor[emi.IssuerFilter]()} {
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "-" && name != "" {
				keys[name] = true
			}
		}
	}
	return keys
}

// requireRealPaths checks that every problem of err has a path from root
// whose segments are real keys, indexes, or one of the keys allowed (the
// Extra keys a problem is about).
func requireRealPaths(t *testing.T, name string, err error, root string, allowed ...string) {
	t.Helper()
	keys := realKeys()
	for _, k := range allowed {
		keys[k] = true
	}
	wiretest.RequirePathsNameKeys(t, name, err, root, keys)
}

// TestProblemPathsNameRealKeys: every problem Validate, Lint or decoding reports
// is at a path whose segments are keys the types declare in their json
// tags (or accept as another spelling), indexes, or the Extra key the
// problem is about; the corpus triggers every rule at least once (go test
// -cover shows validate.go and tenure.go covered). A typo in the key a
// rule writes fails here.
func TestProblemPathsNameRealKeys(t *testing.T) {
	extra := wiretest.Decode[emi.Options](t, `{"ShowOnlyEmi":true,"issuers":[],"noCostEmi":{"enable":true,"Credit":{},"filters":[],
		"debit":{"enable":true,"Enable":1,"tenures":[],"filters":[{"enable":true,"IssuerFilter":{},"credit":{},
		"issuerFilter":{"enable":false,"Tenures":[],"debit":{}}}]}}}`)
	modelled := &emi.Options{Extra: map[string]json.RawMessage{"showOnlyEmi": json.RawMessage(`true`), "x": json.RawMessage(`{`)}}
	invalid := map[string]*emi.Options{
		"rejected calls": emi.New().Disable(emi.Plan(9)).EnableGroup(emi.NoCost, emi.Instrument(7)).
			RemoveIssuers(emi.Plan(0), emi.Credit).AddFilter(emi.Standard, 0, emi.Filter{}),
		"nothing visible": emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI(),
		"method types": emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "card"}).
			AddFilter(emi.LowCost, emi.Debit, emi.Filter{PaymentMethodType: "Wallets"}),
		"tenures": emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(6, 3), emi.Months(0, 3), emi.Months(1, 1_000_000_000)),
		"malformed tenures": wiretest.Decode[emi.Options](t, `{"lowCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[
			{"enable":true,"issuerFilters":{"tenures":["3-6","03::6","x::y","9::3"],"enable":false}}]}}}`),
		"Extra at every level":              extra,
		"Extra setting a key, and not JSON": modelled,
	}
	for name, o := range invalid {
		requireRealPaths(t, name, o.Validate(), "emiOptions", "ShowOnlyEmi", "Credit", "Enable", "IssuerFilter", "Tenures", "x")
	}

	bodies := map[string]string{
		"not an object":  `[]`,
		"missing enable": `{"lowCostEmi":{"Enable":true},"noCostEmi":{"enable":null,"credit":{"filters":[{"issuerFilter":{}}]}}}`,
		"wrong kinds":    `{"showOnlyEmi":"true","standardEmi":[],"noCostEmi":{"enable":true,"debit":{"enable":true,"filters":{}}}}`,
		"filter values": `{"noCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[3,{"enable":true,"paymentMethodType":"","paymentMethod":[],
			"issuerFilter":{"enable":false},"issuerFilters":{"enable":false}},{"enable":true,"issuerFilters":{"enable":false,"issuers":[1],"tenures":"3::6"}}]}}}`,
	}
	for name, body := range bodies {
		var o emi.Options
		requireRealPaths(t, name, json.Unmarshal([]byte(body), &o), "emiOptions", "Enable")
	}

	lint := emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI").AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "UIP"})
	requireRealPaths(t, "Lint", &validation.Error{Problems: lint.Lint()}, "emiOptions")

	// The sdk_udf switch reports at its own key.
	requireRealPaths(t, "visibility", emi.Visibility("showemi").Validate(), "sdk_udf")
	requireRealPaths(t, "visibility Lint", &validation.Error{Problems: emi.Visibility("showEMl").Lint()}, "sdk_udf")
}
