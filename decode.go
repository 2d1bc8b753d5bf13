package checkout

import (
	"encoding/json"
	"errors"
	"fmt"
)

// decodable is a reply type of the package: the call loop decodes a 2xx
// body into it and checks the order it names.
type decodable interface {
	// decode fills the reply from body, Raw included, or says why body
	// is not such a reply.
	decode(body []byte) error
	// names is the order the reply is about and, for a reply that is an
	// order, its status; "" for none.
	names() (orderID string, status Status)
}

// decodeObject decodes body, a JSON object, into v leniently (a value of
// the wrong JSON type is left out; Raw keeps it), sets *raw to body, and
// returns shape's verdict on what it read.
func decodeObject(body []byte, v any, raw *RawJSON, shape func() error) error {
	if k := replyKind(body); k != "an object" {
		return fmt.Errorf("the reply is %s, not a JSON object", k)
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(body, v); err != nil && !errors.As(err, &te) {
		return err
	}
	*raw = body
	return shape()
}

// replyKind names the JSON kind of body for a shape error.
func replyKind(body []byte) string {
	switch k := kindOf(body); k {
	case "object":
		return "an object"
	case "nothing":
		return "empty"
	case "null":
		return k
	case "not JSON":
		return "text that is not JSON"
	default:
		return "a JSON " + k
	}
}

// notA is the shape error of a reply of type what that holds none of keys.
func notA(what, keys string) error {
	return fmt.Errorf("the reply is not %s: it has none of %s", what, keys)
}

// anyReply is the reply of a [Client.Do] call: out, decoded by
// encoding/json as it is; a nil out or an empty body decodes nothing.
type anyReply struct{ out any }

func (r anyReply) decode(body []byte) error {
	if r.out == nil || len(body) == 0 {
		return nil
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(body, r.out); err != nil && !errors.As(err, &te) {
		return err
	}
	return nil
}

func (anyReply) names() (string, Status) { return "", "" }

// decodeReply decodes body as the call loop decodes a reply of type T.
func decodeReply[T any, P interface {
	*T
	decodable
}](body []byte) (*T, error) {
	v := P(new(T))
	if err := v.decode(body); err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	return (*T)(v), nil
}
