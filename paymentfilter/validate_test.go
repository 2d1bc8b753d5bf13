package paymentfilter_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// decoded decodes a payment_filter written as JSON, for bad values that only
// arrive by decoding (malformed ranges, unknown keys).
var decoded = wiretest.Decode[pf.Filter]

func hideAll() []pf.Option {
	var out []pf.Option
	for _, t := range pf.MethodTypes() {
		out = append(out, pf.Option{PaymentMethodType: t})
	}
	return out
}

// TestValidateRejects: each bad filter gets a problem at its JSON path with a
// message saying what is wrong.
func TestValidateRejects(t *testing.T) {
	cardOpt := func(cf ...pf.CardFilter) pf.Option {
		return pf.Option{PaymentMethodType: pf.Card, Enable: true, CardFilters: cf}
	}
	upiOpt := func(uf ...pf.UPIFilter) pf.Option {
		return pf.Option{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: uf}
	}
	tests := []wiretest.Rejection[*pf.Filter]{
		{"mis-cased method type", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: "wallet"}}}
		}, "payment_filter.options[0].paymentMethodType", `did you mean "WALLET"`},
		{"missing method type", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{Enable: true}}}
		}, "payment_filter.options[0].paymentMethodType", "missing"},
		{"mis-cased older spelling", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: "Wallets"}}}
		}, "payment_filter.options[0].paymentMethodType", `did you mean "WALLETS"`},
		{"WALLET and WALLETS are one type", func(t *testing.T) *pf.Filter {
			return decoded(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLETS","enable":false},{"paymentMethodType":"WALLET","enable":true}]}`)
		}, "payment_filter.options[1]", "duplicate WALLET block (the first is options[0])"},
		{"duplicate option block", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{
				{PaymentMethodType: pf.NB}, {PaymentMethodType: pf.Wallet}, {PaymentMethodType: pf.NB, PaymentMethods: []string{"NB_SBI"}}}}
		}, "payment_filter.options[2]", "duplicate NB block (the first is options[0])"},
		{"builder contradiction is reported by Validate", func(*testing.T) *pf.Filter {
			return pf.New().Hide(pf.Wallet).Show(pf.Wallet)
		}, "payment_filter.options[1]", "this one shows WALLET as a whole (enable: true, no paymentMethods), the first hides WALLET as a whole"},
		{"builder contradiction decoded is the same", func(t *testing.T) *pf.Filter {
			var f pf.Filter
			require.NoError(t, json.Unmarshal([]byte(wiretest.JSONString(t, pf.New().Hide(pf.Wallet).Show(pf.Wallet))), &f))
			return &f
		}, "payment_filter.options[1]", "this one shows WALLET as a whole (enable: true, no paymentMethods), the first hides WALLET as a whole"},
		{"EMI filter method type mis-cased (this package owns the vocabulary)", func(*testing.T) *pf.Filter {
			return pf.New().EMI(emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "consumer_finance", PaymentMethod: "LAZYPAY"}))
		}, "payment_filter.emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `did you mean "CONSUMER_FINANCE"`},
		{"EMI filter older spelling mis-cased", func(*testing.T) *pf.Filter {
			return pf.New().EMI(emi.New().AddFilter(emi.LowCost, emi.Debit, emi.Filter{PaymentMethodType: "wallets"}))
		}, "payment_filter.emiOptions.lowCostEmi.debit.filters[0].paymentMethodType", `did you mean "WALLETS"`},
		{"rejected EMI call is reported by Validate", func(*testing.T) *pf.Filter {
			return pf.New().EMI(emi.New().Enable(emi.NoCost).DisableGroup(emi.NoCost, emi.Instrument(7)))
		}, "payment_filter.emiOptions.noCostEmi", "DisableGroup(NoCost, Instrument(7)): unknown instrument 7"},
		{"paymentMethods on CARD", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Card, PaymentMethods: []string{"VISA"}}}}
		}, "payment_filter.options[0].paymentMethods", "has no effect on CARD"},
		{"paymentMethods on UPI", func(*testing.T) *pf.Filter {
			return pf.New().HideMethods(pf.UPI, "GPAY")
		}, "payment_filter.options[0].paymentMethods", "has no effect on UPI"},
		{"card filters on WALLET", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Wallet, Enable: true,
				CardFilters: []pf.CardFilter{{CardTypes: []pf.CardType{pf.Credit}}}}}}
		}, "payment_filter.options[0].cardFilters", `card filters apply only to CARD, not "WALLET"`},
		{"UPI filters on CARD", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Card, Enable: true,
				UPIFilters: []pf.UPIFilter{{UPIType: pf.Intent, UPIMethods: []string{"GPAY"}}}}}}
		}, "payment_filter.options[0].upiFilters", "UPI filters apply only to UPI"},
		{"CARD disabled with card filters", func(*testing.T) *pf.Filter {
			o := cardOpt(pf.CardFilter{CardTypes: []pf.CardType{pf.Credit}})
			o.Enable = false
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{o}}
		}, "payment_filter.options[0].enable", "must be true when cardFilters are given"},
		{"UPI disabled with UPI filters", func(*testing.T) *pf.Filter {
			o := upiOpt(pf.UPIFilter{UPIType: pf.Collect, UPIMethods: []string{"@ybl"}})
			o.Enable = false
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{o}}
		}, "payment_filter.options[0].enable", "must be true when upiFilters are given"},
		{"BIN range from above to", func(*testing.T) *pf.Filter {
			return pf.New().HideBINRanges(pf.BINRange{From: "460000", To: "459000"})
		}, "payment_filter.options[0].cardFilters[0].cardBins[0]", "from is greater than to"},
		{"BIN range with letters", func(*testing.T) *pf.Filter {
			return pf.New().HideBINRanges(pf.BINRange{From: "459000", To: "460000"}, pf.BINRange{From: "45900A", To: "460000"})
		}, "payment_filter.options[0].cardFilters[0].cardBins[1]", "from must be decimal digits"},
		{"malformed BIN text decoded", func(t *testing.T) *pf.Filter {
			return decoded(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,
				"cardFilters":[{"enable":false,"cardBins":["459000::460000","459000-460000"]}]}]}`)
		}, "payment_filter.options[0].cardFilters[0].cardBins[1]", `malformed BIN range "459000-460000"`},
		{"mis-cased card type", func(*testing.T) *pf.Filter {
			return pf.New().HideCardTypes("credit")
		}, "payment_filter.options[0].cardFilters[0].cardTypes[0]", `did you mean "CREDIT"`},
		{"collect handle without @", func(*testing.T) *pf.Filter {
			return pf.New().HideUPIHandles("@ybl", "okhdfcbank")
		}, "payment_filter.options[0].upiFilters[0].upiMethods[1]", `must start with "@"`},
		{"bare @ handle", func(*testing.T) *pf.Filter {
			return pf.New().HideUPIHandles("@")
		}, "payment_filter.options[0].upiFilters[0].upiMethods[0]", "empty after"},
		{"handle given as an intent app", func(*testing.T) *pf.Filter {
			return pf.New().HideUPIApps("@ybl")
		}, "payment_filter.options[0].upiFilters[0].upiMethods[0]", "INTENT filters name UPI apps"},
		{"mis-cased UPI type", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{upiOpt(pf.UPIFilter{UPIType: "intent", UPIMethods: []string{"GPAY"}})}}
		}, "payment_filter.options[0].upiFilters[0].upiType", `did you mean "INTENT"`},
		{"nothing visible: only, with nothing enabled", func(*testing.T) *pf.Filter {
			return pf.Only().Hide(pf.Wallet)
		}, "payment_filter.allowDefaultOptions", "nothing would be visible"},
		{"nothing visible: only, with nothing at all", func(*testing.T) *pf.Filter {
			return &pf.Filter{}
		}, "payment_filter.allowDefaultOptions", "nothing would be visible"},
		{"nothing visible: only, with EMI all disabled", func(*testing.T) *pf.Filter {
			return pf.Only().EMI(emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost))
		}, "payment_filter.allowDefaultOptions", "nothing would be visible"},
		{"nothing visible: every type hidden", func(*testing.T) *pf.Filter {
			return &pf.Filter{AllowDefaultOptions: true, Options: hideAll()}
		}, "payment_filter.options", "every payment method type is hidden"},
		{"EMI problem under payment_filter", func(*testing.T) *pf.Filter {
			return pf.New().EMI(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(3, 6), emi.Months(12, 9)))
		}, "payment_filter.emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]", "from greater than to"},
		{"EMI filter method type mis-cased", func(*testing.T) *pf.Filter {
			return pf.New().EMI(emi.New().AddFilter(emi.NoCost, emi.Cardless, emi.Filter{PaymentMethodType: "Consumer_Finance"}))
		}, "payment_filter.emiOptions.noCostEmi.cardless.filters[0].paymentMethodType", `did you mean "CONSUMER_FINANCE"`},
	}
	require.GreaterOrEqual(t, len(tests), 21)
	wiretest.RunRejections(t, tests)
}

// TestValidateAccepts: good filters, the grey-out keys of the service's
// schema included.
func TestValidateAccepts(t *testing.T) {
	tests := map[string]*pf.Filter{
		"nil filter (not sent)":    nil,
		"hide every type but cash": {AllowDefaultOptions: true, Options: hideAll()[:6]},
		"only EMI":                 pf.Only().EMI(emi.New().OnlyEMI()),
		"only some NB, mandate":    pf.Only().ShowMandateMethods("", pf.NB, "NB_HDFC", "NB_SBI"),
		"only VISA credit platinum ICICI": pf.Only(pf.Card).AddCardFilter(pf.CardFilter{Enable: true,
			CardBrands: []string{"VISA"}, CardTypes: []pf.CardType{pf.Credit}, CardSubTypes: []string{"PLATINUM"}, CardBanks: []string{"ICICI"}}),
		"hide UPI collect as a whole": pf.New().AddUPIFilter(pf.UPIFilter{UPIType: pf.Collect}),
		"grey out with a message": decoded(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET",
			"paymentMethods":["LAZYPAY","SIMPL"],"enable":false,"display":true,"displayMessage":"Unavailable today"}]}`),
		"a key the SDK does not know": decoded(t, `{"allowDefaultOptions":true,"options":[],"futureSwitch":{"on":true}}`),
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, f.Validate())
		})
	}
}

// TestValidateAcceptsWhatTheServiceTakes: what the service documents no
// refusal for passes, however unusual: it is the service's to judge, and
// refusing it would block a merchant who pasted the service's own samples.
func TestValidateAcceptsWhatTheServiceTakes(t *testing.T) {
	tests := map[string]*pf.Filter{
		"codes joined by a comma, as the service's sample sends them": decoded(t, `{"allowDefaultOptions":true,
			"options":[{"paymentMethodType":"WALLET","paymentMethods":["LAZYPAY,SIMPL"],"enable":false}]}`),
		"a method type the SDK does not know": {AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: "CRYPTO"}}},
		"the older spelling WALLETS": decoded(t, `{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true},
			{"paymentMethodType":"WALLETS","enable":true}]}`),
		"a card type and a UPI type the SDK does not know": pf.Only(pf.Card, pf.UPI).HideCardTypes(pf.Debit, "PREPAID").
			AddUPIFilter(pf.UPIFilter{UPIType: "QR", UPIMethods: []string{"ANY"}}),
		"codes with any prefix, any number of them, twice": pf.New().HideMethods(pf.Wallet, "PAYTM", "JP_PAYTM", "XYZ_1", "PAYTM").
			HideMethods(pf.NB, "HDFC", "SVC_SBI").HideMethods(pf.Cash, "SVC_COD"),
		"mandate codes of a deployment's prefix": pf.Only().ShowMandateMethods("JP_", pf.NB, "NB_HDFC").ShowMandateMethods("JP_", pf.Wallet, "PAYTM"),
		"BINs of other lengths": pf.New().HideBINRanges(pf.BINRange{From: "45900000", To: "46000000"}, pf.BINRange{From: "4590", To: "460000"},
			pf.BINRange{From: "4", To: "5"}),
		"empty lists": {AllowDefaultOptions: true, Options: []pf.Option{
			{PaymentMethodType: pf.Wallet, PaymentMethods: []string{}},
			{PaymentMethodType: pf.Card, Enable: true, CardFilters: []pf.CardFilter{}},
			{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: []pf.UPIFilter{{UPIMethods: []string{"GPAY"}}, {}}}}},
		"a card filter that names no cards":                          pf.Only(pf.Card).AddCardFilter(pf.CardFilter{Enable: true}),
		"a misspelt key (the service ignores keys it does not know)": decoded(t, `{"allowDefaultOptions":true,"options":[],"emiOption":{}}`),
		"empty emiOptions, as the service's payment link samples send": decoded(t, `{"allowDefaultOptions":false,
			"options":[{"paymentMethodType":"UPI","enable":true}],"emiOptions":{}}`),
		"EMI issuers of another prefix": pf.New().EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "JP_ICICI", "ICICI")),
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, f.Validate())
		})
	}
}

// TestValidateLinear: Validate keeps no pairwise checks (the one check
// across elements, one block per type, uses a map), so a filter with
// 100,000 method codes, BIN ranges, EMI issuers and tenures, and 10,000
// blocks of types it does not know validates in one pass, in a fraction of
// a second. The pairwise checks this replaced (repeated codes and issuers,
// mandate twins) made 10,000 codes and BIN ranges take 148 ms and would
// make this run for tens of seconds: the test catches it without a timer.
func TestValidateLinear(t *testing.T) {
	f := hugeFilter(100_000)
	for i := range 10_000 {
		f.Options = append(f.Options, pf.Option{PaymentMethodType: pf.MethodType("TYPE_" + strconv.Itoa(i))})
	}
	require.NoError(t, f.Validate())

	f.Options = append(f.Options, pf.Option{PaymentMethodType: "TYPE_9999", Enable: true})
	var ve *validation.Error
	require.ErrorAs(t, f.Validate(), &ve)
	require.Equal(t, []validation.Problem{{Path: "payment_filter.options[10002]",
		Message: "duplicate TYPE_9999 block (the first is options[10001]): this one shows TYPE_9999 as a whole (enable: true, no paymentMethods), " +
			"the first hides TYPE_9999 as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both"}}, ve.Problems)
}

// TestValidateReportsEveryProblem: Validate does not stop at the first one.
func TestValidateReportsEveryProblem(t *testing.T) {
	f := &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{
		{PaymentMethodType: "card", Enable: true},
		{PaymentMethodType: pf.UPI, PaymentMethods: []string{"GPAY"}},
	}}
	var ve *validation.Error
	require.True(t, errors.As(f.Validate(), &ve))
	require.True(t, ve.Has("payment_filter.options[0].paymentMethodType"))
	require.True(t, ve.Has("payment_filter.options[1].paymentMethods"))
	require.Len(t, ve.Problems, 2)
}
