package wire

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/payorch/checkout-go/internal/valid"
)

// DecodeError returns the error of a decoder: one problem at the JSON path.
func DecodeError(path, message string) error {
	return &valid.Error{Problems: []valid.Problem{{Path: path, Message: message}}}
}

// IsNull reports whether raw is the JSON literal null (blank space around it
// allowed).
func IsNull(raw []byte) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// KindOf names the JSON kind of raw for an error message: "an object", "an
// array", "a string", "a boolean", "null", "a number", or "nothing" when raw
// is blank. It looks at the first byte only; raw need not be valid JSON.
func KindOf(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// Unmarshal is the body of an UnmarshalJSON method: null leaves *dst
// unchanged (as encoding/json does for other types); otherwise decode reads
// data with JSON paths starting at path, and *dst is set only when it
// succeeds. A nil dst is an error at path, not a panic.
func Unmarshal[T any](dst *T, data []byte, path string, decode func(data []byte, path string) (*T, error)) error {
	if dst == nil {
		return DecodeError(path, "cannot decode into a nil pointer")
	}
	if IsNull(data) {
		return nil
	}
	v, err := decode(data, path)
	if err != nil {
		return err
	}
	*dst = *v
	return nil
}

// Object walks the keys of one JSON object. Each Take removes the key, so
// what is left at the end (Extra) are the keys the caller does not model.
// The first problem met is kept in Err; once it is set the getters still
// return zero values, and later problems are dropped.
type Object struct {
	// Err is the first problem met, a *valid.Error. A decoder of a nested
	// value may set it directly while it is nil.
	Err error

	path   string
	fields map[string]json.RawMessage
}

// NewObject parses data as a JSON object whose JSON path is path. Keys are
// kept as they are written: a lookup is case exact.
func NewObject(data []byte, path string) (*Object, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, DecodeError(path, "must be a JSON object, got "+KindOf(data))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, DecodeError(path, "not valid JSON: "+err.Error())
	}
	return &Object{path: path, fields: fields}, nil
}

// Fail records message as the problem of key (a path relative to the
// object), unless a problem is already recorded.
func (o *Object) Fail(key, message string) {
	if o.Err == nil {
		o.Err = DecodeError(valid.Join(o.path, key), message)
	}
}

// Take removes key and returns its value; a null value counts as absent.
func (o *Object) Take(key string) (json.RawMessage, bool) {
	raw, ok := o.fields[key]
	if !ok {
		return nil, false
	}
	delete(o.fields, key)
	if IsNull(raw) {
		return nil, false
	}
	return raw, true
}

// TakeAlias takes key, or its alternative spelling alt; both at once is a
// problem because one of them would be lost.
func (o *Object) TakeAlias(key, alt string) (json.RawMessage, bool) {
	_, hasKey := o.fields[key]
	_, hasAlt := o.fields[alt]
	if hasKey && hasAlt {
		o.Fail(alt, "both "+quote(key)+" and "+quote(alt)+" are given; send only "+quote(key))
		return nil, false
	}
	if hasAlt {
		return o.Take(alt)
	}
	return o.Take(key)
}

// TakeRequired takes a required key; absent and null are both problems. An
// absent key whose mis-cased twin is present says so.
func (o *Object) TakeRequired(key string) (json.RawMessage, bool) {
	if raw, ok := o.fields[key]; ok && IsNull(raw) {
		delete(o.fields, key)
		o.Fail(key, "required, got null")
		return nil, false
	}
	raw, ok := o.Take(key)
	if !ok {
		o.missing(key)
	}
	return raw, ok
}

func (o *Object) missing(key string) {
	msg := "missing required key " + quote(key)
	for k := range o.fields {
		if strings.EqualFold(k, key) {
			msg += " (found " + quote(k) + "; keys are case sensitive)"
			break
		}
	}
	o.Fail(key, msg)
}

// RequiredBool takes a required boolean key.
func (o *Object) RequiredBool(key string) bool {
	raw, ok := o.TakeRequired(key)
	if !ok {
		return false
	}
	return o.boolValue(key, raw)
}

// OptionalBool takes an optional boolean key; absent or null gives nil.
func (o *Object) OptionalBool(key string) *bool {
	raw, ok := o.Take(key)
	if !ok {
		return nil
	}
	v := o.boolValue(key, raw)
	return &v
}

func (o *Object) boolValue(key string, raw json.RawMessage) bool {
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		o.Fail(key, "must be a boolean, got "+KindOf(raw))
	}
	return v
}

// OptionalString takes an optional string key; absent or null gives "". An
// empty string is a problem, because it would not be sent back (empty means
// "leave the key out"): no silent fix-up.
func (o *Object) OptionalString(key string) string {
	raw, ok := o.Take(key)
	if !ok {
		return ""
	}
	return o.StringValue(key, raw, false)
}

// StringValue decodes raw, the value of key, as a string; an empty string is
// a problem unless emptyOK is set.
func (o *Object) StringValue(key string, raw json.RawMessage, emptyOK bool) string {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		o.Fail(key, "must be a string, got "+KindOf(raw))
		return ""
	}
	if s == "" && !emptyOK {
		o.Fail(key, "empty string: leave the key out instead")
	}
	return s
}

// Array splits raw, the value of key, into its elements. It returns nil
// after a problem, and a non-nil empty slice for [] so that a present empty
// array is sent back as [].
func (o *Object) Array(key string, raw json.RawMessage) []json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		o.Fail(key, "must be an array, got "+KindOf(raw))
		return nil
	}
	elems := []json.RawMessage{}
	if err := json.Unmarshal(raw, &elems); err != nil {
		o.Fail(key, "not valid JSON: "+err.Error())
		return nil
	}
	return elems
}

// Strings decodes raw, the value of key, as an array of strings. Empty
// strings are kept (Validate reports them); an element of another kind is a
// problem at its index, and gives nil.
func (o *Object) Strings(key string, raw json.RawMessage) []string {
	elems := o.Array(key, raw)
	if elems == nil {
		return nil
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		var s string
		if err := json.Unmarshal(e, &s); err != nil {
			o.Fail(valid.Index(key, i), "must be a string, got "+KindOf(e))
			return nil
		}
		out[i] = s
	}
	return out
}

// Extra returns the keys nobody took, or nil when there are none.
func (o *Object) Extra() map[string]json.RawMessage {
	if len(o.fields) == 0 {
		return nil
	}
	return o.fields
}

// Child takes the optional object at key and decodes it with decode, whose
// paths start at the key's path; decode's error becomes o.Err. It does
// nothing once o.Err is set, and returns nil when the key is absent or null.
func Child[T any](o *Object, key string, decode func(data []byte, path string) (*T, error)) *T {
	raw, ok := o.Take(key)
	if !ok || o.Err != nil {
		return nil
	}
	var v *T
	v, o.Err = decode(raw, valid.Join(o.path, key))
	return v
}

// List takes the optional array at key and decodes each element with
// decode, whose paths start at the element's path (key[i]). Absent or null
// gives nil and [] a non-nil empty slice. It stops at the first problem,
// which becomes o.Err.
func List[T any](o *Object, key string, decode func(data []byte, path string) (*T, error)) []T {
	raw, ok := o.Take(key)
	if !ok {
		return nil
	}
	elems := o.Array(key, raw)
	if elems == nil {
		return nil
	}
	out := make([]T, len(elems))
	for i, e := range elems {
		if o.Err != nil {
			break
		}
		var v *T
		if v, o.Err = decode(e, valid.Index(valid.Join(o.path, key), i)); v != nil {
			out[i] = *v
		}
	}
	return out
}
