// Package lenient decodes JSON as the service actually sends it rather than
// as its interface document promises: numbers given as strings, strings
// given as numbers, "true" for true, a redacted field given as the string
// "FILTERED" where a number or an object is expected, and null anywhere.
//
// [Unmarshal] is the one mechanism: encoding/json first, and only when that
// fails on a value of an unexpected type, a second decode of the same JSON
// normalised for the target's type. Response types use it in their
// UnmarshalJSON and keep the whole body beside the fields, so nothing the
// service sent is lost.
package lenient

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/internal/tags"
)

// Unmarshal decodes data into v, which must be a non-nil pointer, as
// json.Unmarshal does. When json.Unmarshal fails on anything but the
// syntax (a value of the wrong type, or an error from a field's own
// UnmarshalJSON), v is reset to its zero value and decoded again from a copy
// of data rewritten for v's type, guided by its json tags, embedded structs,
// pointers, slices and maps:
//
//   - a number given as a string becomes a number, and a number, true or
//     false where text is expected becomes that text;
//   - "true" and "false" (any case), "1" and "0", and the numbers 1 and 0
//     become booleans;
//   - an integral number such as 21.0 or 2e1 fills an integer;
//   - a type with its own UnmarshalJSON or UnmarshalText (json.RawMessage,
//     time.Time, …) gets its value untouched, or a number or boolean as a
//     string when only that fits;
//   - a value that cannot be converted ("FILTERED" where a number is
//     expected, a string where an object is) is left out, so its field
//     keeps the zero value; in an array the element is left out;
//   - null stays null, and keys naming no field are left out;
//   - a field tagged lenient:"text" takes a JSON string only: anything
//     else is left out, so that the type's own fallback for an absent
//     value applies.
//
// A syntax error is returned as it is. So is the first error when data as a
// whole cannot be read as v's type (an array for a struct): leniency applies
// to what is inside. Unmarshal is meant for decoding into a zero value.
func Unmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var syntax *json.SyntaxError
	var invalid *json.InvalidUnmarshalError
	if errors.As(err, &syntax) || errors.As(err, &invalid) {
		return err
	}
	rv := reflect.ValueOf(v).Elem()
	n := normaliser{fields: map[reflect.Type]map[string]tags.Field{}}
	fixed, ok := n.value(nil, data, rv.Type())
	if !ok {
		return err
	}
	rv.SetZero()
	return json.Unmarshal(fixed, v)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// normaliser rewrites JSON for a Go type. It caches the json fields of the
// struct types it meets during one call.
type normaliser struct {
	fields map[reflect.Type]map[string]tags.Field
}

// value appends raw rewritten for type t to out and reports whether raw
// fits t at all; when it does not, out is returned unchanged.
func (n *normaliser) value(out, raw []byte, t reflect.Type) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return out, false
	}
	if raw[0] == 'n' { // null: encoding/json leaves the value alone or sets nil
		return append(out, raw...), true
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if custom(t) {
		return n.trial(out, raw, t)
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return append(out, raw...), true
		}
		return n.trial(out, raw, t)
	case reflect.String:
		return text(out, raw)
	case reflect.Bool:
		return boolean(out, raw)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return integer(out, raw, t.Bits(), true)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return integer(out, raw, t.Bits(), false)
	case reflect.Float32, reflect.Float64:
		return float(out, raw, t.Bits())
	case reflect.Struct:
		return n.object(out, raw, t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || custom(t.Key()) {
			return n.trial(out, raw, t)
		}
		return n.mapping(out, raw, t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return n.trial(out, raw, t) // []byte: base64 text
		}
		return n.array(out, raw, t.Elem())
	case reflect.Array:
		return n.array(out, raw, t.Elem())
	}
	return n.trial(out, raw, t)
}

// custom reports whether encoding/json hands values of t to t's own
// UnmarshalJSON or UnmarshalText.
func custom(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(unmarshalerType) || p.Implements(textUnmarshalerType)
}

// trial keeps raw when encoding/json decodes it into a t, else the number or
// boolean as a string when that decodes, else nothing.
func (n *normaliser) trial(out, raw []byte, t reflect.Type) ([]byte, bool) {
	if json.Unmarshal(raw, reflect.New(t).Interface()) == nil {
		return append(out, raw...), true
	}
	if raw[0] != '"' && raw[0] != '{' && raw[0] != '[' {
		quoted := strconv.AppendQuote(nil, string(raw))
		if json.Unmarshal(quoted, reflect.New(t).Interface()) == nil {
			return append(out, quoted...), true
		}
	}
	return out, false
}

// unquote returns the text of a JSON string literal, or false for any other
// value.
func unquote(raw []byte) (string, bool) {
	if raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// numberText returns the text of a number given as a number or as a
// string holding one.
func numberText(raw []byte) (string, bool) {
	if s, ok := unquote(raw); ok {
		s = strings.TrimSpace(s)
		return s, IsNumber(s)
	}
	return string(raw), raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'
}

func text(out, raw []byte) ([]byte, bool) {
	switch raw[0] {
	case '"':
		return append(out, raw...), true
	case '{', '[':
		return out, false
	}
	return strconv.AppendQuote(out, string(raw)), true // a number, true or false
}

func boolean(out, raw []byte) ([]byte, bool) {
	s := string(raw)
	if u, ok := unquote(raw); ok {
		s = strings.ToLower(strings.TrimSpace(u))
	}
	switch s {
	case "true", "1":
		return append(out, "true"...), true
	case "false", "0":
		return append(out, "false"...), true
	}
	return out, false
}

// maxExact is the largest integer a float64 holds exactly.
const maxExact = 1 << 53

func integer(out, raw []byte, bits int, signed bool) ([]byte, bool) {
	s, ok := numberText(raw)
	if !ok {
		return out, false
	}
	if !strings.ContainsAny(s, ".eE") {
		var err error
		if signed {
			_, err = strconv.ParseInt(s, 10, bits)
		} else {
			_, err = strconv.ParseUint(s, 10, bits)
		}
		if err != nil {
			return out, false
		}
		return append(out, s...), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxExact || (!signed && f < 0) {
		return out, false
	}
	i := int64(f)
	if bits < 64 && (signed && (i > 1<<(bits-1)-1 || i < -1<<(bits-1)) || !signed && i > 1<<bits-1) {
		return out, false
	}
	return strconv.AppendInt(out, i, 10), true
}

func float(out, raw []byte, bits int) ([]byte, bool) {
	s, ok := numberText(raw)
	if !ok {
		return out, false
	}
	if _, err := strconv.ParseFloat(s, bits); err != nil {
		return out, false
	}
	return append(out, s...), true
}

// object rewrites the members of a JSON object that name a field of struct
// type t, matching keys as encoding/json does (exactly, else ignoring case).
func (n *normaliser) object(out, raw []byte, t reflect.Type) ([]byte, bool) {
	var members map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &members) != nil {
		return out, false
	}
	fields := n.fieldsOf(t)
	out = append(out, '{')
	first := true
	for k, v := range members {
		f, ok := fields[k]
		if !ok {
			for name, g := range fields {
				if strings.EqualFold(name, k) {
					f, ok = g, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		mark := len(out)
		out = appendKey(out, k, first)
		var fits bool
		switch {
		case f.Tag.Get("lenient") == "text":
			out, fits = onlyText(out, v)
		case quotedScalar(f):
			out, fits = n.quoted(out, v, f.Type)
		default:
			out, fits = n.value(out, v, f.Type)
		}
		if fits {
			first = false
		} else {
			out = out[:mark]
		}
	}
	return append(out, '}'), true
}

// onlyText keeps raw when it is a JSON string or null, for a field tagged
// lenient:"text": text whose fallback, when absent, is better than the
// text of a number or a boolean (an error message that falls back on
// another message).
func onlyText(out, raw []byte) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '"' && raw[0] != 'n') {
		return out, false
	}
	return append(out, raw...), true
}

// quotedScalar reports a field with the ",string" option, which
// encoding/json applies to strings, numbers and booleans only.
func quotedScalar(f tags.Field) bool {
	if !hasOption(f.Options, "string") {
		return false
	}
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// quoted rewrites the value of a ",string" field: the value it holds
// (quoted or not) is rewritten for t, then quoted as that option wants.
func (n *normaliser) quoted(out, raw []byte, t reflect.Type) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == 'n' {
		return append(out, raw...), true
	}
	inner := raw
	if s, ok := unquote(raw); ok {
		inner = bytes.TrimSpace([]byte(s))
	}
	if !json.Valid(inner) {
		return out, false
	}
	conv, ok := n.value(nil, inner, t)
	if !ok || conv[0] == '{' || conv[0] == '[' || conv[0] == 'n' {
		return out, false
	}
	return strconv.AppendQuote(out, string(conv)), true
}

func hasOption(options, name string) bool {
	for o := range strings.SplitSeq(options, ",") {
		if o == name {
			return true
		}
	}
	return false
}

func (n *normaliser) fieldsOf(t reflect.Type) map[string]tags.Field {
	if m, ok := n.fields[t]; ok {
		return m
	}
	list := tags.Fields(t, "json")
	m := make(map[string]tags.Field, len(list))
	for _, f := range list {
		m[f.Key] = f
	}
	n.fields[t] = m
	return m
}

func appendKey(out []byte, k string, first bool) []byte {
	if !first {
		out = append(out, ',')
	}
	key, _ := json.Marshal(k) // a string always encodes
	return append(append(out, key...), ':')
}

// mapping rewrites each member of a JSON object for a map of elem values.
func (n *normaliser) mapping(out, raw []byte, elem reflect.Type) ([]byte, bool) {
	var members map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &members) != nil {
		return out, false
	}
	out = append(out, '{')
	first := true
	for k, v := range members {
		mark := len(out)
		out = appendKey(out, k, first)
		var fits bool
		if out, fits = n.value(out, v, elem); fits {
			first = false
		} else {
			out = out[:mark]
		}
	}
	return append(out, '}'), true
}

// array rewrites each element of a JSON array for elem, leaving out the
// elements that do not fit.
func (n *normaliser) array(out, raw []byte, elem reflect.Type) ([]byte, bool) {
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return out, false
	}
	out = append(out, '[')
	first := true
	for _, v := range items {
		mark := len(out)
		if !first {
			out = append(out, ',')
		}
		var fits bool
		if out, fits = n.value(out, v, elem); fits {
			first = false
		} else {
			out = out[:mark]
		}
	}
	return append(out, ']'), true
}
