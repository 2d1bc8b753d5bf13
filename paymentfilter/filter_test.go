package paymentfilter_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/lint"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// TestDecodeEncode: what decoding accepts and how it is sent back.
func TestDecodeEncode(t *testing.T) {
	wiretest.RunEncodings[pf.Filter](t, []wiretest.Encoding{
		{"singular card keys are sent back plural",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBrand":["VISA"],"cardBin":["459000::460000"],"cardType":["CREDIT"],"cardSubType":["BUSINESS"],"cardBank":["SBI"]}]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBrands":["VISA"],"cardBins":["459000::460000"],"cardTypes":["CREDIT"],"cardSubTypes":["BUSINESS"],"cardBanks":["SBI"]}]}]}`},
		{"issuerFilters is sent back as issuerFilter",
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilters":{"issuers":["SVC_HDFC"],"enable":false}}]}}}}`,
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"issuers":["SVC_HDFC"],"enable":false}}]}}}}`},
		{"null options are sent as [], as the service requires the key",
			`{"allowDefaultOptions":false,"options":null,"emiOptions":{"showOnlyEmi":true}}`,
			`{"allowDefaultOptions":false,"options":[],"emiOptions":{"showOnlyEmi":true}}`},
		{"absent options are sent as []",
			`{"allowDefaultOptions":false,"emiOptions":{"showOnlyEmi":true}}`,
			`{"allowDefaultOptions":false,"options":[],"emiOptions":{"showOnlyEmi":true}}`},
		{"a malformed BIN range is kept as it is",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000 - 460000","<b>"]}]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000 - 460000","\u003cb\u003e"]}]}]}`},
		{"a malformed tenure is kept as it is",
			`{"allowDefaultOptions":true,"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12","12::9"],"enable":false}}]}}}}`,
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12","12::9"],"enable":false}}]}}}}`},
		{"empty lists below options are kept (Validate reports them)",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":[]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":[]}]}`},
		{"display and displayMessage grey out an option",
			`{"options":[{"displayMessage":"Rain <rain>","paymentMethodType":"WALLET","display":true,"enable":false}],"allowDefaultOptions":true}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"display":true,"displayMessage":"Rain \u003crain\u003e"}]}`},
		{"keys the SDK does not model are dropped",
			`{"zeta":1,"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":false,"x":[1]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":false}]}`},
		{"mis-cased values are kept for Validate",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"wallet","enable":false}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"wallet","enable":false}]}`},
		{"the older spelling WALLETS is kept as given",
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true},{"paymentMethodType":"WALLETS","enable":true}]}`,
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true},{"paymentMethodType":"WALLETS","enable":true}]}`},
		{"a method code with a comma is kept",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","paymentMethods":["LAZYPAY,SIMPL"],"enable":false}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["LAZYPAY,SIMPL"]}]}`},
		{"empty emiOptions are kept",
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}],"emiOptions":{}}`,
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}],"emiOptions":{}}`},
	})
}

// TestDecodeErrors: shapes decoding refuses, with what is wrong.
func TestDecodeErrors(t *testing.T) {
	for _, r := range []struct{ name, in, fragment string }{
		{"not an object", `"{\"allowDefaultOptions\":true}"`, "cannot unmarshal string"},
		{"options not an array", `{"allowDefaultOptions":true,"options":{}}`, "options"},
		{"enable as text", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":"false"}]}`, "options.enable"},
		{"method code not a string", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM",7]}]}`, "options.paymentMethods"},
		{"singular and plural together", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardType":["DEBIT"],"cardTypes":["CREDIT"]}]}]}`, "checkout: decode card filter: a key is given in both its singular and plural spelling"},
		{"a mis-cased singular beside the plural", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000::460000"],"CardBin":["1::2"]}]}]}`, "both its singular and plural spelling"},
		{"BIN range not a string", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":[459000]}]}]}`, "cardBins"},
		{"EMI paymentMethod as a list", `{"allowDefaultOptions":true,"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethod":["CARD"]}]}}}}`, "paymentMethod"},
		{"issuerFilter and issuerFilters together", `{"allowDefaultOptions":true,"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"enable":false},"issuerFilters":{"enable":false}}]}}}}`, "checkout: decode EMI filter: both issuerFilter and issuerFilters are given"},
		{"emiOptions not an object", `{"allowDefaultOptions":true,"emiOptions":true}`, "emiOptions"},
		{"tenures not a list", `{"allowDefaultOptions":true,"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":"9::12","enable":false}}]}}}}`, "tenures"},
		{"not JSON", `{"allowDefaultOptions":true,`, "unexpected end of JSON input"},
	} {
		t.Run(r.name, func(t *testing.T) {
			var f pf.Filter
			require.ErrorContains(t, json.Unmarshal([]byte(r.in), &f), r.fragment)
		})
	}
}

// TestDecodeNullKeepsValue: null decodes to nothing without touching the
// destination, as encoding/json does for other types.
func TestDecodeNullKeepsValue(t *testing.T) {
	f := pf.New().Hide(pf.Cash)
	require.NoError(t, json.Unmarshal([]byte(`null`), f))
	require.Equal(t, pf.Cash, f.Options[0].PaymentMethodType)

	var req struct {
		PaymentFilter *pf.Filter `json:"payment_filter"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"payment_filter":null}`), &req))
	require.Nil(t, req.PaymentFilter)
}

// TestEncodeEmptyFilter: allowDefaultOptions and options are always sent,
// options as [] when the filter has none (spec §2.2: required, "may be an
// empty array"), from a literal, a pointer, a builder or inside a session.
func TestEncodeEmptyFilter(t *testing.T) {
	for _, c := range []struct {
		name string
		f    any
		want string
	}{
		{"zero value", pf.Filter{}, `{"allowDefaultOptions":false,"options":[]}`},
		{"pointer", &pf.Filter{AllowDefaultOptions: true}, `{"allowDefaultOptions":true,"options":[]}`},
		{"empty list", pf.Filter{Options: []pf.Option{}}, `{"allowDefaultOptions":false,"options":[]}`},
		{"EMI options alone", pf.New().EMI(emi.New().OnlyEMI()), `{"allowDefaultOptions":true,"options":[],"emiOptions":{"showOnlyEmi":true}}`},
	} {
		out, err := json.Marshal(c.f)
		require.NoError(t, err, c.name)
		require.Equal(t, c.want, string(out), c.name)
	}

	out, err := json.Marshal(struct {
		F *pf.Filter `json:"payment_filter,omitempty"`
	}{})
	require.NoError(t, err)
	require.Equal(t, `{}`, string(out))
}

// TestEMIOnlyFilterRoundTrips: a filter built with EMI options alone sends
// "options": [] (spec §2.2: required, "may be an empty array when only
// emiOptions is used"), so it gives the payment_filter of each published
// EMI-only sample byte for byte, whitespace aside. The SDK once left the
// key out, and these samples stopped round-tripping.
func TestEMIOnlyFilterRoundTrips(t *testing.T) {
	for _, c := range []struct {
		sample string
		build  *pf.Filter
	}{
		{"payment_filter_emi_all_types_allowDefaultOptions_false.json", pf.Only().EMI(emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost))},
		{"payment_filter_emi_hide_all.json", pf.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost))},
		{"payment_filter_emi_hide_nocost_credit.json", pf.New().EMI(emi.New().Enable(emi.Standard, emi.LowCost).DisableGroup(emi.NoCost, emi.Credit))},
		{"payment_filter_emi_nocost_only.json", pf.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost))},
		{"payment_filter_emi_showOnlyEmi.json", pf.New().EMI(emi.New().OnlyEMI())},
	} {
		t.Run(c.sample, func(t *testing.T) {
			samples := conformance.Files(t, "emi", c.sample)
			require.Len(t, samples, 1)
			var published bytes.Buffer
			require.NoError(t, json.Compact(&published, samplePaymentFilter(t, samples[0].Data)))
			require.NoError(t, c.build.Validate())
			out, err := json.Marshal(c.build)
			require.NoError(t, err)
			require.Equal(t, published.String(), string(out))
		})
	}
}

// TestWireKeys: a filter that sets every field encodes exactly the keys of
// spec §2.2–2.5 as the service spells them (case exact, the plural card
// keys, issuerFilter), and decodes back to the same value.
func TestWireKeys(t *testing.T) {
	yes := true
	f := &pf.Filter{
		AllowDefaultOptions: true,
		Options: []pf.Option{
			{PaymentMethodType: pf.Card, Enable: true, CardFilters: []pf.CardFilter{{
				CardBrands: []string{"VISA"}, CardBins: []pf.BINRange{{From: "459000", To: "460000"}}, CardTypes: []pf.CardType{pf.Credit},
				CardSubTypes: []string{"BUSINESS"}, CardBanks: []string{"SBI"},
			}}},
			{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: []pf.UPIFilter{{UPIType: pf.Collect, UPIMethods: []string{"@ybl"}}}},
			{PaymentMethodType: pf.Wallet, PaymentMethods: []string{"PAYTM"}, Display: true, DisplayMessage: "Soon back"},
		},
		EMIOptions: &emi.Options{
			StandardEMI: &emi.SubFilter{Enable: true, Debit: &emi.Group{Enable: true}},
			LowCostEMI:  &emi.SubFilter{Enable: true, Cardless: &emi.Group{Enable: true}},
			NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{{
				Enable: true, PaymentMethodType: string(pf.Card), PaymentMethod: "CARD",
				IssuerFilter: &emi.IssuerFilter{Issuers: []string{"SVC_ICICI"}, Tenures: []emi.TenureRange{emi.Months(9, 12)}},
			}}}},
			ShowOnlyEMI: &yes,
		},
	}
	require.NoError(t, f.Validate())
	out, err := json.Marshal(f)
	require.NoError(t, err)

	keys := wiretest.Keys(out)
	var got []string
	for k := range keys {
		got = append(got, k)
	}
	require.ElementsMatch(t, []string{
		"allowDefaultOptions", "options", "emiOptions",
		"paymentMethodType", "enable", "paymentMethods", "cardFilters", "upiFilters", "display", "displayMessage",
		"cardBrands", "cardBins", "cardTypes", "cardSubTypes", "cardBanks",
		"upiType", "upiMethods",
		"standardEmi", "lowCostEmi", "noCostEmi", "showOnlyEmi",
		"credit", "debit", "cardless", "filters",
		"paymentMethod", "issuerFilter", "issuers", "tenures",
	}, got)
	require.Contains(t, string(out), `"cardBins":["459000::460000"]`)
	require.Contains(t, string(out), `"tenures":["9::12"]`)

	var back pf.Filter
	require.NoError(t, json.Unmarshal(out, &back))
	require.Equal(t, f, &back)
}

// sampleLint lists the published samples whose payment filter carries keys
// where the types have none, which decoding drops, with the path where
// package lint then advises. Every other sample must round-trip and validate.
// (The samples that send the wallets "LAZYPAY,SIMPL" as one string with a
// comma validate: the service takes them.)
var sampleLint = map[string]string{
	// A WALLET option nested in cardFilters (flagged MALFORMED): an empty
	// card filter is left.
	"orderdetails_payment_filter_hide_visa_debit_sbi_MALFORMED.json": "payment_filter.options[0].cardFilters[1]",
}

// TestConformanceRoundTrip decodes the payment_filter of every published
// sample and re-encodes it: the JSON tree must be the same as the sample's
// (key order and what normalise changes aside), no key may change case,
// and the filter must validate. Samples that are not JSON must fail to
// decode.
func TestConformanceRoundTrip(t *testing.T) {
	samples := filterSamples(t)
	roundTripped := 0
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			if !s.ValidJSON() {
				var f pf.Filter
				require.Error(t, json.Unmarshal(s.Data, &f), "a sample that is not JSON must not decode")
				return
			}
			raw := samplePaymentFilter(t, s.Data)
			var f pf.Filter
			require.NoError(t, json.Unmarshal(raw, &f))
			out, err := json.Marshal(&f)
			require.NoError(t, err)
			require.NoError(t, f.Validate())

			// Decoding the output again gives the same output (stable).
			var again pf.Filter
			require.NoError(t, json.Unmarshal(out, &again))
			out2, err := json.Marshal(&again)
			require.NoError(t, err)
			require.Equal(t, string(out), string(out2))

			if path, dropped := sampleLint[s.Name]; dropped {
				require.NotEqual(t, normalise(raw), wiretest.Tree(t, out))
				advice := lint.Check(&f)
				require.True(t, slices.ContainsFunc(advice, func(p validation.Problem) bool { return p.Path == path }),
					"want advice at %s, got %v", path, advice)
				return
			}
			require.Equal(t, normalise(raw), wiretest.Tree(t, out))
			require.Equal(t, keyPaths(normalise(raw), ""), keyPaths(wiretest.Tree(t, out), ""), "a key changed spelling or case")
			roundTripped++
		})
	}
	require.GreaterOrEqual(t, roundTripped, 30, "most samples should round-trip")
}

// TestConformanceNegativeVectors: the samples published as invalid JSON
// (FRAGMENT, MALFORMED, and the process payload with a bad escape) give an
// error from decoding or Validate, or advice from package lint, and never
// a panic.
func TestConformanceNegativeVectors(t *testing.T) {
	samples := filterSamples(t)
	negatives := 0
	for _, s := range samples {
		if !negative(s) {
			continue
		}
		negatives++
		t.Run(s.Name, func(t *testing.T) {
			var f pf.Filter
			if !s.ValidJSON() {
				require.Error(t, json.Unmarshal(s.Data, &f))
				return
			}
			err := json.Unmarshal(samplePaymentFilter(t, s.Data), &f)
			if err == nil {
				err = f.Validate()
			}
			require.True(t, err != nil || len(lint.Check(&f)) > 0)
		})
	}
	require.GreaterOrEqual(t, negatives, 3)
}

// filterSamples returns the published samples that carry a payment filter:
// those of the payment_filter and emi folders.
func filterSamples(t *testing.T) []conformance.Sample {
	return append(conformance.Files(t, "payment_filter", "*.json"), conformance.Files(t, "emi", "*.json")...)
}

// negative reports a negative vector: not JSON, or flagged in capitals in
// its name. (conformance.Sample.Negative matches case-insensitively, which
// also catches the valid ".fragment.body.json" session bodies.)
func negative(s conformance.Sample) bool {
	if !s.ValidJSON() {
		return true
	}
	for _, w := range []string{"MALFORMED", "TRUNCATED", "FRAGMENT", "PARTIAL"} {
		if strings.Contains(s.Name, w) {
			return true
		}
	}
	return false
}

// keyPaths lists every key of a JSON tree with its path, sorted, so that a
// key whose case changed shows up by name.
func keyPaths(v any, prefix string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			out = append(out, prefix+"."+k)
			out = append(out, keyPaths(e, prefix+"."+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, keyPaths(e, prefix+"["+strconv.Itoa(i)+"]")...)
		}
	}
	sort.Strings(out)
	return out
}

// behaviours are the rows of the behaviour tables of spec §2.4 and §2.5:
// the builder call, its golden file, and the conformance sample whose
// payment_filter has the same shape ("" when none has).
func behaviours() []wiretest.Behaviour[*pf.Filter] {
	return []wiretest.Behaviour[*pf.Filter]{
		// Spec §2.4.
		{Name: "hide card", Build: pf.New().Hide(pf.Card), Golden: "hide_card.json",
			Sample: "payment_filter/session_payment_filter_hide_card.body.json"},
		{Name: "hide wallet", Build: pf.New().Hide(pf.Wallet), Golden: "hide_wallet.json",
			Sample: "payment_filter/session_payment_filter_hide_wallets.body.json"},
		{Name: "hide net banking", Build: pf.New().Hide(pf.NB), Golden: "hide_nb.json",
			Sample: "payment_filter/session_payment_filter_hide_netbanking.body.json"},
		{Name: "hide cash", Build: pf.New().Hide(pf.Cash), Golden: "hide_cash.json",
			Sample: "payment_filter/session_payment_filter_hide_cash.body.json"},
		{Name: "hide UPI", Build: pf.New().Hide(pf.UPI), Golden: "hide_upi.json",
			Sample: "payment_filter/session_payment_filter_hide_upi.body.json"},
		{Name: "show only UPI", Build: pf.Only(pf.UPI), Golden: "only_upi.json",
			Sample: "payment_filter/session_payment_filter_only_upi.body.json"},
		{Name: "show only cards", Build: pf.Only(pf.Card), Golden: "only_card.json",
			Sample: "payment_filter/session_payment_filter_only_card.fragment.body.json"},
		{Name: "hide UPI collect handles and intent apps",
			Build:  pf.New().HideUPIHandles("@ybl", "@okhdfcbank").HideUPIApps("PHONEPE", "GPAY", "PAYTM"),
			Golden: "hide_upi_handles_and_apps.json",
			Sample: "payment_filter/session_payment_filter_hide_specific_upi_collect_handles_and_intent_apps.body.json"},
		{Name: "hide credit cards", Build: pf.New().HideCardTypes(pf.Credit), Golden: "hide_credit_cards.json",
			Sample: "payment_filter/session_payment_filter_hide_credit_cards.body.json"},
		{Name: "show only credit cards", Build: pf.Only(pf.Card).ShowCardTypes(pf.Credit), Golden: "only_credit_cards.json",
			Sample: "payment_filter/session_payment_filter_only_credit_cards.fragment.body.json"},
		{Name: "hide BIN ranges", Build: pf.New().HideBINRanges(pf.BINRange{From: "459000", To: "460000"}),
			Golden: "hide_bin_ranges.json",
			Sample: "payment_filter/session_payment_filter_hide_card_bin_range.body.json"},
		{Name: "hide VISA cards", Build: pf.New().HideCardBrands("VISA"), Golden: "hide_visa.json",
			Sample: "payment_filter/session_payment_filter_hide_visa.fragment.body.json"},
		{Name: "hide VISA credit cards",
			Build:  pf.New().AddCardFilter(pf.CardFilter{CardBrands: []string{"VISA"}, CardTypes: []pf.CardType{pf.Credit}}),
			Golden: "hide_visa_credit.json",
			Sample: "payment_filter/session_payment_filter_hide_visa_credit.fragment.body.json"},
		// The session sample of this behaviour sends one string
		// "LAZYPAY,SIMPL", which passes too.
		{Name: "hide specific wallets", Build: pf.New().HideMethods(pf.Wallet, "LAZYPAY", "SIMPL"),
			Golden: "hide_specific_wallets.json",
			Sample: "payment_filter/orderdetails_sample_payload_hide_lazypay_simpl.json"},
		{Name: "hide one net banking bank", Build: pf.New().HideMethods(pf.NB, "NB_HDFC"), Golden: "hide_nb_hdfc.json",
			Sample: "payment_filter/session_payment_filter_hide_netbanking_bank_NB_HDFC.fragment.body.json"},
		{Name: "show only one net banking bank", Build: pf.Only().ShowMethods(pf.NB, "NB_HDFC"), Golden: "only_nb_hdfc.json",
			Sample: "payment_filter/session_payment_filter_only_netbanking_bank_NB_HDFC.fragment.body.json"},
		// Spec §2.3: mandate flows pass each code twice.
		{Name: "mandate: show only HDFC net banking", Build: pf.Only().ShowMandateMethods("", pf.NB, "NB_HDFC"),
			Golden: "mandate_only_nb_hdfc.json"},
		{Name: "mandate: hide PAYTM wallet", Build: pf.New().HideMandateMethods("", pf.Wallet, "PAYTM"),
			Golden: "mandate_hide_wallet_paytm.json"},
		{Name: "mandate: show only a consumer finance provider", Build: pf.Only().ShowMandateMethods("", pf.ConsumerFinance, "LAZYPAY"),
			Golden: "mandate_only_consumer_finance.json"},
		// Spec §2.5.
		{Name: "show only EMI", Build: pf.New().EMI(emi.New().OnlyEMI()), Golden: "emi_show_only.json",
			Sample: "emi/payment_filter_emi_showOnlyEmi.json"},
		// Spec §2.5 adds showOnlyEmi true to the published sample's shape.
		{Name: "show only no-cost EMI (spec)", Build: pf.New().EMI(emi.New().OnlyNoCost()), Golden: "emi_only_no_cost.json"},
		{Name: "no-cost EMI, standard and low-cost disabled (sample)",
			Build:  pf.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost)),
			Golden: "emi_no_cost_types.json",
			Sample: "emi/payment_filter_emi_nocost_only.json"},
		{Name: "EMI: all three types, only EMI shown",
			Build:  pf.Only().EMI(emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost)),
			Golden: "emi_all_types_only.json",
			Sample: "emi/payment_filter_emi_all_types_allowDefaultOptions_false.json"},
		{Name: "EMI: hide every type", Build: pf.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost)),
			Golden: "emi_hide_all.json",
			Sample: "emi/payment_filter_emi_hide_all.json"},
		{Name: "EMI: hide credit-card EMI inside no-cost EMI",
			Build:  pf.New().EMI(emi.New().Enable(emi.Standard, emi.LowCost).DisableGroup(emi.NoCost, emi.Credit)),
			Golden: "emi_hide_no_cost_credit.json",
			Sample: "emi/payment_filter_emi_hide_nocost_credit.json"},
		{Name: "EMI: remove an issuer's tenure range",
			Build:  pf.New().EMI(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))),
			Golden: "emi_remove_icici_tenure_9_12.json",
			Sample: "emi/payment_filter_emi_nocost_remove_icici_tenure_9_12.json"},
		{Name: "EMI: remove an issuer's plans",
			Build:  pf.New().EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI")),
			Golden: "emi_remove_icici.json"},
	}
}

// TestGolden compares each behaviour's JSON byte for byte with its golden
// file, and checks that the builder's output is valid.
func TestGolden(t *testing.T) { wiretest.RunGoldens(t, behaviours()) }

// TestGoldenShapes checks each golden against the payment_filter of the
// conformance sample showing the same behaviour (same tree, key order
// aside).
func TestGoldenShapes(t *testing.T) {
	wiretest.RunGoldenShapes(t, behaviours(), func(tb testing.TB, sample []byte) any {
		return normalise(samplePaymentFilter(tb, sample))
	})
}

// samplePaymentFilter returns the payment_filter of a sample as raw JSON: the
// sample's "payment_filter" (an object or a JSON string holding one), or
// the sample itself when it is a bare payment filter.
func samplePaymentFilter(t testing.TB, data []byte) json.RawMessage {
	t.Helper()
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &top))
	raw, ok := top["payment_filter"]
	if !ok {
		_, hasOptions := top["options"]
		_, hasEMI := top["emiOptions"]
		require.True(t, hasOptions || hasEMI, "sample has no payment_filter")
		return data
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return json.RawMessage(s)
	}
	return raw
}

// normalise applies to a sample what encoding changes: singular card keys
// become plural, issuerFilters becomes issuerFilter, and a filter published
// without options (payment_filter_emi_nocost_remove_icici_tenure_9_12.json)
// gains "options": [], which the service requires. A sample's own empty
// options stay: the SDK sends them.
func normalise(raw json.RawMessage) any {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	if m, ok := v.(map[string]any); ok {
		if _, has := m["options"]; !has {
			m["options"] = []any{}
		}
	}
	return renameKeys(v)
}

var canonicalKeys = map[string]string{
	"cardBrand": "cardBrands", "cardBin": "cardBins", "cardType": "cardTypes",
	"cardSubType": "cardSubTypes", "cardBank": "cardBanks", "issuerFilters": "issuerFilter",
}

func renameKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if c, ok := canonicalKeys[k]; ok {
				k = c
			}
			out[k] = renameKeys(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = renameKeys(x[i])
		}
		return x
	}
	return v
}

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
			Enable: true, PaymentMethodType: string(pf.Card), PaymentMethod: "CARD",
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

// TestConflictingChainIsItsLiteral (issue 36.3): the builder records
// nothing, so a conflicting chain equals the literal of the blocks it
// encodes and validates the same; only a rejected EMI call, which no data
// can carry, travels inside EMIOptions.
func TestConflictingChainIsItsLiteral(t *testing.T) {
	conflicting := pf.New().Hide(pf.Wallet).Show(pf.Wallet)
	lit := &pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{
		{PaymentMethodType: pf.Wallet}, {PaymentMethodType: pf.Wallet, Enable: true}}}
	require.Equal(t, lit, conflicting)
	require.Equal(t, lit.Validate(), conflicting.Validate())
	require.ErrorContains(t, lit.Validate(), "duplicate WALLET block")

	rejected := pf.New().EMI(emi.New().Enable(emi.NoCost).Disable(emi.Plan(9)))
	litEMI := &pf.Filter{AllowDefaultOptions: true, EMIOptions: &emi.Options{NoCostEMI: &emi.SubFilter{Enable: true}}}
	require.Equal(t, wiretest.JSONString(t, litEMI), wiretest.JSONString(t, rejected))
	require.NotEqual(t, litEMI, rejected)
	require.Error(t, rejected.Validate())
	require.NoError(t, litEMI.Validate())
}

// modelTypes are the types of a payment filter, emiOptions included.
func modelTypes() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[pf.Filter](), reflect.TypeFor[pf.Option](), reflect.TypeFor[pf.CardFilter](), reflect.TypeFor[pf.UPIFilter](),
		reflect.TypeFor[emi.Options](), reflect.TypeFor[emi.SubFilter](), reflect.TypeFor[emi.Group](),
		reflect.TypeFor[emi.Filter](), reflect.TypeFor[emi.IssuerFilter](),
	}
}

// realKeys are the keys the json tags of the model types declare, and the
// other spellings decoding accepts.
func realKeys() map[string]bool {
	keys := map[string]bool{}
	for _, t := range modelTypes() {
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "-" && name != "" {
				keys[name] = true
			}
		}
	}
	for _, k := range []string{"cardBrand", "cardBin", "cardType", "cardSubType", "cardBank", "issuerFilters"} {
		keys[k] = true
	}
	return keys
}

// requireRealPaths checks that every problem of err has a path from
// payment_filter whose segments are real keys and indexes.
func requireRealPaths(t *testing.T, name string, err error) {
	t.Helper()
	wiretest.RequirePathsNameKeys(t, name, err, "payment_filter", realKeys())
}

// invalidFilters trigger every rule of Validate at least once (go test
// -cover shows validate.go, conflict.go and binrange.go covered).
func invalidFilters(t *testing.T) map[string]*pf.Filter {
	card := func(cf ...pf.CardFilter) pf.Option {
		return pf.Option{PaymentMethodType: pf.Card, Enable: true, CardFilters: cf}
	}
	upi := func(uf ...pf.UPIFilter) pf.Option {
		return pf.Option{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: uf}
	}
	return map[string]*pf.Filter{
		"conflicting calls":       pf.New().Hide(pf.Wallet).Show(pf.Wallet).HideMethods(pf.NB, "NB_SBI").AddOption(pf.Option{PaymentMethodType: pf.NB}),
		"shown and hidden values": pf.New().HideUPIApps("GPAY").ShowUPIApps("GPAY").ShowCardTypes(pf.Credit).HideCardTypes(pf.Credit),
		"duplicate block and method type mistakes": {AllowDefaultOptions: true, Options: []pf.Option{
			{PaymentMethodType: pf.NB}, {PaymentMethodType: pf.NB}, {PaymentMethodType: "wallet"}, {Enable: true}}},
		"methods on CARD and UPI, filters elsewhere, disabled filters": {AllowDefaultOptions: true, Options: []pf.Option{
			{PaymentMethodType: pf.Card, PaymentMethods: []string{"VISA"}, CardFilters: []pf.CardFilter{{}}},
			{PaymentMethodType: pf.UPI, PaymentMethods: []string{"GPAY"}, UPIFilters: []pf.UPIFilter{{}}},
			{PaymentMethodType: pf.Wallet, CardFilters: []pf.CardFilter{{}}, UPIFilters: []pf.UPIFilter{{}}}}},
		"card and UPI filter values": {AllowDefaultOptions: true, Options: []pf.Option{
			card(pf.CardFilter{CardBins: []pf.BINRange{{From: "9", To: "1"}, {From: "x", To: "1"}}, CardTypes: []pf.CardType{"credit"}}),
			upi(pf.UPIFilter{UPIType: pf.Collect, UPIMethods: []string{"ybl", "@"}}, pf.UPIFilter{UPIType: pf.Intent, UPIMethods: []string{"@ybl"}},
				pf.UPIFilter{UPIType: "intent"})}},
		"malformed BIN text":                         decoded(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBin":["1-2","a::1","::1","12::3"]}]}]}`),
		"nothing visible, allowDefaultOptions false": {},
		"nothing visible, every type hidden":         {AllowDefaultOptions: true, Options: hideAll()},
		"EMI rules": pf.New().EMI(emi.New().Disable(emi.Plan(9)).Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI().
			RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(6, 3)).
			AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "card"})),
	}
}

// TestProblemPathsNameRealKeys: every problem Validate reports is
// at a path whose segments are keys the types declare in their json tags
// (or accept as another spelling) and indexes. A typo in the key a rule
// writes fails here.
func TestProblemPathsNameRealKeys(t *testing.T) {
	for name, f := range invalidFilters(t) {
		requireRealPaths(t, name, f.Validate())
	}
}

// TestCloneSharesNothing: a copy made by Clone is equal to a filter with
// every field set at every level, and shares no pointer, slice or map with
// it.
func TestCloneSharesNothing(t *testing.T) {
	f := decoded(t, `{"allowDefaultOptions":true,"options":[
		{"paymentMethodType":"CARD","enable":true,"paymentMethods":["A"],"display":true,"displayMessage":"m","cardFilters":[{"enable":false,"cardBrands":["V"],"cardBins":["1::2","bad"],"cardTypes":["CREDIT"],"cardSubTypes":["B"],"cardBanks":["S"]}],
		 "upiFilters":[{"upiType":"INTENT","enable":false,"upiMethods":["G"]}]}],
		"emiOptions":{"standardEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["I"],"tenures":["3::6"],"enable":false}}]},"debit":{"enable":true},"cardless":{"enable":true}},
		"lowCostEmi":{"enable":true},"noCostEmi":{"enable":true},"showOnlyEmi":true}}`).Hide(pf.Card)
	for _, c := range []any{f.Clone(), f.EMIOptions.Clone()} {
		orig := any(f)
		if _, ok := c.(*emi.Options); ok {
			orig = f.EMIOptions
		}
		require.True(t, reflect.DeepEqual(orig, c), "%T", c)
		requireDisjoint(t, reflect.ValueOf(orig), reflect.ValueOf(c), reflect.TypeOf(c).String())
	}
}

// requireDisjoint fails when a and b, equal values, share the memory of a
// pointer, slice or map (unexported fields included).
func requireDisjoint(t *testing.T, a, b reflect.Value, path string) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return
		}
		require.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		requireDisjoint(t, a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Cap() > 0 {
			require.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		}
		for i := range a.Len() {
			requireDisjoint(t, a.Index(i), b.Index(i), path+"[]")
		}
	case reflect.Map:
		if a.IsNil() {
			return
		}
		require.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		for _, k := range a.MapKeys() {
			requireDisjoint(t, a.MapIndex(k), b.MapIndex(k), path+"["+k.String()+"]")
		}
	case reflect.Struct:
		for i := range a.NumField() {
			requireDisjoint(t, a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)
		}
	}
}

// TestNilAndZeroValues: the exported methods of nil pointers and zero values
// of both packages answer with a value or an error, never a panic.
func TestNilAndZeroValues(t *testing.T) {
	tests := []struct {
		name    string
		call    func() error
		wantErr bool
	}{
		{"nil Filter Validate (not sent)", func() error { return (*pf.Filter)(nil).Validate() }, false},
		{"nil Clones", func() error {
			_, _ = (*pf.Filter)(nil).Clone(), (*emi.Options)(nil).Clone()
			return nil
		}, false},
		{"nil CardFilter UnmarshalJSON", func() error { return (*pf.CardFilter)(nil).UnmarshalJSON([]byte(`{"enable":false}`)) }, true},
		{"nil BINRange UnmarshalText", func() error { return (*pf.BINRange)(nil).UnmarshalText([]byte("459000::460000")) }, true},
		{"zero Filter encodes", func() error { _, err := json.Marshal(pf.Filter{}); return err }, false},
		{"zero BINRange Validate", func() error { return pf.BINRange{}.Validate() }, true},
		{"nil emi.Options given to EMI (emiOptions not sent)", func() error { return pf.New().EMI((*emi.Options)(nil)).Validate() }, false},
		{"empty emi.Options given to EMI (the service takes {})", func() error { return pf.New().EMI(emi.New()).Validate() }, false},
		{"nil Filter fluent calls", func() error { return (*pf.Filter)(nil).Hide(pf.Cash).HideUPIApps("GPAY").Validate() }, false},
		{"nil Filter fluent calls on cards", func() error {
			return (*pf.Filter)(nil).AddCardFilter(pf.CardFilter{CardBrands: []string{"VISA"}}).Validate()
		}, false},
		{"nil Filter mandate calls", func() error { return (*pf.Filter)(nil).HideMandateMethods("", pf.Wallet, "PAYTM").Validate() }, false},
		{"nil Filter Validate (not sent)", func() error { return (*pf.Filter)(nil).Validate() }, false},
		{"nil emi Options fluent calls", func() error { return (*emi.Options)(nil).OnlyNoCost().Validate() }, false},
		{"nil emi Options other fluent calls", func() error { return (*emi.Options)(nil).RemoveIssuers(emi.NoCost, emi.Credit, "JP_HDFC").Validate() }, false},
		{"nil emi Options Validate (not sent)", func() error { return (*emi.Options)(nil).Validate() }, false},
		{"nil emi Options MarshalJSON", func() error { _, err := json.Marshal((*emi.Options)(nil)); return err }, false},
		{"nil emi Filter UnmarshalJSON", func() error { return (*emi.Filter)(nil).UnmarshalJSON([]byte(`{"enable":true}`)) }, true},
		{"nil TenureRange UnmarshalText", func() error { return (*emi.TenureRange)(nil).UnmarshalText([]byte("9::12")) }, true},
		{"zero TenureRange Validate", func() error { return emi.TenureRange{}.Validate() }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = tt.call() })
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// FuzzFilterDecode: any input decodes or fails without panicking; what
// decodes encodes, decodes again to the same value, and encodes to the same
// bytes; Validate never panics.
func FuzzFilterDecode(f *testing.F) {
	seeds := []string{
		`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBin":["459000::460000","x"],"cardTypes":["CREDIT"]}]}]}`,
		`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]}]}],"emiOptions":{"showOnlyEmi":true}}`,
		`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","issuerFilters":{"issuers":["SVC_ICICI"],"tenures":["9::12","0::x"],"enable":false}}]}}},"x":[1,{"y":null}]}`,
		`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","SVC_PAYTM"],"display":true,"displayMessage":"<b>\u2028"}]}`,
		`{"allowDefaultOptions":true,"options":null}`,
		`{"allowDefaultOptions":false,"emiOptions":{"showOnlyEmi":true}}`,
		`[]`, `null`, `"x"`, `{"allowDefaultOptions":1}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { wiretest.CheckStable[pf.Filter](t, data) })
}
