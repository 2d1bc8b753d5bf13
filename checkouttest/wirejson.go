package checkouttest

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/payorch/checkout-go/validation"
)

// The fake reads a JSON request as a server does: key by key, each key
// matched exactly (the service's keys and values are case sensitive, where
// encoding/json would match "allowdefaultoptions" to allowDefaultOptions),
// each value checked for its JSON type. A missing required key and a wrong
// value are problems at the key's path ("payment_filter.options[0].enable");
// a key the fake does not read is ignored, as the service ignores keys it
// does not know, unless it is a key it reads written in another case, which
// the service would not see: that is refused too.

// parseJSON reads a request body: a JSON value with its numbers kept as
// written. A body that is not UTF-8 or not JSON is a problem at "body".
func parseJSON(p *problems, body []byte) (any, bool) {
	if !utf8.Valid(body) {
		p.bad("body", "is not valid UTF-8")
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		p.bad("body", "is not JSON: "+err.Error())
		return nil, false
	}
	if dec.More() {
		p.bad("body", "holds more than one JSON value")
		return nil, false
	}
	return v, true
}

// jsonObject is one JSON object of a request being read: its members, its
// path ("" for the body), the keys read so far, and where problems go.
type jsonObject struct {
	path    string
	members map[string]any
	read    []string
	p       *problems
}

// asObject returns v as the object at path, or adds a problem there.
func asObject(p *problems, path string, v any) (*jsonObject, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		where := path
		if where == "" {
			where = "body"
		}
		p.bad(where, "must be a JSON object, not "+kindOf(v))
		return nil, false
	}
	return &jsonObject{path: path, members: m, p: p}, true
}

// at is the path of key in o.
func (o *jsonObject) at(key string) string { return validation.Join(o.path, key) }

// get returns the member key; null counts as absent. A required key that
// is absent is a missing field.
func (o *jsonObject) get(key string, required bool) (any, bool) {
	o.read = append(o.read, key)
	v, ok := o.members[key]
	if !ok || v == nil {
		if required {
			o.p.miss(o.at(key))
		}
		return nil, false
	}
	return v, true
}

// has reports whether key is present (and not null), without reading it.
func (o *jsonObject) has(key string) bool { return o.members[key] != nil }

// text returns the string at key. A required key holding only blanks is
// missing too.
func (o *jsonObject) text(key string, required bool) (string, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return "", false
	}
	s, isText := v.(string)
	switch {
	case !isText:
		o.p.bad(o.at(key), "must be a string, not "+kindOf(v))
		return "", false
	case required && strings.TrimSpace(s) == "":
		o.p.miss(o.at(key))
		return "", false
	}
	return s, true
}

// flag returns the boolean at key: JSON true or false.
func (o *jsonObject) flag(key string, required bool) (bool, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return false, false
	}
	b, isBool := v.(bool)
	if !isBool {
		o.p.bad(o.at(key), "must be true or false, not "+kindOf(v))
	}
	return b, isBool
}

// textOrNumber returns the text of a member the service reads as text but
// whose published bodies also write as a JSON number (amounts, dates), as
// written.
func (o *jsonObject) textOrNumber(key string, required bool) (string, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return "", false
	}
	switch v := v.(type) {
	case string:
		if required && strings.TrimSpace(v) == "" {
			o.p.miss(o.at(key))
			return "", false
		}
		return v, true
	case json.Number:
		return v.String(), true
	}
	o.p.bad(o.at(key), "must be text or a number, not "+kindOf(v))
	return "", false
}

// amount returns the amount at key in minor units (string or number).
func (o *jsonObject) amount(key string, required bool) (int64, bool) {
	s, ok := o.textOrNumber(key, required)
	if !ok {
		return 0, false
	}
	minor, msg := parseAmount(s)
	if msg != "" {
		o.p.bad(o.at(key), msg)
		return 0, false
	}
	return minor, true
}

// enum returns the string at key, which must be one of values exactly. A
// value of the set in another case is refused (the service matches values
// case-sensitively); another value is refused when the set is closed and
// kept when it is open (the service takes values it adds later, such as
// the action enach).
func (o *jsonObject) enum(key string, required bool, values []string, closed bool) (string, bool) {
	s, ok := o.text(key, required)
	if !ok {
		return "", false
	}
	if msg := enumProblem(s, values, closed); msg != "" {
		o.p.bad(o.at(key), msg)
		return "", false
	}
	return s, true
}

// enumProblem says why s is not a value of the set, "" when it is one.
func enumProblem(s string, values []string, closed bool) string {
	if slices.Contains(values, s) {
		return ""
	}
	for _, v := range values {
		if strings.EqualFold(v, s) {
			return strconv.Quote(s) + " is not a value the service reads: values are case sensitive, did you mean " + strconv.Quote(v) + "?"
		}
	}
	if closed {
		return strconv.Quote(s) + " is not one of " + strings.Join(values, ", ")
	}
	return ""
}

// number returns the JSON number at key, which must be greater than 0.
func (o *jsonObject) number(key string, required bool) (float64, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return 0, false
	}
	n, isNumber := v.(json.Number)
	if !isNumber {
		o.p.bad(o.at(key), "must be a number, not "+kindOf(v))
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || !(f > 0) {
		o.p.bad(o.at(key), "must be a number greater than 0, not "+n.String())
		return 0, false
	}
	return f, true
}

// object returns the object at key.
func (o *jsonObject) object(key string, required bool) (*jsonObject, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return nil, false
	}
	return asObject(o.p, o.at(key), v)
}

// list returns the array at key, with the path of each element.
func (o *jsonObject) list(key string, required bool) ([]any, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return nil, false
	}
	a, isArray := v.([]any)
	if !isArray {
		o.p.bad(o.at(key), "must be an array, not "+kindOf(v))
		return nil, false
	}
	return a, true
}

// objects returns the array of objects at key; an element that is not an
// object is a problem at its index.
func (o *jsonObject) objects(key string, required bool) []*jsonObject {
	a, _ := o.list(key, required)
	var out []*jsonObject
	for i, v := range a {
		if el, ok := asObject(o.p, validation.Index(o.at(key), i), v); ok {
			out = append(out, el)
		}
	}
	return out
}

// texts returns the array of strings at key, and whether it is there; an
// element that is not a string is a problem at its index.
func (o *jsonObject) texts(key string) ([]string, bool) {
	a, ok := o.list(key, false)
	out := make([]string, 0, len(a))
	for i, v := range a {
		s, isText := v.(string)
		if !isText {
			o.p.bad(validation.Index(o.at(key), i), "must be a string, not "+kindOf(v))
			continue
		}
		out = append(out, s)
	}
	return out, ok
}

// done refuses the keys of o that are a key it read written in another
// case: the service would not see them. Call it after reading every key.
func (o *jsonObject) done() {
	for _, k := range slices.Sorted(maps.Keys(o.members)) {
		if slices.Contains(o.read, k) {
			continue
		}
		for _, r := range o.read {
			if strings.EqualFold(r, k) {
				o.p.bad(o.at(k), "is not a key the service reads: keys are case sensitive, did you mean "+strconv.Quote(r)+"?")
				break
			}
		}
	}
}

// kindOf names the JSON kind of v for a message.
func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return "the number " + v.String()
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "another kind of value"
}

// maxAmountDigits bounds the digits before the point of an amount, so that
// its minor units fit the fake's int64.
const maxAmountDigits = 16

// parseAmount reads an amount as the service's published bodies write it
// ("1", "1.0", "10.00", 100): decimal digits, optionally a point and one or
// two digits, never negative. It returns the amount in minor units, or why
// it is not one.
func parseAmount(s string) (int64, string) {
	whole, frac, hasPoint := strings.Cut(s, ".")
	switch {
	case strings.HasPrefix(s, "-"):
		return 0, "must not be negative"
	case !isDigits(whole) || hasPoint && !isDigits(frac):
		return 0, strconv.Quote(s) + " is not a decimal amount like 10.00 or 10"
	case len(frac) > 2:
		return 0, strconv.Quote(s) + " has more than two decimal places"
	case len(whole) > maxAmountDigits:
		return 0, "has more than " + strconv.Itoa(maxAmountDigits) + " digits before the point"
	}
	for len(frac) < 2 {
		frac += "0"
	}
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, strconv.Quote(s) + " is not a decimal amount like 10.00 or 10"
	}
	return n, ""
}

// isDigits reports whether s is one or more decimal digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
