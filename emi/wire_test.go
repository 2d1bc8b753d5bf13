package emi

import (
	"reflect"
	"testing"

	"github.com/payorch/checkout-go/internal/wiretest"
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
		wiretest.RequireSameFields(t, real, wire)
	}
}
