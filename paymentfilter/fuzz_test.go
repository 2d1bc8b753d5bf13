package paymentfilter_test

import (
	"encoding/json"
	"testing"

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
		r, err := pf.ParseBINRange(s)
		var d pf.BINRange
		if uerr := d.UnmarshalText([]byte(s)); uerr != nil {
			t.Fatalf("UnmarshalText(%q) failed: %v", s, uerr)
		}
		if d.String() != s {
			t.Fatalf("UnmarshalText(%q) then String gives %q", s, d.String())
		}
		if err == nil {
			if r.String() != s || r.Validate() != nil || d.Malformed() || d != r {
				t.Fatalf("accepted %q but it does not round-trip or validate: %+v", s, r)
			}
			return
		}
		if !d.Malformed() || d.Validate() == nil {
			t.Fatalf("refused %q (%v) but the decoded value is not reported", s, err)
		}
	})
}

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
	f.Fuzz(func(t *testing.T, data []byte) {
		var a pf.Filter
		if err := json.Unmarshal(data, &a); err != nil {
			return
		}
		_ = a.Validate()
		out1, err := json.Marshal(&a)
		if err != nil {
			t.Fatalf("decoded %q but cannot encode it: %v", data, err)
		}
		var b pf.Filter
		if err := json.Unmarshal(out1, &b); err != nil {
			t.Fatalf("cannot decode own output %s: %v", out1, err)
		}
		out2, err := json.Marshal(&b)
		if err != nil {
			t.Fatal(err)
		}
		if string(out1) != string(out2) {
			t.Fatalf("unstable:\n%s\n%s", out1, out2)
		}
		direct, err := b.MarshalJSON()
		if err != nil || string(direct) != string(out2) {
			t.Fatalf("MarshalJSON differs from json.Marshal:\n%s\n%s", direct, out2)
		}
	})
}
