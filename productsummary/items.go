package productsummary

import (
	"strings"

	"github.com/payorch/checkout-go/internal/valid"
)

// Kind is an item's wire "type" (spec §2.6). The constants are the spellings
// the SDK emits.
type Kind string

// Item kinds of spec §2.6.
const (
	// KindSpace is type "space": a gap, or on its own an empty line.
	KindSpace Kind = "space"
	// KindText is type "text": a label.
	KindText Kind = "text"
	// KindImage is type "image": a picture at a URL.
	KindImage Kind = "image"
	// KindToggleImage is type "toggleimage": the accordion control.
	// "toggleImage", the other spelling of the service's samples, is
	// accepted on decode and never emitted.
	KindToggleImage Kind = "toggleimage"
	// KindDivider is type "divider": a horizontal rule.
	KindDivider Kind = "divider"
	// KindBackground is type "background": the colour of its line.
	KindBackground Kind = "background"
)

// kindToggleImageCamel is the second spelling the service's own samples use;
// it decodes to KindToggleImage and is never emitted.
const kindToggleImageCamel = "toggleImage"

// Item is one element of a Line: a Space, Text, Image, ToggleImage, Divider
// or Background (spec §2.6). The set is closed; pointers to the six kinds are
// accepted in a Line too.
type Item interface {
	// Kind returns the item's wire "type".
	Kind() Kind

	appendJSON(b []byte) ([]byte, error)
	validate(c *valid.Collector, path string)
	clone() Item
}

// FontType is a Text item's "fontType" (spec §2.6). The canonical values are
// Regular, Bold and SemiBold; the service's samples also write "Bold" and
// "SemiBold", which decode and re-encode unchanged.
type FontType string

// Font types of spec §2.6.
const (
	// Regular is fontType "regular".
	Regular FontType = "regular"
	// Bold is fontType "bold"; the samples also write "Bold".
	Bold FontType = "bold"
	// SemiBold is fontType "semibold"; the samples also write "SemiBold".
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
	switch f.Canonical() {
	case Regular, Bold, SemiBold:
		return true
	}
	return false
}

// Numbers are plain float64 and 0 means "not sent": the spec gives none of
// weight, width, textSize, size and thickness a meaningful zero (Validate
// wants every one that is sent greater than 0, and a divider's thickness is
// required), so the zero value is the absent key and a literal reads
// Text{Text: "Total", TextSize: 16}. Negative zero is zero too. An explicit
// 0 in decoded JSON is a *DecodeError rather than a key silently dropped on
// re-encoding.

// Space is a "space" item: a gap between items, or on its own an empty line.
// Without weight and width the service uses its default spacing of 5px
// (spec §2.6, §8).
type Space struct {
	// Weight is "weight" (number): the item's share of the line's free
	// width, like a flex weight; 0 is not sent.
	Weight float64
	// Width is "width" (number): a fixed width; 0 is not sent.
	Width float64
}

// Text is a "text" item (spec §2.6).
type Text struct {
	// Text is "text" (string), required: the label; always sent.
	Text string
	// Color is "color" (string): a hex colour; "" is not sent.
	Color string
	// TextSize is "textSize" (number): the font size; 0 is not sent.
	TextSize float64
	// FontType is "fontType" (string): regular, bold or semibold; "" is
	// not sent.
	FontType FontType
}

// Image is an "image" item (spec §2.6).
type Image struct {
	// URL is "url" (string URL), required: the picture; always sent.
	URL string
	// Size is "size" (number): the picture's size; 0 is not sent.
	Size float64
}

// ToggleImage is a "toggleimage" item: it turns the block into an accordion,
// OpenIcon opening it and CloseIcon closing it (spec §2.6). An unused icon is
// the empty string, which is sent as such; both icons are always sent.
type ToggleImage struct {
	// OpenIcon is "openIcon" (string URL): the icon that opens the
	// accordion, or "" when unused; always sent.
	OpenIcon string
	// CloseIcon is "closeIcon" (string URL): the icon that closes the
	// accordion, or "" when unused; always sent.
	CloseIcon string
	// Size is "size" (number): the icons' size; 0 is not sent.
	Size float64
}

// Divider is a "divider" item: a horizontal rule (spec §2.6).
type Divider struct {
	// Thickness is "thickness" (number), always required by the spec;
	// 0 is not sent and fails Validate as required.
	Thickness float64
	// Color is "color" (string): a hex colour; "" is not sent.
	Color string
}

// Background is a "background" item: it sets the background colour of its
// line (spec §2.6).
type Background struct {
	// Color is "color" (string, hex colour), required; always sent.
	Color string
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

// Items hold no pointers or slices, so a copy of the value is a deep copy.

func (s Space) clone() Item { return s }

func (t Text) clone() Item { return t }

func (i Image) clone() Item { return i }

func (t ToggleImage) clone() Item { return t }

func (d Divider) clone() Item { return d }

func (g Background) clone() Item { return g }

// concrete turns a pointer to one of the six kinds into its value, and a nil
// item or nil pointer into nil, so that no method is ever called on nil.
func concrete(it Item) Item {
	switch v := it.(type) {
	case *Space:
		if v == nil {
			return nil
		}
		return *v
	case *Text:
		if v == nil {
			return nil
		}
		return *v
	case *Image:
		if v == nil {
			return nil
		}
		return *v
	case *ToggleImage:
		if v == nil {
			return nil
		}
		return *v
	case *Divider:
		if v == nil {
			return nil
		}
		return *v
	case *Background:
		if v == nil {
			return nil
		}
		return *v
	}
	return it
}
