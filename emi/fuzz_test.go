package emi_test

import (
	"testing"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

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

// FuzzOptionsDecode: decoding never panics; what decodes re-encodes stably.
func FuzzOptionsDecode(f *testing.F) {
	for _, s := range []string{
		`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]}}}`,
		`{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true,"x":{"y":[null]}}`,
		`{"lowCostEmi":{"enable":true,"cardless":{"enable":true,"filters":[{"enable":false,"issuerFilters":{"tenures":["x"],"enable":true}}]}}}`,
		`null`, `{}`, `[]`, `{"showOnlyEmi":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { wiretest.CheckStable[emi.Options](t, data) })
}
