package paymentfilter_test

import (
	"testing"

	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

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

// FuzzFilterDecode: any input decodes or fails without panicking; what
// decodes encodes, decodes again to the same value, and encodes to the same
// bytes; Validate never panics.
func FuzzFilterDecode(f *testing.F) {
	seeds := []string{
		`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBin":["459000::460000","x"],"cardTypes":["CREDIT"]}]}]}`,
		`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]}]}],"emiOptions":{"showOnlyEmi":true}}`,
		`{"allowDefaultOptions":true,"options":[],"emiOptions":{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","issuerFilters":{"issuers":["SVC_ICICI"],"tenures":["9::12","0::x"],"enable":false}}]}}},"x":[1,{"y":null}]}`,
		`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","SVC_PAYTM"],"display":true,"displayMessage":"<b>\u2028"}]}`,
		`{"allowDefaultOptions":true,"options":null}`,
		`{"allowDefaultOptions":false,"emiOptions":{"showOnlyEmi":true}}`,
		`[]`, `null`, `"x"`, `{"allowDefaultOptions":1}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { wiretest.CheckStable[pf.Filter](t, data) })
}
