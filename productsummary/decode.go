package productsummary

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/payorch/checkout-go/validation"
)

// DecodeError reports why a product summary could not be read, at the JSON
// path of the offending value ("product_summary[2][0].type" when a Summary
// was decoded; a Line or an item on its own gives paths relative to
// itself).
type DecodeError struct {
	// Path is the JSON path of the offending value, for example
	// "product_summary[2][0].type"; "" for a value decoded on its own.
	Path string
	// Line is the index of the line, or -1 when the problem is not inside
	// one.
	Line int
	// Item is the index of the item in its line, or -1.
	Item int
	// Message says what is wrong, without the path.
	Message string
	// Err is the underlying encoding/json or strconv error, if any.
	Err error
}

// Error returns one line naming the path, and the line and item indexes.
func (e *DecodeError) Error() string {
	msg := "checkout: decode product summary: "
	if e.Path != "" {
		msg += e.Path + ": "
	}
	msg += e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	switch {
	case e.Line >= 0 && e.Item >= 0:
		msg += " (line " + strconv.Itoa(e.Line) + ", item " + strconv.Itoa(e.Item) + ")"
	case e.Line >= 0:
		msg += " (line " + strconv.Itoa(e.Line) + ")"
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// rootPath is where Summary paths start: the session request's key for the
// summary.
const rootPath = "product_summary"

// place is where a value sits: under root ("product_summary", or "" for a
// Line or an item decoded on its own), at a line and an item index (-1
// when not inside one). Paths are built only when a problem is reported,
// so reading or checking a good summary builds none.
type place struct {
	root       string
	line, item int
}

// alone is the place of a value decoded or encoded on its own.
func alone() place { return place{line: -1, item: -1} }

// path returns the JSON path of key (or of the value itself for "").
func (p place) path(key string) string {
	s := p.root
	if p.line >= 0 {
		s = validation.Index(s, p.line)
	}
	if p.item >= 0 {
		s = validation.Index(s, p.item)
	}
	return validation.Join(s, key)
}

// fail returns a *DecodeError at key.
func (p place) fail(key, msg string, err error) *DecodeError {
	return &DecodeError{Path: p.path(key), Line: p.line, Item: p.item, Message: msg, Err: err}
}

// unknownKey returns the *DecodeError of a key that kind does not have.
func (p place) unknownKey(key string, kind Kind) error {
	return p.fail(key, "unknown key "+strconv.Quote(key)+" for a "+string(kind)+" item (keys are case sensitive)", nil)
}

// isNull reports whether data is the JSON null.
func isNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }

// decodeSummary reads the array of lines. A JSON string holding the array
// (the session request's form) is accepted when allowString is set. null is
// not a summary: an absent summary is the zero Summary, never "null" text
// (UnmarshalJSON handles a JSON null before it gets here).
func decodeSummary(data []byte, allowString bool) (Summary, error) {
	at := place{root: rootPath, line: -1, item: -1}
	data = bytes.TrimSpace(data)
	if isNull(data) {
		return nil, at.fail("", "must be a JSON array of lines, got null: leave product_summary out for no summary", nil)
	}
	if allowString && len(data) > 0 && data[0] == '"' {
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return nil, at.fail("", "not a JSON string", err)
		}
		return decodeSummary([]byte(text), false)
	}
	return decodeArray(data, at, "must be a JSON array of lines", func(raw json.RawMessage, i int) (Line, error) {
		return decodeLine(raw, place{root: at.root, line: i, item: -1})
	})
}

// decodeLine reads the array of items of the line at p.
func decodeLine(data []byte, p place) (Line, error) {
	return decodeArray(data, p, "a line must be a JSON array of items", func(raw json.RawMessage, j int) (Item, error) {
		return decodeItem(raw, place{root: p.root, line: p.line, item: j})
	})
}

// decodeArray reads the JSON array data at p, each element with one, or
// fails with notArray (and the kind of data found) when data is not an
// array.
func decodeArray[T any](data []byte, p place, notArray string, one func(raw json.RawMessage, i int) (T, error)) ([]T, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		return nil, p.fail("", notArray+gotKind(data), nil)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, p.fail("", "not valid JSON", err)
	}
	out := make([]T, len(raws))
	for i, raw := range raws {
		v, err := one(raw, i)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// decodeItem reads one item at p. Its kind comes from "type"; each of its
// other keys is read by the kind's decodeKey (beside the kind, in
// items.go), which matches keys case-sensitively (the service's keys are
// case sensitive, so "FontType" is an unknown key, not fontType): an
// unknown key is an error, never dropped. null or an absent key is the
// unset field.
func decodeItem(data []byte, p place) (Item, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, p.fail("", "an item must be a JSON object"+gotKind(data), nil)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, p.fail("", "not valid JSON", err)
	}
	rawType, ok := fields[keyType]
	if !ok || isNull(rawType) {
		return nil, p.fail(keyType, "missing item type", nil)
	}
	var typ string
	if err := json.Unmarshal(rawType, &typ); err != nil {
		return nil, p.fail(keyType, "item type must be a string", err)
	}
	switch Kind(typ) {
	case KindSpace:
		return decodeKeys[Space](fields, p)
	case KindText:
		return decodeKeys[Text](fields, p)
	case KindImage:
		return decodeKeys[Image](fields, p)
	case KindToggleImage, kindToggleImageCamel:
		return decodeKeys[ToggleImage](fields, p)
	case KindDivider:
		return decodeKeys[Divider](fields, p)
	case KindBackground:
		return decodeKeys[Background](fields, p)
	}
	return nil, p.fail(keyType, "unknown item type "+strconv.Quote(typ)+
		" (want space, text, image, toggleimage, divider or background)", nil)
}

// decodeKeys reads the keys of an item of kind T other than "type". Of
// several problems it reports the one at the smallest key, so that an item
// always reports the same one whatever the map's order.
func decodeKeys[T Item, P interface {
	*T
	decodeKey(key string, raw json.RawMessage, p place) error
}](fields map[string]json.RawMessage, p place) (Item, error) {
	var v T
	var first error
	firstKey := ""
	for key, raw := range fields {
		if key == keyType {
			continue
		}
		if err := P(&v).decodeKey(key, raw, p); err != nil && (first == nil || key < firstKey) {
			first, firstKey = err, key
		}
	}
	if first != nil {
		return nil, first
	}
	return v, nil
}

// readString reads a string that is always sent, so may be "". null leaves
// *dst unset.
func readString[S ~string](raw json.RawMessage, dst *S, p place, key string) error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '"' {
		return p.fail(key, "must be a string"+gotKind(raw), nil)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return p.fail(key, "must be a string", err)
	}
	*dst = S(s)
	return nil
}

// readNonEmpty reads a string that is not sent when empty, so that a
// present but empty one cannot be kept: it is an error rather than a key
// silently dropped when the summary is sent again.
func readNonEmpty[S ~string](raw json.RawMessage, dst *S, p place, key string) error {
	if err := readString(raw, dst, p, key); err != nil {
		return err
	}
	if !isNull(raw) && *dst == "" {
		return p.fail(key, "empty string: leave the key out when unset", nil)
	}
	return nil
}

// readNumber reads a number leniently: a JSON number, or a string holding
// one ("18", "0.7"); either is sent back as a number. null leaves *dst
// unset.
//
// An explicit 0 (or -0, "0", 0.0) is an error: a number at 0 is not sent,
// so keeping it would drop the key when the summary is sent again, and the
// service gives none of these numbers a meaningful zero.
func readNumber(raw json.RawMessage, dst *float64, p place, key string, required bool) error {
	if isNull(raw) {
		return nil
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			return p.fail(key, "must be a number", err)
		}
	}
	if !isNumber(text) {
		return p.fail(key, "must be a number"+gotKind(raw), nil)
	}
	n, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil:
		return p.fail(key, "number out of range", err)
	case n == 0 && required:
		return p.fail(key, "must be greater than 0, got 0 (required: a divider's thickness has no default)", nil)
	case n == 0:
		return p.fail(key, "must be greater than 0, got 0; leave the key out for the default", nil)
	}
	*dst = n
	return nil
}

// isNumber reports whether s is one number in JSON's syntax and nothing
// else: what strconv also takes (NaN, Inf, hex, "+1", "1_000", blanks
// around the digits) is not. A JSON text that starts with a minus or a
// digit and ends with a digit can only be a number.
func isNumber(s string) bool {
	if s == "" || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	if last := s[len(s)-1]; last < '0' || last > '9' {
		return false
	}
	return json.Valid([]byte(s))
}

// gotKind names the JSON kind of raw for an error message, from its first
// byte (raw need not be valid JSON).
func gotKind(raw []byte) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return ", got nothing"
	}
	switch s[0] {
	case '{':
		return ", got an object"
	case '[':
		return ", got an array"
	case '"':
		return ", got a string"
	case 't', 'f':
		return ", got a boolean"
	case 'n':
		return ", got null"
	}
	return ", got a number"
}
