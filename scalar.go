package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strconv"
	"strings"
)

// The service's quirks in replies, each a named scalar type: a number or a
// boolean sent as text, metadata whose values are not all text, a bearer
// token that must not print. A value of neither form leaves the zero value
// (the reply's Raw keeps it) and is no error, so it never stops the rest of
// a reply from decoding.

// Int is an integer of a reply, which the service sends as a number (26)
// or as text ("26"). It encodes as a number.
type Int int

// UnmarshalJSON reads a number or text holding one; anything else (null,
// "FILTERED", a fraction) leaves n unchanged.
func (n *Int) UnmarshalJSON(data []byte) error {
	text := unquote(data)
	if v, err := strconv.ParseInt(text, 10, 64); err == nil && v >= math.MinInt32 && v <= math.MaxInt32 {
		*n = Int(v)
	} else if f, err := strconv.ParseFloat(text, 64); err == nil && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
		*n = Int(f)
	}
	return nil
}

// Bool is a boolean of a reply, which the service sends as true or as the
// text "true" (any case). It encodes as a boolean.
type Bool bool

// UnmarshalJSON reads true, false or text holding one; anything else
// leaves b unchanged.
func (b *Bool) UnmarshalJSON(data []byte) error {
	if v, err := strconv.ParseBool(strings.ToLower(unquote(data))); err == nil {
		*b = Bool(v)
	}
	return nil
}

// unquote returns a JSON string's text, or the JSON text of another value,
// trimmed.
func unquote(data []byte) string {
	data = bytes.TrimSpace(data)
	if kindOf(data) == "string" {
		var s string
		if json.Unmarshal(data, &s) == nil {
			return strings.TrimSpace(s)
		}
	}
	return string(data)
}

// TextMap is a reply's metadata: every member as text. A text value is
// kept as it is; a number, boolean, object or array as its JSON text
// ("1500", `{"web":"https://…"}`). The service sometimes sends the whole
// object as text holding one; it reads the same.
type TextMap map[string]string

// UnmarshalJSON reads an object, or text holding one; anything else leaves
// m unchanged.
func (m *TextMap) UnmarshalJSON(data []byte) error {
	if kindOf(data) == "string" {
		data = []byte(unquote(data))
	}
	var members map[string]json.RawMessage
	if kindOf(data) != "object" || json.Unmarshal(data, &members) != nil {
		return nil
	}
	out := make(TextMap, len(members))
	for k, raw := range members {
		if kindOf(raw) == "string" {
			out[k] = unquote(raw)
		} else if kindOf(raw) != "null" {
			var b bytes.Buffer
			_ = json.Compact(&b, raw) // raw is valid: it was decoded above
			out[k] = b.String()
		}
	}
	*m = out
	return nil
}

// Secret is a bearer token of a reply (a client auth token, a mandate
// token): fmt and slog print "[REDACTED]" in its place, while json.Marshal
// and string(s) keep it for the app that needs it.
type Secret string

// String returns "[REDACTED]"; use string(s) for the token itself.
func (s Secret) String() string { return redacted }

// Format prints "[REDACTED]" under every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, redacted) }

// LogValue returns "[REDACTED]".
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// secretKey reports whether a JSON key names a bearer token
// (client_auth_token, clientAuthToken, mandate_token, …).
func secretKey(k string) bool {
	switch strings.ReplaceAll(strings.ToLower(k), "_", "") {
	case "clientauthtoken", "mandatetoken", "mandatedebittoken":
		return true
	}
	return false
}

// scrubbed returns JSON text with the value of every secretKey replaced by
// "[REDACTED]", for printing; text that is not JSON prints as a marker.
func scrubbed(data []byte) []byte {
	// A key may also be written with escapes (clientAuthTok\u0065n).
	if !bytes.Contains(bytes.ToLower(data), []byte("token")) && bytes.IndexByte(data, '\\') < 0 {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if len(bytes.TrimSpace(data)) == 0 {
		return data
	}
	if dec.Decode(&v) != nil {
		return []byte(`"[REDACTED: not JSON]"`)
	}
	out, err := marshalNoEscape(scrub(v))
	if err != nil {
		return []byte(`"[REDACTED]"`)
	}
	return out
}

func scrub(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if secretKey(k) {
				t[k] = redacted
			} else {
				t[k] = scrub(e)
			}
		}
	case []any:
		for i, e := range t {
			t[i] = scrub(e)
		}
	}
	return v
}

// logJSON is the LogValue of a reply that can hold a token: its JSON with
// every token redacted.
func logJSON(v any) slog.Value {
	data, err := json.Marshal(v)
	if err != nil {
		return slog.StringValue(redacted)
	}
	return slog.AnyValue(json.RawMessage(scrubbed(data)))
}
