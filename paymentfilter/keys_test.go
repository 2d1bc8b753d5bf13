package paymentfilter_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// modelTypes are the types of a payment filter, emiOptions included.
func modelTypes() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[pf.Filter](), reflect.TypeFor[pf.Option](), reflect.TypeFor[pf.CardFilter](), reflect.TypeFor[pf.UPIFilter](),
		reflect.TypeFor[emi.Options](), reflect.TypeFor[emi.SubFilter](), reflect.TypeFor[emi.Group](),
		reflect.TypeFor[emi.Filter](), reflect.TypeFor[emi.IssuerFilter](),
	}
}

// realKeys are the keys the json tags of the model types declare, and the
// other spellings decoding accepts.
func realKeys() map[string]bool {
	keys := map[string]bool{}
	for _, t := range modelTypes() {
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "-" && name != "" {
				keys[name] = true
			}
		}
	}
	for _, k := range []string{"cardBrand", "cardBin", "cardType", "cardSubType", "cardBank", "issuerFilters"} {
		keys[k] = true
	}
	return keys
}

// extraKeys are the keys held in the Extra maps of v and below: a problem
// about an Extra key is at that key, which is not a real key.
func extraKeys(v reflect.Value, keys map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			extraKeys(v.Elem(), keys)
		}
	case reflect.Slice:
		for i := range v.Len() {
			extraKeys(v.Index(i), keys)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if f := v.Field(i); v.Type().Field(i).Name == "Extra" {
				for _, k := range f.MapKeys() {
					keys[k.String()] = true
				}
			} else {
				extraKeys(f, keys)
			}
		}
	}
}

// requireRealPaths checks that every problem of err has a path from
// payment_filter whose segments are real keys (or Extra keys of v) and
// indexes.
func requireRealPaths(t *testing.T, name string, err error, v any) {
	t.Helper()
	keys := realKeys()
	extraKeys(reflect.ValueOf(v), keys)
	wiretest.RequirePathsNameKeys(t, name, err, "payment_filter", keys)
}

// invalidFilters trigger every rule of Validate at least once (go test
// -cover shows validate.go, conflict.go and binrange.go covered).
func invalidFilters(t *testing.T) map[string]*pf.Filter {
	card := func(cf ...pf.CardFilter) pf.Option {
		return pf.Option{PaymentMethodType: pf.Card, Enable: true, CardFilters: cf}
	}
	upi := func(uf ...pf.UPIFilter) pf.Option {
		return pf.Option{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: uf}
	}
	withExtra := func(f *pf.Filter, extra map[string]json.RawMessage) *pf.Filter { f.Extra = extra; return f }
	return map[string]*pf.Filter{
		"conflicting calls":       pf.New().Hide(pf.Wallet).Show(pf.Wallet).HideMethods(pf.NB, "NB_SBI").AddOption(pf.Option{PaymentMethodType: pf.NB}),
		"shown and hidden values": pf.New().HideUPIApps("GPAY").ShowUPIApps("GPAY").ShowCardTypes(pf.Credit).HideCardTypes(pf.Credit),
		"duplicate block and method type mistakes": {AllowDefaultOptions: true, Options: []pf.Option{
			{PaymentMethodType: pf.NB}, {PaymentMethodType: pf.NB}, {PaymentMethodType: "wallet"}, {Enable: true}}},
		"methods on CARD and UPI, filters elsewhere, disabled filters": {AllowDefaultOptions: true, Options: []pf.Option{
			{PaymentMethodType: pf.Card, PaymentMethods: []string{"VISA"}, CardFilters: []pf.CardFilter{{}}},
			{PaymentMethodType: pf.UPI, PaymentMethods: []string{"GPAY"}, UPIFilters: []pf.UPIFilter{{}}},
			{PaymentMethodType: pf.Wallet, CardFilters: []pf.CardFilter{{}}, UPIFilters: []pf.UPIFilter{{}}}}},
		"card and UPI filter values": {AllowDefaultOptions: true, Options: []pf.Option{
			card(pf.CardFilter{CardBins: []pf.BINRange{{From: "9", To: "1"}, {From: "x", To: "1"}}, CardTypes: []pf.CardType{"credit"}}),
			upi(pf.UPIFilter{UPIType: pf.Collect, UPIMethods: []string{"ybl", "@"}}, pf.UPIFilter{UPIType: pf.Intent, UPIMethods: []string{"@ybl"}},
				pf.UPIFilter{UPIType: "intent"})}},
		"malformed BIN text":                         decoded(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBin":["1-2","a::1","::1","12::3"]}]}]}`),
		"nothing visible, allowDefaultOptions false": {},
		"nothing visible, every type hidden":         {AllowDefaultOptions: true, Options: hideAll()},
		"Extra at every level": decoded(t, `{"allowDefaultOptions":true,"Options":[],"issuers":[],"options":[
			{"paymentMethodType":"CARD","enable":true,"Enable":true,"tenures":[],"cardFilters":[{"enable":false,"CardBrands":[],"upiType":"x"}]},
			{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"enable":false,"UpiType":"x","cardBins":[]}]}]}`),
		"Extra setting modelled keys, and not JSON": withExtra(pf.New().Hide(pf.Cash),
			map[string]json.RawMessage{"options": json.RawMessage(`[]`), "display": json.RawMessage(`{`)}),
		"EMI rules": pf.New().EMI(emi.New().Disable(emi.Plan(9)).Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI().
			RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(6, 3)).
			AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "card"})),
	}
}

// invalidBodies are payment_filter bodies decoding refuses, one for each
// kind of decoding problem.
func invalidBodies() map[string]string {
	return map[string]string{
		"not an object":            `[]`,
		"missing required keys":    `{"AllowDefaultOptions":true,"options":[{"Enable":true}]}`,
		"null required":            `{"allowDefaultOptions":null}`,
		"wrong kinds":              `{"allowDefaultOptions":"yes","options":{}}`,
		"wrong kinds in an option": `{"allowDefaultOptions":true,"options":["CARD",{"paymentMethodType":7,"enable":true,"paymentMethods":[1],"cardFilters":{},"upiFilters":[[]]}]}`,
		"card filter values": `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[
			{"enable":false,"cardBin":[1],"cardTypes":[true],"cardBrand":"VISA","cardSubTypes":["A"],"cardSubType":["B"],"cardBank":[{}]}]}]}`,
		"UPI filter values": `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"enable":1,"upiType":"","upiMethods":[null,2]}]}]}`,
		"EMI values": `{"allowDefaultOptions":true,"emiOptions":{"noCostEmi":{"credit":{"enable":true,"filters":[
			{"enable":true,"paymentMethod":"","issuerFilter":{},"issuerFilters":{}},{"issuerFilters":{"tenures":[3],"issuers":"x"}}]}},"showOnlyEmi":"true"}}`,
	}
}

// TestProblemPathsNameRealKeys: every problem Validate, Lint or decoding reports
// is at a path whose segments are keys the types declare in their json
// tags (or accept as another spelling), indexes, or the Extra key the
// problem is about. A typo in the key a rule writes fails here.
func TestProblemPathsNameRealKeys(t *testing.T) {
	for name, f := range invalidFilters(t) {
		requireRealPaths(t, name, f.Validate(), f)
	}
	lint := pf.New().HideCardTypes("CREDTI", "PREPAIDX").Hide("WALLLET").AddUPIFilter(pf.UPIFilter{UPIType: "INTNET"}).
		EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI").AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "UIP"}))
	requireRealPaths(t, "Lint", &validation.Error{Problems: lint.Lint()}, lint)
	for name, body := range invalidBodies() {
		var f pf.Filter
		err := json.Unmarshal([]byte(body), &f)
		requireRealPaths(t, name, err, rawKeys([]byte(body)))
	}
}

// rawKeys returns a value holding, as Extra keys, every key of the JSON
// body: a decoding problem may name a key the body misspelt.
func rawKeys(body []byte) pf.Filter {
	extra := map[string]json.RawMessage{}
	for k := range wiretest.Keys(body) {
		extra[k] = nil
	}
	return pf.Filter{Extra: extra}
}

// TestCloneSharesNothing: a copy made by Clone is equal to a filter with
// every field set at every level, Extra included, and shares no pointer,
// slice or map with it.
func TestCloneSharesNothing(t *testing.T) {
	f := decoded(t, `{"allowDefaultOptions":true,"x":1,"options":[
		{"paymentMethodType":"CARD","enable":true,"paymentMethods":["A"],"y":2,"cardFilters":[{"enable":false,"cardBrands":["V"],"cardBins":["1::2","bad"],"cardTypes":["CREDIT"],"cardSubTypes":["B"],"cardBanks":["S"],"z":3}],
		 "upiFilters":[{"upiType":"INTENT","enable":false,"upiMethods":["G"],"w":4}]}],
		"emiOptions":{"standardEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["I"],"tenures":["3::6"],"enable":false,"a":5},"b":6}],"c":7},"debit":{"enable":true},"cardless":{"enable":true},"d":8},
		"lowCostEmi":{"enable":true},"noCostEmi":{"enable":true},"showOnlyEmi":true,"e":9}}`).Hide(pf.Card)
	for _, c := range []any{f.Clone(), f.EMIOptions.Clone(), f.Options[0].Clone(), f.Options[0].CardFilters[0].Clone(),
		f.Options[0].UPIFilters[0].Clone(), f.EMIOptions.StandardEMI.Clone(), f.EMIOptions.StandardEMI.Credit.Clone(),
		f.EMIOptions.StandardEMI.Credit.Filters[0].Clone(), f.EMIOptions.StandardEMI.Credit.Filters[0].IssuerFilter.Clone()} {
		orig := originalOf(f, c)
		require.True(t, reflect.DeepEqual(orig, c), "%T", c)
		requireDisjoint(t, reflect.ValueOf(orig), reflect.ValueOf(c), reflect.TypeOf(c).String())
	}
}

// originalOf returns the value of f that c is a copy of, found by type.
func originalOf(f *pf.Filter, c any) any {
	switch c.(type) {
	case *pf.Filter:
		return f
	case *emi.Options:
		return f.EMIOptions
	case *pf.Option:
		return &f.Options[0]
	case *pf.CardFilter:
		return &f.Options[0].CardFilters[0]
	case *pf.UPIFilter:
		return &f.Options[0].UPIFilters[0]
	case *emi.SubFilter:
		return f.EMIOptions.StandardEMI
	case *emi.Group:
		return f.EMIOptions.StandardEMI.Credit
	case *emi.Filter:
		return &f.EMIOptions.StandardEMI.Credit.Filters[0]
	}
	return f.EMIOptions.StandardEMI.Credit.Filters[0].IssuerFilter
}

// requireDisjoint fails when a and b, equal values, share the memory of a
// pointer, slice or map (unexported fields included).
func requireDisjoint(t *testing.T, a, b reflect.Value, path string) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return
		}
		require.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		requireDisjoint(t, a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Cap() > 0 {
			require.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		}
		for i := range a.Len() {
			requireDisjoint(t, a.Index(i), b.Index(i), path+"[]")
		}
	case reflect.Map:
		if a.IsNil() {
			return
		}
		require.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		for _, k := range a.MapKeys() {
			requireDisjoint(t, a.MapIndex(k), b.MapIndex(k), path+"["+k.String()+"]")
		}
	case reflect.Struct:
		for i := range a.NumField() {
			requireDisjoint(t, a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)
		}
	}
}

// TestKeysOfEveryObjectAreChecked: the keys Extra may not set and the
// misplaced keys Validate names cover every key of the tags: a key put
// through Extra into the wrong object is reported wherever it belongs.
func TestKeysOfEveryObjectAreChecked(t *testing.T) {
	for k := range realKeys() {
		f := pf.New()
		f.Extra = map[string]json.RawMessage{strings.ToUpper(k): json.RawMessage(`1`)}
		err := f.Validate()
		require.Error(t, err, "an Extra key %q in another case is not reported", strings.ToUpper(k))
		if !slices.Contains([]string{"allowDefaultOptions", "options", "emiOptions"}, k) {
			require.ErrorContains(t, err, `key "`+k+`" does not belong in payment_filter`)
		}
	}
}
