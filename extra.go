package checkout

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/valid"
)

// checkExtraKey records a problem when k cannot be sent as a top-level key
// of Extra: empty, not valid UTF-8 (encoding would replace the bad bytes) or
// holding control characters (NUL, newline, …). It reports whether k is
// usable.
func checkExtraKey(c *valid.Collector, k string) bool {
	switch {
	case k == "":
		c.Add("", "Extra has an empty key")
	case !utf8.ValidString(k):
		c.Add(strconv.Quote(k), "Extra key is not valid UTF-8")
	case strings.IndexFunc(k, unicode.IsControl) >= 0:
		c.Add(strconv.Quote(k), "Extra key holds control characters")
	default:
		return true
	}
	return false
}

// maxExtraDepth bounds the walk of checkExtraValue (a cyclic value would
// fail to encode anyway).
const maxExtraDepth = 64

var (
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// checkExtraValue records a problem at path for every string inside v that
// is not valid UTF-8 — strings, map keys, and the elements of maps, slices,
// arrays, pointers, interfaces and the exported fields of plain structs —
// since encoding/json would silently replace the bad bytes with U+FFFD. A
// json.RawMessage must be valid UTF-8 as a whole. Values with their own
// MarshalJSON or MarshalText are not looked into.
func checkExtraValue(c *valid.Collector, path string, v any) {
	walkUTF8(c, path, reflect.ValueOf(v), 0)
}

func walkUTF8(c *valid.Collector, path string, v reflect.Value, depth int) {
	if !v.IsValid() || depth > maxExtraDepth {
		return
	}
	t := v.Type()
	if t == rawMessageType {
		if !utf8.Valid(v.Bytes()) {
			c.Add(path, "is not valid UTF-8")
		}
		return
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType)) {
		return
	}
	switch t.Kind() {
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			c.Add(path, "is not valid UTF-8")
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkUTF8(c, path, v.Elem(), depth+1)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			k := iter.Key()
			name := ""
			if k.Kind() == reflect.String {
				name = k.String()
				if !utf8.ValidString(name) {
					c.Add(path+"."+strconv.Quote(name), "key is not valid UTF-8")
					continue
				}
			} else {
				name = "[" + k.Type().String() + "]"
			}
			walkUTF8(c, path+"."+name, iter.Value(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return // encoded as base64
		}
		for i := 0; i < v.Len(); i++ {
			walkUTF8(c, valid.Index(path, i), v.Index(i), depth+1)
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Name
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == "-" {
				continue
			} else if tag != "" {
				name = tag
			}
			walkUTF8(c, path+"."+name, v.Field(i), depth+1)
		}
	}
}
