package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/validation"
)

// TestVisibility: the sdk_udf values, case exact, at path sdk_udf.
func TestVisibility(t *testing.T) {
	require.Equal(t, emi.Visibility("showEMI"), emi.Show)
	require.Equal(t, emi.Visibility("hideEMI"), emi.Hide)
	require.Equal(t, emi.Visibility("ShowEMIWithoutCards"), emi.ShowWithoutCards)
	for _, v := range []emi.Visibility{emi.Show, emi.Hide, emi.ShowWithoutCards, ""} {
		require.NoError(t, v.Validate(), v)
	}
	require.False(t, emi.Visibility("").Valid())
	// Values the SDK does not know pass: the service may know more.
	for _, v := range []emi.Visibility{"show", " showEMI", "showEMIOnly"} {
		require.False(t, v.Valid(), v)
		require.NoError(t, v.Validate(), v)
	}
	tests := map[emi.Visibility]string{
		"showemi":             `did you mean "showEMI"`,
		"HideEMI":             `did you mean "hideEMI"`,
		"showEMIWithoutCards": `did you mean "ShowEMIWithoutCards"`,
	}
	for v, fragment := range tests {
		require.False(t, v.Valid(), v)
		wiretest.RequireProblem(t, v.Validate(), "sdk_udf", fragment)
	}
}

// TestMethodTypeAndVisibilityLint: the advice on the two enums of the
// package, at the paths their Validate uses.
func TestMethodTypeAndVisibilityLint(t *testing.T) {
	require.Equal(t, []validation.Problem{{Path: "paymentMethodType", Message: `unknown payment method type "UIP": likely a typo, did you mean "UPI"?`}},
		emi.MethodType("UIP").Lint())
	for _, ok := range []emi.MethodType{"", emi.Card, "WALLETS", "BNPL", "card"} {
		require.Nil(t, ok.Lint(), ok)
	}
	require.Equal(t, []validation.Problem{{Path: "sdk_udf", Message: `unknown EMI visibility "showEMl": likely a typo, did you mean "showEMI"?`}},
		emi.Visibility("showEMl").Lint())
	require.Equal(t, []validation.Problem{{Path: "sdk_udf", Message: `unknown EMI visibility "show": the service documents showEMI, hideEMI, ShowEMIWithoutCards only`}},
		emi.Visibility("show").Lint())
	for _, v := range []emi.Visibility{"showEMl", "show"} {
		require.NoError(t, v.Validate(), "the service takes values the SDK does not know")
	}
	for _, ok := range []emi.Visibility{"", emi.Show, emi.Hide, emi.ShowWithoutCards, "showemi"} {
		require.Nil(t, ok.Lint(), ok)
	}
}

// TestVisibilityPaths: the sdk_udf switch reports at its own key.
func TestVisibilityPaths(t *testing.T) {
	// The sdk_udf switch reports at its own key.
	requireRealPaths(t, "visibility", emi.Visibility("showemi").Validate(), "sdk_udf")
	requireRealPaths(t, "visibility Lint", &validation.Error{Problems: emi.Visibility("showEMl").Lint()}, "sdk_udf")
}
