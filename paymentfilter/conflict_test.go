package paymentfilter_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/lint"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// TestConflictsFromStructure (issue 36.3): a filter is its data. Each
// conflict is built three ways, by the fluent calls, as the struct literal
// of the blocks they make, and decoded from that literal's JSON: the three
// are the same value, and Validate reports the same problem for each, found
// from the blocks.
func TestConflictsFromStructure(t *testing.T) {
	const (
		once   = "; the service honours only the first block of a type, and one block cannot do both"
		hidden = "(enable: false, no paymentMethods)"
		shown  = "(enable: true, no paymentMethods)"
	)
	for _, tt := range []struct {
		name    string
		fluent  *pf.Filter
		literal *pf.Filter
		want    validation.Problem
	}{
		{"a show after a hide", pf.New().Hide(pf.Wallet).Show(pf.Wallet),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Wallet}, {PaymentMethodType: pf.Wallet, Enable: true}}},
			validation.Problem{Path: "payment_filter.options[1]", Message: "duplicate WALLET block (the first is options[0]): this one shows WALLET as a whole " +
				shown + ", the first hides WALLET as a whole " + hidden + once}},
		{"a hide after an only", pf.Only(pf.Wallet).Hide(pf.Wallet),
			&pf.Filter{Options: []pf.Option{{PaymentMethodType: pf.Wallet, Enable: true}, {PaymentMethodType: pf.Wallet}}},
			validation.Problem{Path: "payment_filter.options[1]", Message: "duplicate WALLET block (the first is options[0]): this one hides WALLET as a whole " +
				hidden + ", the first shows WALLET as a whole " + shown + once}},
		{"two CARD blocks", pf.New().Hide(pf.Card).HideCardTypes(pf.Credit),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Card},
				{PaymentMethodType: pf.Card, Enable: true, CardFilters: []pf.CardFilter{{CardTypes: []pf.CardType{pf.Credit}}}}}},
			validation.Problem{Path: "payment_filter.options[1]", Message: "duplicate CARD block (the first is options[0]): this one keeps CARD enabled for its filters " +
				"(enable: true, no paymentMethods, 1 cardFilter), the first hides CARD as a whole " + hidden + once + ": cardFilters need enable: true and no paymentMethods"}},
		{"a card type shown and hidden", pf.New().HideCardTypes(pf.Credit).ShowCardTypes(pf.Debit, pf.Credit),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Card, Enable: true, CardFilters: []pf.CardFilter{
				{CardTypes: []pf.CardType{pf.Credit}}, {Enable: true, CardTypes: []pf.CardType{pf.Debit, pf.Credit}}}}}},
			validation.Problem{Path: "payment_filter.options[0].cardFilters[1]",
				Message: `shows cardTypes "CREDIT" (enable: true), which the card filter at cardFilters[0] hides: the same card type cannot be both shown and hidden`}},
		{"a UPI app hidden and shown", pf.New().HideUPIApps("GPAY").ShowUPIApps("PAYTM", "GPAY"),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.UPI, Enable: true, UPIFilters: []pf.UPIFilter{
				{UPIType: pf.Intent, UPIMethods: []string{"GPAY"}}, {UPIType: pf.Intent, Enable: true, UPIMethods: []string{"PAYTM", "GPAY"}}}}}},
			validation.Problem{Path: "payment_filter.options[0].upiFilters[1]",
				Message: `shows upiMethods "GPAY" (enable: true), which the INTENT UPI filter at upiFilters[0] hides: the same UPI app cannot be both shown and hidden`}},
		{"two blocks one could say", pf.New().AddOption(pf.Option{PaymentMethodType: pf.Wallet, PaymentMethods: []string{"A"}}).
			AddOption(pf.Option{PaymentMethodType: "WALLETS", PaymentMethods: []string{"B"}}),
			&pf.Filter{AllowDefaultOptions: true, Options: []pf.Option{{PaymentMethodType: pf.Wallet, PaymentMethods: []string{"A"}},
				{PaymentMethodType: "WALLETS", PaymentMethods: []string{"B"}}}},
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate WALLETS block (the first is options[0]): this one hides the listed WALLETS methods ` +
				`(enable: false, paymentMethods "B"), the first hides the listed WALLET methods (enable: false, paymentMethods "A"); ` +
				`the service honours only the first block of a type, so merge them into one`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body, err := json.Marshal(tt.literal)
			require.NoError(t, err)
			var decoded pf.Filter
			require.NoError(t, json.Unmarshal(body, &decoded))
			require.Equal(t, tt.literal, tt.fluent, "the chain builds the literal: the builder records nothing")
			require.Equal(t, tt.literal, &decoded, "JSON gives the literal")
			for how, f := range map[string]*pf.Filter{"fluent": tt.fluent, "literal": tt.literal, "JSON": &decoded} {
				var ve *validation.Error
				require.ErrorAs(t, f.Validate(), &ve, how)
				require.Equal(t, []validation.Problem{tt.want}, ve.Problems, how)
			}
		})
	}
}

// TestConflictsAfterHandEdits: a block removed by hand takes its conflict
// with it, and clones extended from several goroutines keep their own
// (run with -race).
func TestConflictsAfterHandEdits(t *testing.T) {
	base := pf.New().Hide(pf.Wallet, pf.NB, pf.Cash).Show(pf.NB)
	require.ErrorContains(t, base.Validate(), "payment_filter.options[3]: duplicate NB block (the first is options[1])")
	base.Options = base.Options[:1] // WALLET only; the array still has room for four.
	require.NoError(t, base.Validate(), "the second block was cut, and its conflict with it")
	var wg sync.WaitGroup
	got := make([]error, 2)
	for i, t := range []pf.MethodType{pf.NB, pf.Cash} {
		f := base.Clone()
		wg.Go(func() { got[i] = f.Hide(t).Show(t).Validate() })
	}
	wg.Wait()
	require.ErrorContains(t, got[0], "payment_filter.options[2]: duplicate NB block (the first is options[1]): this one shows NB as a whole")
	require.ErrorContains(t, got[1], "payment_filter.options[2]: duplicate CASH block (the first is options[1]): this one shows CASH as a whole")
	require.NoError(t, base.Validate())
}

// TestHidingListedMethodsOfAShownType (issue 29.4): one block cannot show a
// type and hide some of its methods; the problem names the composition
// that does it, which builds, validates and gets no advice.
func TestHidingListedMethodsOfAShownType(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build *pf.Filter
		want  string
		works *pf.Filter
	}{
		{"after Only", pf.Only(pf.UPI, pf.Card, pf.Wallet).HideMethods(pf.Wallet, "PAYTM"),
			`payment_filter.options[3]: duplicate WALLET block (the first is options[2]): this one hides the listed WALLET methods (enable: false, paymentMethods "PAYTM"), ` +
				`the first shows WALLET as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both; ` +
				`to show WALLET but these methods, write New().Hide(NB, CONSUMER_FINANCE, REWARD, CASH).HideMethods(WALLET, "PAYTM") instead, or list the WALLET methods to show with ShowMethods(WALLET, …)`,
			pf.New().Hide(pf.NB, pf.ConsumerFinance, pf.Reward, pf.Cash).HideMethods(pf.Wallet, "PAYTM")},
		{"after New and Show", pf.New().Show(pf.Wallet).HideMandateMethods("JP_", pf.Wallet, "PAYTM"),
			`payment_filter.options[1]: duplicate WALLET block (the first is options[0]): this one hides the listed WALLET methods (enable: false, paymentMethods "PAYTM", "JP_PAYTM"), ` +
				`the first shows WALLET as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both; ` +
				`to show WALLET but these methods, write New().HideMethods(WALLET, "PAYTM", "JP_PAYTM") instead, or list the WALLET methods to show with ShowMethods(WALLET, …)`,
			pf.New().HideMandateMethods("JP_", pf.Wallet, "PAYTM")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ve *validation.Error
			require.ErrorAs(t, tt.build.Validate(), &ve)
			require.Len(t, ve.Problems, 1)
			require.Equal(t, tt.want, ve.Problems[0].String())
			require.NoError(t, tt.works.Validate())
			require.Empty(t, lint.Check(tt.works))
		})
	}
}
