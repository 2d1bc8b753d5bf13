package checkouttest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPageAmount(t *testing.T) {
	for _, tc := range []struct {
		minor    int64
		currency string
		want     string
	}{
		{0, "INR", "₹0.00"},
		{5, "INR", "₹0.05"},
		{99900, "INR", "₹999.00"},
		{149900, "INR", "₹1,499.00"},
		{12345600, "INR", "₹1,23,456.00"},
		{123456789, "INR", "₹12,34,567.89"},
		{1234567890123, "INR", "₹12,34,56,78,901.23"},
		{123456789, "USD", "$1,234,567.89"},
		{100000, "EUR", "€1,000.00"},
		{99999, "GBP", "£999.99"},
		{123450, "AED", "AED 1,234.50"},
	} {
		require.Equal(t, tc.want, pageAmount(tc.minor, tc.currency), "%d %s", tc.minor, tc.currency)
	}
}
