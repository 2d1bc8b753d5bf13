// Package productsummary models the product summary block of the hosted
// checkout screen: what the shopper sees of the order above the payment
// methods (items, prices, an accordion with the fare breakdown…), sent as
// the ProductSummary of a [github.com/payorch/checkout-go.SessionRequest].
//
// A [Summary] is a list of lines; a [Line] is a list of items shown left to
// right; each item is one of [Space], [Text], [Image], [ToggleImage],
// [Divider] and [Background], written as a plain struct literal. Build a
// summary with [New] and its methods, or write it as a literal:
//
//	s := productsummary.New().
//		Line(productsummary.Text{Text: "Total", FontType: productsummary.Bold},
//			productsummary.Space{Weight: 1},
//			productsummary.Text{Text: "₹1,200.50"}).
//		Divider(1, "#D6C190")
//
// On the wire each item is a JSON object with a "type"; json.Marshal of a
// Summary gives the array of lines, and the session request sends that
// array as JSON text inside a string. Wire rules the SDK follows:
//   - A toggle image is sent with the type "toggleimage"; "toggleImage",
//     which the service's samples also write, is read too.
//   - A font type is sent as written, so "Bold" read from a sample goes back
//     as "Bold".
//   - Numbers (weights, widths, sizes, a divider's thickness) are float64
//     and 0 means not sent: the service gives none of them a meaningful
//     zero. Numbers written as strings ("18") are read and sent back as
//     numbers; an explicit 0 in JSON being read is a *DecodeError (leave
//     the key out instead), never dropped silently.
//   - Optional strings (a text's colour and font type, a divider's colour)
//     are not sent when empty; the others are always sent, so an unused
//     accordion icon goes out as "".
//   - Keys are case sensitive: an unknown or mis-cased key, or an unknown
//     item type, is a *DecodeError naming its path.
//
// Call [Summary.Validate] before sending (the client does).
package productsummary

import (
	"encoding"
	"encoding/json"
)

// Summary is the product summary: lines shown top to bottom. A nil or empty
// Summary means no summary is sent.
//
// [New] returns a *Summary whose methods add lines to it in place and
// return it, so calls chain and a call on its own line works too. Like any
// slice a Summary may be read from several goroutines at once but not
// changed while it is read; [Summary.Clone] gives an independent copy, to
// share a half-built summary and extend it in several ways.
type Summary []Line

// Line is one line of a Summary: items shown left to right. A line holding
// a single Space is an empty line.
type Line []Item

// Parse reads a summary from its JSON text: the array itself, or the
// session request's form, a JSON string holding the array. The text "null"
// (bare or inside the string) is a *DecodeError: a summary is an array, and
// no summary is the zero Summary, not "null" text.
func Parse(text string) (Summary, error) {
	return decodeSummary([]byte(text), true)
}

// MarshalJSON returns the JSON array of lines, as the service spells it.
// A nil item, or a number that is NaN or infinite, cannot be sent: it is a
// *[validation.Error] at its path, which Validate reports too.
func (s Summary) MarshalJSON() ([]byte, error) {
	n := 0
	for _, l := range s {
		n += len(l)
	}
	items := make([]any, 0, n)
	lines := make([][]any, len(s))
	k := checker{place: place{root: rootPath}, encodeOnly: true}
	for i, l := range s {
		k.line = i
		start := len(items)
		var err error
		if items, err = appendTyped(items, l, &k); err != nil {
			return nil, err
		}
		lines[i] = items[start:len(items):len(items)]
	}
	return json.Marshal(lines)
}

// appendTyped appends the items of l, as encoding/json should write them
// (see Item.typed), or returns the *validation.Error of the first item that
// cannot be sent. k is an encodeOnly checker placed at l: MarshalJSON uses
// one for the whole summary, since a checker handed to the items' check
// methods escapes to the heap.
func appendTyped(dst []any, l Line, k *checker) ([]any, error) {
	for j, it := range l {
		k.item = j
		if k.checkItem(it); len(k.problems.Problems) > 0 {
			return nil, k.problems.Err()
		}
		dst = append(dst, it.typed())
	}
	return dst, nil
}

// MarshalText returns the same JSON text as MarshalJSON: the session
// request sends it as the string value of its product summary.
func (s Summary) MarshalText() ([]byte, error) {
	return s.MarshalJSON()
}

// UnmarshalJSON reads the array of lines. It also accepts a JSON string
// holding the array, the form the session request carries, so a decoded
// session body's product summary reads straight into a Summary. A JSON null
// sets *s to nil, as encoding/json does for any slice: an absent summary. A
// string holding "null" is a *DecodeError, as in Parse.
func (s *Summary) UnmarshalJSON(data []byte) error {
	if s != nil && isNull(data) {
		*s = nil
		return nil
	}
	return decodeInto(s, "Summary", func() (Summary, error) { return decodeSummary(data, true) })
}

// UnmarshalText reads the JSON text of the array (what MarshalText wrote).
// The text "null" is a *DecodeError, as in Parse.
func (s *Summary) UnmarshalText(text []byte) error {
	return decodeInto(s, "Summary", func() (Summary, error) { return decodeSummary(text, false) })
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
		out[i] = concrete(it)
	}
	return out
}

// MarshalJSON returns the JSON array of the line's items. A nil item, or a
// number that is NaN or infinite, is a *[validation.Error] at its path
// ("[1]", "[0].weight").
func (l Line) MarshalJSON() ([]byte, error) {
	items, err := appendTyped(make([]any, 0, len(l)), l, &checker{place: place{line: -1}, encodeOnly: true})
	if err != nil {
		return nil, err
	}
	return json.Marshal(items)
}

// UnmarshalJSON reads a JSON array of items; error paths start at the line
// ("[0].type").
func (l *Line) UnmarshalJSON(data []byte) error {
	return decodeInto(l, "Line", func() (Line, error) { return decodeLine(data, alone()) })
}

// decodeInto sets *dst to what decode reads, leaving *dst unchanged when
// it fails. A nil dst (what names its type) is a *DecodeError, where
// encoding/json's own types also fail instead of panicking.
func decodeInto[T any](dst *T, what string, decode func() (T, error)) error {
	if dst == nil {
		return &DecodeError{Line: -1, Item: -1, Message: what + ": nil pointer"}
	}
	v, err := decode()
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// Compile-time checks of the encoding interfaces the client and the fake
// service rely on.
var (
	_ json.Marshaler           = Summary(nil)
	_ json.Unmarshaler         = (*Summary)(nil)
	_ encoding.TextMarshaler   = Summary(nil)
	_ encoding.TextUnmarshaler = (*Summary)(nil)
	_ json.Marshaler           = Line(nil)
	_ json.Unmarshaler         = (*Line)(nil)
)
