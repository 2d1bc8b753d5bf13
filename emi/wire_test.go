package emi

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWireTypesMatch: the twins Options.MarshalJSON encodes in one pass
// declare the fields, tags and order the types declare (the bytes of both
// ways are compared by paymentfilter's TestOnePassSameBytes).
func TestWireTypesMatch(t *testing.T) {
	for real, wire := range map[reflect.Type]reflect.Type{
		reflect.TypeFor[Options]():   reflect.TypeFor[optionsWire](),
		reflect.TypeFor[SubFilter](): reflect.TypeFor[subFilterWire](),
		reflect.TypeFor[Group]():     reflect.TypeFor[groupWire](),
		reflect.TypeFor[Filter]():    reflect.TypeFor[filterWire](),
	} {
		var want, got []string
		for f := range real.Fields() {
			if f.IsExported() && f.Tag.Get("json") != "-" {
				want = append(want, f.Name+" "+string(f.Tag))
			}
		}
		for f := range wire.Fields() {
			got = append(got, f.Name+" "+string(f.Tag))
		}
		require.Equal(t, want, got, "%s and %s", real, wire)
	}
}
