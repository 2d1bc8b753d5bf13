package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// decodeLenient decodes data into v with encoding/json, leaving out a
// value of the wrong JSON type for its field (encoding/json decodes every
// other field): the reply's Raw keeps it.
func decodeLenient(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// readObject decodes data leniently into w and reports whether it did: a
// value that is not a JSON object (null, "FILTERED") is skipped, no error,
// so that it never stops the rest of a reply. An error names what.
func readObject(data []byte, w any, what string) (bool, error) {
	if kindOf(data) != "object" {
		return false, nil
	}
	if err := decodeLenient(data, w); err != nil {
		if what != "" {
			err = fmt.Errorf("checkout: %s: %w", what, err)
		}
		return false, err
	}
	return true, nil
}

// marshalNoEscape is json.Marshal without HTML escaping: <, > and & stay as
// they are, as the service's own bodies write them.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// appendMember adds the member key: value at the end of the JSON object
// obj; obj is unchanged when value cannot be encoded.
func appendMember(obj []byte, key string, value any) ([]byte, error) {
	k, _ := marshalNoEscape(key)
	x, err := marshalNoEscape(value)
	if err != nil {
		return obj, err
	}
	obj = obj[:len(obj)-1] // reopen the object
	if len(obj) > 1 {
		obj = append(obj, ',')
	}
	obj = append(append(append(obj, k...), ':'), x...)
	return append(obj, '}'), nil
}

// kindOf names the kind of a JSON value by its first byte after JSON's
// own white space: "object", "array", "string", "number", "boolean",
// "null", "nothing", or "not JSON".
func kindOf(raw []byte) string {
	s := bytes.TrimLeft(raw, " \t\r\n")
	if len(s) == 0 {
		return "nothing"
	}
	switch c := s[0]; {
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't', c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-', '0' <= c && c <= '9':
		return "number"
	}
	return "not JSON"
}

// errNilTarget is what an UnmarshalJSON called on a nil pointer returns,
// as json.RawMessage does.
func errNilTarget(typ string) error {
	return fmt.Errorf("checkout: %s.UnmarshalJSON on nil pointer", typ)
}

// formatPlain prints v, a reply converted to a local type "plain" without
// its Format method, as fmt prints a struct under verb (%+v and %#v keep
// their flags), named typeName under %#v.
func formatPlain(f fmt.State, verb rune, typeName string, v any) {
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprint(f, typeName+strings.TrimPrefix(fmt.Sprintf("%#v", v), "checkout.plain"))
	case f.Flag('+'):
		fmt.Fprintf(f, "%+v", v)
	default:
		fmt.Fprintf(f, "%v", v)
	}
}

// RawJSON is JSON text a reply keeps exactly as the service sent it (the
// Raw of the top-level replies): a []byte like json.RawMessage, byte for
// byte. fmt prints it as JSON text with every bearer token (client auth
// token, mandate token) redacted; string(raw) and raw.String() give it
// whole.
type RawJSON []byte

// String returns the JSON text.
func (r RawJSON) String() string { return string(r) }

// Format prints the JSON text, tokens redacted: %q quotes it, %x and %X
// give its bytes in hex, and %#v shows checkout.RawJSON(`…`).
func (r RawJSON) Format(f fmt.State, verb rune) {
	text := string(scrubbed(r))
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprintf(f, "checkout.RawJSON(%s)", strconv.Quote(text))
	case verb == 'q':
		fmt.Fprint(f, strconv.Quote(text))
	case verb == 'x' || verb == 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), []byte(text))
	default:
		fmt.Fprint(f, text)
	}
}

// Timestamp is a time of a reply, in any form the service writes: RFC 3339
// ("2023-08-10T07:25:35Z"), an offset without a colon ("…+0000"), no
// offset (read as UTC), or Unix seconds as a number or text. Anything else
// ("FILTERED") is the zero time; Raw keeps it. It embeds time.Time, whose
// methods and RFC 3339 encoding it has; ts.Time is the time.Time.
type Timestamp struct {
	time.Time
}

// timestampLayouts returns the text forms of a Timestamp, tried in turn.
func timestampLayouts() [3]string {
	return [...]string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05"}
}

// UnmarshalJSON reads any form the service writes (see [Timestamp]);
// what is not a time leaves the zero time. JSON null changes nothing.
func (t *Timestamp) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	var text string
	switch kindOf(data) {
	case "null":
		return nil
	case "string":
		if n := len(data); n >= 2 && data[n-1] == '"' && bytes.IndexByte(data[1:n-1], '\\') < 0 {
			text = string(data[1 : n-1]) // no escapes: the common case, read without a decoder
		} else if err := json.Unmarshal(data, &text); err != nil {
			return err // not JSON: encoding/json never passes such data
		}
	case "number":
		text = string(data)
	default:
		t.Time = time.Time{}
		return nil
	}
	t.Time = parseServiceTime(strings.TrimSpace(text))
	return nil
}

// maxUnixSeconds is the last second of the year 9999, the last time a
// Timestamp can be written back as RFC 3339: larger numbers (milliseconds,
// say) are no time of the service's.
const maxUnixSeconds = 253402300799

// parseServiceTime reads text as Timestamp describes, or returns the zero
// time. The text forms come first: they are what the service usually
// writes.
func parseServiceTime(text string) time.Time {
	for _, layout := range timestampLayouts() {
		if v, err := time.Parse(layout, text); err == nil {
			return v
		}
	}
	if secs, err := strconv.ParseInt(text, 10, 64); err == nil && secs > 0 && secs <= maxUnixSeconds {
		return time.Unix(secs, 0).UTC()
	}
	return time.Time{}
}

// String returns the time as time.Time prints it.
func (t Timestamp) String() string { return t.Time.String() }

// Equal reports whether t and u are the same instant.
func (t Timestamp) Equal(u Timestamp) bool { return t.Time.Equal(u.Time) }

// PaymentLinks are the links to the hosted payment page of a session or an
// order (payment_links).
type PaymentLinks struct {
	// Web is the page for a browser (web).
	Web string `json:"web,omitempty"`
	// Mobile is the page for a mobile browser (mobile).
	Mobile string `json:"mobile,omitempty"`
	// IFrame is the page to embed in an iframe (iframe).
	IFrame string `json:"iframe,omitempty"`
	// Expiry is when the links stop working (expiry); zero when absent or
	// unreadable.
	Expiry Timestamp `json:"expiry,omitzero"`
	// DeepLink is the UPI deep link of the payment (deep_link: upi://pay?…),
	// which opens the customer's UPI app; a session asks for it with
	// [SessionRequest.UPIDeepLinks].
	DeepLink string `json:"deep_link,omitempty"`
}
