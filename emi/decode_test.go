package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// TestConformanceRoundTrip: the emiOptions of every published sample that is
// JSON decodes and encodes to the same tree (keys case exact); the others
// fail to decode.
func TestConformanceRoundTrip(t *testing.T) {
	for _, s := range conformance.Files(t, "emi", "*.json") {
		t.Run(s.Name, func(t *testing.T) {
			var o emi.Options
			if !s.ValidJSON() {
				require.Error(t, json.Unmarshal(s.Data, &o))
				return
			}
			raw := sampleEMIOptions(t, s.Data)
			require.NoError(t, json.Unmarshal(raw, &o))
			out, err := json.Marshal(o)
			require.NoError(t, err)
			require.Equal(t, wiretest.Tree(t, raw), wiretest.Tree(t, out))
			require.NoError(t, o.Validate())
		})
	}
}

// TestDecodeEncode: what decoding accepts and how it is sent back.
func TestDecodeEncode(t *testing.T) {
	wiretest.RunEncodings[emi.Options](t, []wiretest.Encoding{
		{"issuerFilters is sent back as issuerFilter",
			`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilters":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`,
			`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`},
		{"malformed tenures are kept",
			`{"noCostEmi":{"enable":true,"debit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12"," 3::6","6::3",""],"enable":false}}]}}}`,
			`{"noCostEmi":{"enable":true,"debit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["09::12"," 3::6","6::3",""],"enable":false}}]}}}`},
		{"showOnlyEmi false is kept", `{"showOnlyEmi":false}`, `{"showOnlyEmi":false}`},
		{"empty lists are kept", `{"standardEmi":{"enable":true,"credit":{"enable":true,"filters":[]}}}`,
			`{"standardEmi":{"enable":true,"credit":{"enable":true,"filters":[]}}}`},
		{"unknown keys are kept, sorted, after the modelled ones",
			`{"z":true,"noCostEmi":{"y":[1],"enable":true},"a":"<"}`,
			`{"noCostEmi":{"enable":true,"y":[1]},"a":"\u003c","z":true}`},
	})
}

// TestDecodeErrors: shapes decoding refuses, with the JSON path from
// emiOptions.
func TestDecodeErrors(t *testing.T) {
	wiretest.RunRefusals[emi.Options](t, []wiretest.Refusal{
		{"not an object", `[]`, "emiOptions", "must be a JSON object, got an array"},
		{"sub filter missing enable", `{"lowCostEmi":{}}`, "emiOptions.lowCostEmi.enable", "missing required key"},
		{"mis-cased enable", `{"lowCostEmi":{"Enable":true}}`, "emiOptions.lowCostEmi.enable", `found "Enable"`},
		{"showOnlyEmi as text", `{"showOnlyEmi":"true"}`, "emiOptions.showOnlyEmi", "must be a boolean, got a string"},
		{"group missing enable", `{"noCostEmi":{"enable":true,"credit":{"filters":[]}}}`, "emiOptions.noCostEmi.credit.enable", "missing required key"},
		{"filters not a list", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":{}}}}`, "emiOptions.noCostEmi.credit.filters", "must be an array"},
		{"filter missing enable", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"paymentMethod":"CARD"}]}}}`, "emiOptions.noCostEmi.credit.filters[0].enable", "missing required key"},
		{"paymentMethod as a list", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethod":["CARD"]}]}}}`, "emiOptions.noCostEmi.credit.filters[0].paymentMethod", "must be a string, got an array"},
		{"empty paymentMethodType", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":""}]}}}`, "emiOptions.noCostEmi.credit.filters[0].paymentMethodType", "empty string"},
		{"both issuer filter spellings", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"enable":false},"issuerFilters":{"enable":false}}]}}}`, "emiOptions.noCostEmi.credit.filters[0].issuerFilters", `both "issuerFilter" and "issuerFilters"`},
		{"issuer filter missing enable", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"issuers":["SVC_HDFC"]}}]}}}`, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.enable", "missing required key"},
		{"tenure as a number", `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":[3],"enable":false}}]}}}`, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[0]", "must be a string, got a number"},
	})
}

// TestTenureRange: parsing, printing, and malformed text kept.
func TestTenureRange(t *testing.T) {
	r, err := emi.ParseTenureRange("9::12")
	require.NoError(t, err)
	require.Equal(t, emi.Months(9, 12), r)
	require.Equal(t, "9::12", r.String())
	text, err := r.MarshalText()
	require.NoError(t, err)
	require.Equal(t, "9::12", string(text))

	// A refused text is kept by UnmarshalText and reported by Validate; an
	// accepted one prints back unchanged (see wiretest.CheckRange).
	for _, bad := range []string{"", "9", "9::", "::12", "9:12", "09::12", "9::012", "+9::12", "-3::6", "12::9", "10::9", "0::3", "9::12::15", "1000000000::1000000001", " 9::12", "٩::١٢"} {
		_, err := emi.ParseTenureRange(bad)
		require.Error(t, err, bad)
		wiretest.CheckRange(t, bad, emi.ParseTenureRange, soundTenures)
	}
	for _, good := range []string{"1::1", "3::6", "9::12", "9999::9999", "10000::10001", "999999999::999999999"} {
		_, err := emi.ParseTenureRange(good)
		require.NoError(t, err, good)
		wiretest.CheckRange(t, good, emi.ParseTenureRange, soundTenures)
	}
	require.Error(t, emi.Months(6, 3).Validate())
	require.Error(t, emi.Months(10, 9).Validate())
	require.Error(t, emi.Months(-1, 3).Validate())
	require.NoError(t, emi.Months(3, 3).Validate())
	// What Validate accepts, the SDK can read back: a range its text form
	// cannot hold (ten digits) is refused before it is sent.
	require.NoError(t, emi.Months(10000, 20000).Validate(), "no limit of the SDK's own below what it can read")
	err = emi.Months(1_000_000_000, 1_000_000_001).Validate()
	require.ErrorContains(t, err, "ends after 999999999 months")
	_, perr := emi.ParseTenureRange(emi.Months(1_000_000_000, 1_000_000_001).String())
	require.EqualError(t, perr, `checkout: parse tenure range: malformed tenure range "1000000000::1000000001": want <from>::<to> in months without sign or leading zeros, like "9::12"`)
	require.EqualError(t, (*emi.TenureRange)(nil).UnmarshalText([]byte("1::2")), "checkout: decode tenure range: nil pointer")
}
