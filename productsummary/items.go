package productsummary

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Kind is an item's wire type, the value of its "type" key. The constants
// are the spellings the SDK sends.
type Kind string

// The six item kinds the checkout screen draws.
const (
	KindSpace       Kind = "space"
	KindText        Kind = "text"
	KindImage       Kind = "image"
	KindToggleImage Kind = "toggleimage" // "toggleImage" is read too, never sent
	KindDivider     Kind = "divider"
	KindBackground  Kind = "background"
)

// Item is one element of a [Line]: a [Space], [Text], [Image],
// [ToggleImage], [Divider] or [Background], or a pointer to one. The set
// is closed; the Go type is the item's wire type.
type Item interface {
	// Kind returns the item's wire type.
	Kind() Kind
	// check adds the item's problems to k (see validate.go).
	check(k *checker)
	// wire returns the item as encoding/json writes it: its type first,
	// then its own fields as their tags say.
	wire() any
}

// FontType is the weight of a [Text]'s letters, sent as written. The
// service knows [Regular], [Bold] and [SemiBold]; its samples also write
// "Bold" and "SemiBold".
type FontType string

// The font types the service documents.
const (
	Regular  FontType = "regular"
	Bold     FontType = "bold"
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

// Valid reports whether f is regular, bold or semibold in any letter case.
func (f FontType) Valid() bool {
	c := f.Canonical()
	return c == Regular || c == Bold || c == SemiBold
}

// Space is a gap between items, or on its own an empty line. Without a
// weight or a width the service puts its default gap.
type Space struct {
	// Weight is the item's share of the line's free width, like a flex
	// weight: Space{Weight: 1} pushes what follows to the right edge.
	Weight float64 `json:"weight,omitempty"`
	Width  float64 `json:"width,omitempty"` // a fixed width
}

// Text is a label.
type Text struct {
	Text     string   `json:"text"`            // always sent
	Color    string   `json:"color,omitempty"` // #RGB, #RRGGBB or #AARRGGBB
	TextSize float64  `json:"textSize,omitempty"`
	FontType FontType `json:"fontType,omitempty"`
}

// Image is a picture at an absolute http or https URL.
type Image struct {
	URL  string  `json:"url"`
	Size float64 `json:"size,omitempty"`
}

// ToggleImage turns the summary into an accordion: the shopper opens it
// with OpenIcon and closes it with CloseIcon, absolute http or https URLs.
// An unused icon is "", which is sent as such.
type ToggleImage struct {
	OpenIcon  string  `json:"openIcon"`
	CloseIcon string  `json:"closeIcon"`
	Size      float64 `json:"size,omitempty"`
}

// Divider is a horizontal rule. The service requires its Thickness.
type Divider struct {
	Thickness float64 `json:"thickness,omitempty"`
	Color     string  `json:"color,omitempty"`
}

// Background sets the background colour of the line it is on.
type Background struct {
	Color string `json:"color"` // required
}

// Kind returns KindSpace.
func (Space) Kind() Kind { return KindSpace }

// Kind returns KindText.
func (Text) Kind() Kind { return KindText }

// Kind returns KindImage.
func (Image) Kind() Kind { return KindImage }

// Kind returns KindToggleImage.
func (ToggleImage) Kind() Kind { return KindToggleImage }

// Kind returns KindDivider.
func (Divider) Kind() Kind { return KindDivider }

// Kind returns KindBackground.
func (Background) Kind() Kind { return KindBackground }

func (v Space) wire() any       { return typedSpace{typeKey{KindSpace}, v} }
func (v Text) wire() any        { return typedText{typeKey{KindText}, v} }
func (v Image) wire() any       { return typedImage{typeKey{KindImage}, v} }
func (v ToggleImage) wire() any { return typedToggle{typeKey{KindToggleImage}, v} }
func (v Divider) wire() any     { return typedDivider{typeKey{KindDivider}, v} }
func (v Background) wire() any  { return typedBackground{typeKey{KindBackground}, v} }

// typeKey is the one key the wire adds to an item's own fields; the
// typed… types put it beside them, for encoding/json to write and read.
type typeKey struct {
	Type Kind `json:"type"`
}

type (
	typedSpace struct {
		typeKey
		Space
	}
	typedText struct {
		typeKey
		Text
	}
	typedImage struct {
		typeKey
		Image
	}
	typedToggle struct {
		typeKey
		ToggleImage
	}
	typedDivider struct {
		typeKey
		Divider
	}
	typedBackground struct {
		typeKey
		Background
	}
)

// decodeAs reads raw, an item whose type names kind, refusing keys the
// kind does not have. ok is false for a type the SDK does not know.
func decodeAs(kind Kind, raw []byte) (it Item, ok bool, err error) {
	switch kind {
	case KindSpace:
		return as(raw, func(w typedSpace) Item { return w.Space })
	case KindText:
		return as(raw, func(w typedText) Item { return w.Text })
	case KindImage:
		return as(raw, func(w typedImage) Item { return w.Image })
	case KindToggleImage, "toggleImage":
		return as(raw, func(w typedToggle) Item { return w.ToggleImage })
	case KindDivider:
		return as(raw, func(w typedDivider) Item { return w.Divider })
	case KindBackground:
		return as(raw, func(w typedBackground) Item { return w.Background })
	}
	return nil, false, nil
}

// as decodes raw into a W, an unknown key being an error, and returns the
// item it holds.
func as[W any](raw []byte, item func(W) Item) (Item, bool, error) {
	var w W
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	err := d.Decode(&w)
	return item(w), true, err
}

// concrete turns a pointer to one of the six kinds into its value, and a
// nil item or nil pointer into nil, so that no method is called on nil.
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
