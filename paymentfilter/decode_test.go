package paymentfilter_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
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
		{"absent options is sent back absent",
			`{"allowDefaultOptions":false,"emiOptions":{"showOnlyEmi":true}}`,
			`{"allowDefaultOptions":false,"emiOptions":{"showOnlyEmi":true}}`},
		{"null options is sent back absent (null counts as absent)",
			`{"allowDefaultOptions":false,"options":null,"emiOptions":{"showOnlyEmi":true}}`,
			`{"allowDefaultOptions":false,"emiOptions":{"showOnlyEmi":true}}`},
		{"empty options is sent back empty",
			`{"allowDefaultOptions":false,"options":[],"emiOptions":{"showOnlyEmi":true}}`,
			`{"allowDefaultOptions":false,"options":[],"emiOptions":{"showOnlyEmi":true}}`},
		{"a malformed BIN range is kept as it is",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000 - 460000","<b>"]}]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000 - 460000","\u003cb\u003e"]}]}]}`},
		{"a malformed tenure is kept as it is",
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12","12::9"],"enable":false}}]}}}}`,
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12","12::9"],"enable":false}}]}}}}`},
		{"empty lists are kept (Validate reports them)",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":[]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":[]}]}`},
		{"unknown keys are kept, after the modelled ones, sorted",
			`{"zeta":1,"options":[{"displayMessage":"Rain <rain>","paymentMethodType":"WALLET","display":true,"enable":false}],"allowDefaultOptions":true,"alpha":{"x": [1, 2]}}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"display":true,"displayMessage":"Rain \u003crain\u003e"}],"alpha":{"x":[1,2]},"zeta":1}`},
		{"a mis-cased key is kept, not matched",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":false,"UpiMethods":["GPAY"]}]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":false,"UpiMethods":["GPAY"]}]}]}`},
		{"mis-cased values are kept for Validate",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"wallet","enable":false}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"wallet","enable":false}]}`},
		{"the older spelling WALLETS is kept as given",
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true},{"paymentMethodType":"WALLETS","enable":true}]}`,
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true},{"paymentMethodType":"WALLETS","enable":true}]}`},
		{"a mis-cased key is not matched to the field, even beside it",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"Enable":true,"PaymentMethods":["X"]}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"Enable":true,"PaymentMethods":["X"]}]}`},
		{"a method code with a comma is kept",
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","paymentMethods":["LAZYPAY,SIMPL"],"enable":false}]}`,
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["LAZYPAY,SIMPL"]}]}`},
		{"empty emiOptions are kept",
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}],"emiOptions":{}}`,
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}],"emiOptions":{}}`},
	})
}

// TestDecodeErrors: shapes decoding refuses, with the JSON path.
func TestDecodeErrors(t *testing.T) {
	wiretest.RunRefusals[pf.Filter](t, []wiretest.Refusal{
		{"not an object", `"{\"allowDefaultOptions\":true}"`, "payment_filter", "must be a JSON object, got a string"},
		{"missing allowDefaultOptions", `{"options":[]}`, "payment_filter.allowDefaultOptions", `missing required key "allowDefaultOptions"`},
		{"mis-cased allowDefaultOptions", `{"AllowDefaultOptions":true,"options":[]}`, "payment_filter.allowDefaultOptions", `found "AllowDefaultOptions"`},
		{"options not an array", `{"allowDefaultOptions":true,"options":{}}`, "payment_filter.options", "must be an array, got an object"},
		{"missing enable", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH"}]}`, "payment_filter.options[0].enable", "missing required key"},
		{"enable as text", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":"false"}]}`, "payment_filter.options[0].enable", "must be a boolean, got a string"},
		{"missing paymentMethodType", `{"allowDefaultOptions":true,"options":[{"enable":false}]}`, "payment_filter.options[0].paymentMethodType", "missing required key"},
		{"method code not a string", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM",7]}]}`, "payment_filter.options[0].paymentMethods[1]", "must be a string, got a number"},
		{"singular and plural together", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardType":["DEBIT"],"cardTypes":["CREDIT"]}]}]}`, "payment_filter.options[0].cardFilters[0].cardType", `both "cardTypes" and "cardType"`},
		{"card filter missing enable", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"cardTypes":["CREDIT"]}]}]}`, "payment_filter.options[0].cardFilters[0].enable", "missing required key"},
		{"BIN range not a string", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":[459000]}]}]}`, "payment_filter.options[0].cardFilters[0].cardBins[0]", "must be a string"},
		{"empty upiType", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"","enable":false}]}]}`, "payment_filter.options[0].upiFilters[0].upiType", "empty string"},
		{"EMI sub filter missing enable", `{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"credit":{"enable":false}}}}`, "payment_filter.emiOptions.noCostEmi.enable", "missing required key"},
		{"EMI paymentMethod as a list", `{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethod":["CARD"]}]}}}}`, "payment_filter.emiOptions.noCostEmi.credit.filters[0].paymentMethod", "must be a string, got an array"},
		{"emiOptions not an object", `{"allowDefaultOptions":true,"options":[],"emiOptions":true}`, "payment_filter.emiOptions", "must be a JSON object"},
		{"EMI key mis-cased beside its required key", `{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"Enable":true}}}`, "payment_filter.emiOptions.noCostEmi.enable", `found "Enable"`},
		{"option not an object", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":false},"CARD"]}`, "payment_filter.options[1]", "must be a JSON object, got a string"},
		{"card type not a string", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false},{"enable":false,"cardTypes":["DEBIT",{}]}]}]}`, "payment_filter.options[0].cardFilters[1].cardTypes[1]", "must be a string, got an object"},
		{"tenures not a list", `{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":"9::12","enable":false}}]}}}}`, "payment_filter.emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures", "must be an array, got a string"},
		{"not JSON", `{"allowDefaultOptions":true,`, "", "unexpected end of JSON input"},
	})
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

// TestEncodeEmptyFilter: the two always-sent keys.
func TestEncodeEmptyFilter(t *testing.T) {
	out, err := json.Marshal(pf.Filter{})
	require.NoError(t, err)
	require.Equal(t, `{"allowDefaultOptions":false,"options":[]}`, string(out))

	out, err = json.Marshal(struct {
		F *pf.Filter `json:"payment_filter,omitempty"`
	}{})
	require.NoError(t, err)
	require.Equal(t, `{}`, string(out))
}

// TestEncodeExtraNotJSON: a hand-set Extra value that is not JSON fails to
// encode instead of producing a broken body.
func TestEncodeExtraNotJSON(t *testing.T) {
	f := pf.New().Hide(pf.Cash)
	f.Extra = map[string]json.RawMessage{"x": json.RawMessage(`{`)}
	_, err := json.Marshal(f)
	require.Error(t, err)
	f.Extra = nil
	f.Options[0].Extra = map[string]json.RawMessage{"x": json.RawMessage(`{`)}
	_, err = json.Marshal(f)
	require.Error(t, err, "below the top too")
}

// TestEncodeExtraOverModelledKey: an Extra key that a field declares (or
// an accepted spelling of one) is not sent a second time; Validate reports
// it.
func TestEncodeExtraOverModelledKey(t *testing.T) {
	f := pf.New().AddCardFilter(pf.CardFilter{CardTypes: []pf.CardType{pf.Credit},
		Extra: map[string]json.RawMessage{"cardTypes": json.RawMessage(`["DEBIT"]`), "cardType": json.RawMessage(`["DEBIT"]`), "x": json.RawMessage(`1`)}})
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"],"x":1}]}]}`,
		wiretest.JSONString(t, f))
	var ve *validation.Error
	require.ErrorAs(t, f.Validate(), &ve)
	require.True(t, ve.Has("payment_filter.options[0].cardFilters[0].cardType"))
	require.True(t, ve.Has("payment_filter.options[0].cardFilters[0].cardTypes"))
}

// TestBINRange: parsing, printing, and the malformed text kept.
func TestBINRange(t *testing.T) {
	r, err := pf.ParseBINRange("459000::460000")
	require.NoError(t, err)
	require.Equal(t, pf.BINRange{From: "459000", To: "460000"}, r)
	require.Equal(t, "459000::460000", r.String())
	require.NoError(t, r.Validate())

	for _, bad := range []string{"", "459000", "459000::", "::460000", "459000:460000", "460000::459000", "459001::459000", "45a000::460000",
		" 459000::460000", "459000::460000::470000", "-459000::460000", "4600000::460000", "46000000::4599999", "٤٥٩٠٠٠::٤٦٠٠٠٠"} {
		_, err := pf.ParseBINRange(bad)
		require.Error(t, err, bad)
		wiretest.CheckRange(t, bad, pf.ParseBINRange, anyBINs) // kept, and reported by Validate
	}
	// Other lengths than six digits pass: the service takes eight-digit
	// BINs, and sides of different lengths compare as numbers.
	for _, good := range []string{"459000::459000", "000000::000000", "40000000::49999999", "4000000000000000000::4999999999999999999",
		"4590::4600", "459000::4600000", "0459::460", "12345678901234567890::12345678901234567890", "4::4"} {
		_, err := pf.ParseBINRange(good)
		require.NoError(t, err, good)
		wiretest.CheckRange(t, good, pf.ParseBINRange, anyBINs) // printed back unchanged
	}
	_, err = pf.ParseBINRange("460000::459000")
	require.EqualError(t, err, `checkout: parse BIN range: BIN range "460000::459000": from is greater than to`)
	require.EqualError(t, (*pf.BINRange)(nil).UnmarshalText([]byte("459000::460000")), "checkout: decode BIN range: nil pointer")
	allocs := testing.AllocsPerRun(100, func() { _ = r.Validate() })
	require.Zero(t, allocs, "validating a good range costs no allocation")
}

// TestDecodeRequiredNull: null is not a value for a required key.
func TestDecodeRequiredNull(t *testing.T) {
	for in, path := range map[string]string{
		`{"allowDefaultOptions":null,"options":[]}`:                                         "payment_filter.allowDefaultOptions",
		`{"allowDefaultOptions":true,"options":[{"paymentMethodType":null,"enable":true}]}`: "payment_filter.options[0].paymentMethodType",
	} {
		var f pf.Filter
		err := json.Unmarshal([]byte(in), &f)
		var ve *validation.Error
		require.True(t, errors.As(err, &ve), in)
		require.Equal(t, path, ve.Problems[0].Path)
		require.Equal(t, "required, got null", ve.Problems[0].Message)
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
			{PaymentMethodType: pf.Wallet, PaymentMethods: []string{"PAYTM"}},
		},
		EMIOptions: &emi.Options{
			StandardEMI: &emi.SubFilter{Enable: true, Debit: &emi.Group{Enable: true}},
			LowCostEMI:  &emi.SubFilter{Enable: true, Cardless: &emi.Group{Enable: true}},
			NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{{
				Enable: true, PaymentMethodType: emi.Card, PaymentMethod: "CARD",
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
		"paymentMethodType", "enable", "paymentMethods", "cardFilters", "upiFilters",
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
