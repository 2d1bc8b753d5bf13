package lint_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/lint"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// issuerAdvice is the advice on an issuer code without a namespace prefix.
func issuerAdvice(code string) string {
	return `issuer "` + code + `" has no namespace prefix: did you mean "SVC_` + code +
		`"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)`
}

// TestFilter: advice on what Validate lets through, at Validate's paths,
// with the value it likely misspells.
func TestFilter(t *testing.T) {
	f := pf.New().
		HideCardTypes("CREDTI", pf.Debit, "PREPAIDX").
		Hide("WALLLET", "CRYPTO").
		AddUPIFilter(pf.UPIFilter{UPIType: "INTNET", UPIMethods: []string{"GPAY"}}).
		AddCardFilter(pf.CardFilter{Enable: true}).
		EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI"))
	require.NoError(t, f.Validate(), "advice is not a refusal: the service takes these")
	require.Equal(t, []validation.Problem{
		{Path: "payment_filter.options[0].cardFilters[0].cardTypes[0]", Message: `unknown card type "CREDTI": likely a typo, did you mean "CREDIT"?`},
		{Path: "payment_filter.options[0].cardFilters[0].cardTypes[2]", Message: `unknown card type "PREPAIDX": the service documents DEBIT, CREDIT only`},
		{Path: "payment_filter.options[0].cardFilters[1]", Message: "lists no cardBrands, cardBins, cardTypes, cardSubTypes or cardBanks: it matches every card"},
		{Path: "payment_filter.options[1].paymentMethodType", Message: `unknown payment method type "WALLLET": likely a typo, did you mean "WALLET"?`},
		{Path: "payment_filter.options[3].upiFilters[0].upiType", Message: `unknown UPI type "INTNET": likely a typo, did you mean "INTENT"?`},
		{Path: "payment_filter.emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[0]", Message: issuerAdvice("ICICI")},
	}, lint.Check(f))

	require.Nil(t, lint.Check((*pf.Filter)(nil)))
	require.Nil(t, lint.Check(pf.New()))
	// What Validate refuses (a known value in another case) is not advice.
	mistake := pf.New().HideCardTypes("credit").Hide("wallet")
	require.Error(t, mistake.Validate())
	require.Nil(t, lint.Check(mistake))
}

// TestFilterHideAfterOnly (issue 29.4): after Only, a block that hides a
// type or its methods does nothing, since only enabled options are shown;
// the advice says so at that block, and Validate lets it through.
func TestFilterHideAfterOnly(t *testing.T) {
	f := pf.Only(pf.UPI, pf.Card).HideMethods(pf.Wallet, "PAYTM")
	require.NoError(t, f.Validate())
	require.Equal(t, []validation.Problem{{Path: "payment_filter.options[2]",
		Message: "has no effect: it hides WALLET, which is not shown anyway: allowDefaultOptions is false, so only the options enabled here are shown; remove the block"}}, lint.Check(f))
	require.Len(t, lint.Check(pf.Only(pf.UPI).Hide(pf.Cash)), 1, "a whole type too")
	require.Empty(t, lint.Check(pf.New().HideMethods(pf.Wallet, "PAYTM")), "with the defaults shown, the hide works")
	grey := pf.Only(pf.UPI).AddOption(pf.Option{PaymentMethodType: pf.Wallet, Display: true, DisplayMessage: "Soon"})
	require.Empty(t, lint.Check(grey), "a greyed-out block shows something")
}

// TestEMI: advice on EMI options on their own (paths from emiOptions) and
// inside a filter (from payment_filter.emiOptions), the same advice.
func TestEMI(t *testing.T) {
	o := emi.New().
		RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC", "ICICI", "JP_SBI").
		RemoveTenures(emi.Standard, emi.Debit, "AXIS", emi.Months(3, 6)).
		AddFilter(emi.LowCost, emi.Cardless, emi.Filter{PaymentMethodType: "CONSUMER_FINANCEE", PaymentMethod: "LAZYPAY"}).
		AddFilter(emi.LowCost, emi.Cardless, emi.Filter{PaymentMethodType: "WALLLET"}).
		AddFilter(emi.LowCost, emi.Cardless, emi.Filter{PaymentMethodType: "BNPL"})
	require.NoError(t, o.Validate(), "advice is not a refusal: the service takes these")
	want := []validation.Problem{
		{Path: "emiOptions.standardEmi.debit.filters[0].issuerFilter.issuers[0]", Message: issuerAdvice("AXIS")},
		{Path: "emiOptions.lowCostEmi.cardless.filters[0].paymentMethodType",
			Message: `unknown payment method type "CONSUMER_FINANCEE": likely a typo, did you mean "CONSUMER_FINANCE"?`},
		{Path: "emiOptions.lowCostEmi.cardless.filters[1].paymentMethodType",
			Message: `unknown payment method type "WALLLET": likely a typo, did you mean "WALLET"?`},
		{Path: "emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[1]", Message: issuerAdvice("ICICI")},
	}
	require.Equal(t, want, lint.Check(o))
	inFilter := lint.Check(pf.New().EMI(o))
	require.Len(t, inFilter, len(want))
	for i, p := range inFilter {
		require.Equal(t, validation.Problem{Path: "payment_filter." + want[i].Path, Message: want[i].Message}, p)
	}

	require.Nil(t, lint.Check((*emi.Options)(nil)))
	require.Nil(t, lint.Check(emi.New()))
	// A known value in another case is Validate's (the filter's), not advice.
	mistake := emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "wallet"})
	require.Error(t, pf.New().EMI(mistake).Validate())
	require.Nil(t, lint.Check(mistake))
}

// The service's published filters and EMI options get no advice, bar the
// negative vectors, which give a refusal or advice.
func TestFilterPublishedSamples(t *testing.T) {
	samples := append(conformance.Files(t, "payment_filter", "*.json"), conformance.Files(t, "emi", "*.json")...)
	quiet := 0
	for _, s := range samples {
		if !s.ValidJSON() {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			var f pf.Filter
			require.NoError(t, json.Unmarshal(paymentFilter(t, s.Data), &f))
			advice := lint.Check(&f)
			if strings.Contains(s.Name, "MALFORMED") {
				require.True(t, f.Validate() != nil || len(advice) > 0, "a negative vector is refused or advised on")
				return
			}
			require.Nil(t, advice)
			quiet++
		})
	}
	if len(samples) > 0 {
		require.Greater(t, quiet, 10)
	}
}

// paymentFilter returns the payment_filter of a sample, or the sample
// itself when it is one.
func paymentFilter(t *testing.T, data []byte) json.RawMessage {
	t.Helper()
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &top))
	raw, ok := top["payment_filter"]
	if !ok {
		return data
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return json.RawMessage(text)
	}
	return raw
}
