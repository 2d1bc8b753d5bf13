package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// behaviours are the EMI behaviours listed at the end of spec §2.5, with the
// conformance sample whose emiOptions has the same shape ("" when none has).
func behaviours() []struct {
	name   string
	build  *emi.Options
	golden string
	sample string
} {
	return []struct {
		name   string
		build  *emi.Options
		golden string
		sample string
	}{
		{"show only EMI", emi.New().OnlyEMI(), "show_only_emi.json", "payment_filter_emi_showOnlyEmi.json"},
		// Spec §2.5 adds showOnlyEmi true to the sample's shape; the next
		// row builds the sample's shape.
		{"show only no-cost EMI", emi.New().OnlyNoCost(), "only_no_cost.json", ""},
		{"no-cost only among EMI types", emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost), "no_cost_types.json",
			"payment_filter_emi_nocost_only.json"},
		{"all three types", emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost), "all_types.json",
			"payment_filter_emi_all_types_allowDefaultOptions_false.json"},
		{"no type", emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost), "hide_all.json", "payment_filter_emi_hide_all.json"},
		{"standard and no-cost, not low-cost", emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost), "standard_and_no_cost.json", ""},
		{"hide credit-card EMI inside no-cost EMI", emi.New().Enable(emi.Standard, emi.LowCost).DisableGroup(emi.NoCost, emi.Credit),
			"hide_no_cost_credit.json", "payment_filter_emi_hide_nocost_credit.json"},
		{"remove an issuer's plans", emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI"), "remove_issuer.json", ""},
		{"remove an issuer's tenure range", emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12)),
			"remove_tenure.json", "payment_filter_emi_nocost_remove_icici_tenure_9_12.json"},
	}
}

// TestGolden compares each behaviour's emiOptions JSON byte for byte with
// its golden file; every builder output is valid.
func TestGolden(t *testing.T) {
	for _, b := range behaviours() {
		t.Run(b.name, func(t *testing.T) {
			wiretest.GoldenBuild(t, b.golden, func() (*emi.Options, error) { return b.build, b.build.Validate() })
		})
	}
}

// TestGoldenShapes checks each golden against the emiOptions of the sample
// showing the same behaviour (same tree, key order aside).
func TestGoldenShapes(t *testing.T) {
	for _, b := range behaviours() {
		if b.sample == "" {
			continue
		}
		t.Run(b.name, func(t *testing.T) {
			s := conformance.Files(t, "emi", b.sample)[0]
			golden := wiretest.ReadGolden(t, b.golden)
			require.Equal(t, wiretest.Tree(t, sampleEMIOptions(t, s.Data)), wiretest.Tree(t, golden))
		})
	}
}

// sampleEMIOptions returns the emiOptions of a sample (inside its
// payment_filter, or at the top of a bare payment filter).
func sampleEMIOptions(t *testing.T, data []byte) json.RawMessage {
	t.Helper()
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &top))
	if raw, ok := top["payment_filter"]; ok {
		top = nil
		require.NoError(t, json.Unmarshal(raw, &top))
	}
	raw, ok := top["emiOptions"]
	require.True(t, ok, "sample has no emiOptions")
	return raw
}
