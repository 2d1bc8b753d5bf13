package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/validation"
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
		{"method type mis-cased", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "consumer_finance", PaymentMethod: "LAZYPAY"})
		}, "emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `did you mean "CONSUMER_FINANCE"`},
		{"show only EMI with every type disabled", func(*testing.T) *emi.Options {
			return emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI()
		}, "emiOptions.showOnlyEmi", "nothing would be visible"},
		{"mis-cased older spelling", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "wallets"})
		}, "emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `did you mean "WALLETS"`},
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

// TestLint: advice on what Validate lets through, at Validate's paths,
// with the value it likely misspells.
func TestLint(t *testing.T) {
	o := emi.New().
		RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC", "ICICI", "JP_SBI").
		RemoveTenures(emi.Standard, emi.Debit, "AXIS", emi.Months(3, 6)).
		AddFilter(emi.LowCost, emi.Cardless, emi.Filter{PaymentMethodType: "CONSUMER_FINANCEE", PaymentMethod: "LAZYPAY"}).
		AddFilter(emi.LowCost, emi.Cardless, emi.Filter{PaymentMethodType: "WALLLET"}).
		AddFilter(emi.LowCost, emi.Cardless, emi.Filter{PaymentMethodType: "BNPL"})
	require.NoError(t, o.Validate(), "advice is not a refusal: the service takes these")
	require.Equal(t, []validation.Problem{
		{Path: "emiOptions.standardEmi.debit.filters[0].issuerFilter.issuers[0]",
			Message: `issuer "AXIS" has no namespace prefix: did you mean "SVC_AXIS"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)`},
		{Path: "emiOptions.lowCostEmi.cardless.filters[0].paymentMethodType",
			Message: `unknown payment method type "CONSUMER_FINANCEE": likely a typo, did you mean "CONSUMER_FINANCE"?`},
		{Path: "emiOptions.lowCostEmi.cardless.filters[1].paymentMethodType",
			Message: `unknown payment method type "WALLLET": likely a typo, did you mean "WALLET"?`},
		{Path: "emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[1]",
			Message: `issuer "ICICI" has no namespace prefix: did you mean "SVC_ICICI"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)`},
	}, o.Lint())

	var none *emi.Options
	require.Nil(t, none.Lint())
	require.Nil(t, emi.New().Lint())
	// A known value in another case is Validate's, not Lint's.
	mistake := emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "wallet"})
	require.Error(t, mistake.Validate())
	require.Nil(t, mistake.Lint())
}

// TestLintQuietOnGoodOptions: the builders' behaviours and the service's
// published samples get no advice.
func TestLintQuietOnGoodOptions(t *testing.T) {
	for _, b := range behaviours() {
		require.Nil(t, b.Build.Lint(), b.Name)
	}
	for _, s := range conformance.Files(t, "emi", "*.json") {
		if s.ValidJSON() {
			o := wiretest.Decode[emi.Options](t, string(sampleEMIOptions(t, s.Data)))
			require.Nil(t, o.Lint(), s.Name)
		}
	}
}
