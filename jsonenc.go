package checkout

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// jsonObject appends the members of one JSON object to a byte slice, for the
// session body: written by hand because it is on every call's hot path, and
// so that the key order is the spec's table's.
type jsonObject struct {
	b []byte
	n int // members written so far
}

func (o *jsonObject) key(k string) {
	if o.n == 0 {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = appendJSONString(o.b, k)
	o.b = append(o.b, ':')
}

// str writes key: value, leaving the member out when value is empty unless
// always is set.
func (o *jsonObject) str(k, v string, always bool) {
	if v == "" && !always {
		return
	}
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// raw writes key: value, where value is already JSON.
func (o *jsonObject) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *jsonObject) close() []byte {
	if o.n == 0 {
		return append(o.b, '{', '}')
	}
	return append(o.b, '}')
}

// marshalNoEscape is json.Marshal without HTML escaping (<, >, & stay as
// they are, as in the rest of the body).
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string exactly as encoding/json does
// with HTML escaping off: quotes, backslashes and control characters
// escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
