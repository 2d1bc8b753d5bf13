package paymentfilter_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// TestLint: advice on what Validate lets through, at Validate's paths,
// with the value it likely misspells.
func TestLint(t *testing.T) {
	f := pf.New().
		HideCardTypes("CREDTI", pf.Debit, "PREPAIDX").
		Hide("WALLLET", "CRYPTO").
		AddUPIFilter(pf.UPIFilter{UPIType: "INTNET", UPIMethods: []string{"GPAY"}}).
		EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI"))
	require.NoError(t, f.Validate(), "advice is not a refusal: the service takes these")
	require.Equal(t, []validation.Problem{
		{Path: "payment_filter.options[0].cardFilters[0].cardTypes[0]", Message: `unknown card type "CREDTI": likely a typo, did you mean "CREDIT"?`},
		{Path: "payment_filter.options[0].cardFilters[0].cardTypes[2]", Message: `unknown card type "PREPAIDX": the service documents DEBIT, CREDIT only`},
		{Path: "payment_filter.options[1].paymentMethodType", Message: `unknown payment method type "WALLLET": likely a typo, did you mean "WALLET"?`},
		{Path: "payment_filter.options[3].upiFilters[0].upiType", Message: `unknown UPI type "INTNET": likely a typo, did you mean "INTENT"?`},
		{Path: "payment_filter.emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[0]",
			Message: `issuer "ICICI" has no namespace prefix: did you mean "SVC_ICICI"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)`},
	}, f.Lint())

	var none *pf.Filter
	require.Nil(t, none.Lint())
	require.Nil(t, pf.New().Lint())
	// What Validate refuses (a known value in another case) is not advice.
	mistake := pf.New().HideCardTypes("credit").Hide("wallet")
	require.Error(t, mistake.Validate())
	require.Nil(t, mistake.Lint())
}

// TestLintQuietOnGoodFilters: the builders' behaviours and the service's
// published samples get no advice.
func TestLintQuietOnGoodFilters(t *testing.T) {
	for _, b := range behaviours() {
		require.Nil(t, b.Build.Lint(), b.Name)
	}
	require.Nil(t, largestFilter().Lint())
	for _, s := range filterSamples(t) {
		if !s.ValidJSON() || negative(s) {
			continue
		}
		var f pf.Filter
		require.NoError(t, json.Unmarshal(samplePaymentFilter(t, s.Data), &f), s.Name)
		require.Nil(t, f.Lint(), s.Name)
	}
}

// Lint gives advice on values the service takes but that are probably
// mistakes. Validate lets them through.
func ExampleFilter_Lint() {
	f := pf.New().HideCardTypes("CREDTI").Hide("WALLLET").
		EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI"))
	fmt.Println(f.Validate())
	for _, p := range f.Lint() {
		fmt.Println(p)
	}
	// Output:
	// <nil>
	// payment_filter.options[0].cardFilters[0].cardTypes[0]: unknown card type "CREDTI": likely a typo, did you mean "CREDIT"?
	// payment_filter.options[1].paymentMethodType: unknown payment method type "WALLLET": likely a typo, did you mean "WALLET"?
	// payment_filter.emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[0]: issuer "ICICI" has no namespace prefix: did you mean "SVC_ICICI"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)
}

// TestLintHideAfterOnly (issue 29.4): after Only, a block that hides a type
// or its methods does nothing, since only enabled options are shown; Lint
// says so at that block, and Validate lets it through.
func TestLintHideAfterOnly(t *testing.T) {
	f := pf.Only(pf.UPI, pf.Card).HideMethods(pf.Wallet, "PAYTM")
	require.NoError(t, f.Validate())
	require.Equal(t, []validation.Problem{{Path: "payment_filter.options[2]",
		Message: "has no effect: it hides WALLET, which is not shown anyway: allowDefaultOptions is false, so only the options enabled here are shown; remove the block"}}, f.Lint())
	require.Len(t, pf.Only(pf.UPI).Hide(pf.Cash).Lint(), 1, "a whole type too")
	require.Empty(t, pf.New().HideMethods(pf.Wallet, "PAYTM").Lint(), "with the defaults shown, the hide works")
	grey := pf.Only(pf.UPI).AddOption(pf.Option{PaymentMethodType: pf.Wallet, Display: true, DisplayMessage: "Soon"})
	require.Empty(t, grey.Lint(), "a greyed-out block shows something")
}
