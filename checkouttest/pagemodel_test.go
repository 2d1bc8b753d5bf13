package checkouttest_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/paymentfilter"
)

// want says what a page shows: each option's visibility is that of the
// longest prefix of its value in show or hide, else rest; notes are parts
// of notes the page must give.
type want struct {
	show, hide []string
	rest       bool
	notes      []string
	bin        bool
}

// pageCase is one rule of the spec's payment locking (2.2–2.4) or EMI
// filter (2.5) as the page applies it. invalid marks filters the client
// and the fake refuse (they never reach a page): only their model is
// checked, for what it notes.
type pageCase struct {
	name    string
	filter  *paymentfilter.Filter
	udf     emi.Visibility
	want    want
	invalid bool
	// wire is the path at which the fake refuses a filter the client
	// takes (the service's set is closed where the client's is open): its
	// session never reaches a page.
	wire string
}

func bin(from, to string) paymentfilter.BINRange { return paymentfilter.BINRange{From: from, To: to} }

func block(t paymentfilter.MethodType, enable bool, methods ...string) paymentfilter.Option {
	return paymentfilter.Option{PaymentMethodType: t, Enable: enable, PaymentMethods: methods}
}

func raw(allow bool, opts ...paymentfilter.Option) *paymentfilter.Filter {
	return &paymentfilter.Filter{AllowDefaultOptions: allow, Options: opts}
}

func hdfc3() emi.Filter {
	return emi.Filter{Enable: true, IssuerFilter: &emi.IssuerFilter{Issuers: []string{"SVC_HDFC"}, Tenures: []emi.TenureRange{emi.Months(3, 3)}, Enable: true}}
}

// lockingCases are the rules of payment_filter and its options (spec 2.2,
// 2.3, 2.4).
func lockingCases() []pageCase {
	cases := []pageCase{
		{name: "2.2 no payment_filter shows every option", want: want{rest: true, notes: []string{"sends no payment_filter"}}},
		{name: "2.2 allowDefaultOptions true without options shows every option", filter: paymentfilter.New(), want: want{rest: true}},
		{name: "2.2/2.4 allowDefaultOptions false shows only UPI", filter: paymentfilter.Only(paymentfilter.UPI), want: want{show: []string{"UPI:"}}},
		{name: "2.2 allowDefaultOptions false shows the enabled types", filter: paymentfilter.Only(paymentfilter.Wallet, paymentfilter.NB),
			want: want{show: []string{"WALLET:", "NB:"}}},
		{name: "2.3 enable true with allowDefaultOptions true changes nothing", filter: paymentfilter.New().Show(paymentfilter.Wallet), want: want{rest: true}},
		{name: "2.4 hide specific wallets", filter: paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY", "SIMPL"),
			want: want{hide: []string{"WALLET:LAZYPAY", "WALLET:SIMPL"}, rest: true}},
		{name: "2.4 the sample's one entry LAZYPAY,SIMPL hides both", filter: raw(true, block(paymentfilter.Wallet, false, "LAZYPAY,SIMPL")),
			want: want{hide: []string{"WALLET:LAZYPAY", "WALLET:SIMPL"}, rest: true, notes: []string{"reads it as several codes"}}},
		{name: "2.3 allowDefaultOptions false with paymentMethods shows only NB_HDFC", filter: paymentfilter.Only().ShowMethods(paymentfilter.NB, "NB_HDFC"),
			want: want{show: []string{"NB:NB_HDFC"}, notes: []string{"shows only what they select"}}},
		{name: "2.3 paymentMethods with enable false hides NB_HDFC", filter: paymentfilter.New().HideMethods(paymentfilter.NB, "NB_HDFC"),
			want: want{hide: []string{"NB:NB_HDFC"}, rest: true}},
		{name: "2.3 paymentMethods with enable true and allowDefaultOptions true keeps the other methods", filter: paymentfilter.New().ShowMethods(paymentfilter.Wallet, "PAYTM"),
			want: want{rest: true, notes: []string{"does not say whether a showing entry narrows"}}},
		{name: "2.3 mandate flows pass each code twice", filter: paymentfilter.New().HideMandateMethods("", paymentfilter.NB, "NB_HDFC"),
			want: want{hide: []string{"NB:NB_HDFC"}, rest: true, notes: []string{`"SVC_HDFC" is a mandate code`}}},
		{name: "2.3 paymentMethods is ignored on CARD", filter: raw(true, block(paymentfilter.Card, false, "VISA")), invalid: true,
			want: want{hide: []string{"CARD:"}, rest: true, notes: []string{"paymentMethods is ignored"}}},
		{name: "2.3 only the first block of a type counts", filter: raw(true, block(paymentfilter.Wallet, false), block(paymentfilter.Wallet, true)), invalid: true,
			want: want{hide: []string{"WALLET:"}, rest: true, notes: []string{"a second WALLET block"}}},
		{name: "2.3 card filters count only on CARD, UPI filters only on UPI", invalid: true,
			filter: raw(true,
				paymentfilter.Option{PaymentMethodType: paymentfilter.NB, Enable: true, CardFilters: []paymentfilter.CardFilter{{CardTypes: []paymentfilter.CardType{paymentfilter.Credit}}}},
				paymentfilter.Option{PaymentMethodType: paymentfilter.Wallet, Enable: true, UPIFilters: []paymentfilter.UPIFilter{{UPIType: paymentfilter.Intent, UPIMethods: []string{"GPAY"}}}}),
			want: want{rest: true, notes: []string{"cardFilters is ignored", "upiFilters is ignored"}}},
		{name: "2.2/7 values are case sensitive", filter: raw(true, block("wallet", false)), invalid: true,
			want: want{rest: true, notes: []string{`"wallet" is not a type`}}},
		{name: "2.3 WALLETS, the older spelling, is WALLET", filter: raw(true, block("WALLETS", false)),
			want: want{hide: []string{"WALLET:"}, rest: true, notes: []string{"WALLETS is read as WALLET"}}},
		{name: "2.4 hide credit cards", filter: paymentfilter.New().HideCardTypes(paymentfilter.Credit),
			want: want{hide: []string{"CARD:CREDIT:"}, rest: true}},
		{name: "2.4 hide BIN ranges", filter: paymentfilter.New().HideBINRanges(bin("459000", "460000")),
			want: want{hide: []string{"CARD:CREDIT:VISA:ICICI:PLATINUM"}, rest: true, bin: true}},
		{name: "2.3 show BIN ranges with allowDefaultOptions false", filter: paymentfilter.Only(paymentfilter.Card).ShowBINRanges(bin("400000", "439999")),
			want: want{show: []string{"CARD:CREDIT:VISA:HDFC:", "CARD:CREDIT:VISA:AXIS:", "CARD:DEBIT:VISA:SBI:"}, bin: true}},
		{name: "2.3 hide card brands", filter: paymentfilter.New().HideCardBrands("VISA"),
			want: want{hide: []string{"CARD:CREDIT:VISA:", "CARD:DEBIT:VISA:"}, rest: true}},
		{name: "2.3 hide card sub types", filter: paymentfilter.New().AddCardFilter(paymentfilter.CardFilter{CardSubTypes: []string{"BUSINESS", "EMPLOYEE_CARD"}}),
			want: want{hide: []string{"CARD:CREDIT:VISA:HDFC:BUSINESS", "CARD:CREDIT:VISA:AXIS:EMPLOYEE_CARD"}, rest: true}},
		{name: "2.3 hide card banks", filter: paymentfilter.New().HideCardBanks("SBI"),
			want: want{hide: []string{"CARD:DEBIT:VISA:SBI:", "CARD:DEBIT:RUPAY:SBI:"}, rest: true}},
		{name: "2.3 the lists of one card filter combine", filter: paymentfilter.New().AddCardFilter(paymentfilter.CardFilter{
			CardBrands: []string{"VISA"}, CardTypes: []paymentfilter.CardType{paymentfilter.Debit}, CardBanks: []string{"SBI"}}),
			want: want{hide: []string{"CARD:DEBIT:VISA:SBI:CLASSIC"}, rest: true}},
		{name: "2.3 allowDefaultOptions false shows only credit cards", filter: paymentfilter.Only(paymentfilter.Card).ShowCardTypes(paymentfilter.Credit),
			want: want{show: []string{"CARD:CREDIT:"}, notes: []string{"shows only what they select"}}},
		{name: "2.3 only VISA credit PLATINUM cards of ICICI", filter: paymentfilter.Only(paymentfilter.Card).AddCardFilter(paymentfilter.CardFilter{Enable: true,
			CardBrands: []string{"VISA"}, CardTypes: []paymentfilter.CardType{paymentfilter.Credit}, CardSubTypes: []string{"PLATINUM"}, CardBanks: []string{"ICICI"}}),
			want: want{show: []string{"CARD:CREDIT:VISA:ICICI:PLATINUM"}}},
		{name: "2.2 a showing card filter with allowDefaultOptions true keeps the other cards", filter: paymentfilter.New().ShowCardTypes(paymentfilter.Credit),
			want: want{rest: true, notes: []string{"does not say whether a showing entry narrows"}}},
		{name: "2.3 a hiding card filter wins over a showing one", filter: paymentfilter.Only(paymentfilter.Card).ShowCardTypes(paymentfilter.Credit).HideCardBrands("AMEX"),
			want: want{show: []string{"CARD:CREDIT:"}, hide: []string{"CARD:CREDIT:AMEX:"}, notes: []string{"the fake hides it"}}},
		{name: "2.2 a filter that leaves nothing", filter: paymentfilter.Only(paymentfilter.Card).ShowCardBrands("SODEXO"),
			want: want{notes: []string{"Nothing is visible", `"SODEXO" matches no card brand`}}},
		{name: "2.4 hide UPI collect handles and intent apps", filter: paymentfilter.New().HideUPIHandles("@ybl", "@okhdfcbank").HideUPIApps("PHONEPE", "GPAY", "PAYTM"),
			want: want{hide: []string{"UPI:@ybl", "UPI:@okhdfcbank", "UPI:PHONEPE", "UPI:GPAY", "UPI:PAYTM"}, rest: true}},
		{name: "2.3 allowDefaultOptions false shows two UPI apps and keeps the handles", filter: paymentfilter.Only(paymentfilter.UPI).ShowUPIApps("GPAY", "PHONEPE"),
			want: want{show: []string{"UPI:GPAY", "UPI:PHONEPE", "UPI:@"}}},
		{name: "2.3 hide UPI collect as a whole", filter: paymentfilter.New().AddUPIFilter(paymentfilter.UPIFilter{UPIType: paymentfilter.Collect}),
			want: want{hide: []string{"UPI:@"}, rest: true}},
		{name: "2.3 a UPI filter without upiType matches apps and handles", filter: paymentfilter.New().AddUPIFilter(paymentfilter.UPIFilter{UPIMethods: []string{"PAYTM", "@paytm"}}),
			want: want{hide: []string{"UPI:PAYTM", "UPI:@paytm"}, rest: true}},
		{name: "2.3 an unknown upiType matches nothing", filter: paymentfilter.New().AddUPIFilter(paymentfilter.UPIFilter{UPIType: "QR"}),
			wire: "payment_filter.options[0].upiFilters[0].upiType", want: want{rest: true, notes: []string{`upiType "QR" is neither COLLECT nor INTENT`}}},
	}
	for _, t := range paymentfilter.MethodTypes() {
		w := want{hide: []string{string(t) + ":"}, rest: true}
		if t == paymentfilter.Card {
			w.notes = []string{"does not tie the two"}
		}
		cases = append(cases, pageCase{name: "2.4 hide the whole type " + string(t), filter: paymentfilter.New().Hide(t), want: w})
	}
	return cases
}

// emiCases are the rules of sdk_udf and emiOptions (spec 2.5).
func emiCases() []pageCase {
	onlyEMI := func(o *emi.Options) *paymentfilter.Filter { return paymentfilter.Only().EMI(o) }
	withEMI := func(o *emi.Options) *paymentfilter.Filter { return paymentfilter.New().EMI(o) }
	return []pageCase{
		{name: "2.5 sdk_udf showEMI", udf: emi.Show, want: want{rest: true}},
		{name: "2.5 sdk_udf hideEMI", udf: emi.Hide, want: want{hide: []string{"EMI:"}, rest: true}},
		{name: "2.5 sdk_udf ShowEMIWithoutCards", udf: emi.ShowWithoutCards, want: want{hide: []string{"CARD:"}, rest: true}},
		{name: "2.5 sdk_udf showEMI selects EMI with allowDefaultOptions false", filter: paymentfilter.Only(paymentfilter.UPI), udf: emi.Show,
			want: want{show: []string{"UPI:", "EMI:"}}},
		{name: "2.5 sdk_udf values are case sensitive", udf: "showemi", invalid: true, want: want{rest: true, notes: []string{`sdk_udf "showemi" is not one of`}}},
		{name: "2.5 sdk_udf hideEMI wins over emiOptions", filter: withEMI(emi.New().Enable(emi.NoCost)), udf: emi.Hide,
			want: want{hide: []string{"EMI:"}, rest: true, notes: []string{"sdk_udf and emiOptions are both set"}}},
		{name: "2.5 showOnlyEmi", filter: withEMI(emi.New().OnlyEMI()), want: want{show: []string{"EMI:"}}},
		{name: "2.5 show only no cost EMI", filter: withEMI(emi.New().OnlyNoCost()), want: want{show: []string{"EMI:noCostEmi:"}}},
		{name: "2.5 no cost EMI only, without showOnlyEmi", filter: withEMI(emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost)),
			want: want{hide: []string{"EMI:standardEmi:", "EMI:lowCostEmi:"}, rest: true}},
		{name: "2.5 any combination of the types by enable flags", filter: withEMI(emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost)),
			want: want{hide: []string{"EMI:lowCostEmi:"}, rest: true}},
		{name: "2.5 every EMI type disabled", filter: withEMI(emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost)),
			want: want{hide: []string{"EMI:"}, rest: true}},
		{name: "2.5 allowDefaultOptions false with the EMI types enabled", filter: onlyEMI(emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost)),
			want: want{show: []string{"EMI:"}}},
		{name: "2.5 hide credit-card EMI inside no cost EMI", filter: withEMI(emi.New().DisableGroup(emi.NoCost, emi.Credit)),
			want: want{hide: []string{"EMI:noCostEmi:credit:"}, rest: true}},
		{name: "2.5 an enabled group with allowDefaultOptions false shows only that group", filter: onlyEMI(emi.New().EnableGroup(emi.NoCost, emi.Debit)),
			want: want{show: []string{"EMI:noCostEmi:debit:"}}},
		{name: "2.5 remove an issuer's plans", filter: withEMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_AXIS")),
			want: want{hide: []string{"EMI:noCostEmi:credit:SVC_AXIS:"}, rest: true}},
		{name: "2.5 remove an issuer's tenure range", filter: withEMI(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))),
			want: want{hide: []string{"EMI:noCostEmi:credit:SVC_ICICI:9", "EMI:noCostEmi:credit:SVC_ICICI:12"}, rest: true}},
		{name: "2.5 remove a cardless issuer", filter: withEMI(emi.New().RemoveIssuers(emi.Standard, emi.Cardless, "SVC_KOTAK")),
			want: want{hide: []string{"EMI:standardEmi:cardless:"}, rest: true}},
		{name: "2.5 a disabled emiFilter hides the plans of its method", filter: withEMI(emi.New().AddFilter(emi.NoCost, emi.Debit, emi.Filter{PaymentMethodType: string(paymentfilter.Card)})),
			want: want{hide: []string{"EMI:noCostEmi:debit:"}, rest: true}},
		{name: "2.5 a showing issuer filter with allowDefaultOptions false", filter: onlyEMI(emi.New().AddFilter(emi.Standard, emi.Credit, hdfc3())),
			want: want{show: []string{"EMI:standardEmi:credit:SVC_HDFC:3"}}},
		{name: "2.5 a showing issuer filter with allowDefaultOptions true", filter: withEMI(emi.New().AddFilter(emi.Standard, emi.Credit, hdfc3())),
			want: want{rest: true, notes: []string{"does not say whether a showing entry narrows"}}},
		{name: "2.5 issuers are case sensitive codes", filter: withEMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "JP_ICICI")),
			want: want{rest: true, notes: []string{`"JP_ICICI" matches no EMI issuer`}}},
	}
}

func TestPreviewPageRules(t *testing.T) {
	for _, tc := range append(lockingCases(), emiCases()...) {
		t.Run(tc.name, func(t *testing.T) {
			checkPreview(t, checkouttest.PreviewPage(tc.filter, tc.udf), tc.want)
		})
	}
}

// checkPreview checks every option of p against w.
func checkPreview(t *testing.T, p *checkouttest.PagePreview, w want) {
	t.Helper()
	used := map[string]bool{}
	for _, o := range p.Options {
		exp, best := w.rest, -1
		for _, list := range []struct {
			prefixes []string
			visible  bool
		}{{w.show, true}, {w.hide, false}} {
			for _, pre := range list.prefixes {
				if strings.HasPrefix(o.Value, pre) && len(pre) > best {
					exp, best = list.visible, len(pre)
					used[pre] = true
				}
			}
		}
		assert.Equal(t, exp, o.Visible, "%s: %s", o.Value, o.Why)
		assert.NotEmpty(t, o.Why, o.Value)
		assert.True(t, strings.HasPrefix(o.Value, o.Type+":"), o.Value)
	}
	for _, pre := range append(slices.Clone(w.show), w.hide...) {
		assert.True(t, used[pre], "prefix %q names no option", pre)
	}
	for _, n := range w.notes {
		assert.True(t, slices.ContainsFunc(p.Notes, func(have string) bool { return strings.Contains(have, n) }), "no note says %q: %q", n, p.Notes)
	}
	assert.Equal(t, w.bin, p.BINCheck)
}

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
