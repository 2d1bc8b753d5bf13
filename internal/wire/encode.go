// Package wire holds the JSON plumbing that the filter packages (emi,
// paymentfilter) and productsummary share: append-style encoders whose
// output is byte for byte what encoding/json writes, a strict decoder for
// one JSON object at a time (case-exact keys, JSON types checked, every
// unmodelled key kept for Extra), and the key hints Validate gives for a
// mistaken Extra key.
//
// Nothing here knows a wire key of the service: the key tables stay in the
// packages that model them. Errors are *valid.Error with the JSON path of
// the offending value, as the packages document.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"unicode/utf8"
)

// AppendKey appends `,"key":`, without the comma when first is set. key is
// one of the caller's own constants and is written without escaping.
func AppendKey(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// AppendStrings appends list as a JSON array of strings; a nil or empty
// list appends [] (callers leave out a nil list themselves).
func AppendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, s)
	}
	return append(b, ']')
}

// AppendExtra appends the keys of extra that are not in modelled, sorted,
// each as `,"key":value` (no comma before the first one when first is set),
// with the value compacted and HTML-escaped as encoding/json writes a
// json.RawMessage. A value that is not valid JSON is an error, as it is for
// encoding/json.
func AppendExtra(b []byte, extra map[string]json.RawMessage, first bool, modelled []string) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !slices.Contains(modelled, k) {
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
		b = AppendString(b, k)
		b = append(b, ':')
		var esc bytes.Buffer
		json.HTMLEscape(&esc, buf.Bytes())
		b = append(b, esc.Bytes()...)
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string exactly as encoding/json writes
// it by default: quotes, backslashes and control characters escaped, the
// HTML-sensitive <, > and & as \u003c, \u003e and \u0026, U+2028 and U+2029
// escaped, and each byte of invalid UTF-8 as \ufffd.
func AppendString(b []byte, s string) []byte { return appendString(b, s, true) }

func appendString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
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
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// quote wraps s in double quotes for a message; s is a key or a value the
// message is about, shown as it is.
func quote(s string) string { return `"` + s + `"` }
