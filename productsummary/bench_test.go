package productsummary_test

import (
	"encoding/json"
	"testing"

	"github.com/payorch/checkout-go/internal/wiretest"
	ps "github.com/payorch/checkout-go/productsummary"
)

// The pair encodes the same flight-ticket summary: the SDK's MarshalJSON
// beside encoding/json writing the equivalent generic []any tree (what a
// client without types would build), so the ratio shows in one run:
//
//	go test -run '^$' -bench 'SummaryMarshal' -benchmem -benchtime=200ms ./productsummary/

func BenchmarkSummaryMarshalJSON(b *testing.B) {
	s := flightTicket()
	wiretest.Bench(b, func() error { _, err := s.MarshalJSON(); return err }) // as the session request calls it
}

func BenchmarkSummaryMarshalAny(b *testing.B) {
	text, err := json.Marshal(flightTicket())
	if err != nil {
		b.Fatal(err)
	}
	var tree []any
	if err := json.Unmarshal(text, &tree); err != nil {
		b.Fatal(err)
	}
	wiretest.Bench(b, func() error { _, err := json.Marshal(tree); return err })
}

// The chain pair builds summaries of 1,000 and 5,000 three-item lines by
// chaining: the time per op should grow about five times, not 25
// (TestBuilderIsLinear asserts it on allocated bytes):
//
//	go test -run '^$' -bench 'Chain' -benchmem ./productsummary/

func BenchmarkChain1000(b *testing.B) { benchChain(b, 1000) }

func BenchmarkChain5000(b *testing.B) { benchChain(b, 5000) }

func benchChain(b *testing.B, n int) {
	b.ReportAllocs()
	for b.Loop() {
		if s := chain(n); len(*s) != n {
			b.Fatal(len(*s))
		}
	}
}

func BenchmarkParse(b *testing.B) {
	text, err := json.Marshal(flightTicket())
	if err != nil {
		b.Fatal(err)
	}
	wiretest.Bench(b, func() error { _, err := ps.Parse(string(text)); return err })
}

func BenchmarkValidate(b *testing.B) {
	s := flightTicket()
	wiretest.Bench(b, s.Validate)
}
