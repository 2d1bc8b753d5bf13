package paymentfilter_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

// literals are the struct literals a caller would write for each behaviour
// of spec §2.4 and §2.5, keyed by the golden file of behaviours.
func literals() map[string]*pf.Filter {
	yes := true
	hide := func(t pf.MethodType) *pf.Filter {
		return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: t}}}
	}
	card := func(allow bool, cf pf.CardFilter) *pf.Filter {
		return &pf.Filter{AllowDefaultOptions: allow, Options: []pf.Option{
			{PaymentMethodType: pf.Card, Enable: true, CardFilters: []pf.CardFilter{cf}}}}
	}
	methods := func(allow, enable bool, t pf.MethodType, codes ...string) *pf.Filter {
		return &pf.Filter{AllowDefaultOptions: allow, Options: []pf.Option{
			{PaymentMethodType: t, Enable: enable, PaymentMethods: codes}}}
	}
	withEMI := func(allow bool, o *emi.Options) *pf.Filter {
		return &pf.Filter{AllowDefaultOptions: allow, EMIOptions: o}
	}
	icici := func(tenures ...emi.TenureRange) *emi.Options {
		return &emi.Options{NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{{
			Enable: true, PaymentMethodType: emi.Card, PaymentMethod: "CARD",
			IssuerFilter: &emi.IssuerFilter{Issuers: []string{"SVC_ICICI"}, Tenures: tenures},
		}}}}}
	}
	return map[string]*pf.Filter{
		"hide_card.json":   hide(pf.Card),
		"hide_wallet.json": hide(pf.Wallet),
		"hide_nb.json":     hide(pf.NB),
		"hide_cash.json":   hide(pf.Cash),
		"hide_upi.json":    hide(pf.UPI),
		"only_upi.json":    {Options: []pf.Option{{PaymentMethodType: pf.UPI, Enable: true}}},
		"only_card.json":   {Options: []pf.Option{{PaymentMethodType: pf.Card, Enable: true}}},
		"hide_upi_handles_and_apps.json": {AllowDefaultOptions: true, Options: []pf.Option{{
			PaymentMethodType: pf.UPI, Enable: true, UPIFilters: []pf.UPIFilter{
				{UPIType: pf.Collect, UPIMethods: []string{"@ybl", "@okhdfcbank"}},
				{UPIType: pf.Intent, UPIMethods: []string{"PHONEPE", "GPAY", "PAYTM"}},
			}}}},
		"hide_credit_cards.json":             card(true, pf.CardFilter{CardTypes: []pf.CardType{pf.Credit}}),
		"only_credit_cards.json":             card(false, pf.CardFilter{Enable: true, CardTypes: []pf.CardType{pf.Credit}}),
		"hide_bin_ranges.json":               card(true, pf.CardFilter{CardBins: []pf.BINRange{{From: "459000", To: "460000"}}}),
		"hide_visa.json":                     card(true, pf.CardFilter{CardBrands: []string{"VISA"}}),
		"hide_visa_credit.json":              card(true, pf.CardFilter{CardBrands: []string{"VISA"}, CardTypes: []pf.CardType{pf.Credit}}),
		"hide_specific_wallets.json":         methods(true, false, pf.Wallet, "LAZYPAY", "SIMPL"),
		"hide_nb_hdfc.json":                  methods(true, false, pf.NB, "NB_HDFC"),
		"only_nb_hdfc.json":                  methods(false, true, pf.NB, "NB_HDFC"),
		"mandate_only_nb_hdfc.json":          methods(false, true, pf.NB, "NB_HDFC", "SVC_HDFC"),
		"mandate_hide_wallet_paytm.json":     methods(true, false, pf.Wallet, "PAYTM", "SVC_PAYTM"),
		"mandate_only_consumer_finance.json": methods(false, true, pf.ConsumerFinance, "LAZYPAY", "SVC_LAZYPAY"),
		"emi_show_only.json":                 withEMI(true, &emi.Options{ShowOnlyEMI: &yes}),
		"emi_only_no_cost.json": withEMI(true, &emi.Options{StandardEMI: &emi.SubFilter{}, LowCostEMI: &emi.SubFilter{},
			NoCostEMI: &emi.SubFilter{Enable: true}, ShowOnlyEMI: &yes}),
		"emi_no_cost_types.json": withEMI(true, &emi.Options{StandardEMI: &emi.SubFilter{}, LowCostEMI: &emi.SubFilter{},
			NoCostEMI: &emi.SubFilter{Enable: true}}),
		"emi_all_types_only.json": withEMI(false, &emi.Options{StandardEMI: &emi.SubFilter{Enable: true},
			LowCostEMI: &emi.SubFilter{Enable: true}, NoCostEMI: &emi.SubFilter{Enable: true}}),
		"emi_hide_all.json": withEMI(true, &emi.Options{StandardEMI: &emi.SubFilter{}, LowCostEMI: &emi.SubFilter{},
			NoCostEMI: &emi.SubFilter{}}),
		"emi_hide_no_cost_credit.json": withEMI(true, &emi.Options{StandardEMI: &emi.SubFilter{Enable: true},
			LowCostEMI: &emi.SubFilter{Enable: true}, NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{}}}),
		"emi_remove_icici_tenure_9_12.json": withEMI(true, icici(emi.TenureRange{From: 9, To: 12})),
		"emi_remove_icici.json":             withEMI(true, icici()),
	}
}

// TestChainEqualsLiteral: for every behaviour of spec §2.4 and §2.5 (hide
// each type, only UPI, UPI apps and handles, credit cards, BIN ranges,
// specific wallets, mandate codes, with EMI) the fluent chain equals the
// struct literal a caller would write, and that literal encodes to the
// behaviour's golden file: a chain keeps no trace of its calls.
func TestChainEqualsLiteral(t *testing.T) { wiretest.RunLiterals(t, behaviours(), literals()) }

// TestOtherChainsEqualLiterals: the other chains the tests and DESIGN.md
// write without a conflict equal their literals too, merges included.
func TestOtherChainsEqualLiterals(t *testing.T) {
	tests := []struct {
		name  string
		chain *pf.Filter
		lit   *pf.Filter
	}{
		{"New()", pf.New(), &pf.Filter{AllowDefaultOptions: true}},
		{"Only()", pf.Only(), &pf.Filter{}}, // Not valid alone: nothing visible.
		{"nil receiver", (*pf.Filter)(nil).Hide(pf.Cash),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Cash}}}},
		{"hide wallet, as the brief's acceptance test writes it", pf.New().Hide(pf.Wallet),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Wallet, Enable: false}}}},
		{"only UPI and wallets", pf.Only(pf.UPI, pf.Wallet),
			&pf.Filter{Options: []pf.Option{{PaymentMethodType: pf.UPI, Enable: true}, {PaymentMethodType: pf.Wallet, Enable: true}}}},
		{"hide twice", pf.New().Hide(pf.Cash, pf.Cash).Hide(pf.Cash),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Cash}}}},
		{"methods merge", pf.New().HideMethods(pf.Wallet, "PAYTM").HideMethods(pf.Wallet, "SIMPL"),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{
				{PaymentMethodType: pf.Wallet, PaymentMethods: []string{"PAYTM", "SIMPL"}}}}},
		{"only cards, but not credit", pf.Only(pf.Card).HideCardTypes(pf.Credit),
			&pf.Filter{Options: []pf.Option{{PaymentMethodType: pf.Card, Enable: true,
				CardFilters: []pf.CardFilter{{CardTypes: []pf.CardType{pf.Credit}}}}}}},
		{"card filters merge by criterion", pf.New().HideCardBrands("AMEX").HideCardBanks("SBI").HideCardBrands("DINERS"),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Card, Enable: true,
				CardFilters: []pf.CardFilter{{CardBrands: []string{"AMEX", "DINERS"}}, {CardBanks: []string{"SBI"}}}}}}},
		{"show after card filters", pf.New().HideCardTypes(pf.Credit).Show(pf.Card),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Card, Enable: true,
				CardFilters: []pf.CardFilter{{CardTypes: []pf.CardType{pf.Credit}}}}}}},
		{"UPI apps on only UPI", pf.Only(pf.UPI).HideUPIApps("GPAY"),
			&pf.Filter{Options: []pf.Option{{PaymentMethodType: pf.UPI, Enable: true,
				UPIFilters: []pf.UPIFilter{{UPIType: pf.Intent, UPIMethods: []string{"GPAY"}}}}}}},
		{"a UPI filter as given", pf.New().AddUPIFilter(pf.UPIFilter{UPIType: pf.Collect}),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.UPI, Enable: true,
				UPIFilters: []pf.UPIFilter{{UPIType: pf.Collect}}}}}},
		{"an option as given", pf.New().AddOption(pf.Option{PaymentMethodType: pf.Reward}),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Reward}}}},
		{"EMI replaced", pf.New().EMI(emi.New().OnlyEMI()).EMI(emi.New().Disable(emi.Standard)),
			&pf.Filter{AllowDefaultOptions: true, EMIOptions: &emi.Options{StandardEMI: &emi.SubFilter{}}}},
		{"EMI removed", pf.New().EMI(emi.New().OnlyEMI()).EMI(nil), &pf.Filter{AllowDefaultOptions: true}},
		{"DESIGN's long chain", pf.New().Hide(pf.Wallet).HideCardTypes(pf.Credit).
			HideUPIHandles("@ybl").HideUPIApps("PHONEPE").HideMandateMethods("", pf.NB, "NB_HDFC").
			EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit)),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{
				{PaymentMethodType: pf.Wallet},
				{PaymentMethodType: pf.Card, Enable: true, CardFilters: []pf.CardFilter{{CardTypes: []pf.CardType{pf.Credit}}}},
				{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: []pf.UPIFilter{
					{UPIType: pf.Collect, UPIMethods: []string{"@ybl"}}, {UPIType: pf.Intent, UPIMethods: []string{"PHONEPE"}}}},
				{PaymentMethodType: pf.NB, PaymentMethods: []string{"NB_HDFC", "SVC_HDFC"}},
			}, EMIOptions: &emi.Options{NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wiretest.RequireLiteral(t, tt.lit, tt.chain)
		})
	}
	require.ErrorContains(t, pf.Only().Validate(), "payment_filter", "the one chain here that Validate rejects")
	for _, tt := range tests[2:] {
		require.NoError(t, tt.chain.Validate(), tt.name)
	}
}

// TestOnlyConflictsAreRecorded: a conflict is what sets the unexported
// record, so a conflicting chain does not equal the literal of the blocks
// it encodes; a rejected EMI call travels inside EMIOptions the same way.
func TestOnlyConflictsAreRecorded(t *testing.T) {
	conflicting := pf.New().Hide(pf.Wallet).Show(pf.Wallet)
	lit := &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{
		{PaymentMethodType: pf.Wallet}, {PaymentMethodType: pf.Wallet, Enable: true}}}
	require.Equal(t, wiretest.JSONString(t, lit), wiretest.JSONString(t, conflicting))
	require.NotEqual(t, lit, conflicting)
	require.ErrorContains(t, conflicting.Validate(), "conflicts with")
	require.NotContains(t, lit.Validate().Error(), "conflicts with")

	rejected := pf.New().EMI(emi.New().Enable(emi.NoCost).Disable(emi.Plan(9)))
	litEMI := &pf.Filter{AllowDefaultOptions: true, EMIOptions: &emi.Options{NoCostEMI: &emi.SubFilter{Enable: true}}}
	require.Equal(t, wiretest.JSONString(t, litEMI), wiretest.JSONString(t, rejected))
	require.NotEqual(t, litEMI, rejected)
	require.Error(t, rejected.Validate())
	require.NoError(t, litEMI.Validate())
}
