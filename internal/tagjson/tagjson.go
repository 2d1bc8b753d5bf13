// Package tagjson lets a model type keep its json struct tags as the one
// declaration of its wire keys, and still decode strictly and keep the keys
// it does not model:
//
//   - [ObjectOf] reads the keys of a struct type from its json tags,
//     through package tags (the SDK's one reader of tags), once.
//   - [Object.Unmarshal] decodes one JSON object into such a struct with
//     encoding/json, field by field, so that keys match case-exactly
//     (encoding/json alone would fill enable from "Enable"), accepted other
//     spellings count as their key, keys no field declares go to the
//     struct's Extra field, a key the type always sends (a bool or string
//     field without omitempty or omitzero) is required, and the first
//     problem is a *valid.Error at the JSON path of the value.
//   - [Object.Marshal] encodes with encoding/json and adds the Extra keys
//     after the declared ones, sorted.
//   - [Object.CheckExtra] reports the Extra keys that cannot be meant: a
//     declared key set through Extra, a value that is not JSON, a declared
//     key in the wrong case; [CaseMistake] words a known value written in
//     the wrong case.
//
// The payment_filter and emiOptions models (packages paymentfilter and emi)
// are built on it; nothing here knows a wire key of the service.
package tagjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/payorch/checkout-go/internal/tags"
	"github.com/payorch/checkout-go/internal/valid"
)

// Object is what the json tags of one struct type declare: its keys in
// field order, which are required, the other spellings accepted on decode,
// and where unmodelled keys go. It is built once, at package
// initialisation, and only read afterwards.
type Object struct {
	typ     reflect.Type
	fields  []field
	byKey   map[string]int // key -> index in fields
	aliases [][2]string    // {other spelling, key}, in the order given
	extra   int            // index of the Extra field, -1 when none
	plain   *plainEncoding // nil: encode level by level
}

type field struct {
	key      string
	goName   string
	index    int
	typ      reflect.Type
	required bool // always sent: a bool or string without omitempty or omitzero
	omitted  bool // omitempty or omitzero: an empty string would not be sent back
	rooted   bool // its type reports decode problems from its own key
}

var (
	rawMapType  = reflect.TypeFor[map[string]json.RawMessage]()
	textDecoder = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// ObjectOf reads the json tags of struct type T (through package tags, as
// encoding/json reads them). Fields tagged "-" and unexported fields are
// not keys; a field named Extra of type map[string]json.RawMessage and
// tagged "-" receives the keys no other field declares. T must be a struct
// type without embedded structs: ObjectOf panics otherwise, when the
// package using it is initialised.
func ObjectOf[T any]() *Object {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		panic("tagjson: ObjectOf of non-struct type " + t.String())
	}
	o := &Object{typ: t, byKey: map[string]int{}, extra: -1}
	for _, tf := range tags.Fields(t, "json") {
		if len(tf.Index) != 1 {
			panic("tagjson: " + t.String() + " embeds the struct holding " + tf.Name)
		}
		omit := tf.Has("omitempty") || tf.Has("omitzero")
		kind := tf.Type.Kind()
		o.byKey[tf.Key] = len(o.fields)
		o.fields = append(o.fields, field{
			key: tf.Key, goName: tf.Name, index: tf.Index[0], typ: tf.Type,
			required: !omit && (kind == reflect.Bool || kind == reflect.String),
			omitted:  omit,
		})
	}
	if sf, ok := t.FieldByName("Extra"); ok && sf.Type == rawMapType && len(sf.Index) == 1 && o.find(sf.Name) < 0 {
		o.extra = sf.Index[0]
	}
	return o
}

// find returns the index in o.fields of the field named goName (its Go
// name), or -1 when it has no key.
func (o *Object) find(goName string) int {
	for i, f := range o.fields {
		if f.goName == goName {
			return i
		}
	}
	return -1
}

// WithAlias makes decoding accept other as a spelling of key (which must
// be a declared key), and encoding leave an Extra key other out. Both
// spellings in one object is a problem: one of the values would be lost.
// It returns o, for use while o is being set up.
func (o *Object) WithAlias(other, key string) *Object {
	if _, ok := o.byKey[key]; !ok {
		panic("tagjson: alias " + other + " of undeclared key " + key)
	}
	o.aliases = append(o.aliases, [2]string{other, key})
	return o
}

// WithRooted marks the field named goName (its Go name) as one whose type
// reports decode problems with paths that already start at the field's
// key, as emi.Options does from its emiOptions key, so that they are not put
// under the key a second time. It returns o.
func (o *Object) WithRooted(goName string) *Object {
	i := o.find(goName)
	if i < 0 {
		panic("tagjson: no field " + goName)
	}
	o.fields[i].rooted = true
	return o
}

// Keys returns the declared keys in field order.
func (o *Object) Keys() []string {
	keys := make([]string, len(o.fields))
	for i, f := range o.fields {
		keys[i] = f.key
	}
	return keys
}

// Key returns the key of the field named goName (its Go name), so that
// code naming a key in a path reads it from the tag. It panics when the
// type has no such field: a mistake in the package's own code, found when
// it is initialised or first tested.
func (o *Object) Key(goName string) string {
	i := o.find(goName)
	if i < 0 {
		panic("tagjson: " + o.typ.String() + " has no field " + goName + " with a key")
	}
	return o.fields[i].key
}

// modelled reports whether k is a declared key or an accepted spelling of
// one.
func (o *Object) modelled(k string) bool {
	if _, ok := o.byKey[k]; ok {
		return true
	}
	for _, a := range o.aliases {
		if a[0] == k {
			return true
		}
	}
	return false
}

// Problem returns a *valid.Error with one problem at path.
func Problem(path, message string) error {
	return &valid.Error{Problems: []valid.Problem{{Path: path, Message: message}}}
}

// IsNull reports whether data is the JSON literal null (blank space around
// it allowed).
func IsNull(data []byte) bool {
	return string(bytes.TrimSpace(data)) == "null"
}

// Unmarshal is the body of an UnmarshalJSON method: it decodes the JSON
// object data into dst, a pointer to a struct of o's type, with problem
// paths starting at root. null leaves *dst unchanged, as encoding/json does
// for other types, and so does an error: *dst is set only when decoding
// succeeds. A nil dst is an error, not a panic.
func (o *Object) Unmarshal(data []byte, dst any, root string) error {
	d := reflect.ValueOf(dst)
	if d.Kind() != reflect.Pointer || d.Type().Elem() != o.typ {
		return Problem(root, fmt.Sprintf("cannot decode into %T", dst))
	}
	if d.IsNil() {
		return Problem(root, "cannot decode into a nil pointer")
	}
	if IsNull(data) {
		return nil
	}
	v := reflect.New(o.typ)
	if err := o.decode(data, v.Elem(), root); err != nil {
		return err
	}
	d.Elem().Set(v.Elem())
	return nil
}

func (o *Object) decode(data []byte, v reflect.Value, root string) error {
	if k := KindOf(data); k != "an object" {
		return Problem(root, "must be a JSON object, got "+k)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return Problem(root, "not valid JSON: "+err.Error())
	}
	for _, a := range o.aliases {
		raw, ok := keys[a[0]]
		if !ok {
			continue
		}
		if _, both := keys[a[1]]; both {
			return Problem(valid.Join(root, a[0]), "both "+quote(a[1])+" and "+quote(a[0])+" are given; send only "+quote(a[1]))
		}
		delete(keys, a[0])
		keys[a[1]] = raw
	}
	for i := range o.fields {
		f := &o.fields[i]
		raw, present := keys[f.key]
		delete(keys, f.key)
		path := valid.Join(root, f.key)
		switch {
		case present && IsNull(raw) && f.required:
			return Problem(path, "required, got null")
		case present && IsNull(raw):
			continue // null counts as absent
		case !present && f.required:
			msg := "missing required key " + quote(f.key)
			for k := range keys {
				if strings.EqualFold(k, f.key) {
					msg += " (found " + quote(k) + "; keys are case sensitive)"
					break
				}
			}
			return Problem(path, msg)
		case !present:
			continue
		}
		fv := v.Field(f.index)
		if err := json.Unmarshal(raw, fv.Addr().Interface()); err != nil {
			var ve *valid.Error
			if f.rooted && errors.As(err, &ve) {
				var c valid.Collector
				c.Merge(root, ve)
				return c.Err()
			}
			return problemAt(path, f.typ, raw, err)
		}
		if f.omitted && fv.Kind() == reflect.String && fv.Len() == 0 {
			return Problem(path, "empty string: leave the key out instead")
		}
	}
	if o.extra >= 0 && len(keys) > 0 {
		v.Field(o.extra).Set(reflect.ValueOf(keys))
	}
	return nil
}

// problemAt turns err, the failure to decode raw into a value of type t at
// path, into a *valid.Error at the exact path: a problem a nested
// UnmarshalJSON reported is put under path, and a type mismatch inside an
// array is found element by element (only after a failure, so the usual
// path decodes each value once).
func problemAt(path string, t reflect.Type, raw json.RawMessage, err error) error {
	var ve *valid.Error
	if t.Kind() == reflect.Slice && !reflect.PointerTo(t).Implements(textDecoder) {
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return Problem(path, "must be an array, got "+KindOf(raw))
		}
		for i, e := range elems {
			if err := json.Unmarshal(e, reflect.New(t.Elem()).Interface()); err != nil {
				return problemAt(valid.Index(path, i), t.Elem(), e, err)
			}
		}
	}
	if errors.As(err, &ve) {
		var c valid.Collector
		c.Merge(path, ve)
		return c.Err()
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return Problem(path, "must be "+want(t)+", got "+KindOf(raw))
}

// want names the JSON kind a value of type t is written as.
func want(t reflect.Type) string {
	switch {
	case reflect.PointerTo(t).Implements(textDecoder):
		return "a string"
	case t.Kind() == reflect.Bool:
		return "a boolean"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return "an array"
	case t.Kind() == reflect.Struct || t.Kind() == reflect.Map:
		return "a JSON object"
	}
	return "a number"
}

// KindOf names the JSON kind of data for a message: "an object", "an
// array", "a string", "a boolean", "null", "a number", or "nothing" when
// data is blank. It looks at the first byte only.
func KindOf(data []byte) string {
	s := bytes.TrimSpace(data)
	if len(s) == 0 {
		return "nothing"
	}
	switch s[0] {
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
	}
	return "a number"
}

// Marshal encodes v (a pointer to a struct of o's type, usually of a
// `type plain T` conversion that drops T's MarshalJSON) with encoding/json,
// then adds the keys of extra that o does not model, sorted, compacted and
// escaped as encoding/json writes a json.RawMessage. A value of extra that
// is not JSON is an error, as it is for encoding/json. With WithPlain, a
// tree without Extra keys below the top is encoded in one pass.
func (o *Object) Marshal(v any, extra map[string]json.RawMessage) ([]byte, error) {
	if rv := reflect.ValueOf(v); o.plain != nil && rv.Kind() == reflect.Pointer && !rv.IsNil() &&
		rv.Type().Elem().ConvertibleTo(o.typ) {
		if !o.plain.nestedExtra(reflect.NewAt(o.typ, rv.UnsafePointer()).Elem(), false) {
			v = reflect.NewAt(o.plain.typ, rv.UnsafePointer()).Interface()
		}
	}
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	keep := make(map[string]json.RawMessage, len(extra))
	for k, raw := range extra {
		if !o.modelled(k) {
			keep[k] = raw
		}
	}
	if len(keep) == 0 {
		return b, nil
	}
	more, err := json.Marshal(keep)
	if err != nil {
		return nil, err
	}
	if len(b) == 2 { // {}
		return more, nil
	}
	return append(append(b[:len(b)-1], ','), more[1:]...), nil
}

// CheckExtra adds to c, under path, the keys of extra (an object's
// unmodelled keys) that cannot be meant: a declared key or accepted
// spelling set through Extra (encoding leaves it out), a value that is not
// JSON, a declared key written in another case (the service matches keys
// case-exactly, so it would not see it), or a key of another object of the
// same tree (in elsewhere, any case; what names o's object for the
// message), where the service would not look for it. Other keys pass: the
// service knows keys the SDK does not model. Problems come in key order.
func (o *Object) CheckExtra(c *valid.Collector, path string, extra map[string]json.RawMessage, what string, elsewhere []string) {
	if len(extra) == 0 {
		return // the common case, without sorting nothing into a new slice
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		p := valid.Join(path, k)
		switch {
		case o.modelled(k):
			c.Add(p, "is a modelled key: set the field instead of Extra")
		case !json.Valid(extra[k]):
			c.Add(p, "value is not valid JSON")
		default:
			if m := foldEqual(k, KeysOf(o)); m != "" {
				c.Add(p, "unknown key: keys are case sensitive, did you mean "+quote(m)+"?")
			} else if m := foldEqual(k, elsewhere); m != "" {
				c.Add(p, "key "+quote(m)+" does not belong in "+what)
			}
		}
	}
}

// foldEqual returns the first of list equal to s ignoring case, or "".
func foldEqual(s string, list []string) string {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return ""
}

// KeysOf returns the declared keys and accepted spellings of objs, each
// once, in order of first appearance: the keys of a whole tree, for
// CheckExtra.
func KeysOf(objs ...*Object) []string {
	var keys []string
	seen := map[string]bool{}
	for _, o := range objs {
		all := o.Keys()
		for _, a := range o.aliases {
			all = append(all, a[0])
		}
		for _, k := range all {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// CaseMistake returns, when s is one of known written in another case,
// the message saying so, such as `unknown card type "credit": values are
// case sensitive, did you mean "CREDIT"?` (what names the kind of value),
// and "" otherwise: the service matches values case-exactly, so it would
// not see s, while a value it may know but the SDK does not passes.
func CaseMistake[S ~string](what string, s S, known ...S) string {
	for _, k := range known {
		if k != s && strings.EqualFold(string(k), string(s)) {
			return "unknown " + what + " " + quote(string(s)) + ": values are case sensitive, did you mean " + quote(string(k)) + "?"
		}
	}
	return ""
}

// quote wraps s in double quotes for a message, showing it as it is.
func quote(s string) string { return `"` + s + `"` }
