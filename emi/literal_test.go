package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// literals are the struct literals a caller would write for each behaviour
// of spec §2.5, keyed by the golden file of behaviours.
func literals() map[string]*emi.Options {
	yes := true
	icici := func(tenures ...emi.TenureRange) *emi.SubFilter {
		return &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{{
			Enable: true, PaymentMethodType: emi.Card, PaymentMethod: "CARD",
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
