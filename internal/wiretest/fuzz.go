package wiretest

import (
	"encoding/json"
	"testing"
)

// Range is a "<from>::<to>" wire value that keeps the text it was decoded
// from when that is not a well-formed range, for Validate to report
// (paymentfilter.BINRange, emi.TenureRange).
type Range interface {
	comparable
	String() string
	Validate() error
}

// CheckRange checks one fuzz input s of a Range type R: what parse accepts
// prints back as s, validates, is sound, and is what UnmarshalText reads;
// what parse refuses, UnmarshalText keeps verbatim as a malformed value
// that Validate reports. UnmarshalText never fails on a value.
func CheckRange[R Range, P interface {
	*R
	UnmarshalText([]byte) error
}](tb testing.TB, s string, parse func(string) (R, error), sound func(R) bool) {
	tb.Helper()
	r, err := parse(s)
	var d R
	if uerr := P(&d).UnmarshalText([]byte(s)); uerr != nil {
		tb.Fatalf("UnmarshalText(%q) failed: %v", s, uerr)
	}
	if d.String() != s {
		tb.Fatalf("UnmarshalText(%q) then String gives %q", s, d.String())
	}
	if err == nil {
		if r.String() != s || r.Validate() != nil || d.Validate() != nil || d != r || !sound(r) {
			tb.Fatalf("accepted %q but it does not round-trip or validate: %+v", s, r)
		}
		return
	}
	if d.Validate() == nil {
		tb.Fatalf("refused %q (%v) but the decoded value is not reported", s, err)
	}
}

// CheckStable checks one fuzz input of a decoder: when data decodes into a
// T, Validate (when T has it) returns, and the value encodes, decodes
// again, and encodes to the same bytes. Nothing panics.
func CheckStable[T any](tb testing.TB, data []byte) {
	tb.Helper()
	var a T
	if err := json.Unmarshal(data, &a); err != nil {
		return
	}
	if v, ok := any(&a).(interface{ Validate() error }); ok {
		_ = v.Validate()
	}
	out1, err := json.Marshal(&a)
	if err != nil {
		tb.Fatalf("decoded %q but cannot encode it: %v", data, err)
	}
	var b T
	if err := json.Unmarshal(out1, &b); err != nil {
		tb.Fatalf("cannot decode own output %s: %v", out1, err)
	}
	out2, err := json.Marshal(&b)
	if err != nil || string(out1) != string(out2) {
		tb.Fatalf("unstable:\n%s\n%s (%v)", out1, out2, err)
	}
}
