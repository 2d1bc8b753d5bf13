package productsummary

import (
	"encoding/json"
	"strings"
)

// Kind is an item's wire type, the value of its "type" key. The constants
// are the spellings the SDK sends.
type Kind string

// The six item kinds the checkout screen draws.
const (
	// KindSpace is a [Space]: a gap, or on its own an empty line.
	KindSpace Kind = "space"
	// KindText is a [Text]: a label.
	KindText Kind = "text"
	// KindImage is an [Image]: a picture at a URL.
	KindImage Kind = "image"
	// KindToggleImage is a [ToggleImage]: the accordion control. The
	// camel-case spelling "toggleImage", which the service's own samples
	// also use, is read as this kind and never sent.
	KindToggleImage Kind = "toggleimage"
	// KindDivider is a [Divider]: a horizontal rule.
	KindDivider Kind = "divider"
	// KindBackground is a [Background]: the colour of its line.
	KindBackground Kind = "background"
)

// kindToggleImageCamel is the second spelling of KindToggleImage in the
// service's samples; it is read and never sent.
const kindToggleImageCamel = "toggleImage"

// The wire keys of the items, as their json tags spell them: the decoder
// and the rules both name them. TestProblemPathsNameRealKeys checks every
// path they build against the tags.
const (
	keyType      = "type"
	keyWeight    = "weight"
	keyWidth     = "width"
	keyText      = "text"
	keyColor     = "color"
	keyTextSize  = "textSize"
	keyFontType  = "fontType"
	keyURL       = "url"
	keySize      = "size"
	keyOpenIcon  = "openIcon"
	keyCloseIcon = "closeIcon"
	keyThickness = "thickness"
)

// Item is one element of a [Line]: a [Space], [Text], [Image],
// [ToggleImage], [Divider] or [Background]. The set is closed; a pointer to
// one of the six is an Item too, and is read as the value it points to.
type Item interface {
	// Kind returns the item's wire type.
	Kind() Kind

	// typed returns the item as it goes on the wire: its kind under
	// "type", then its own fields as their json tags say.
	typed() any

	// check adds the item's problems to k (see validate.go).
	check(k *checker)
}

// FontType is the weight of a [Text]'s letters. The service knows
// [Regular], [Bold] and [SemiBold]; its samples also write "Bold" and
// "SemiBold", which are read and sent back as written. Other values are
// sent as given: the service decides what it draws.
type FontType string

// The font types the service documents.
const (
	// Regular is the normal weight.
	Regular FontType = "regular"
	// Bold is bold; the service's samples also write "Bold".
	Bold FontType = "bold"
	// SemiBold is between the two; the samples also write "SemiBold".
	SemiBold FontType = "semibold"
)

// Canonical returns the lower-case spelling of a known font type, or f
// unchanged when it is not one.
func (f FontType) Canonical() FontType {
	for _, k := range [...]FontType{Regular, Bold, SemiBold} {
		if strings.EqualFold(string(f), string(k)) {
			return k
		}
	}
	return f
}

// Valid reports whether f is regular, bold or semibold in any letter case:
// a check a merchant can run, not one [Summary.Validate] makes.
func (f FontType) Valid() bool {
	c := f.Canonical()
	return c == Regular || c == Bold || c == SemiBold
}

// Numbers are plain float64 and 0 means "not sent": the service gives none
// of an item's numbers a meaningful zero, so the zero value is the absent
// key and a literal reads Text{Text: "Total", TextSize: 16}. Negative zero
// is zero too (the tags say omitempty, not omitzero, for that reason). An
// explicit 0 in decoded JSON is a *DecodeError rather than a key silently
// dropped when the summary is sent again.
//
// Each kind below is followed by its rules (check, run by
// [Summary.Validate]) and by how it reads one key of its JSON object
// (decodeKey, run by the decoder once "type" has chosen the kind).

// Space is a gap between items, or on its own an empty line. Without a
// weight or a width the service puts its default gap of 5px.
type Space struct {
	// Weight is the item's share of the line's free width, like a flex
	// weight: Space{Weight: 1} pushes what follows it to the right edge.
	// 0 is not sent.
	Weight float64 `json:"weight,omitempty"`
	// Width is a fixed width; 0 is not sent.
	Width float64 `json:"width,omitempty"`
}

func (s Space) check(k *checker) {
	k.number(keyWeight, s.Weight, optional)
	k.number(keyWidth, s.Width, optional)
}

func (s *Space) decodeKey(key string, raw json.RawMessage, p place) error {
	switch key {
	case keyWeight:
		return readNumber(raw, &s.Weight, p, key, optional)
	case keyWidth:
		return readNumber(raw, &s.Width, p, key, optional)
	}
	return p.unknownKey(key, KindSpace)
}

// Text is a label.
type Text struct {
	// Text is what the label shows; always sent.
	Text string `json:"text"`
	// Color is the text colour, #RGB, #RRGGBB or #AARRGGBB; "" is not
	// sent.
	Color string `json:"color,omitempty"`
	// TextSize is the font size; 0 is not sent.
	TextSize float64 `json:"textSize,omitempty"`
	// FontType is the font weight; "" is not sent.
	FontType FontType `json:"fontType,omitempty"`
}

func (t Text) check(k *checker) {
	k.utf8(keyText, t.Text)
	k.color(keyColor, t.Color, optional)
	k.number(keyTextSize, t.TextSize, optional)
	k.utf8(keyFontType, string(t.FontType))
}

func (t *Text) decodeKey(key string, raw json.RawMessage, p place) error {
	switch key {
	case keyText:
		return readString(raw, &t.Text, p, key)
	case keyColor:
		return readNonEmpty(raw, &t.Color, p, key)
	case keyTextSize:
		return readNumber(raw, &t.TextSize, p, key, optional)
	case keyFontType:
		return readNonEmpty(raw, &t.FontType, p, key)
	}
	return p.unknownKey(key, KindText)
}

// Image is a picture.
type Image struct {
	// URL is the picture's absolute http or https address; required and
	// always sent.
	URL string `json:"url"`
	// Size is the picture's size; 0 is not sent.
	Size float64 `json:"size,omitempty"`
}

func (i Image) check(k *checker) {
	k.url(keyURL, i.URL, required)
	k.number(keySize, i.Size, optional)
}

func (i *Image) decodeKey(key string, raw json.RawMessage, p place) error {
	switch key {
	case keyURL:
		return readString(raw, &i.URL, p, key)
	case keySize:
		return readNumber(raw, &i.Size, p, key, optional)
	}
	return p.unknownKey(key, KindImage)
}

// ToggleImage turns the summary into an accordion: the shopper opens it
// with OpenIcon and closes it with CloseIcon. An unused icon is "", which
// is sent as such: both icons are always sent.
type ToggleImage struct {
	// OpenIcon is the absolute http or https address of the icon that
	// opens the accordion, or "" when unused.
	OpenIcon string `json:"openIcon"`
	// CloseIcon is the address of the icon that closes it, or "".
	CloseIcon string `json:"closeIcon"`
	// Size is the icons' size; 0 is not sent.
	Size float64 `json:"size,omitempty"`
}

func (t ToggleImage) check(k *checker) {
	k.url(keyOpenIcon, t.OpenIcon, optional)
	k.url(keyCloseIcon, t.CloseIcon, optional)
	k.number(keySize, t.Size, optional)
}

func (t *ToggleImage) decodeKey(key string, raw json.RawMessage, p place) error {
	switch key {
	case keyOpenIcon:
		return readString(raw, &t.OpenIcon, p, key)
	case keyCloseIcon:
		return readString(raw, &t.CloseIcon, p, key)
	case keySize:
		return readNumber(raw, &t.Size, p, key, optional)
	}
	return p.unknownKey(key, KindToggleImage)
}

// Divider is a horizontal rule.
type Divider struct {
	// Thickness is the rule's thickness, which the service requires:
	// [Summary.Validate] reports a divider without one.
	Thickness float64 `json:"thickness,omitempty"`
	// Color is the rule's colour, #RGB, #RRGGBB or #AARRGGBB; "" is not
	// sent.
	Color string `json:"color,omitempty"`
}

func (d Divider) check(k *checker) {
	k.number(keyThickness, d.Thickness, required)
	k.color(keyColor, d.Color, optional)
}

func (d *Divider) decodeKey(key string, raw json.RawMessage, p place) error {
	switch key {
	case keyThickness:
		return readNumber(raw, &d.Thickness, p, key, required)
	case keyColor:
		return readNonEmpty(raw, &d.Color, p, key)
	}
	return p.unknownKey(key, KindDivider)
}

// Background sets the background colour of the line it is on.
type Background struct {
	// Color is the colour, #RGB, #RRGGBB or #AARRGGBB; required and always
	// sent.
	Color string `json:"color"`
}

func (g Background) check(k *checker) {
	k.color(keyColor, g.Color, required)
}

func (g *Background) decodeKey(key string, raw json.RawMessage, p place) error {
	if key == keyColor {
		return readString(raw, &g.Color, p, key)
	}
	return p.unknownKey(key, KindBackground)
}

// Kind returns [KindSpace].
func (Space) Kind() Kind { return KindSpace }

// Kind returns [KindText].
func (Text) Kind() Kind { return KindText }

// Kind returns [KindImage].
func (Image) Kind() Kind { return KindImage }

// Kind returns [KindToggleImage].
func (ToggleImage) Kind() Kind { return KindToggleImage }

// Kind returns [KindDivider].
func (Divider) Kind() Kind { return KindDivider }

// Kind returns [KindBackground].
func (Background) Kind() Kind { return KindBackground }

// typeKey carries the one thing the wire adds to an item's own fields, its
// kind, first: each item's typed value embeds it beside the item's fields
// (as a plain type, so that MarshalJSON does not call itself).
type typeKey struct {
	Type Kind `json:"type"`
}

func (s Space) typed() any {
	type plain Space
	return struct {
		typeKey
		plain
	}{typeKey{KindSpace}, plain(s)}
}

func (t Text) typed() any {
	type plain Text
	return struct {
		typeKey
		plain
	}{typeKey{KindText}, plain(t)}
}

func (i Image) typed() any {
	type plain Image
	return struct {
		typeKey
		plain
	}{typeKey{KindImage}, plain(i)}
}

func (t ToggleImage) typed() any {
	type plain ToggleImage
	return struct {
		typeKey
		plain
	}{typeKey{KindToggleImage}, plain(t)}
}

func (d Divider) typed() any {
	type plain Divider
	return struct {
		typeKey
		plain
	}{typeKey{KindDivider}, plain(d)}
}

func (g Background) typed() any {
	type plain Background
	return struct {
		typeKey
		plain
	}{typeKey{KindBackground}, plain(g)}
}

// The item kinds marshal and unmarshal on their own too, with the same
// rules as inside a Line.

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

// UnmarshalJSON reads a space item.
func (s *Space) UnmarshalJSON(data []byte) error { return unmarshalItem(data, s) }

// UnmarshalJSON reads a text item.
func (t *Text) UnmarshalJSON(data []byte) error { return unmarshalItem(data, t) }

// UnmarshalJSON reads an image item.
func (i *Image) UnmarshalJSON(data []byte) error { return unmarshalItem(data, i) }

// UnmarshalJSON reads a toggle image item, spelt "toggleimage" or
// "toggleImage".
func (t *ToggleImage) UnmarshalJSON(data []byte) error { return unmarshalItem(data, t) }

// UnmarshalJSON reads a divider item.
func (d *Divider) UnmarshalJSON(data []byte) error { return unmarshalItem(data, d) }

// UnmarshalJSON reads a background item.
func (g *Background) UnmarshalJSON(data []byte) error { return unmarshalItem(data, g) }

// marshalItem encodes one item, refusing a number JSON cannot carry (NaN,
// ±Inf) with a *validation.Error at its key, as Validate would.
func marshalItem(it Item) ([]byte, error) {
	if err := encodable(it, alone()); err != nil {
		return nil, err
	}
	return json.Marshal(it.typed())
}

// unmarshalItem decodes data into dst, a pointer to one of the six kinds,
// and fails when the JSON's type is another kind. dst changes only when
// the decode succeeds.
func unmarshalItem[T Item](data []byte, dst *T) error {
	var zero T
	return decodeInto(dst, string(zero.Kind())+" item", func() (T, error) {
		it, err := decodeItem(data, alone())
		if err != nil {
			return zero, err
		}
		v, ok := it.(T)
		if !ok {
			return zero, &DecodeError{Path: keyType, Line: -1, Item: -1,
				Message: "item type " + string(it.Kind()) + " cannot be read into a " + string(zero.Kind()) + " item"}
		}
		return v, nil
	})
}

// concrete turns a pointer to one of the six kinds into its value, and a
// nil item or nil pointer into nil, so that no method is ever called on
// nil.
func concrete(it Item) Item {
	switch v := it.(type) {
	case *Space:
		return deref(v)
	case *Text:
		return deref(v)
	case *Image:
		return deref(v)
	case *ToggleImage:
		return deref(v)
	case *Divider:
		return deref(v)
	case *Background:
		return deref(v)
	}
	return it
}

// deref returns *p as an Item, or nil for a nil p.
func deref[T Item](p *T) Item {
	if p == nil {
		return nil
	}
	return *p
}
