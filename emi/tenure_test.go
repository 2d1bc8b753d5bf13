package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

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

// FuzzParseTenureRange: what ParseTenureRange accepts prints back unchanged
// and validates; what it refuses is kept verbatim by UnmarshalText and
// reported by Validate. Nothing panics.
func FuzzParseTenureRange(f *testing.F) {
	for _, s := range []string{"9::12", "", "::", "0::3", "12::9", "09::12", "9999::9999", "99999::99999", "3::6::9", "\xff::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wiretest.CheckRange(t, s, emi.ParseTenureRange, soundTenures)
	})
}

// soundTenures reports whether r is a range of months the service takes.
func soundTenures(r emi.TenureRange) bool { return r.From >= 1 && r.From <= r.To }
