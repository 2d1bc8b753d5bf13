package checkout

import (
	"encoding"
	"encoding/json"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/tags"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/weburl"
)

// The checks every request type shares. A field's rules sit in tags beside
// its wire key, so a problem is reported under the key the service knows
// without the key being written out again. The check tag holds what
// Validate refuses, because the service refuses it or because the request
// could not be sent as written:
//
//	required  the text must not be blank
//	amount    when set, an amount the service takes (see ParseAmount)
//	webhook   when set, an https URL (http only on a loopback address): the
//	          service delivers webhooks to HTTPS endpoints only
//
// The lint tag holds advice, which only the Lint methods report (lint.go).
// Every text field, whatever its tags, must be valid UTF-8: encoding would
// silently replace the bad bytes.

// fieldCheck is one text field of a request type and its rules.
type fieldCheck struct {
	key   string
	index []int
	rules string // the check tag
	lints string // the lint tag
	alias string // the alias tag: an older key decoding accepts
}

// checksOf returns, once per process, the text fields of struct type T
// under the wire keys of tag ("json" or "url"), with their rules.
func checksOf[T any](tag string) func() []fieldCheck {
	return sync.OnceValue(func() []fieldCheck {
		t := reflect.TypeFor[T]()
		var out []fieldCheck
		for _, f := range tags.Fields(t, tag) {
			if f.Type.Kind() == reflect.String {
				sf := t.FieldByIndex(f.Index)
				out = append(out, fieldCheck{key: f.Key, index: f.Index,
					rules: sf.Tag.Get("check"), lints: sf.Tag.Get("lint"), alias: sf.Tag.Get("alias")})
			}
		}
		return out
	})
}

// checkFields applies the checks to the struct v, reporting each problem at
// prefix followed by the field's key. A field behind a nil embedded pointer
// is skipped.
func checkFields(c *valid.Collector, prefix string, v reflect.Value, checks []fieldCheck) {
	for _, fc := range checks {
		f, ok := fieldIn(v, fc.index)
		if !ok {
			continue
		}
		s, path := f.String(), prefix+fc.key
		for rules := fc.rules; rules != ""; {
			var rule string
			rule, rules, _ = strings.Cut(rules, ",")
			switch {
			case rule == "required" && strings.TrimSpace(s) == "":
				c.Add(path, "is required")
			case s == "":
			case rule == "amount":
				checkAmount(c, path, Amount(s))
			case rule == "webhook":
				checkWebhookURL(c, path, s)
			}
		}
		if !utf8.ValidString(s) {
			c.Add(path, "is not valid UTF-8")
		}
	}
}

// fieldIn returns the field at index in the struct v, or false when it
// sits behind a nil embedded pointer. Unlike reflect's FieldByIndexErr it
// allocates no error for the nil pointer: validation meets one on every
// request without a mandate.
func fieldIn(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// namesOf returns, once per process for each call, the wire key of each
// field name of T under tag, for the paths of problems. Call it once per
// type, in a package variable, when it is needed on every request.
func namesOf[T any](tag string) func() map[string]string {
	return sync.OnceValue(func() map[string]string {
		fields := tags.Fields(reflect.TypeFor[T](), tag)
		out := make(map[string]string, len(fields))
		for _, f := range fields {
			out[f.Name] = f.Key
		}
		return out
	})
}

// checkAmount records a problem when a is not an amount the service takes.
func checkAmount(c *valid.Collector, path string, a Amount) {
	if msg := amountProblem(string(a)); msg != "" {
		c.Add(path, msg)
	}
}

// checkWebhookURL records a problem when s is not an absolute https URL
// (http is accepted on a loopback host, for tests).
func checkWebhookURL(c *valid.Collector, path, s string) {
	if https, _, ok := weburl.Plain(s); ok && https {
		return // the common case, decided without url.Parse
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		c.Add(path, "must be an absolute https URL")
	case u.Scheme != "https" && !isLoopback(u.Hostname()):
		c.Add(path, "must be https (http only on a loopback address): the service delivers webhooks to HTTPS endpoints only")
	}
}

// mergeProblems adds the problems of a nested value's error under key: a
// path that already starts with key is kept, any other is placed under it;
// an error that is not a *ValidationError becomes one problem at key.
func mergeProblems(c *valid.Collector, key string, err error) {
	if err == nil {
		return
	}
	ve, ok := err.(*valid.Error)
	if !ok {
		c.Add(key, err.Error())
		return
	}
	for _, p := range ve.Problems {
		path := p.Path
		if key != "" && path != key && !strings.HasPrefix(path, key+".") && !strings.HasPrefix(path, key+"[") {
			path = valid.Join(key, path)
		}
		c.Add(path, p.Message)
	}
}

// checkExtra records the problems of an Extra map: keys that cannot be sent
// or that a typed field owns (typed), and values holding invalid UTF-8.
func checkExtra[V any](c *valid.Collector, extra map[string]V, typed func(string) bool, owner string) {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		switch {
		case !checkExtraKey(c, k):
		case typed(k):
			c.Add(k, "is a typed field of "+owner+"; set it there, not in Extra")
		default:
			walkUTF8(c, k, reflect.ValueOf(extra[k]), 0)
		}
	}
}

// checkExtraKey records a problem when k cannot be sent as a top-level key
// of Extra as written: a key that is not valid UTF-8 (encoding would replace
// the bad bytes). It reports whether k is usable. Empty keys and keys
// holding control characters can be sent; Lint reports them.
func checkExtraKey(c *valid.Collector, k string) bool {
	if !utf8.ValidString(k) {
		c.Add(strconv.Quote(k), "Extra key is not valid UTF-8")
		return false
	}
	return true
}

// maxExtraDepth bounds the walk of walkUTF8 (a cyclic value would fail to
// encode anyway).
const maxExtraDepth = 64

var (
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// walkUTF8 records a problem at path for every string inside v that is not
// valid UTF-8 (strings, map keys, and the elements of maps, slices, arrays,
// pointers, interfaces and the exported fields of plain structs), since
// encoding/json would silently replace the bad bytes with U+FFFD. A
// json.RawMessage must be valid UTF-8 as a whole. Values with their own
// MarshalJSON or MarshalText are not looked into.
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
			name := "[" + k.Type().String() + "]"
			if k.Kind() == reflect.String {
				name = k.String()
				if !utf8.ValidString(name) {
					c.Add(path+"."+strconv.Quote(name), "key is not valid UTF-8")
					continue
				}
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
		for _, f := range tags.Fields(t, "json") {
			if fv, err := v.FieldByIndexErr(f.Index); err == nil {
				walkUTF8(c, path+"."+f.Key, fv, depth+1)
			}
		}
	}
}
