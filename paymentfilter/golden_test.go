package paymentfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

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
