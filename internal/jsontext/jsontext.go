// Package jsontext reads back the JSON that encoding/json wrote for a
// request, for the checks that must see what is sent rather than a list of
// fields: which keys an object has, and which of its values encoding/json
// had to repair (it writes invalid UTF-8 as \ufffd). The root package and
// productsummary share it.
package jsontext

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Members calls visit with each member of obj, a JSON object written by
// encoding/json, in order: its key, and whether encoding/json repaired text
// in its value. It stops at the first thing that is not such a member.
func Members(obj []byte, visit func(key string, repaired bool)) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		var raw json.RawMessage
		if err != nil || !ok || dec.Decode(&raw) != nil {
			return
		}
		visit(k, Repaired(raw) || !utf8.Valid(raw))
	}
}

// Repaired reports whether encoding/json replaced invalid UTF-8 when it
// wrote the JSON b: it writes each invalid byte as the escape \ufffd, and
// a real U+FFFD as the character itself.
func Repaired(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\\') // few in a body: jump from one to the next
		if i < 0 || i+1 == len(b) {
			return false
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+6]) == "fffd" {
			return true
		}
		b = b[i+2:] // past the escaped character
	}
}
