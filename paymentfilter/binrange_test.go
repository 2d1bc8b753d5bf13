package paymentfilter_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

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
	allocs := testing.AllocsPerRun(100, func() { _ = r.Validate() })
	require.Zero(t, allocs, "validating a good range costs no allocation")
}

// FuzzParseBINRange: what ParseBINRange accepts prints back unchanged and
// validates; what it refuses is kept verbatim by UnmarshalText and reported
// by Validate. Nothing panics.
func FuzzParseBINRange(f *testing.F) {
	for _, s := range []string{"459000::460000", "", "::", "460000::459000", "4590::4600", "459000::460000::1", "٤٥٩٠٠٠::٤٦٠٠٠٠", "\xff::\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wiretest.CheckRange(t, s, pf.ParseBINRange, anyBINs)
	})
}

// anyBINs: every range ParseBINRange accepts is one the service takes.
func anyBINs(pf.BINRange) bool { return true }
