package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/payorch/checkout-go/emi"
)

// FuzzParseTenureRange: what ParseTenureRange accepts prints back unchanged
// and validates; what it refuses is kept verbatim by UnmarshalText and
// reported by Validate. Nothing panics.
func FuzzParseTenureRange(f *testing.F) {
	for _, s := range []string{"9::12", "", "::", "0::3", "12::9", "09::12", "9999::9999", "99999::99999", "3::6::9", "\xff::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := emi.ParseTenureRange(s)
		var d emi.TenureRange
		if uerr := d.UnmarshalText([]byte(s)); uerr != nil {
			t.Fatalf("UnmarshalText(%q): %v", s, uerr)
		}
		if d.String() != s {
			t.Fatalf("UnmarshalText(%q) then String gives %q", s, d.String())
		}
		if err == nil {
			if r.String() != s || r.Validate() != nil || d != r || r.From < 1 || r.From > r.To {
				t.Fatalf("accepted %q but it does not round-trip or validate: %+v", s, r)
			}
			return
		}
		if !d.Malformed() || d.Validate() == nil {
			t.Fatalf("refused %q (%v) but the decoded value is not reported", s, err)
		}
	})
}

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
	f.Fuzz(func(t *testing.T, data []byte) {
		var a emi.Options
		if err := json.Unmarshal(data, &a); err != nil {
			return
		}
		_ = a.Validate()
		out1, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("decoded %q but cannot encode it: %v", data, err)
		}
		var b emi.Options
		if err := json.Unmarshal(out1, &b); err != nil {
			t.Fatalf("cannot decode own output %s: %v", out1, err)
		}
		out2, err := json.Marshal(b)
		if err != nil || string(out1) != string(out2) {
			t.Fatalf("unstable:\n%s\n%s (%v)", out1, out2, err)
		}
	})
}
