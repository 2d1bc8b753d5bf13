package webhook

import (
	"encoding/json"
)

// subject is what the Event helpers read from content (see Event.Kind):
// the key of the object the event is about, that object's JSON text, and
// its order_id and status. It is found with one pass over content and one
// over the object, without decoding any value the helpers do not return.
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

// readSubject finds the object under content: the first well-known key
// (wellKnownIndex) whose value is an object, else the first key, in
// document order, whose value is an object. As encoding/json does when it
// decodes an object into a map, a repeated key counts with its last value
// when looking up a well-known key or a field. valid says content has
// already been checked to be valid JSON; otherwise it is checked here, and
// invalid content holds no object.
func readSubject(content json.RawMessage, valid bool) subject {
	s := subject{content: content}
	if len(content) == 0 || content[0] != '{' || (!valid && !json.Valid(content)) {
		return s
	}
	var (
		known    [numWellKnown][]byte
		firstKey []byte
		firstEsc bool
		firstObj []byte
	)
	it := members{b: content}
	for {
		key, esc, val, ok := it.next()
		if !ok {
			break
		}
		if i := wellKnownIndex(key, esc); i >= 0 {
			known[i] = val
		}
		if firstObj == nil && val[0] == '{' {
			firstKey, firstEsc, firstObj = key, esc, val
		}
	}
	if !it.done {
		return s // not an object after all
	}
	for i, v := range known {
		if len(v) > 0 && v[0] == '{' {
			s.kind, s.obj = wellKnownKind(i), v
			break
		}
	}
	if s.obj == nil {
		if firstObj == nil {
			return s
		}
		s.kind, s.obj = keyText(firstKey, firstEsc), firstObj
	}
	var orderID, status []byte
	it = members{b: s.obj}
	for {
		key, esc, val, ok := it.next()
		if !ok {
			break
		}
		switch {
		case keyIs(key, esc, "order_id"):
			orderID = val
		case keyIs(key, esc, "status"):
			status = val
		}
	}
	s.orderID, s.status = scalarText(orderID), scalarText(status)
	return s
}

// numWellKnown is the number of well-known kinds (wellKnownKind).
const numWellKnown = 5

// wellKnownKind returns the content key Kind prefers in place i (from 0),
// before any other key holding an object.
func wellKnownKind(i int) string {
	switch i {
	case 0:
		return "order"
	case 1:
		return "txn"
	case 2:
		return "mandate"
	case 3:
		return "refund"
	default:
		return "notification"
	}
}

// wellKnownIndex is the place of a raw key among the well-known kinds, or
// -1.
func wellKnownIndex(key []byte, esc bool) int {
	if esc {
		return kindIndex(keyText(key, true))
	}
	switch string(key) { // no copy
	case "order":
		return 0
	case "txn":
		return 1
	case "mandate":
		return 2
	case "refund":
		return 3
	case "notification":
		return 4
	}
	return -1
}

func kindIndex(k string) int {
	for i := range numWellKnown {
		if wellKnownKind(i) == k {
			return i
		}
	}
	return -1
}

// member returns the value of the last member name of the JSON object obj
// (which must be valid JSON), or nil.
func member(obj json.RawMessage, name string) json.RawMessage {
	var found json.RawMessage
	it := members{b: obj}
	for {
		key, esc, val, ok := it.next()
		if !ok {
			return found
		}
		if keyIs(key, esc, name) {
			found = val
		}
	}
}

// keyIs reports whether the raw key (the text between the quotes) decodes
// to name.
func keyIs(key []byte, esc bool, name string) bool {
	if !esc {
		return string(key) == name
	}
	return keyText(key, true) == name
}

// keyText decodes a raw key as encoding/json does (escapes, and invalid
// UTF-8 replaced by U+FFFD). esc says it needs decoding.
func keyText(key []byte, esc bool) string {
	if !esc {
		return string(key)
	}
	quoted := make([]byte, 0, len(key)+2)
	quoted = append(append(append(quoted, '"'), key...), '"')
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return ""
	}
	return s
}

// members walks the members of a JSON object that is valid JSON. It never
// reads out of bounds on other input; next then stops and done stays false.
type members struct {
	b       []byte
	i       int
	started bool // the opening brace was read
	done    bool // the closing brace was reached
}

// next returns the next member: the raw key between its quotes, whether the
// key needs decoding (an escape or a byte outside ASCII), and the value's
// JSON text without surrounding space.
func (m *members) next() (key []byte, esc bool, val []byte, ok bool) {
	b := m.b
	i := skipSpace(b, m.i)
	if i >= len(b) {
		return nil, false, nil, false
	}
	switch {
	case m.done:
		return nil, false, nil, false
	case !m.started:
		if b[i] != '{' {
			return nil, false, nil, false
		}
		m.started = true
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			m.i, m.done = i+1, true
			return nil, false, nil, false
		}
	case b[i] == ',':
		i = skipSpace(b, i+1)
	case b[i] == '}':
		m.i, m.done = i+1, true
		return nil, false, nil, false
	default:
		return nil, false, nil, false
	}
	if i >= len(b) || b[i] != '"' {
		return nil, false, nil, false
	}
	end, esc := scanString(b, i)
	if end < 0 {
		return nil, false, nil, false
	}
	key = b[i+1 : end-1]
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return nil, false, nil, false
	}
	i = skipSpace(b, i+1)
	vend := skipValue(b, i)
	if vend < 0 {
		return nil, false, nil, false
	}
	m.i = vend
	return key, esc, b[i:vend], true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index after the closing quote of the string that
// starts at b[i] (a quote), and whether its text needs decoding; -1 when
// it does not end.
func scanString(b []byte, i int) (int, bool) {
	esc := false
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc
		case c == '\\':
			esc = true
			i++
		case c >= 0x80:
			esc = true
		}
	}
	return -1, esc
}

// skipValue returns the index after the JSON value that starts at b[i], or
// -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end, _ := scanString(b, i)
		return end
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, _ := scanString(b, i)
				if end < 0 {
					return -1
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default: // number, true, false, null
		start := i
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if i == start {
					return -1
				}
				return i
			}
			i++
		}
		return -1
	}
}
