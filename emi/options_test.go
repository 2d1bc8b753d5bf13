package emi_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// TestConformanceRoundTrip: the emiOptions of every published sample that is
// JSON decodes and encodes to the same tree (keys case exact); the others
// fail to decode.
func TestConformanceRoundTrip(t *testing.T) {
	for _, s := range conformance.Files(t, "emi", "*.json") {
		t.Run(s.Name, func(t *testing.T) {
			var o emi.Options
			if !s.ValidJSON() {
				require.Error(t, json.Unmarshal(s.Data, &o))
				return
			}
			raw := sampleEMIOptions(t, s.Data)
			require.NoError(t, json.Unmarshal(raw, &o))
			out, err := json.Marshal(o)
			require.NoError(t, err)
			require.Equal(t, wiretest.Tree(t, raw), wiretest.Tree(t, out))
			require.NoError(t, o.Validate())
		})
	}
}

// TestDecodeEncode: what decoding accepts and how it is sent back.
func TestDecodeEncode(t *testing.T) {
	wiretest.RunEncodings[emi.Options](t, []wiretest.Encoding{
		{"issuerFilters is sent back as issuerFilter",
			`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilters":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`,
			`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`},
		{"malformed tenures are kept",
			`{"noCostEmi":{"enable":true,"debit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12"," 3::6","6::3",""],"enable":false}}]}}}`,
			`{"noCostEmi":{"enable":true,"debit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12"," 3::6","6::3",""],"enable":false}}]}}}`},
		{"showOnlyEmi false is kept", `{"showOnlyEmi":false}`, `{"showOnlyEmi":false}`},
		{"empty lists are kept", `{"standardEmi":{"enable":true,"credit":{"enable":true,"filters":[]}}}`,
			`{"standardEmi":{"enable":true,"credit":{"enable":true,"filters":[]}}}`},
		{"unknown keys are dropped",
			`{"z":true,"noCostEmi":{"y":[1],"enable":true},"a":"<"}`,
			`{"noCostEmi":{"enable":true}}`},
	})
}

// TestDecodeErrors: shapes decoding refuses, with what is wrong.
func TestDecodeErrors(t *testing.T) {
	for _, r := range []struct{ name, in, fragment string }{
		{"not an object", `[]`, "cannot unmarshal array"},
		{"showOnlyEmi as text", `{"showOnlyEmi":"true"}`, "showOnlyEmi"},
		{"filters not a list", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":{}}}}`, "filters"},
		{"paymentMethod as a list", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethod":["CARD"]}]}}}`, "paymentMethod"},
		{"both issuer filter spellings", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"enable":false},"issuerFilters":{"enable":false}}]}}}`, "checkout: decode EMI filter: both issuerFilter and issuerFilters are given"},
		{"tenure as a number", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":[3],"enable":false}}]}}}`, "tenures"},
	} {
		t.Run(r.name, func(t *testing.T) {
			var o emi.Options
			require.ErrorContains(t, json.Unmarshal([]byte(r.in), &o), r.fragment)
		})
	}
}

// behaviours are the EMI behaviours listed at the end of spec §2.5, with the
// conformance sample whose emiOptions has the same shape ("" when none has).
func behaviours() []wiretest.Behaviour[*emi.Options] {
	return []wiretest.Behaviour[*emi.Options]{
		{"show only EMI", emi.New().OnlyEMI(), "show_only_emi.json", "emi/payment_filter_emi_showOnlyEmi.json"},
		// Spec §2.5 adds showOnlyEmi true to the sample's shape; the next
		// row builds the sample's shape.
		{"show only no-cost EMI", emi.New().OnlyNoCost(), "only_no_cost.json", ""},
		{"no-cost only among EMI types", emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost), "no_cost_types.json",
			"emi/payment_filter_emi_nocost_only.json"},
		{"all three types", emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost), "all_types.json",
			"emi/payment_filter_emi_all_types_allowDefaultOptions_false.json"},
		{"no type", emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost), "hide_all.json", "emi/payment_filter_emi_hide_all.json"},
		{"standard and no-cost, not low-cost", emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost), "standard_and_no_cost.json", ""},
		{"hide credit-card EMI inside no-cost EMI", emi.New().Enable(emi.Standard, emi.LowCost).DisableGroup(emi.NoCost, emi.Credit),
			"hide_no_cost_credit.json", "emi/payment_filter_emi_hide_nocost_credit.json"},
		{"remove an issuer's plans", emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI"), "remove_issuer.json", ""},
		{"remove an issuer's tenure range", emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12)),
			"remove_tenure.json", "emi/payment_filter_emi_nocost_remove_icici_tenure_9_12.json"},
	}
}

// TestGolden compares each behaviour's emiOptions JSON byte for byte with
// its golden file; every builder output is valid.
func TestGolden(t *testing.T) { wiretest.RunGoldens(t, behaviours()) }

// TestGoldenShapes checks each golden against the emiOptions of the sample
// showing the same behaviour (same tree, key order aside).
func TestGoldenShapes(t *testing.T) {
	wiretest.RunGoldenShapes(t, behaviours(), func(tb testing.TB, sample []byte) any {
		return wiretest.Tree(tb, sampleEMIOptions(tb, sample))
	})
}

// sampleEMIOptions returns the emiOptions of a sample (inside its
// payment_filter, or at the top of a bare payment filter).
func sampleEMIOptions(tb testing.TB, data []byte) json.RawMessage {
	tb.Helper()
	var top map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal(data, &top))
	if raw, ok := top["payment_filter"]; ok {
		top = nil
		require.NoError(tb, json.Unmarshal(raw, &top))
	}
	raw, ok := top["emiOptions"]
	require.True(tb, ok, "sample has no emiOptions")
	return raw
}

// literals are the struct literals a caller would write for each behaviour
// of spec §2.5, keyed by the golden file of behaviours.
func literals() map[string]*emi.Options {
	yes := true
	icici := func(tenures ...emi.TenureRange) *emi.SubFilter {
		return &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{{
			Enable: true, PaymentMethodType: "CARD", PaymentMethod: "CARD",
			IssuerFilter: &emi.IssuerFilter{Issuers: []string{"SVC_ICICI"}, Tenures: tenures},
		}}}}
	}
	return map[string]*emi.Options{
		"show_only_emi.json": {ShowOnlyEMI: &yes},
		"only_no_cost.json": {StandardEMI: &emi.SubFilter{}, LowCostEMI: &emi.SubFilter{},
			NoCostEMI: &emi.SubFilter{Enable: true}, ShowOnlyEMI: &yes},
		"no_cost_types.json": {StandardEMI: &emi.SubFilter{}, LowCostEMI: &emi.SubFilter{}, NoCostEMI: &emi.SubFilter{Enable: true}},
		"all_types.json": {StandardEMI: &emi.SubFilter{Enable: true}, LowCostEMI: &emi.SubFilter{Enable: true},
			NoCostEMI: &emi.SubFilter{Enable: true}},
		"hide_all.json": {StandardEMI: &emi.SubFilter{}, LowCostEMI: &emi.SubFilter{}, NoCostEMI: &emi.SubFilter{}},
		"standard_and_no_cost.json": {StandardEMI: &emi.SubFilter{Enable: true}, LowCostEMI: &emi.SubFilter{},
			NoCostEMI: &emi.SubFilter{Enable: true}},
		"hide_no_cost_credit.json": {StandardEMI: &emi.SubFilter{Enable: true}, LowCostEMI: &emi.SubFilter{Enable: true},
			NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{}}},
		"remove_issuer.json": {NoCostEMI: icici()},
		"remove_tenure.json": {NoCostEMI: icici(emi.TenureRange{From: 9, To: 12})},
	}
}

// TestChainEqualsLiteral: for every behaviour of spec §2.5 the fluent chain
// is reflect.DeepEqual (unexported fields included, as testify's
// require.Equal compares) to the struct literal a caller would write, and
// that literal encodes to the behaviour's golden file. A chain keeps no
// trace of its calls; only a rejected call (see Err) is recorded.
func TestChainEqualsLiteral(t *testing.T) {
	wiretest.RunLiterals(t, behaviours(), literals())

	// New() is the zero Options.
	require.Equal(t, &emi.Options{}, emi.New())

	// A rejected call is what sets the unexported record, so the chain no
	// longer equals the literal of what it encodes.
	rejected := emi.New().Enable(emi.NoCost).Disable(emi.Plan(9))
	require.Error(t, rejected.Validate())
	lit := &emi.Options{NoCostEMI: &emi.SubFilter{Enable: true}}
	require.Equal(t, wiretest.JSONString(t, lit), wiretest.JSONString(t, rejected))
	require.NotEqual(t, lit, rejected)
}

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
// whose segments are real keys and indexes.
func requireRealPaths(t *testing.T, name string, err error, root string) {
	t.Helper()
	wiretest.RequirePathsNameKeys(t, name, err, root, realKeys())
}

// TestProblemPathsNameRealKeys: every problem Validate reports is
// at a path whose segments are keys the types declare in their json tags
// (or accept as another spelling) and indexes; the corpus triggers every
// rule at least once. A typo in the key a rule writes fails here.
func TestProblemPathsNameRealKeys(t *testing.T) {
	invalid := map[string]*emi.Options{
		"rejected calls": emi.New().Disable(emi.Plan(9)).EnableGroup(emi.NoCost, emi.Instrument(7)).
			RemoveIssuers(emi.Plan(0), emi.Credit).AddFilter(emi.Standard, 0, emi.Filter{}),
		"nothing visible": emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI(),
		"tenures":         emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(6, 3), emi.Months(0, 3), emi.Months(1, 1_000_000_000)),
		"malformed tenures": wiretest.Decode[emi.Options](t, `{"lowCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[
			{"enable":true,"issuerFilters":{"tenures":["3-6","03::6","x::y","9::3"],"enable":false}}]}}}`),
	}
	for name, o := range invalid {
		requireRealPaths(t, name, o.Validate(), "emiOptions")
	}
}

// FuzzOptionsDecode: decoding never panics; what decodes re-encodes stably.
func FuzzOptionsDecode(f *testing.F) {
	for _, s := range []string{
		`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]}}}`,
		`{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true,"x":{"y":[null]}}`,
		`{"lowCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[{"enable":false,"issuerFilters":{"tenures":["x"],"enable":true}}]}}}`,
		`null`, `{}`, `[]`, `{"showOnlyEmi":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { wiretest.CheckStable[emi.Options](t, data) })
}
