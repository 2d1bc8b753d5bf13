package productsummary

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// DecodeError reports why a product summary could not be read, at the JSON
// path of the offending value ("product_summary[2][0].type" when a Summary was
// decoded; a Line or an item on its own gives paths relative to itself).
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
	msg := "productsummary: decode "
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

// rootPath is where Summary paths start, as the session request names the
// field (spec §2.1).
const rootPath = "product_summary"

// decodeSummary reads the array of lines. A JSON string holding the array
// (the session request's form) is accepted when allowString is set. null is
// not a summary: an absent summary is the zero Summary, never "null" text
// (UnmarshalJSON handles a JSON null before it gets here).
func decodeSummary(data []byte, allowString bool) (Summary, error) {
	data = bytes.TrimSpace(data)
	if wire.IsNull(data) {
		return nil, &DecodeError{Path: rootPath, Line: -1, Item: -1,
			Message: "must be a JSON array of lines, got null: leave product_summary out for no summary"}
	}
	if allowString && len(data) > 0 && data[0] == '"' {
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return nil, &DecodeError{Path: rootPath, Line: -1, Item: -1, Message: "not a JSON string", Err: err}
		}
		return decodeSummary([]byte(text), false)
	}
	if len(data) == 0 || data[0] != '[' {
		return nil, &DecodeError{Path: rootPath, Line: -1, Item: -1, Message: "must be a JSON array of lines" + gotKind(data)}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, &DecodeError{Path: rootPath, Line: -1, Item: -1, Message: "not valid JSON", Err: err}
	}
	s := make(Summary, len(raws))
	for i, raw := range raws {
		l, err := decodeLine(raw, valid.Index(rootPath, i), i)
		if err != nil {
			return nil, err
		}
		s[i] = l
	}
	return s, nil
}

func decodeLine(data []byte, path string, line int) (Line, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		return nil, &DecodeError{Path: path, Line: line, Item: -1, Message: "a line must be a JSON array of items" + gotKind(data)}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, &DecodeError{Path: path, Line: line, Item: -1, Message: "not valid JSON", Err: err}
	}
	l := make(Line, len(raws))
	for j, raw := range raws {
		it, err := decodeItem(raw, valid.Index(path, j), line, j)
		if err != nil {
			return nil, err
		}
		l[j] = it
	}
	return l, nil
}

// itemKeys lists a kind's keys besides "type", in the order they are
// emitted. Keys match case-sensitively: the service's keys are case
// sensitive, so "FontType" is an unknown key, not fontType.
func itemKeys(k Kind) ([]string, bool) {
	switch k {
	case KindSpace:
		return []string{"weight", "width"}, true
	case KindText:
		return []string{"text", "color", "textSize", "fontType"}, true
	case KindImage:
		return []string{"url", "size"}, true
	case KindToggleImage:
		return []string{"openIcon", "closeIcon", "size"}, true
	case KindDivider:
		return []string{"thickness", "color"}, true
	case KindBackground:
		return []string{"color"}, true
	}
	return nil, false
}

// itemDecoder reads one item's fields and remembers the first problem.
type itemDecoder struct {
	fields     map[string]json.RawMessage
	path       string
	line, item int
	err        *DecodeError
}

func (d *itemDecoder) fail(key, msg string, err error) {
	if d.err != nil {
		return
	}
	d.err = &DecodeError{Path: valid.Join(d.path, key), Line: d.line, Item: d.item, Message: msg, Err: err}
}

func decodeItem(data []byte, path string, line, item int) (Item, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, &DecodeError{Path: path, Line: line, Item: item, Message: "an item must be a JSON object" + gotKind(data)}
	}
	d := itemDecoder{path: path, line: line, item: item}
	if err := json.Unmarshal(data, &d.fields); err != nil {
		return nil, &DecodeError{Path: path, Line: line, Item: item, Message: "not valid JSON", Err: err}
	}
	rawType, ok := d.fields["type"]
	if !ok || wire.IsNull(rawType) {
		return nil, &DecodeError{Path: valid.Join(path, "type"), Line: line, Item: item, Message: "missing item type"}
	}
	var typ string
	if err := json.Unmarshal(rawType, &typ); err != nil {
		return nil, &DecodeError{Path: valid.Join(path, "type"), Line: line, Item: item, Message: "item type must be a string", Err: err}
	}
	kind := Kind(typ)
	if typ == kindToggleImageCamel {
		kind = KindToggleImage
	}
	known, ok := itemKeys(kind)
	if !ok {
		return nil, &DecodeError{Path: valid.Join(path, "type"), Line: line, Item: item,
			Message: "unknown item type " + strconv.Quote(typ) + " (want space, text, image, toggleimage, divider or background)"}
	}
	var unknown []string
	for k := range d.fields {
		if k != "type" && !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, &DecodeError{Path: valid.Join(path, unknown[0]), Line: line, Item: item,
			Message: "unknown key " + strconv.Quote(unknown[0]) + " for a " + string(kind) + " item (keys are case sensitive)"}
	}

	var it Item
	switch kind {
	case KindSpace:
		it = Space{Weight: d.num("weight", false), Width: d.num("width", false)}
	case KindText:
		it = Text{Text: d.str("text"), Color: d.optStr("color"), TextSize: d.num("textSize", false), FontType: FontType(d.optStr("fontType"))}
	case KindImage:
		it = Image{URL: d.str("url"), Size: d.num("size", false)}
	case KindToggleImage:
		it = ToggleImage{OpenIcon: d.str("openIcon"), CloseIcon: d.str("closeIcon"), Size: d.num("size", false)}
	case KindDivider:
		it = Divider{Thickness: d.num("thickness", true), Color: d.optStr("color")}
	case KindBackground:
		it = Background{Color: d.str("color")}
	}
	if d.err != nil {
		return nil, d.err
	}
	return it, nil
}

// str reads a string key; absent or null gives "". Required strings are kept
// empty here and reported by Validate.
func (d *itemDecoder) str(key string) string {
	raw, ok := d.fields[key]
	if !ok {
		return ""
	}
	raw = bytes.TrimSpace(raw)
	if wire.IsNull(raw) {
		return ""
	}
	if len(raw) == 0 || raw[0] != '"' {
		d.fail(key, "must be a string"+gotKind(raw), nil)
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		d.fail(key, "must be a string", err)
		return ""
	}
	return s
}

// optStr reads an optional string key. An optional string that is present
// but empty cannot be represented (empty means "not sent"), so it is an
// error rather than a key silently dropped on re-encoding.
func (d *itemDecoder) optStr(key string) string {
	raw, ok := d.fields[key]
	s := d.str(key)
	if ok && s == "" && !wire.IsNull(raw) {
		d.fail(key, "empty string: leave the key out when unset", nil)
	}
	return s
}

// num reads a number key leniently: a JSON number, or a string holding one
// ("18", "0.7"). Absent or null gives 0, the unset field. The value is
// re-encoded as a number.
//
// An explicit 0 (or -0, "0", 0.0) is an error: a field at 0 is not sent, so
// keeping it would drop the key on re-encoding, and the spec gives none of
// these numbers a meaningful zero. required says the key has no default
// (a divider's thickness), for the message.
func (d *itemDecoder) num(key string, required bool) float64 {
	raw, ok := d.fields[key]
	if !ok {
		return 0
	}
	raw = bytes.TrimSpace(raw)
	if wire.IsNull(raw) {
		return 0
	}
	text := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			d.fail(key, "must be a number", err)
			return 0
		}
	}
	// JSON's number grammar (RFC 8259 §6) rules out what strconv would
	// also take: NaN, Inf, hex, "+1", "1_000", blanks around the digits.
	if !lenient.IsNumber(text) {
		d.fail(key, "must be a number"+gotKind(raw), nil)
		return 0
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		d.fail(key, "number out of range", err)
		return 0
	}
	if f == 0 {
		if required {
			d.fail(key, "must be greater than 0, got 0 (required: a divider's thickness has no default)", nil)
		} else {
			d.fail(key, "must be greater than 0, got 0; leave the key out for the default", nil)
		}
		return 0
	}
	return f
}

// gotKind names the JSON kind of raw for an error message.
func gotKind(raw []byte) string { return ", got " + wire.KindOf(raw) }
