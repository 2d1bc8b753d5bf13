package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

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
