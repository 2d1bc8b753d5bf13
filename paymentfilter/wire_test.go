package paymentfilter

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// TestWireTypesMatch: the twins Filter.MarshalJSON encodes in one pass
// declare what the types declare, and pf's list of emiOptions keys is
// package emi's.
func TestWireTypesMatch(t *testing.T) {
	wiretest.RequireSameFields(t, reflect.TypeFor[Filter](), reflect.TypeFor[filterWire]())
	wiretest.RequireSameFields(t, reflect.TypeFor[Option](), reflect.TypeFor[optionWire]())

	var keys []string
	for _, typ := range []reflect.Type{reflect.TypeFor[emi.Options](), reflect.TypeFor[emi.SubFilter](),
		reflect.TypeFor[emi.Group](), reflect.TypeFor[emi.Filter](), reflect.TypeFor[emi.IssuerFilter]()} {
		for f := range typ.Fields() {
			if k, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && k != "-" && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	keys = append(keys, "issuerFilters") // the other spelling package emi accepts
	for _, k := range keys {
		require.Contains(t, allKeys(), k, "an emiOptions key missing from emiKeys")
	}
	for _, k := range emiKeys() {
		require.Contains(t, keys, k, "emiKeys holds a key that is not package emi's")
	}
}

// TestOnePassSameBytes: for every published sample, the filter encodes to
// the same bytes in one pass (no Extra below the top) as level by level
// (forced by an Extra key that sets a modelled key at every level, which
// encoding leaves out).
func TestOnePassSameBytes(t *testing.T) {
	n := 0
	for _, s := range append(conformance.Files(t, "payment_filter", "*.json"), conformance.Files(t, "emi", "*.json")...) {
		var top map[string]json.RawMessage
		if !s.ValidJSON() || json.Unmarshal(s.Data, &top) != nil {
			continue
		}
		raw, ok := top["payment_filter"]
		if !ok {
			raw = s.Data
		}
		var text string
		if json.Unmarshal(raw, &text) == nil {
			raw = json.RawMessage(text)
		}
		var f Filter
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		onePass, err := f.MarshalJSON()
		require.NoError(t, err)
		slow := f.Clone()
		poison(reflect.ValueOf(slow))
		_, fast := wireOf(slow.AllowDefaultOptions, slow.Options, slow.EMIOptions)
		require.False(t, fast && len(slow.Options) > 0, "%s: the per-level way is not taken", s.Name)
		perLevel, err := slow.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(onePass), string(perLevel), s.Name)
		n++
	}
	require.Greater(t, n, 30)
}

// poison adds the Extra key "enable" to every object below v that has an
// enable field: a modelled key, so encoding leaves it out, but an Extra
// key, so the one-pass encoding does not apply.
func poison(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			poison(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			poison(v.Index(i))
		}
	case reflect.Struct:
		if extra := v.FieldByName("Extra"); extra.IsValid() && v.FieldByName("Enable").IsValid() {
			m := map[string]json.RawMessage{}
			for k, raw := range extra.Interface().(map[string]json.RawMessage) {
				m[k] = raw
			}
			m[enableKey] = json.RawMessage(`"poison"`)
			extra.Set(reflect.ValueOf(m))
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && v.Type().Field(i).Name != "Extra" {
				poison(v.Field(i))
			}
		}
	}
}
