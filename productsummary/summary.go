// Package productsummary models the product summary block of the hosted
// checkout screen: the session request's "product_summary" (spec §2.6).
//
// A Summary is an array of lines; a Line is an array of items; each item is
// one of Space, Text, Image, ToggleImage, Divider and Background, written on
// the wire as an object with a "type". The session request sends the whole
// array as JSON text inside a string: MarshalText gives that text, while
// json.Marshal of a Summary gives the array itself.
//
// Wire rules the SDK follows:
//   - It emits the type "toggleimage" and accepts "toggleImage" on decode (both
//     appear in the service's samples).
//   - fontType is "regular", "bold" or "semibold"; other letter cases
//     ("Bold", "SemiBold") are accepted and kept as written.
//   - Numbers (weight, width, textSize, size, thickness) are float64 and 0
//     means not sent: the spec gives none of them a meaningful zero, so
//     Text{Text: "Total", TextSize: 16} is a whole literal and Space{} is the
//     default gap. Decoding takes numbers written as strings ("18") and
//     re-encodes them as numbers; an explicit 0 in the input is a
//     *DecodeError (leave the key out instead), never dropped silently.
//   - Optional strings (a text's color and fontType, a divider's color) are
//     not sent when empty; required strings (text, url, openIcon, closeIcon,
//     a background's color) are always sent, so an unused accordion icon goes
//     out as "".
//   - Keys are case sensitive: an unknown or mis-cased key, or an unknown item
//     type, is a *DecodeError naming its path; nothing is dropped silently.
//
// Build a summary with New and its methods, or as a literal; items are
// plain struct literals. Call Validate before sending (the client does).
package productsummary

import (
	"encoding"
	"encoding/json"

	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// ValidationError is the SDK's one validation error type; Validate returns it.
type ValidationError = valid.Error

// Problem is one entry of a ValidationError: a JSON path and a message.
type Problem = valid.Problem

// Summary is the "product_summary" array: lines shown top to bottom
// (spec §2.6). The zero value (nil or empty) means no summary is sent.
//
// [New] returns a *Summary whose methods add lines to it in place and
// return it, so calls chain and a call on its own line works too. Like any
// slice a Summary may be read from several goroutines at once but not
// changed while it is read; [Summary.Clone] gives an independent copy, to
// share a half-built summary and extend it in several ways.
type Summary []Line

// Line is one line of a Summary: items shown left to right. A line holding a
// single Space is an empty line (spec §2.6); a line with no items is invalid.
type Line []Item

// Parse reads a summary from its JSON text: the array itself, or the
// session request's form, a JSON string holding the array. The text "null"
// (bare or inside the string) is a *DecodeError: a summary is an array, and
// no summary is the zero Summary, not "null" text.
func Parse(text string) (Summary, error) {
	return decodeSummary([]byte(text), true)
}

// MarshalJSON returns the JSON array of lines, as the service spells it.
// Errors (a nil item, a number that is NaN or infinite) are a
// *ValidationError; Validate reports them too.
func (s Summary) MarshalJSON() ([]byte, error) {
	return s.appendJSON(make([]byte, 0, 128*len(s)+2))
}

// MarshalText returns the same JSON text as MarshalJSON. The session request
// sends it as the string value of "product_summary" (spec §2.1).
func (s Summary) MarshalText() ([]byte, error) {
	return s.MarshalJSON()
}

// UnmarshalJSON reads the array of lines. It also accepts a JSON string
// holding the array, the form the session request carries, so a decoded
// session body's product_summary reads straight into a Summary. A JSON null
// sets *s to nil, as encoding/json does for any slice (and as it expects of
// an Unmarshaler, which it calls with null for a non-pointer field): an
// absent summary. A string holding "null" is a *DecodeError, as in Parse.
func (s *Summary) UnmarshalJSON(data []byte) error {
	if s == nil {
		return errNilTarget("Summary")
	}
	if wire.IsNull(data) {
		*s = nil
		return nil
	}
	v, err := decodeSummary(data, true)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// UnmarshalText reads the JSON text of the array (what MarshalText wrote).
// The text "null" is a *DecodeError, as in Parse.
func (s *Summary) UnmarshalText(text []byte) error {
	if s == nil {
		return errNilTarget("Summary")
	}
	v, err := decodeSummary(text, false)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Clone returns a deep copy of s: changing one never changes the other, so
// a half-built summary can be shared and each copy extended on its own. A
// nil s gives nil.
func (s *Summary) Clone() *Summary {
	if s == nil {
		return nil
	}
	if *s == nil {
		return new(Summary)
	}
	out := make(Summary, len(*s))
	for i, l := range *s {
		out[i] = l.Clone()
	}
	return &out
}

// Clone returns a deep copy of l. Pointers to items become values.
func (l Line) Clone() Line {
	if l == nil {
		return nil
	}
	out := make(Line, len(l))
	for i, it := range l {
		if it = concrete(it); it != nil {
			out[i] = it.clone()
		}
	}
	return out
}

// MarshalJSON returns the JSON array of the line's items.
func (l Line) MarshalJSON() ([]byte, error) {
	b, err := l.appendJSON(make([]byte, 0, 128), "")
	if err != nil {
		return nil, err
	}
	return b, nil
}

// UnmarshalJSON reads a JSON array of items; error paths start at the line
// ("[0].type").
func (l *Line) UnmarshalJSON(data []byte) error {
	if l == nil {
		return errNilTarget("Line")
	}
	v, err := decodeLine(data, "", -1)
	if err != nil {
		return err
	}
	*l = v
	return nil
}

func (s Summary) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	for i, l := range s {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = l.appendJSON(b, valid.Index(rootPath, i)); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

func (l Line) appendJSON(b []byte, path string) ([]byte, error) {
	b = append(b, '[')
	for j, it := range l {
		if j > 0 {
			b = append(b, ',')
		}
		it = concrete(it)
		if it == nil {
			return nil, &ValidationError{Problems: []Problem{{Path: valid.Index(path, j), Message: "missing item (nil)"}}}
		}
		var err error
		if b, err = it.appendJSON(b); err != nil {
			return nil, encodeError(valid.Index(path, j), err)
		}
	}
	return append(b, ']'), nil
}

// The item kinds marshal and unmarshal on their own too, with the same rules
// as inside a Line.

// MarshalJSON returns {"type":"space",...}.
func (s Space) MarshalJSON() ([]byte, error) { return marshalItem(s) }

// MarshalJSON returns {"type":"text",...}.
func (t Text) MarshalJSON() ([]byte, error) { return marshalItem(t) }

// MarshalJSON returns {"type":"image",...}.
func (i Image) MarshalJSON() ([]byte, error) { return marshalItem(i) }

// MarshalJSON returns {"type":"toggleimage",...}.
func (t ToggleImage) MarshalJSON() ([]byte, error) { return marshalItem(t) }

// MarshalJSON returns {"type":"divider",...}.
func (d Divider) MarshalJSON() ([]byte, error) { return marshalItem(d) }

// MarshalJSON returns {"type":"background",...}.
func (g Background) MarshalJSON() ([]byte, error) { return marshalItem(g) }

// UnmarshalJSON reads a "space" item.
func (s *Space) UnmarshalJSON(data []byte) error { return unmarshalItem(data, s) }

// UnmarshalJSON reads a "text" item.
func (t *Text) UnmarshalJSON(data []byte) error { return unmarshalItem(data, t) }

// UnmarshalJSON reads an "image" item.
func (i *Image) UnmarshalJSON(data []byte) error { return unmarshalItem(data, i) }

// UnmarshalJSON reads a "toggleimage" (or "toggleImage") item.
func (t *ToggleImage) UnmarshalJSON(data []byte) error { return unmarshalItem(data, t) }

// UnmarshalJSON reads a "divider" item.
func (d *Divider) UnmarshalJSON(data []byte) error { return unmarshalItem(data, d) }

// UnmarshalJSON reads a "background" item.
func (g *Background) UnmarshalJSON(data []byte) error { return unmarshalItem(data, g) }

func marshalItem(it Item) ([]byte, error) {
	b, err := it.appendJSON(make([]byte, 0, 64))
	if err != nil {
		return nil, encodeError("", err)
	}
	return b, nil
}

// encodeError turns an item's encoding error into the *ValidationError that
// MarshalJSON returns, at the item's path (path "" for an item on its own).
func encodeError(path string, err error) *ValidationError {
	msg := err.Error()
	if nf, ok := err.(errNotFinite); ok {
		path, msg = valid.Join(path, nf.key), "must be a finite number"
	}
	return &ValidationError{Problems: []Problem{{Path: path, Message: msg}}}
}

// unmarshalItem decodes data into dst, a pointer to one of the six kinds, and
// fails when the JSON's type is another kind.
func unmarshalItem[T Item](data []byte, dst *T) error {
	if dst == nil {
		var zero T
		return errNilTarget(string(zero.Kind()) + " item")
	}
	it, err := decodeItem(data, "", -1, -1)
	if err != nil {
		return err
	}
	v, ok := it.(T)
	if !ok {
		var zero T
		return &DecodeError{Path: "type", Line: -1, Item: -1,
			Message: "item type " + string(it.Kind()) + " cannot be read into a " + string(zero.Kind()) + " item"}
	}
	*dst = v
	return nil
}

// errNilTarget is what the Unmarshal methods return when called on a nil
// pointer, where encoding/json's own types also fail instead of panicking.
func errNilTarget(what string) error {
	return &DecodeError{Line: -1, Item: -1, Message: what + " into a nil pointer"}
}

// Compile-time checks of the encoding interfaces the client and the fake
// service rely on.
var (
	_ json.Marshaler           = Summary(nil)
	_ json.Unmarshaler         = (*Summary)(nil)
	_ encoding.TextMarshaler   = Summary(nil)
	_ encoding.TextUnmarshaler = (*Summary)(nil)
	_ json.Unmarshaler         = (*Line)(nil)
)
