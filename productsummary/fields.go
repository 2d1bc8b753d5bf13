package productsummary

import (
	"math"
	"reflect"
	"strings"
)

// The wire keys of the items are written once, in their json tags. The
// decoder and the checks that name keys (unknown keys, numbers) read them
// from the tags here, with reflection, once at start-up.

// field is one wire key of an item kind.
type field struct {
	key      string // the json tag's name
	index    int    // the struct field's index
	number   bool   // a float64; otherwise a string type
	optional bool   // omitempty: the zero value is not sent
	required bool   // a number Validate wants set (see describe)
}

// itemType is what the decoder and the checks know about one item kind.
type itemType struct {
	typ    reflect.Type
	fields []field
}

// lookup returns the field whose key is key exactly (keys are case
// sensitive on the wire), or nil.
func (t *itemType) lookup(key string) *field {
	for i := range t.fields {
		if t.fields[i].key == key {
			return &t.fields[i]
		}
	}
	return nil
}

var (
	// typeKeyName is the wire key of an item's kind.
	typeKeyName = tagName(reflect.TypeFor[typeKey]().Field(0))

	// itemTypes holds the six kinds by wire type.
	itemTypes = describe(Space{}, Text{}, Image{}, ToggleImage{}, Divider{}, Background{})
)

// tagName returns the key a struct field's json tag gives it.
func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// describe reads the fields of each kind from its tags. A number is
// required when Validate refuses the kind's zero value at that key (a
// divider's thickness), so that the decoder's message for an explicit 0
// and Validate agree without a second list.
func describe(kinds ...Item) map[Kind]*itemType {
	out := make(map[Kind]*itemType, len(kinds))
	for _, zero := range kinds {
		t := &itemType{typ: reflect.TypeOf(zero)}
		refused := map[string]bool{}
		k := checker{place: alone}
		zero.validate(&k)
		if ve, ok := k.c.Err().(*ValidationError); ok {
			for _, p := range ve.Problems {
				refused[p.Path] = true
			}
		}
		for i := range t.typ.NumField() {
			sf := t.typ.Field(i)
			_, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			f := field{
				key:      tagName(sf),
				index:    i,
				number:   sf.Type.Kind() == reflect.Float64,
				optional: strings.Contains(opts, "omitempty"),
			}
			f.required = f.number && refused[f.key]
			t.fields = append(t.fields, f)
		}
		out[zero.Kind()] = t
	}
	return out
}

// checkNumbers adds a problem for each number of it that is set (not 0)
// and is not finite or not greater than 0. With encodeOnly it checks only
// what JSON cannot carry (NaN, ±Inf), as MarshalJSON needs. it must not be
// nil or a pointer.
func checkNumbers(k *checker, it Item, encodeOnly bool) {
	t := itemTypes[it.Kind()]
	v := reflect.ValueOf(it)
	for _, f := range t.fields {
		if !f.number {
			continue
		}
		switch n := v.Field(f.index).Float(); {
		case n == 0:
		case math.IsNaN(n) || math.IsInf(n, 0):
			k.add(f.key, "must be a finite number")
		case n < 0 && !encodeOnly:
			k.add(f.key, "must be greater than 0")
		}
	}
}

// encodable returns a *ValidationError for what JSON cannot carry: a nil
// item, or a number that is NaN or infinite, at the item's place p.
func encodable(it Item, p place) error {
	k := checker{place: p}
	it = concrete(it)
	if it == nil {
		k.add("", "missing item (nil)")
	} else {
		checkNumbers(&k, it, true)
	}
	return k.c.Err()
}
