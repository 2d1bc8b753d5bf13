package productsummary

import (
	"reflect"
	"strings"

	"github.com/payorch/checkout-go/internal/tags"
)

// Each item field is declared once: its wire key in its json tag, and what
// Validate asks of it in its check tag. The decoder and the checks read
// both from the tags here, with reflection, once at start-up.
//
// The check tag holds comma-separated words:
//   - color: a hex colour #RGB, #RRGGBB or #AARRGGBB, or "" when unset;
//   - url: an absolute http or https URL, or "" (an unused accordion icon);
//   - required: "" (or 0 for a number) is refused.
//
// Every number is also checked to be finite and greater than 0 when set,
// and every other string to be valid UTF-8.

// field is one wire key of an item kind.
type field struct {
	key      string // the json tag's name
	index    int    // the struct field's index
	number   bool   // a float64; otherwise a string type
	optional bool   // omitempty: the zero value is not sent
	color    bool   // check:"color"
	url      bool   // check:"url"
	required bool   // check:"required"
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
	typeKeyName = tags.Fields(reflect.TypeFor[typeKey](), "json")[0].Key

	// itemTypes holds the six kinds by wire type.
	itemTypes = describe(Space{}, Text{}, Image{}, ToggleImage{}, Divider{}, Background{})
)

// describe reads the fields of each kind from its tags.
func describe(kinds ...Item) map[Kind]*itemType {
	out := make(map[Kind]*itemType, len(kinds))
	for _, zero := range kinds {
		t := &itemType{typ: reflect.TypeOf(zero)}
		for _, tf := range tags.Fields(t.typ, "json") {
			f := field{
				key:      tf.Key,
				index:    tf.Index[0],
				number:   tf.Type.Kind() == reflect.Float64,
				optional: tf.Has("omitempty"),
			}
			for word := range strings.SplitSeq(tf.Tag.Get("check"), ",") {
				switch word {
				case "color":
					f.color = true
				case "url":
					f.url = true
				case "required":
					f.required = true
				}
			}
			t.fields = append(t.fields, f)
		}
		out[zero.Kind()] = t
	}
	return out
}
