package webhook

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
)

// subject is what the Event helpers read from content (see Event.Kind):
// the key of the object the event is about, that object's JSON text, and
// its order_id and status.
type subject struct {
	kind    string
	obj     json.RawMessage // the object under kind, exactly as sent
	orderID string
	status  string
}

// decodedContent is the Content an event was decoded with, which was
// valid JSON then, and its subject, read on the first call of a helper
// that needs it: a handler that never asks pays nothing for it. Copies of
// the Event share it; the sync.Once makes concurrent first calls safe.
type decodedContent struct {
	content json.RawMessage
	once    sync.Once
	sub     subject
}

// holds reports that d is what the event was decoded with and content is
// still that slice (not merely equal bytes): a Content replaced after
// decoding is read afresh.
func (d *decodedContent) holds(content json.RawMessage) bool {
	return d != nil && len(d.content) > 0 && len(d.content) == len(content) && &d.content[0] == &content[0]
}

// subject returns the subject of d's content, reading it once.
func (d *decodedContent) subject() subject {
	d.once.Do(func() { d.sub = readSubject(d.content) })
	return d.sub
}

// wellKnownKinds returns the content keys Kind prefers, in this order, before
// any other key holding an object.
func wellKnownKinds() [5]string {
	return [...]string{"order", "txn", "mandate", "refund", "notification"}
}

// readSubject finds the object under content: the first well-known key
// whose value is an object, else the first key, in document order, whose
// value is an object. As encoding/json does when it decodes an object into
// a map, a repeated key counts with its last value. Content that is not a
// JSON object holds no object.
func readSubject(content json.RawMessage) subject {
	var s subject
	members, ok := objectMap(content)
	if !ok {
		return s
	}
	for _, k := range wellKnownKinds() {
		if v := members[k]; isObject(v) {
			s.kind, s.obj = k, v
			break
		}
	}
	if s.obj == nil {
		// No well-known key holds an object: the first key that does, in
		// document order, which a map does not keep.
		ms, _ := objectMembers(content)
		i := slices.IndexFunc(ms, func(m jsonMember) bool { return isObject(m.value) })
		if i < 0 {
			return s
		}
		s.kind, s.obj = ms[i].key, ms[i].value
	}
	if obj, ok := objectMap(s.obj); ok {
		s.orderID, s.status = scalarText(obj["order_id"]), scalarText(obj["status"])
	}
	return s
}

// objectMap decodes the JSON object obj into its members (a repeated key
// counts with its last value), or returns false when obj is not one JSON
// object.
func objectMap(obj []byte) (map[string]json.RawMessage, bool) {
	if !isObject(obj) {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return nil, false
	}
	return m, true
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

// member returns the value of the last member name of the JSON object
// obj, or nil (also when obj is not an object).
func member(obj json.RawMessage, name string) json.RawMessage {
	m, _ := objectMap(obj)
	return m[name]
}

// isObject reports whether v is a JSON object.
func isObject(v json.RawMessage) bool {
	return len(v) > 0 && v[0] == '{'
}
