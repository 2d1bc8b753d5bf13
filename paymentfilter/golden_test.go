package paymentfilter_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

// behaviour is one row of the behaviour tables of spec §2.4 and §2.5: the
// builder call, its golden file, and the conformance sample whose
// payment_filter has the same shape ("" when none has).
type behaviour struct {
	name    string
	build   *pf.Filter
	golden  string
	sample  string // "<folder>/<file>"
	comment string
}

func behaviours() []behaviour {
	return []behaviour{
		// Spec §2.4.
		{name: "hide card", build: pf.New().Hide(pf.Card), golden: "hide_card.json",
			sample: "payment_filter/session_payment_filter_hide_card.body.json"},
		{name: "hide wallet", build: pf.New().Hide(pf.Wallet), golden: "hide_wallet.json",
			sample: "payment_filter/session_payment_filter_hide_wallets.body.json"},
		{name: "hide net banking", build: pf.New().Hide(pf.NB), golden: "hide_nb.json",
			sample: "payment_filter/session_payment_filter_hide_netbanking.body.json"},
		{name: "hide cash", build: pf.New().Hide(pf.Cash), golden: "hide_cash.json",
			sample: "payment_filter/session_payment_filter_hide_cash.body.json"},
		{name: "hide UPI", build: pf.New().Hide(pf.UPI), golden: "hide_upi.json",
			sample: "payment_filter/session_payment_filter_hide_upi.body.json"},
		{name: "show only UPI", build: pf.Only(pf.UPI), golden: "only_upi.json",
			sample: "payment_filter/session_payment_filter_only_upi.body.json"},
		{name: "show only cards", build: pf.Only(pf.Card), golden: "only_card.json",
			sample: "payment_filter/session_payment_filter_only_card.fragment.body.json"},
		{name: "hide UPI collect handles and intent apps",
			build:  pf.New().HideUPIHandles("@ybl", "@okhdfcbank").HideUPIApps("PHONEPE", "GPAY", "PAYTM"),
			golden: "hide_upi_handles_and_apps.json",
			sample: "payment_filter/session_payment_filter_hide_specific_upi_collect_handles_and_intent_apps.body.json"},
		{name: "hide credit cards", build: pf.New().HideCardTypes(pf.Credit), golden: "hide_credit_cards.json",
			sample: "payment_filter/session_payment_filter_hide_credit_cards.body.json"},
		{name: "show only credit cards", build: pf.Only(pf.Card).ShowCardTypes(pf.Credit), golden: "only_credit_cards.json",
			sample: "payment_filter/session_payment_filter_only_credit_cards.fragment.body.json"},
		{name: "hide BIN ranges", build: pf.New().HideBINRanges(pf.BINRange{From: "459000", To: "460000"}),
			golden: "hide_bin_ranges.json",
			sample: "payment_filter/session_payment_filter_hide_card_bin_range.body.json"},
		{name: "hide VISA cards", build: pf.New().HideCardBrands("VISA"), golden: "hide_visa.json",
			sample: "payment_filter/session_payment_filter_hide_visa.fragment.body.json"},
		{name: "hide VISA credit cards",
			build:  pf.New().AddCardFilter(pf.CardFilter{CardBrands: []string{"VISA"}, CardTypes: []pf.CardType{pf.Credit}}),
			golden: "hide_visa_credit.json",
			sample: "payment_filter/session_payment_filter_hide_visa_credit.fragment.body.json"},
		{name: "hide specific wallets", build: pf.New().HideMethods(pf.Wallet, "LAZYPAY", "SIMPL"),
			golden:  "hide_specific_wallets.json",
			sample:  "payment_filter/orderdetails_sample_payload_hide_lazypay_simpl.json",
			comment: "the session sample of this behaviour sends one string \"LAZYPAY,SIMPL\", which passes too"},
		{name: "hide one net banking bank", build: pf.New().HideMethods(pf.NB, "NB_HDFC"), golden: "hide_nb_hdfc.json",
			sample: "payment_filter/session_payment_filter_hide_netbanking_bank_NB_HDFC.fragment.body.json"},
		{name: "show only one net banking bank", build: pf.Only().ShowMethods(pf.NB, "NB_HDFC"), golden: "only_nb_hdfc.json",
			sample: "payment_filter/session_payment_filter_only_netbanking_bank_NB_HDFC.fragment.body.json"},
		// Spec §2.3: mandate flows pass each code twice.
		{name: "mandate: show only HDFC net banking", build: pf.Only().ShowMandateMethods("", pf.NB, "NB_HDFC"),
			golden: "mandate_only_nb_hdfc.json"},
		{name: "mandate: hide PAYTM wallet", build: pf.New().HideMandateMethods("", pf.Wallet, "PAYTM"),
			golden: "mandate_hide_wallet_paytm.json"},
		{name: "mandate: show only a consumer finance provider", build: pf.Only().ShowMandateMethods("", pf.ConsumerFinance, "LAZYPAY"),
			golden: "mandate_only_consumer_finance.json"},
		// Spec §2.5.
		{name: "show only EMI", build: pf.New().EMI(emi.New().OnlyEMI()), golden: "emi_show_only.json",
			sample: "emi/payment_filter_emi_showOnlyEmi.json"},
		{name: "show only no-cost EMI (spec)", build: pf.New().EMI(emi.New().OnlyNoCost()), golden: "emi_only_no_cost.json",
			comment: "spec §2.5 adds showOnlyEmi true to the published sample's shape"},
		{name: "no-cost EMI, standard and low-cost disabled (sample)",
			build:  pf.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost)),
			golden: "emi_no_cost_types.json",
			sample: "emi/payment_filter_emi_nocost_only.json"},
		{name: "EMI: all three types, only EMI shown",
			build:  pf.Only().EMI(emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost)),
			golden: "emi_all_types_only.json",
			sample: "emi/payment_filter_emi_all_types_allowDefaultOptions_false.json"},
		{name: "EMI: hide every type", build: pf.New().EMI(emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost)),
			golden: "emi_hide_all.json",
			sample: "emi/payment_filter_emi_hide_all.json"},
		{name: "EMI: hide credit-card EMI inside no-cost EMI",
			build:  pf.New().EMI(emi.New().Enable(emi.Standard, emi.LowCost).DisableGroup(emi.NoCost, emi.Credit)),
			golden: "emi_hide_no_cost_credit.json",
			sample: "emi/payment_filter_emi_hide_nocost_credit.json"},
		{name: "EMI: remove an issuer's tenure range",
			build:  pf.New().EMI(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))),
			golden: "emi_remove_icici_tenure_9_12.json",
			sample: "emi/payment_filter_emi_nocost_remove_icici_tenure_9_12.json"},
		{name: "EMI: remove an issuer's plans",
			build:  pf.New().EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI")),
			golden: "emi_remove_icici.json"},
	}
}

// TestGolden compares each behaviour's JSON byte for byte with its golden
// file, and checks that the builder's output is valid.
func TestGolden(t *testing.T) {
	for _, b := range behaviours() {
		t.Run(b.name, func(t *testing.T) {
			wiretest.GoldenBuild(t, b.golden, func() (*pf.Filter, error) { return b.build, b.build.Validate() })
		})
	}
}

// TestGoldenShapes checks each golden against the payment_filter of the
// conformance sample showing the same behaviour (same tree, key order
// aside).
func TestGoldenShapes(t *testing.T) {
	for _, b := range behaviours() {
		if b.sample == "" {
			continue
		}
		t.Run(b.name, func(t *testing.T) {
			dir, file := filepath.Split(b.sample)
			samples := conformance.Files(t, filepath.Clean(dir), file)
			require.Len(t, samples, 1)
			want := samplePaymentFilter(t, samples[0].Data)
			golden := wiretest.ReadGolden(t, b.golden)
			require.Equal(t, normalise(want), wiretest.Tree(t, golden))
		})
	}
}

// samplePaymentFilter returns the payment_filter of a sample as raw JSON: the
// sample's "payment_filter" (an object or a JSON string holding one), or
// the sample itself when it is a bare payment filter.
func samplePaymentFilter(t *testing.T, data []byte) json.RawMessage {
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

// normalise applies to a sample what the builders write differently from
// a decoded filter: singular card keys become plural, issuerFilters
// becomes issuerFilter, and options is always sent ([] when empty; only a
// decoded filter without options is sent back without it).
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
