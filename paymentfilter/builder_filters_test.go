package paymentfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// TestBuilderValueConflicts: a card or UPI value that one call shows and
// another hides is reported by Validate at the later filter, which the
// later call added: the same problem for the chain, its Clone and its JSON
// decoded, since it is found from the filters.
func TestBuilderValueConflicts(t *testing.T) {
	bins := pf.BINRange{From: "459000", To: "460000"}
	tests := []struct {
		name    string
		build   *pf.Filter
		want    string // the JSON
		problem validation.Problem
	}{
		{"UPI app hidden then shown", pf.New().HideUPIApps("GPAY", "PHONEPE").ShowUPIApps("PAYTM", "GPAY"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":false,"upiMethods":["GPAY","PHONEPE"]},{"upiType":"INTENT","enable":true,"upiMethods":["PAYTM","GPAY"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].upiFilters[1]",
				Message: `shows upiMethods "GPAY" (enable: true), which the INTENT UPI filter at upiFilters[0] hides: the same UPI app cannot be both shown and hidden`}},
		{"UPI app shown then hidden, on only UPI", pf.Only(pf.UPI).ShowUPIApps("GPAY").HideUPIApps("GPAY"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":true,"upiMethods":["GPAY"]},{"upiType":"INTENT","enable":false,"upiMethods":["GPAY"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].upiFilters[1]",
				Message: `hides upiMethods "GPAY" (enable: false), which the INTENT UPI filter at upiFilters[0] shows: the same UPI app cannot be both shown and hidden`}},
		{"UPI handle", pf.New().HideUPIHandles("@ybl").ShowUPIHandles("@ybl"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]},{"upiType":"COLLECT","enable":true,"upiMethods":["@ybl"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].upiFilters[1]",
				Message: `shows upiMethods "@ybl" (enable: true), which the COLLECT UPI filter at upiFilters[0] hides: the same UPI handle cannot be both shown and hidden`}},
		{"card type", pf.New().HideCardTypes(pf.Credit).ShowCardTypes(pf.Debit, pf.Credit),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]},{"enable":true,"cardTypes":["DEBIT","CREDIT"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].cardFilters[1]",
				Message: `shows cardTypes "CREDIT" (enable: true), which the card filter at cardFilters[0] hides: the same card type cannot be both shown and hidden`}},
		{"card brand", pf.Only(pf.Card).ShowCardBrands("VISA").HideCardBrands("VISA"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":true,"cardBrands":["VISA"]},{"enable":false,"cardBrands":["VISA"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].cardFilters[1]",
				Message: `hides cardBrands "VISA" (enable: false), which the card filter at cardFilters[0] shows: the same card brand cannot be both shown and hidden`}},
		{"BIN range", pf.New().HideBINRanges(bins).ShowBINRanges(bins),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000::460000"]},{"enable":true,"cardBins":["459000::460000"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].cardFilters[1]",
				Message: `shows cardBins "459000::460000" (enable: true), which the card filter at cardFilters[0] hides: the same BIN range cannot be both shown and hidden`}},
		{"a card filter as given, with one list", pf.New().HideCardBrands("AMEX").AddCardFilter(pf.CardFilter{Enable: true, CardBrands: []string{"AMEX"}}),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBrands":["AMEX"]},{"enable":true,"cardBrands":["AMEX"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].cardFilters[1]",
				Message: `shows cardBrands "AMEX" (enable: true), which the card filter at cardFilters[0] hides: the same card brand cannot be both shown and hidden`}},
		{"a UPI filter as given", pf.New().ShowUPIApps("CRED").AddUPIFilter(pf.UPIFilter{UPIType: pf.Intent, UPIMethods: []string{"CRED"}}),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":true,"upiMethods":["CRED"]},{"upiType":"INTENT","enable":false,"upiMethods":["CRED"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[0].upiFilters[1]",
				Message: `hides upiMethods "CRED" (enable: false), which the INTENT UPI filter at upiFilters[0] shows: the same UPI app cannot be both shown and hidden`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireConflict(t, tt.build, tt.want, tt.problem)

			// Decoded from its JSON, it is the same filter, with the same
			// problem.
			var d pf.Filter
			require.NoError(t, json.Unmarshal([]byte(tt.want), &d))
			requireConflict(t, &d, tt.want, tt.problem)

			// With the later call's filter removed by hand, nothing is left
			// to report.
			fixed := tt.build.Clone()
			o := &fixed.Options[0]
			if o.CardFilters != nil {
				o.CardFilters = o.CardFilters[:1]
			} else {
				o.UPIFilters = o.UPIFilters[:1]
			}
			require.NoError(t, fixed.Validate())
		})
	}
}

// TestBuilderNoValueConflicts: showing and hiding different values, or
// the same value under different criteria or UPI types, or a filter that
// combines criteria, is no conflict.
func TestBuilderNoValueConflicts(t *testing.T) {
	for name, f := range map[string]*pf.Filter{
		"different apps":              pf.New().HideUPIApps("GPAY").ShowUPIApps("PHONEPE"),
		"app and handle":              pf.New().HideUPIApps("GPAY").ShowUPIHandles("@ybl"),
		"the same value, same enable": pf.New().HideCardTypes(pf.Credit).HideCardTypes(pf.Credit),
		"different criteria":          pf.Only(pf.Card).ShowCardTypes(pf.Debit).HideCardBrands("RUPAY"),
		"combined criteria":           pf.Only(pf.Card).AddCardFilter(pf.CardFilter{Enable: true, CardBrands: []string{"VISA"}, CardTypes: []pf.CardType{pf.Credit}}).HideCardBrands("VISA"),
		"hidden BIN range, another shown": pf.New().HideBINRanges(pf.BINRange{From: "4", To: "5"}).
			ShowBINRanges(pf.BINRange{From: "45", To: "46"}),
	} {
		require.NoError(t, f.Validate(), name)
	}
}
