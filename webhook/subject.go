package webhook

import (
	"bytes"
	"encoding/json"
	"slices"
)

// subject is what the Event helpers read from content (see Event.Kind):
// the key of the object the event is about, that object's JSON text, and
// its order_id and status.
type subject struct {
	content json.RawMessage // the Content it was read from; empty: not read
	kind    string
	obj     json.RawMessage // the object under kind, exactly as sent
	orderID string
	status  string
}

// from reports that s was read from content: the same slice, not merely
// equal bytes, so that a Content replaced after decoding is read afresh.
func (s *subject) from(content json.RawMessage) bool {
	return len(s.content) > 0 && len(s.content) == len(content) && &s.content[0] == &content[0]
}

// wellKnownKinds are the content keys Kind prefers, in this order, before
// any other key holding an object.
var wellKnownKinds = [...]string{"order", "txn", "mandate", "refund", "notification"}

// readSubject finds the object under content: the first well-known key
// whose value is an object, else the first key, in document order, whose
// value is an object. As encoding/json does when it decodes an object into
// a map, a repeated key counts with its last value. Content that is not a
// JSON object holds no object.
func readSubject(content json.RawMessage) subject {
	s := subject{content: content}
	ms, ok := objectMembers(content)
	if !ok {
		return s
	}
	for _, k := range wellKnownKinds {
		if v := lastMember(ms, k); isObject(v) {
			s.kind, s.obj = k, v
			break
		}
	}
	if s.obj == nil {
		i := slices.IndexFunc(ms, func(m jsonMember) bool { return isObject(m.value) })
		if i < 0 {
			return s
		}
		s.kind, s.obj = ms[i].key, ms[i].value
	}
	if obj, ok := objectMembers(s.obj); ok {
		s.orderID, s.status = scalarText(lastMember(obj, "order_id")), scalarText(lastMember(obj, "status"))
	}
	return s
}

// jsonMember is one member of a JSON object: its key and its value's JSON
// text.
type jsonMember struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the members of the JSON object obj in document
// order, or false when obj is not one JSON object (space before it
// included).
func objectMembers(obj []byte) ([]jsonMember, bool) {
	if !isObject(obj) || !json.Valid(obj) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []jsonMember
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, jsonMember{key: t.(string), value: v})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	return out, true
}

// lastMember returns the value of the last member named name, or nil.
func lastMember(ms []jsonMember, name string) json.RawMessage {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == name {
			return ms[i].value
		}
	}
	return nil
}

// member returns the value of the last member name of the JSON object
// obj, or nil (also when obj is not an object).
func member(obj json.RawMessage, name string) json.RawMessage {
	ms, _ := objectMembers(obj)
	return lastMember(ms, name)
}

// isObject reports whether v is a JSON object.
func isObject(v json.RawMessage) bool {
	return len(v) > 0 && v[0] == '{'
}
