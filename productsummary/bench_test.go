package productsummary_test

import (
	"encoding/json"
	"testing"
)

// The pair encodes the same flight-ticket summary: the SDK's MarshalText
// beside encoding/json writing the equivalent generic []any tree (what a
// client without types would build), so the ratio shows in one run:
//
//	go test -tags testify_yaml_fail -run '^$' -bench 'SummaryMarshal' -benchmem -benchtime=200ms ./productsummary/

func BenchmarkSummaryMarshalText(b *testing.B) {
	s := flightTicket()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalText(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSummaryMarshalAny(b *testing.B) {
	text, err := flightTicket().MarshalText()
	if err != nil {
		b.Fatal(err)
	}
	var tree []any
	if err := json.Unmarshal(text, &tree); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(tree); err != nil {
			b.Fatal(err)
		}
	}
}
