package checkouttest_test

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/paymentfilter"
)

// sampleWants says what the page shows for each published sample that
// carries a payment filter (read from the sample's payment_filter, or
// from the filter object itself). The signed process payload whose
// orderDetails text holds a filter is not valid JSON as published, and is
// left out with the other negative samples.
var sampleWants = map[string]want{
	"emi/payment_filter_emi_all_types_allowDefaultOptions_false.json":          {show: []string{"EMI:"}},
	"emi/payment_filter_emi_hide_all.json":                                     {hide: []string{"EMI:"}, rest: true},
	"emi/payment_filter_emi_hide_nocost_credit.json":                           {hide: []string{"EMI:noCostEmi:credit:"}, rest: true},
	"emi/payment_filter_emi_nocost_only.json":                                  {hide: []string{"EMI:standardEmi:", "EMI:lowCostEmi:"}, rest: true},
	"emi/payment_filter_emi_nocost_remove_icici_tenure_9_12.json":              {hide: []string{"EMI:noCostEmi:credit:SVC_ICICI:9", "EMI:noCostEmi:credit:SVC_ICICI:12"}, rest: true},
	"emi/payment_filter_emi_showOnlyEmi.json":                                  {show: []string{"EMI:"}},
	"session/session_request_with_emiOptions_and_gateway_ref.json":             {rest: true},
	"payment_filter/orderdetails_payment_filter_hide_card.json":                {hide: []string{"CARD:"}, rest: true, notes: []string{"does not tie the two"}},
	"payment_filter/session_payment_filter_hide_card.body.json":                {hide: []string{"CARD:"}, rest: true, notes: []string{"does not tie the two"}},
	"payment_filter/orderdetails_payment_filter_hide_cash.json":                {hide: []string{"CASH:"}, rest: true},
	"payment_filter/session_payment_filter_hide_cash.body.json":                {hide: []string{"CASH:"}, rest: true},
	"payment_filter/orderdetails_payment_filter_hide_netbanking.json":          {hide: []string{"NB:"}, rest: true},
	"payment_filter/session_payment_filter_hide_netbanking.body.json":          {hide: []string{"NB:"}, rest: true},
	"payment_filter/orderdetails_payment_filter_hide_upi.json":                 {hide: []string{"UPI:"}, rest: true},
	"payment_filter/session_payment_filter_hide_upi.body.json":                 {hide: []string{"UPI:"}, rest: true},
	"payment_filter/orderdetails_payment_filter_hide_wallets.json":             {hide: []string{"WALLET:"}, rest: true},
	"payment_filter/session_payment_filter_hide_wallets.body.json":             {hide: []string{"WALLET:"}, rest: true},
	"payment_filter/orderdetails_payment_filter_hide_credit_cards.json":        {hide: []string{"CARD:CREDIT:"}, rest: true},
	"payment_filter/session_payment_filter_hide_credit_cards.body.json":        {hide: []string{"CARD:CREDIT:"}, rest: true},
	"payment_filter/orderdetails_payment_filter_hide_card_bin_range.json":      {hide: []string{"CARD:CREDIT:VISA:ICICI:PLATINUM"}, rest: true, bin: true},
	"payment_filter/session_payment_filter_hide_card_bin_range.body.json":      {hide: []string{"CARD:CREDIT:VISA:ICICI:PLATINUM"}, rest: true, bin: true},
	"payment_filter/orderdetails_payment_filter_only_card.json":                {show: []string{"CARD:"}},
	"payment_filter/session_payment_filter_only_card.fragment.body.json":       {show: []string{"CARD:"}},
	"payment_filter/orderdetails_payment_filter_only_netbanking.json":          {show: []string{"NB:"}},
	"payment_filter/session_payment_filter_only_netbanking.fragment.body.json": {show: []string{"NB:"}},
	"payment_filter/orderdetails_payment_filter_only_wallet.json":              {show: []string{"WALLET:"}},
	"payment_filter/session_payment_filter_only_upi.body.json":                 {show: []string{"UPI:"}},
	"payment_filter/orderdetails_payment_filter_grey_out_wallet_with_display_message.json": {hide: []string{"WALLET:LAZYPAY", "WALLET:SIMPL"}, rest: true,
		notes: []string{"reads it as several codes", "display and displayMessage"}},
	"payment_filter/orderdetails_sample_payload_hide_lazypay_simpl.json": {hide: []string{"WALLET:LAZYPAY", "WALLET:SIMPL"}, rest: true},
	"payment_filter/session_payment_filter_hide_specific_wallets.body.json": {hide: []string{"WALLET:LAZYPAY", "WALLET:SIMPL"}, rest: true,
		notes: []string{"reads it as several codes"}},
	"payment_filter/session_payment_filter_hide_netbanking_bank_NB_HDFC.fragment.body.json": {hide: []string{"NB:NB_HDFC"}, rest: true},
	"payment_filter/session_payment_filter_only_netbanking_bank_NB_HDFC.fragment.body.json": {show: []string{"NB:NB_HDFC"}},
	"payment_filter/session_payment_filter_hide_specific_upi_collect_handles_and_intent_apps.body.json": {
		hide: []string{"UPI:@ybl", "UPI:@okhdfcbank", "UPI:PHONEPE", "UPI:GPAY", "UPI:PAYTM"}, rest: true},
	"payment_filter/session_payment_filter_hide_visa.fragment.body.json":                       {hide: []string{"CARD:CREDIT:VISA:", "CARD:DEBIT:VISA:"}, rest: true},
	"payment_filter/session_payment_filter_hide_visa_credit.fragment.body.json":                {hide: []string{"CARD:CREDIT:VISA:"}, rest: true},
	"payment_filter/session_payment_filter_only_credit_cards.fragment.body.json":               {show: []string{"CARD:CREDIT:"}},
	"payment_filter/session_payment_filter_only_visa_credit_cards.fragment.body.json":          {show: []string{"CARD:CREDIT:VISA:"}},
	"payment_filter/session_payment_filter_only_visa_credit_platinum.fragment.body.json":       {show: []string{"CARD:CREDIT:VISA:ICICI:PLATINUM"}},
	"payment_filter/session_payment_filter_only_visa_credit_platinum_icici.fragment.body.json": {show: []string{"CARD:CREDIT:VISA:ICICI:PLATINUM"}},
	// Four request bodies of payment links: UPI, WALLETS, CARD enabled, NB
	// disabled, an empty emiOptions, allowDefaultOptions false.
	"payment_links/session_payment_link_alt_request.body.json":                {show: []string{"UPI:", "WALLET:", "CARD:"}, notes: []string{"WALLETS is read as WALLET"}},
	"payment_links/session_payment_link_new_request.body.json":                {show: []string{"UPI:", "WALLET:", "CARD:"}, notes: []string{"WALLETS is read as WALLET"}},
	"payment_links/session_payment_link_request.body.json":                    {show: []string{"UPI:", "WALLET:", "CARD:"}, notes: []string{"WALLETS is read as WALLET"}},
	"payment_links/session_payment_link_source_object_PAYMENT_LINK.body.json": {show: []string{"UPI:", "WALLET:", "CARD:"}, notes: []string{"WALLETS is read as WALLET"}},
}

// sampleFilter reads the payment filter and sdk_udf a sample carries;
// false when it carries none.
func sampleFilter(t *testing.T, data []byte) (*paymentfilter.Filter, emi.Visibility, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil, "", false
	}
	if _, ok := top["allowDefaultOptions"]; ok {
		var f paymentfilter.Filter
		require.NoError(t, json.Unmarshal(data, &f))
		return &f, "", true
	}
	var body struct {
		PaymentFilter *paymentfilter.Filter `json:"payment_filter"`
		SDKUDF        emi.Visibility        `json:"sdk_udf"`
	}
	if json.Unmarshal(data, &body) != nil {
		return nil, "", false
	}
	return body.PaymentFilter, body.SDKUDF, body.PaymentFilter != nil
}

// TestPreviewPageConformanceSamples previews every published sample that
// carries a payment filter; a sample added later fails until the table
// says what its page shows.
func TestPreviewPageConformanceSamples(t *testing.T) {
	seen := map[string]bool{}
	for _, folder := range []string{"payment_filter", "emi", "session", "payment_links"} {
		for _, s := range conformance.Files(t, folder, "*.json") {
			if s.Negative() || !s.ValidJSON() {
				continue
			}
			f, udf, ok := sampleFilter(t, s.Data)
			if !ok {
				continue
			}
			name := folder + "/" + s.Name
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				w, ok := sampleWants[name]
				require.True(t, ok, "sampleWants says nothing of %s", name)
				checkPreview(t, checkouttest.PreviewPage(f, udf), w)
			})
		}
	}
	require.Equal(t, slices.Sorted(maps.Keys(sampleWants)), slices.Sorted(maps.Keys(seen)), "samples in the table but not found")
}
