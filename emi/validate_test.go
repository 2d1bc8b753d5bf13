package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// TestValidateRejects: each bad emiOptions gets a problem at its JSON path
// with a message saying what is wrong.
func TestValidateRejects(t *testing.T) {
	wiretest.RunRejections(t, []wiretest.Rejection[*emi.Options]{
		{"tenure from above to", func(*testing.T) *emi.Options {
			return emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(3, 6), emi.Months(12, 9))
		}, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]", "from greater than to"},
		{"tenure of zero months", func(*testing.T) *emi.Options {
			return emi.New().RemoveTenures(emi.Standard, emi.Debit, "SVC_SBI", emi.Months(0, 3))
		}, "emiOptions.standardEmi.debit.filters[0].issuerFilter.tenures[0]", "starts below 1 month"},
		{"malformed tenure decoded", func(t *testing.T) *emi.Options {
			return wiretest.Decode[emi.Options](t, `{"lowCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["3-6"],"enable":false}}]}}}`)
		}, "emiOptions.lowCostEmi.cardless.filters[0].issuerFilter.tenures[0]", `malformed tenure range "3-6"`},
		{"show only EMI with every type disabled", func(*testing.T) *emi.Options {
			return emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI()
		}, "emiOptions.showOnlyEmi", "nothing would be visible"},
	})
}

// TestValidateAccepts: nil is not sent, and good options pass, including
// what the service takes that looks odd: empty options ({} is in the
// service's own samples), issuers of any prefix or listed twice, method
// types the SDK does not know, empty lists, and groups inside a disabled
// plan type.
func TestValidateAccepts(t *testing.T) {
	var nilOptions *emi.Options
	require.NoError(t, nilOptions.Validate())
	for _, b := range behaviours() {
		require.NoError(t, b.Build.Validate(), b.Name)
	}
	tests := map[string]*emi.Options{
		"tenures":                             emi.New().RemoveTenures(emi.Standard, emi.Credit, "SVC_HDFC", emi.Months(3, 3), emi.Months(6, 9), emi.Months(1, 120)),
		"an unknown key":                      wiretest.Decode[emi.Options](t, `{"noCostEmi":{"enable":true},"futureSwitch":"on"}`),
		"empty options":                       emi.New(),
		"empty decoded":                       wiretest.Decode[emi.Options](t, `{}`),
		"issuers of any kind":                 emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "JP_HDFC", "ICICI", "SVC_hdfc", "JP_HDFC"),
		"an issuer filter naming nothing":     emi.New().RemoveIssuers(emi.NoCost, emi.Debit),
		"a method type the SDK does not know": emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "BNPL"}),
		"the older spelling WALLETS":          emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "WALLETS"}),
		"a method type in another case (paymentfilter's Validate checks it)": emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "card"}),
		"a filter naming no plans":                                   emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{}),
		"groups inside a disabled plan type":                         emi.New().DisableGroup(emi.NoCost, emi.Credit).Disable(emi.NoCost),
		"filters inside a disabled group":                            emi.New().RemoveIssuers(emi.LowCost, emi.Debit, "SVC_SBI").DisableGroup(emi.LowCost, emi.Debit),
		"an empty filters list":                                      {NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{}}}},
		"a misspelt key (the service ignores keys it does not know)": wiretest.Decode[emi.Options](t, `{"noCostEmi":{"enable":true,"credt":{"enable":false}}}`),
	}
	for name, o := range tests {
		require.NoError(t, o.Validate(), name)
	}
}

// Filters walks the plans in the order standard, low cost, no cost and the
// groups credit, debit, cardless, yields the filters themselves, and stops
// when told.
func TestFilters(t *testing.T) {
	o := emi.New().
		AddFilter(emi.NoCost, emi.Cardless, emi.Filter{PaymentMethod: "c"}).
		AddFilter(emi.Standard, emi.Debit, emi.Filter{PaymentMethod: "a"}).
		AddFilter(emi.Standard, emi.Debit, emi.Filter{PaymentMethod: "b"})
	var paths, methods []string
	for path, f := range o.Filters() {
		paths, methods = append(paths, path), append(methods, f.PaymentMethod)
		f.Enable = true
	}
	require.Equal(t, []string{
		"emiOptions.standardEmi.debit.filters[0]",
		"emiOptions.standardEmi.debit.filters[1]",
		"emiOptions.noCostEmi.cardless.filters[0]",
	}, paths)
	require.Equal(t, []string{"a", "b", "c"}, methods)
	require.True(t, o.NoCostEMI.Cardless.Filters[0].Enable, "the filter itself, not a copy")

	n := 0
	for range o.Filters() {
		n++
		break
	}
	require.Equal(t, 1, n)
	for range (*emi.Options)(nil).Filters() {
		t.Fatal("nil options hold no filter")
	}
}
