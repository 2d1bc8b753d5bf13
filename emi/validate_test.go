package emi_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
)

func decodeOptions(t *testing.T, s string) *emi.Options {
	t.Helper()
	var o emi.Options
	require.NoError(t, json.Unmarshal([]byte(s), &o))
	return &o
}

// TestValidateRejects: each bad emiOptions gets a problem at its JSON path
// with a message saying what is wrong.
func TestValidateRejects(t *testing.T) {
	f := false
	tests := []struct {
		name     string
		options  func(t *testing.T) *emi.Options
		path     string
		fragment string
	}{
		{"empty options", func(*testing.T) *emi.Options { return emi.New().Options() },
			"emiOptions", "sets nothing"},
		{"tenure from above to", func(*testing.T) *emi.Options {
			return emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(3, 6), emi.Months(12, 9)).Options()
		}, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]", "from greater than to"},
		{"tenure of zero months", func(*testing.T) *emi.Options {
			return emi.New().RemoveTenures(emi.Standard, emi.Debit, "SVC_SBI", emi.Months(0, 3)).Options()
		}, "emiOptions.standardEmi.debit.filters[0].issuerFilter.tenures[0]", "starts below 1 month"},
		{"malformed tenure decoded", func(t *testing.T) *emi.Options {
			return decodeOptions(t, `{"lowCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[{"enable":true,"issuerFilter":{"tenures":["3-6"],"enable":false}}]}}}`)
		}, "emiOptions.lowCostEmi.cardless.filters[0].issuerFilter.tenures[0]", `malformed tenure range "3-6"`},
		{"issuer without SVC_", func(*testing.T) *emi.Options {
			return emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC", "ICICI").Options()
		}, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[1]", "SVC_<BANK>"},
		{"issuer in lower case", func(*testing.T) *emi.Options {
			return emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_hdfc").Options()
		}, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[0]", "in capitals"},
		{"issuer listed twice", func(*testing.T) *emi.Options {
			return emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC", "SVC_HDFC").Options()
		}, "emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[1]", "listed twice"},
		{"issuer filter naming nothing", func(*testing.T) *emi.Options {
			return emi.New().RemoveIssuers(emi.NoCost, emi.Debit).Options()
		}, "emiOptions.noCostEmi.debit.filters[0].issuerFilter", "names no issuer or tenure"},
		{"method type mis-cased", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "consumer_finance", PaymentMethod: "LAZYPAY"}).Options()
		}, "emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `did you mean "CONSUMER_FINANCE"`},
		{"unknown method type", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "BNPL"}).Options()
		}, "emiOptions.standardEmi.cardless.filters[0].paymentMethodType", `unknown payment method type "BNPL"`},
		{"filter naming no plans", func(*testing.T) *emi.Options {
			return emi.New().AddFilter(emi.Standard, emi.Cardless, emi.Filter{}).Options()
		}, "emiOptions.standardEmi.cardless.filters[0]", "names no plans"},
		{"groups inside a disabled plan type", func(*testing.T) *emi.Options {
			return emi.New().DisableGroup(emi.NoCost, emi.Credit).Disable(emi.NoCost).Options()
		}, "emiOptions.noCostEmi.credit", "has no effect while noCostEmi.enable is false"},
		{"filters inside a disabled group", func(*testing.T) *emi.Options {
			return emi.New().RemoveIssuers(emi.LowCost, emi.Debit, "SVC_SBI").DisableGroup(emi.LowCost, emi.Debit).Options()
		}, "emiOptions.lowCostEmi.debit.filters", "has no effect while debit.enable is false"},
		{"empty filters list", func(*testing.T) *emi.Options {
			return &emi.Options{NoCostEMI: &emi.SubFilter{Enable: true, Credit: &emi.Group{Enable: true, Filters: []emi.Filter{}}}}
		}, "emiOptions.noCostEmi.credit.filters", "empty list"},
		{"show only EMI with every type disabled", func(*testing.T) *emi.Options {
			return emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost).OnlyEMI().Options()
		}, "emiOptions.showOnlyEmi", "nothing would be visible"},
		{"mis-cased key", func(t *testing.T) *emi.Options {
			return decodeOptions(t, `{"noCostEmi":{"enable":true},"ShowOnlyEmi":true}`)
		}, "emiOptions.ShowOnlyEmi", `did you mean "showOnlyEmi"`},
		{"misspelt key", func(t *testing.T) *emi.Options {
			return decodeOptions(t, `{"noCostEmi":{"enable":true,"credt":{"enable":false}}}`)
		}, "emiOptions.noCostEmi.credt", `did you mean "credit"`},
		{"misplaced key", func(t *testing.T) *emi.Options {
			return decodeOptions(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"issuers":["SVC_HDFC"]}]}}}`)
		}, "emiOptions.noCostEmi.credit.filters[0].issuers", "does not belong in an emiFilter"},
		{"payment filter key inside EMI", func(t *testing.T) *emi.Options {
			return decodeOptions(t, `{"standardEmi":{"enable":true,"cardTypes":["CREDIT"]}}`)
		}, "emiOptions.standardEmi.cardTypes", "does not belong in an EMI plan type"},
		{"Extra overriding a modelled key", func(*testing.T) *emi.Options {
			return &emi.Options{ShowOnlyEMI: &f, Extra: map[string]json.RawMessage{"showOnlyEmi": json.RawMessage(`true`)}}
		}, "emiOptions.showOnlyEmi", "is a modelled key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.options(t).Validate()
			var ve *emi.ValidationError
			require.True(t, errors.As(err, &ve), "want a *ValidationError, got %v", err)
			var at []string
			for _, p := range ve.Problems {
				if p.Path == tt.path {
					at = append(at, p.Message)
				}
			}
			require.NotEmpty(t, at, "no problem at %s; got %v", tt.path, err)
			found := false
			for _, m := range at {
				found = found || strings.Contains(m, tt.fragment)
			}
			require.True(t, found, "problems at %s are %q; want one containing %q", tt.path, at, tt.fragment)
		})
	}
}

// TestValidateAccepts: nil is not sent, and good options pass.
func TestValidateAccepts(t *testing.T) {
	var nilOptions *emi.Options
	require.NoError(t, nilOptions.Validate())
	for _, b := range behaviours() {
		require.NoError(t, b.build.Options().Validate(), b.name)
	}
	tenures := emi.New().RemoveTenures(emi.Standard, emi.Credit, "SVC_HDFC", emi.Months(3, 3), emi.Months(6, 9), emi.Months(1, 120))
	require.NoError(t, tenures.Options().Validate())
	unknown := decodeOptions(t, `{"noCostEmi":{"enable":true},"futureSwitch":"on"}`)
	require.NoError(t, unknown.Validate())
}

// TestVisibility: the sdk_udf values, case exact, at path sdk_udf.
func TestVisibility(t *testing.T) {
	require.Equal(t, emi.Visibility("showEMI"), emi.Show)
	require.Equal(t, emi.Visibility("hideEMI"), emi.Hide)
	require.Equal(t, emi.Visibility("ShowEMIWithoutCards"), emi.ShowWithoutCards)
	for _, v := range []emi.Visibility{emi.Show, emi.Hide, emi.ShowWithoutCards, ""} {
		require.NoError(t, v.Validate(), v)
	}
	require.False(t, emi.Visibility("").Valid())
	tests := map[emi.Visibility]string{
		"showemi":             `did you mean "showEMI"`,
		"HideEMI":             `did you mean "hideEMI"`,
		"showEMIWithoutCards": `did you mean "ShowEMIWithoutCards"`,
		"show":                "want showEMI, hideEMI or ShowEMIWithoutCards",
		" showEMI":            "want showEMI",
	}
	for v, fragment := range tests {
		require.False(t, v.Valid(), v)
		var ve *emi.ValidationError
		require.True(t, errors.As(v.Validate(), &ve), v)
		require.Len(t, ve.Problems, 1)
		require.Equal(t, "sdk_udf", ve.Problems[0].Path)
		require.Contains(t, ve.Problems[0].Message, fragment)
	}
}
