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
// # Wire form
//
// Each item is a JSON object whose "type" names its kind. An item's Go type
// is its kind, so items have no type field: json.Marshal of a Summary
// writes each item's "type" (marshal the Summary, not a Line or an item
// alone), and json.Unmarshal into a Summary reads it and decodes the object
// into that kind. The session request sends the array as JSON text inside
// a string, which json.Unmarshal and [Parse] also read.
//   - A toggle image is sent as "toggleimage"; "toggleImage", which the
//     service's samples also write, is read too.
//   - A font type is sent as written ("Bold" read from a sample goes back
//     as "Bold"); the constants are the service's lower-case spellings.
//   - Numbers are float64 and 0 is not sent: the service gives none of them
//     a meaningful zero. Optional strings (colours, a font type) are not
//     sent when empty; the others always are, so an unused accordion icon
//     goes out as "".
//   - An item type the SDK does not know, or a key its kind does not have,
//     is a *[DecodeError] naming its path: a summary is what the merchant
//     writes, so either is a typo the screen would not draw, better
//     reported than carried along.
//
// Call [Summary.Validate] before sending (the client does).
package productsummary

import "encoding/json"

// Summary is the product summary: lines shown top to bottom. A nil or empty
// Summary means no summary is sent. Like any slice it may be read from
// several goroutines at once but not changed while it is read.
type Summary []Line

// Line is one line of a Summary: items shown left to right. A line holding
// a single Space is an empty line.
type Line []Item

// Parse reads a summary from its JSON text: the array itself, or the
// session request's form, a JSON string holding the array. "null" is a
// *DecodeError: no summary is the zero Summary, not "null" text.
func Parse(text string) (Summary, error) {
	return decode([]byte(text), true)
}

// MarshalJSON returns the JSON array of lines, each item with its "type".
// A nil item, or a number that is NaN or infinite, cannot be sent: it is a
// *[validation.Error] at its path, which Validate reports too.
func (s Summary) MarshalJSON() ([]byte, error) {
	n := 0
	for _, l := range s {
		n += len(l)
	}
	items := make([]any, 0, n)
	lines := make([][]any, len(s))
	k := checker{encodeOnly: true}
	for i, l := range s {
		k.line = i
		start := len(items)
		for j, it := range l {
			k.item = j
			if k.checkItem(it); len(k.problems.Problems) > 0 {
				return nil, k.problems.Err()
			}
			items = append(items, concrete(it).wire())
		}
		lines[i] = items[start:len(items):len(items)]
	}
	return json.Marshal(lines)
}

// UnmarshalJSON reads the array of lines, or a JSON string holding it (the
// session request's form). A JSON null sets *s to nil; a string holding
// "null" is a *DecodeError. *s changes only when the decode succeeds.
func (s *Summary) UnmarshalJSON(data []byte) error {
	if s == nil {
		return &DecodeError{Line: -1, Item: -1, Message: "Summary: nil pointer"}
	}
	if isNull(data) {
		*s = nil
		return nil
	}
	v, err := decode(data, true)
	if err == nil {
		*s = v
	}
	return err
}

// Clone returns a deep copy of s (nil for nil), pointer items as values, to
// share a half-built summary and extend each copy on its own.
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
