package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
)

// TestVisibility: the sdk_udf values, case exact. (The session request's
// Validate refuses a known value in another case, package lint advises on
// a likely typo.)
func TestVisibility(t *testing.T) {
	require.Equal(t, emi.Visibility("showEMI"), emi.Show)
	require.Equal(t, emi.Visibility("hideEMI"), emi.Hide)
	require.Equal(t, emi.Visibility("ShowEMIWithoutCards"), emi.ShowWithoutCards)
	require.Equal(t, []emi.Visibility{emi.Show, emi.Hide, emi.ShowWithoutCards}, emi.Visibilities())
	for _, v := range emi.Visibilities() {
		require.True(t, v.Valid(), v)
	}
	for _, v := range []emi.Visibility{"", "show", " showEMI", "showEMIOnly", "showemi", "HideEMI"} {
		require.False(t, v.Valid(), v)
	}
}
