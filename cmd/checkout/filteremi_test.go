package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

// The --emi-* flags build emiOptions as package emi's methods do, in the
// order given, beside the other flags, and on top of a --file.
func TestFilterEMIFlags(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want *paymentfilter.Filter
	}{
		"only no-cost": {[]string{"--emi-only-no-cost"}, paymentfilter.New().EMI(emi.New().OnlyNoCost())},
		"only EMI, and =false adds nothing": {[]string{"--emi-only", "--emi-only-no-cost=false"},
			paymentfilter.New().EMI(emi.New().OnlyEMI())},
		"plans enabled and disabled in order": {[]string{"--emi-disable", "standardEmi,lowCostEmi", "--emi-enable", "noCostEmi", "--emi-enable", "lowCostEmi"},
			paymentfilter.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost).Enable(emi.LowCost))},
		"groups": {[]string{"--emi-disable-group", "noCostEmi.credit", "--emi-enable-group", "standardEmi.cardless"},
			paymentfilter.New().EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit).EnableGroup(emi.Standard, emi.Cardless))},
		"issuers and tenures, with a payment filter": {[]string{"--hide", "WALLET", "--emi-remove-issuers", "noCostEmi.debit:SVC_ICICI,SVC_HDFC",
			"--emi-remove-tenures", "noCostEmi.credit:SVC_ICICI:9::12,18::24", "--hide-card-types", "CREDIT"},
			paymentfilter.New().Hide(paymentfilter.Wallet).
				EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Debit, "SVC_ICICI", "SVC_HDFC").
					RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12), emi.Months(18, 24))).
				HideCardTypes(paymentfilter.Credit)},
	} {
		t.Run(name, func(t *testing.T) {
			r := cli(t, nil, append([]string{"filter", "--compact"}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			want, err := json.Marshal(tc.want)
			require.NoError(t, err)
			require.JSONEq(t, string(want), r.stdout)
			require.Contains(t, r.stdout, `"emiOptions":`)
		})
	}

	// A refused combination is the SDK's refusal, as for the other flags:
	// showOnlyEmi with every plan type disabled leaves nothing to show.
	r := cli(t, nil, "filter", "--emi-only", "--emi-disable", "standardEmi,lowCostEmi,noCostEmi")
	require.Equal(t, 1, r.code, r.stdout)
	require.Contains(t, r.stderr, "checkout filter: payment_filter.emiOptions")
	require.Empty(t, r.stdout)
}

// The preview shows what the EMI flags leave of the page's EMI plans.
func TestFilterEMIFlagsPreview(t *testing.T) {
	r := cli(t, nil, "filter", "--preview", "--emi-disable-group", "noCostEmi.credit")
	require.Equal(t, 0, r.code, r.stderr)
	f := paymentfilter.New().EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit))
	require.Equal(t, visibleValues(f, ""), shownValues(r.stdout))
	require.NotEqual(t, visibleValues(paymentfilter.New(), ""), visibleValues(f, ""), "the flag changes what the page shows")
	require.Contains(t, r.stdout, "payment_filter.emiOptions.noCostEmi.credit")
}
