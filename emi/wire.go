package emi

// JSON plumbing shared by the types of this package. paymentfilter holds a
// twin of this file (it cannot import an unexported helper from here, and the
// module's internal/ is owned elsewhere); keep the two in step.

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/valid"
)

// decodeError is the error of a decoder: one problem at the JSON path.
func decodeError(path, message string) error {
	return &valid.Error{Problems: []valid.Problem{{Path: path, Message: message}}}
}

// isNull reports whether raw is the JSON literal null.
func isNull(raw []byte) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// kindOf names the JSON kind of raw for error messages.
func kindOf(raw []byte) string {
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

// object walks the keys of one JSON object. Each take removes the key, so
// what is left at the end are the keys the SDK does not model (Extra). The
// first problem met is kept in err; later calls are no-ops.
type object struct {
	path   string
	fields map[string]json.RawMessage
	err    error
}

// newObject parses data as a JSON object at path.
func newObject(data []byte, path string) (*object, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, decodeError(path, "must be a JSON object, got "+kindOf(data))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, decodeError(path, "not valid JSON: "+err.Error())
	}
	return &object{path: path, fields: fields}, nil
}

func (o *object) fail(key, message string) {
	if o.err == nil {
		o.err = decodeError(valid.Join(o.path, key), message)
	}
}

// take removes key and returns its value; a null value counts as absent.
func (o *object) take(key string) (json.RawMessage, bool) {
	raw, ok := o.fields[key]
	if !ok {
		return nil, false
	}
	delete(o.fields, key)
	if isNull(raw) {
		return nil, false
	}
	return raw, true
}

// takeAlias takes key, or its alternative spelling alt; both at once is an
// error because one of them would be lost.
func (o *object) takeAlias(key, alt string) (json.RawMessage, bool) {
	_, hasKey := o.fields[key]
	_, hasAlt := o.fields[alt]
	if hasKey && hasAlt {
		o.fail(alt, "both "+quote(key)+" and "+quote(alt)+" are given; send only "+quote(key))
		return nil, false
	}
	if hasAlt {
		return o.take(alt)
	}
	return o.take(key)
}

// takeRequired takes a required key; absent and null are both problems.
func (o *object) takeRequired(key string) (json.RawMessage, bool) {
	if raw, ok := o.fields[key]; ok && isNull(raw) {
		delete(o.fields, key)
		o.fail(key, "required, got null")
		return nil, false
	}
	raw, ok := o.take(key)
	if !ok {
		o.missing(key)
	}
	return raw, ok
}

// missing records a missing required key, pointing at a mis-cased twin.
func (o *object) missing(key string) {
	msg := "missing required key " + quote(key)
	for k := range o.fields {
		if strings.EqualFold(k, key) {
			msg += " (found " + quote(k) + "; keys are case sensitive)"
			break
		}
	}
	o.fail(key, msg)
}

func (o *object) requiredBool(key string) bool {
	raw, ok := o.takeRequired(key)
	if !ok {
		return false
	}
	return o.boolValue(key, raw)
}

func (o *object) optionalBool(key string) *bool {
	raw, ok := o.take(key)
	if !ok {
		return nil
	}
	v := o.boolValue(key, raw)
	return &v
}

func (o *object) boolValue(key string, raw json.RawMessage) bool {
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		o.fail(key, "must be a boolean, got "+kindOf(raw))
	}
	return v
}

// optionalString decodes an optional string; an empty one is refused
// because it would not be sent back (no silent fix-up).
func (o *object) optionalString(key string) string {
	raw, ok := o.take(key)
	if !ok {
		return ""
	}
	return o.stringValue(key, raw, false)
}

func (o *object) stringValue(path string, raw json.RawMessage, emptyOK bool) string {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		o.fail(path, "must be a string, got "+kindOf(raw))
		return ""
	}
	if s == "" && !emptyOK {
		o.fail(path, "empty string: leave the key out instead")
	}
	return s
}

// array splits a JSON array at key into its elements. A present empty array
// gives a non-nil empty slice so that it is sent back as [].
func (o *object) array(key string, raw json.RawMessage) []json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		o.fail(key, "must be an array, got "+kindOf(raw))
		return nil
	}
	elems := []json.RawMessage{}
	if err := json.Unmarshal(raw, &elems); err != nil {
		o.fail(key, "not valid JSON: "+err.Error())
		return nil
	}
	return elems
}

// strings decodes an array of strings (elements may be empty strings: they
// are kept and reported by Validate).
func (o *object) strings(key string, raw json.RawMessage) []string {
	elems := o.array(key, raw)
	if elems == nil {
		return nil
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		var s string
		if err := json.Unmarshal(e, &s); err != nil {
			o.fail(valid.Index(key, i), "must be a string, got "+kindOf(e))
			return nil
		}
		out[i] = s
	}
	return out
}

// extra returns the keys nobody took, or nil.
func (o *object) extra() map[string]json.RawMessage {
	if len(o.fields) == 0 {
		return nil
	}
	return o.fields
}

func quote(s string) string { return `"` + s + `"` }

// appendKey appends `,"key":` (without the comma for the first key).
func appendKey(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendExtra appends the keys of extra not in modelled, sorted, each value
// compacted. A value that is not JSON is an error (as json.RawMessage is).
func appendExtra(b []byte, extra map[string]json.RawMessage, first bool, modelled func(string) bool) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !modelled(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		buf.Reset()
		if err := json.Compact(&buf, extra[k]); err != nil {
			return nil, errors.New("Extra[" + quote(k) + "] is not valid JSON: " + err.Error())
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, k)
		b = append(b, ':')
		var esc bytes.Buffer
		json.HTMLEscape(&esc, buf.Bytes())
		b = append(b, esc.Bytes()...)
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string exactly as encoding/json writes it
// (HTML-safe escaping, invalid UTF-8 as U+FFFD).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// checkExtra reports keys of extra that are surely mistakes: a modelled key
// set through Extra, a mis-cased or misspelt modelled key, or a key that
// belongs to another object of the filter. Other keys pass: the service may
// know keys the spec does not list.
func checkExtra(c *valid.Collector, path string, extra map[string]json.RawMessage, own, aliases, elsewhere []string, what string) {
	if len(extra) == 0 {
		return
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := valid.Join(path, k)
		if contains(own, k) || contains(aliases, k) {
			c.Add(p, "is a modelled key: set the field instead of Extra")
			continue
		}
		if !json.Valid(extra[k]) {
			c.Add(p, "value is not valid JSON")
			continue
		}
		if m := foldMatch(own, k); m != "" {
			c.Add(p, "unknown key: keys are case sensitive, did you mean "+quote(m)+"?")
			continue
		}
		if m := foldMatch(elsewhere, k); m != "" {
			c.Add(p, "key "+quote(m)+" does not belong in "+what)
			continue
		}
		if m := nearMatch(own, k); m != "" {
			c.Add(p, "unknown key: did you mean "+quote(m)+"?")
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func foldMatch(list []string, s string) string {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return ""
}

// nearMatch returns the key of list within two edits of s (ignoring case),
// for keys long enough that two edits are still a typo.
func nearMatch(list []string, s string) string {
	ls := strings.ToLower(s)
	for _, v := range list {
		if len(v) >= 5 && editDistance(strings.ToLower(v), ls) <= 2 {
			return v
		}
	}
	return ""
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
