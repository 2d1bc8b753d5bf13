// This file holds the older wrapper types, each lenient on its own; the
// error body decoder still reads through them. New code uses Unmarshal on
// plain Go types.

package lenient

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// String is text. It decodes a JSON string, and also a number or a boolean
// (as their JSON text); null, objects and arrays decode to "".
type String string

// UnmarshalJSON implements json.Unmarshaler.
func (s *String) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		*s = ""
		return nil
	}
	switch b[0] {
	case '"':
		text, _ := unquote(b)
		*s = String(text)
	case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		*s = String(b)
	default: // null, object, array
		*s = ""
	}
	return nil
}

// Int is an integer. It decodes a JSON number with no fractional part (1,
// 1.0, 1e2) and a string holding one ("21"); anything else decodes to 0.
type Int int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	*n = 0
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	text, ok := numberText(b)
	if !ok {
		return nil
	}
	if v, err := strconv.ParseInt(text, 10, 64); err == nil {
		*n = Int(v)
		return nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && f == float64(int64(f)) && f > -1<<63 && f < 1<<63 {
		*n = Int(int64(f))
	}
	return nil
}

// IsNumber reports whether s is a number in JSON syntax: an optional minus,
// digits without a leading zero, an optional fraction and an optional
// exponent. A leading plus sign, "NaN" and "Inf" are not numbers.
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// skipDigits returns the index of the first byte at or after i in s that is
// not an ASCII digit.
func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// Object holds a T decoded from a JSON object. Any other JSON value (null,
// "FILTERED", a number, an array) leaves V zero and Present false, and so
// does an object that T cannot decode.
type Object[T any] struct {
	// V is the decoded object, zero when there was none.
	V T
	// Present reports whether the value was an object T could decode.
	Present bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *Object[T]) UnmarshalJSON(b []byte) error {
	var zero T
	o.V, o.Present = zero, false
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil
	}
	o.V, o.Present = v, true
	return nil
}

// Array holds the elements of a JSON array that decode as T; null elements
// and elements that do not decode (a "FILTERED" string among objects, say)
// are left out. Any value that is
// not an array decodes to an empty Array.
type Array[T any] []T

// UnmarshalJSON implements json.Unmarshaler.
func (a *Array[T]) UnmarshalJSON(b []byte) error {
	*a = nil
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil
	}
	out := make([]T, 0, len(raw))
	for _, r := range raw {
		if string(r) == "null" {
			continue
		}
		var v T
		if err := json.Unmarshal(r, &v); err != nil {
			continue
		}
		out = append(out, v)
	}
	*a = out
	return nil
}
