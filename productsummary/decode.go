package productsummary

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// DecodeError reports why a product summary could not be read, at the JSON
// path of the offending value ("product_summary[2][0].type").
type DecodeError struct {
	Path    string // "product_summary[2][0].type"
	Line    int    // index of the line, or -1 when not inside one
	Item    int    // index of the item in its line, or -1
	Message string // what is wrong, without the path
	Err     error  // the underlying encoding/json error, if any
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

// rootPath is where paths start: the session request's key for the summary.
const rootPath = "product_summary"

// place is where a value sits: at a line and an item index (-1 when not
// inside one). Paths are built only when a problem is reported.
type place struct{ line, item int }

// path returns the JSON path of key (or of the value itself for "").
func (p place) path(key string) string {
	s := rootPath
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

// isNull reports whether data is the JSON null.
func isNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }

// decode reads the array of lines, or when allowString a JSON string
// holding it. Each item's "type" chooses its kind (decodeAs).
func decode(data []byte, allowString bool) (Summary, error) {
	at := place{-1, -1}
	if data = bytes.TrimSpace(data); allowString && len(data) > 0 && data[0] == '"' {
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return nil, at.fail("", "not a JSON string", err)
		}
		return decode([]byte(text), false)
	}
	lines, err := array(data, at, "must be a JSON array of lines")
	if err != nil {
		return nil, err
	}
	out := make(Summary, len(lines))
	for i, raw := range lines {
		p := place{i, -1}
		items, err := array(raw, p, "a line must be a JSON array of items")
		if err != nil {
			return nil, err
		}
		out[i] = make(Line, len(items))
		for j, raw := range items {
			p.item = j
			if out[i][j], err = decodeItem(raw, p); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// array reads the JSON array data at p; null or another kind is the
// problem want.
func array(data []byte, p place, want string) ([]json.RawMessage, error) {
	var raws []json.RawMessage
	var te *json.UnmarshalTypeError
	switch err := json.Unmarshal(data, &raws); {
	case errors.As(err, &te):
		return nil, p.fail("", want+", got "+te.Value, nil)
	case err != nil:
		return nil, p.fail("", "not valid JSON", err)
	case raws == nil:
		return nil, p.fail("", want+", got null", nil)
	}
	return raws, nil
}

// decodeItem reads the item at p: its "type", then its object into that
// kind, a json error becoming a *DecodeError at the key it names.
func decodeItem(raw []byte, p place) (Item, error) {
	var head struct {
		Type *string `json:"type"`
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(raw, &head); errors.As(err, &te) && te.Field == "" {
		return nil, p.fail("", "an item must be a JSON object, got "+te.Value, nil)
	} else if err != nil {
		return nil, p.fail("type", "item type must be a string", err)
	}
	if head.Type == nil {
		return nil, p.fail("type", "missing item type", nil)
	}
	it, ok, err := decodeAs(Kind(*head.Type), raw)
	switch {
	case !ok:
		return nil, p.fail("type", "unknown item type "+strconv.Quote(*head.Type)+
			" (want space, text, image, toggleimage, divider or background)", nil)
	case errors.As(err, &te):
		key := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
		return nil, p.fail(key, "cannot be read from a JSON "+te.Value, nil)
	case err != nil:
		if key, found := strings.CutPrefix(err.Error(), "json: unknown field "); found {
			key, _ = strconv.Unquote(key)
			return nil, p.fail(key, "unknown key "+strconv.Quote(key)+" for a "+string(it.Kind())+" item", nil)
		}
		return nil, p.fail("", "not valid JSON", err)
	}
	return it, nil
}
