package checkouttest_test

import (
	"strconv"
	"testing"

	"github.com/payorch/checkout-go/checkouttest"
)

// withFilter is a session body carrying the payment_filter f (JSON text).
func withFilter(f string) string { return sessionJSON("payment_filter=" + f) }

// withOption is a session body whose filter has the one option o.
func withOption(o string) string {
	return withFilter(`{"allowDefaultOptions":true,"options":[` + o + `]}`)
}

// withEMI is a session body whose filter has no options and emiOptions e.
func withEMI(e string) string {
	return withFilter(`{"allowDefaultOptions":true,"options":[],"emiOptions":` + e + `}`)
}

// The rules of payment_filter, its options, card and UPI filters (spec
// §2.2, §2.3) and of emiOptions (§2.5): every key and value case
// sensitive, the required keys required, one raw body each.
func TestFilterRules(t *testing.T) {
	const opt = "payment_filter.options[0]"
	const emi = "payment_filter.emiOptions"
	card := func(cf string) string {
		return withOption(`{"paymentMethodType":"CARD","enable":true,"cardFilters":[` + cf + `]}`)
	}
	upi := func(uf string) string {
		return withOption(`{"paymentMethodType":"UPI","enable":true,"upiFilters":[` + uf + `]}`)
	}
	emiFilter := func(f string) string {
		return withEMI(`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[` + f + `]}}}`)
	}
	checkRules(t, []rule{
		{"2.2 allowDefaultOptions is required", withFilter(`{"options":[]}`), []string{"payment_filter.allowDefaultOptions"}, true},
		{"2.2 allowDefaultOptions is a boolean", withFilter(`{"allowDefaultOptions":"true","options":[]}`), []string{"payment_filter.allowDefaultOptions"}, false},
		{"2.2 field names are case sensitive: allowdefaultoptions", withFilter(`{"allowdefaultoptions":true,"options":[]}`),
			[]string{"payment_filter.allowDefaultOptions", "payment_filter.allowdefaultoptions"}, true},
		{"2.2 options is required, [] when only emiOptions is used", withFilter(`{"allowDefaultOptions":true,"emiOptions":{"showOnlyEmi":true}}`),
			[]string{"payment_filter.options"}, true},
		{"2.2 options is an array", withFilter(`{"allowDefaultOptions":true,"options":{}}`), []string{"payment_filter.options"}, false},
		{"2.2 an option is an object", withFilter(`{"allowDefaultOptions":true,"options":["CARD"]}`), []string{"payment_filter.options[0]"}, false},
		{"2.2 emiOptions is an object", withFilter(`{"allowDefaultOptions":true,"options":[],"emiOptions":[]}`), []string{emi}, false},
		{"2.3 paymentMethodType is required", withOption(`{"enable":false}`), []string{opt + ".paymentMethodType"}, true},
		{"2.3 paymentMethodType values are case sensitive", withOption(`{"paymentMethodType":"card","enable":false}`),
			[]string{opt + ".paymentMethodType"}, false},
		{"2.3 enable is required", withOption(`{"paymentMethodType":"WALLET"}`), []string{opt + ".enable"}, true},
		{"2.3 enable is a boolean", withOption(`{"paymentMethodType":"UPI","enable":"false"}`), []string{opt + ".enable"}, false},
		{"2.3 option keys are case sensitive", withOption(`{"paymentMethodType":"NB","enable":false,"PaymentMethods":["NB_HDFC"]}`),
			[]string{opt + ".PaymentMethods"}, false},
		{"2.3 CARD must be enabled when cardFilters are passed", withOption(`{"paymentMethodType":"CARD","enable":false,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}`),
			[]string{opt + ".enable"}, false},
		{"2.3 UPI must be enabled when upiFilters are passed", withOption(`{"paymentMethodType":"UPI","enable":false,"upiFilters":[{"enable":false,"upiType":"INTENT"}]}`),
			[]string{opt + ".enable"}, false},
		{"2.3 paymentMethods is an array of strings", withOption(`{"paymentMethodType":"WALLET","enable":false,"paymentMethods":"PAYTM"}`),
			[]string{opt + ".paymentMethods"}, false},
		{"2.3 paymentMethods holds strings", withOption(`{"paymentMethodType":"WALLET","enable":false,"paymentMethods":[7]}`),
			[]string{opt + ".paymentMethods[0]"}, false},
		{"2.3 cardFilter enable is required", card(`{"cardTypes":["CREDIT"]}`), []string{opt + ".cardFilters[0].enable"}, true},
		{"2.3 cardTypes are DEBIT or CREDIT", card(`{"enable":false,"cardTypes":["PREPAID"]}`), []string{opt + ".cardFilters[0].cardTypes[0]"}, false},
		{"2.3 cardTypes values are case sensitive", card(`{"enable":false,"cardTypes":["credit"]}`), []string{opt + ".cardFilters[0].cardTypes[0]"}, false},
		{"2.3 cardBins are <from_bin>::<to_bin>", card(`{"enable":false,"cardBins":["459000-460000"]}`), []string{opt + ".cardFilters[0].cardBins[0]"}, false},
		{"2.3 a BIN range runs from the lower to the higher", card(`{"enable":false,"cardBins":["460000::459000"]}`), []string{opt + ".cardFilters[0].cardBins[0]"}, false},
		{"2.3 a card list in one spelling only", card(`{"enable":false,"cardTypes":["CREDIT"],"cardType":["DEBIT"]}`), []string{opt + ".cardFilters[0].cardType"}, false},
		{"2.3 cardFilter keys are case sensitive", card(`{"enable":false,"cardbrands":["VISA"]}`), []string{opt + ".cardFilters[0].cardbrands"}, false},
		{"2.3 upiFilter enable is required", upi(`{"upiType":"INTENT","upiMethods":["GPAY"]}`), []string{opt + ".upiFilters[0].enable"}, true},
		{"2.3 upiType is COLLECT or INTENT", upi(`{"enable":false,"upiType":"QR"}`), []string{opt + ".upiFilters[0].upiType"}, false},
		{"2.3 upiType values are case sensitive", upi(`{"enable":false,"upiType":"collect"}`), []string{opt + ".upiFilters[0].upiType"}, false},
		{"2.3 COLLECT upiMethods are handles @<handle>", upi(`{"enable":false,"upiType":"COLLECT","upiMethods":["ybl"]}`),
			[]string{opt + ".upiFilters[0].upiMethods[0]"}, false},
		{"2.5 emiOptions keys are case sensitive", withEMI(`{"noCostEMI":{"enable":true}}`), []string{emi + ".noCostEMI"}, false},
		{"2.5 an EMI type's enable is required", withEMI(`{"standardEmi":{}}`), []string{emi + ".standardEmi.enable"}, true},
		{"2.5 a group's enable is required", withEMI(`{"lowCostEmi":{"enable":true,"debit":{}}}`), []string{emi + ".lowCostEmi.debit.enable"}, true},
		{"2.5 an emiFilter's enable is required", emiFilter(`{"paymentMethodType":"CARD"}`), []string{emi + ".noCostEmi.credit.filters[0].enable"}, true},
		{"2.5 an emiFilter's paymentMethodType is case sensitive", emiFilter(`{"enable":true,"paymentMethodType":"Card"}`),
			[]string{emi + ".noCostEmi.credit.filters[0].paymentMethodType"}, false},
		{"2.5 paymentMethod is a string", emiFilter(`{"enable":true,"paymentMethod":["CARD"]}`), []string{emi + ".noCostEmi.credit.filters[0].paymentMethod"}, false},
		{"2.5 tenures are <from>::<to> months", emiFilter(`{"enable":true,"issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9-12"],"enable":false}}`),
			[]string{emi + ".noCostEmi.credit.filters[0].issuerFilter.tenures[0]"}, false},
		{"2.5 tenures start at 1 month", emiFilter(`{"enable":true,"issuerFilter":{"tenures":["0::3"],"enable":false}}`),
			[]string{emi + ".noCostEmi.credit.filters[0].issuerFilter.tenures[0]"}, false},
		{"2.5 issuerFilter enable is required", emiFilter(`{"enable":true,"issuerFilter":{"issuers":["SVC_HDFC"]}}`),
			[]string{emi + ".noCostEmi.credit.filters[0].issuerFilter.enable"}, true},
		{"2.5 issuerFilter in one spelling only", emiFilter(`{"enable":true,"issuerFilter":{"enable":false},"issuerFilters":{"enable":false}}`),
			[]string{emi + ".noCostEmi.credit.filters[0].issuerFilters"}, false},
		{"2.5 showOnlyEmi is a boolean", withEMI(`{"showOnlyEmi":"true"}`), []string{emi + ".showOnlyEmi"}, false},
		{"2.5 sdk_udf is showEMI, hideEMI or ShowEMIWithoutCards", sessionJSON(`sdk_udf="maybeEMI"`), []string{"sdk_udf"}, false},
		{"2.5 sdk_udf values are case sensitive", sessionJSON(`sdk_udf="showemi"`), []string{"sdk_udf"}, false},
	})
}

// What the service takes in a filter, the fake takes: the behaviours of
// spec §2.4 and §2.5, the older spellings the samples use, keys it does
// not read, and what the service only ignores.
func TestFilterRulesLetThrough(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	for i, body := range []string{
		withOption(`{"paymentMethodType":"WALLETS","enable":false,"paymentMethods":["LAZYPAY,SIMPL"]}`),
		withOption(`{"paymentMethodType":"WALLET","enable":false,"display":true,"displayMessage":"Soon back"}`),
		withOption(`{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBin":["459000::460000"],"cardType":["CREDIT"],"cardBrand":["VISA"]}]}`),
		withOption(`{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"enable":false,"upiMethods":["GPAY","@ybl"]}]}`),
		withOption(`{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC","SVC_HDFC"]}`),
		withOption(`{"paymentMethodType":"NEW_TYPE","enable":true}`),                       // the set is open: the service adds types
		withOption(`{"paymentMethodType":"UPI","enable":false,"paymentMethods":["GPAY"]}`), // ignored on UPI, not refused
		withFilter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"NB","enable":false},{"paymentMethodType":"NB","enable":true}]}`),
		withFilter(`{"allowDefaultOptions":false,"options":[]}`),
		withEMI(`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilters":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false},"paymentMethodType":"CARD","paymentMethod":"CARD"}]}}}`),
		withEMI(`{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":false},"showOnlyEmi":true}`),
		withEMI(`{}`),
		sessionJSON(`sdk_udf="ShowEMIWithoutCards"`),
	} {
		r := postSession(t, s, []byte(replaceN(body, "ok"+strconv.Itoa(i))))
		if r.status != 200 {
			t.Errorf("refused: %s\n%s", body, r.body)
		}
	}
}
