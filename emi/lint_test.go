package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/validation"
)

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

// TestMethodTypeAndVisibilityLint: the advice on the two enums of the
// package, at the paths their Validate uses.
func TestMethodTypeAndVisibilityLint(t *testing.T) {
	require.Equal(t, []validation.Problem{{Path: "paymentMethodType", Message: `unknown payment method type "UIP": likely a typo, did you mean "UPI"?`}},
		emi.MethodType("UIP").Lint())
	for _, ok := range []emi.MethodType{"", emi.Card, "WALLETS", "BNPL", "card"} {
		require.Nil(t, ok.Lint(), ok)
	}
	require.Equal(t, []validation.Problem{{Path: "sdk_udf", Message: `unknown EMI visibility "showEMl": likely a typo, did you mean "showEMI"?`}},
		emi.Visibility("showEMl").Lint())
	require.Equal(t, []validation.Problem{{Path: "sdk_udf", Message: `unknown EMI visibility "show": the service documents showEMI, hideEMI, ShowEMIWithoutCards only`}},
		emi.Visibility("show").Lint())
	for _, v := range []emi.Visibility{"showEMl", "show"} {
		require.NoError(t, v.Validate(), "the service takes values the SDK does not know")
	}
	for _, ok := range []emi.Visibility{"", emi.Show, emi.Hide, emi.ShowWithoutCards, "showemi"} {
		require.Nil(t, ok.Lint(), ok)
	}
}
