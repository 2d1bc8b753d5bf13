package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// TestValidateRejects: each bad emiOptions gets a problem at its JSON path
// with a message saying what is wrong.
func TestValidateRejects(t *testing.T) {
	f := false
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
		{"method type mis-cased", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "consumer_finance", PaymentMethod: "LAZYPAY"})
		}, "emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `did you mean "CONSUMER_FINANCE"`},
		{"show only EMI with every type disabled", func(*testing.T) *emi.Options {
			return emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI()
		}, "emiOptions.showOnlyEmi", "nothing would be visible"},
		{"mis-cased older spelling", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "wallets"})
		}, "emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `did you mean "WALLETS"`},
		{"mis-cased key", func(t *testing.T) *emi.Options {
			return wiretest.Decode[emi.Options](t, `{"noCostEmi":{"enable":true},"ShowOnlyEmi":true}`)
		}, "emiOptions.ShowOnlyEmi", `did you mean "showOnlyEmi"`},
		{"misplaced key", func(t *testing.T) *emi.Options {
			return wiretest.Decode[emi.Options](t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuers":["SVC_HDFC"]}]}}}`)
		}, "emiOptions.noCostEmi.credit.filters[0].issuers", "does not belong in an emiFilter"},
		{"Extra overriding a modelled key", func(*testing.T) *emi.Options {
			return &emi.Options{ShowOnlyEMI: &f, Extra: map[string]json.RawMessage{"showOnlyEmi": json.RawMessage(`true`)}}
		}, "emiOptions.showOnlyEmi", "is a modelled key"},
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
		"a filter naming no plans":            emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{}),
		"groups inside a disabled plan type":  emi.New().DisableGroup(emi.NoCost, emi.Credit).Disable(emi.NoCost),
		"filters inside a disabled group":     emi.New().RemoveIssuers(emi.LowCost, emi.Debit, "SVC_SBI").DisableGroup(emi.LowCost, emi.Debit),
		"an empty filters list":               {NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{}}}},
		"a misspelt key (the service ignores keys it does not know)": wiretest.Decode[emi.Options](t, `{"noCostEmi":{"enable":true,"credt":{"enable":false}}}`),
	}
	for name, o := range tests {
		require.NoError(t, o.Validate(), name)
	}
}

// TestVisibility: the sdk_udf values, case exact, at path sdk_udf.
func TestVisibility(t *testing.T) {
	require.Equal(t, emi.Visibility("showEMI"), emi.Show)
	require.Equal(t, emi.Visibility("hideEMI"), emi.Hide)
	require.Equal(t, emi.Visibility("ShowEMIWithoutCards"), emi.ShowWithoutCards)
	for _, v := range []emi.Visibility{emi.Show, emi.Hide, emi.ShowWithoutCards, ""} {
		require.NoError(t, v.Validate(), v)
	}
	require.False(t, emi.Visibility("").Valid())
	// Values the SDK does not know pass: the service may know more.
	for _, v := range []emi.Visibility{"show", " showEMI", "showEMIOnly"} {
		require.False(t, v.Valid(), v)
		require.NoError(t, v.Validate(), v)
	}
	tests := map[emi.Visibility]string{
		"showemi":             `did you mean "showEMI"`,
		"HideEMI":             `did you mean "hideEMI"`,
		"showEMIWithoutCards": `did you mean "ShowEMIWithoutCards"`,
	}
	for v, fragment := range tests {
		require.False(t, v.Valid(), v)
		wiretest.RequireProblem(t, v.Validate(), "sdk_udf", fragment)
	}
}
