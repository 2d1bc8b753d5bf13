package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// What the request and reply types share on the wire.

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

// replyType is a reply type: decode reads a body it may keep as Raw.
type replyType[T any] interface {
	*T
	decode(body []byte) error
}

// decodeReply reads a successful reply, which must be a JSON object: any
// other body is an error, never an empty value.
func decodeReply[T any, P replyType[T]](body []byte) (*T, error) {
	if kindOf(body) != "object" {
		return nil, errors.New("decode response: not a JSON object")
	}
	v := P(new(T))
	if err := v.decode(body); err != nil {
		return nil, err
	}
	return v, nil
}

// kindOf names the kind of a JSON value by its first byte: "object",
// "array", "string", "number", "boolean", "null", or "nothing".
func kindOf(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// errNilTarget is what an UnmarshalJSON method called on a nil pointer
// returns instead of panicking (encoding/json never makes such a call; a
// direct one may), as json.RawMessage does.
func errNilTarget(typ string) error {
	return fmt.Errorf("checkout: %s.UnmarshalJSON on nil pointer", typ)
}
