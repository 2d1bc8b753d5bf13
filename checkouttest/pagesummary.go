package checkouttest

import (
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/productsummary"
)

// summaryView is a product summary as the page draws it: the lines before
// the accordion, the line holding its first toggle image (nil when the
// summary has none), and the lines the accordion opens and closes.
type summaryView struct {
	Before []lineView
	Header *lineView
	Body   []lineView
}

// lineView is one line: its items left to right, on its background.
type lineView struct {
	Background string
	// Empty is a line holding a single space: an empty line.
	Empty bool
	Items []itemView
}

// itemView is one item of a line. Kind is the item's wire type; the other
// fields are those of its kind, ready for the template, which escapes
// them (colours and numbers in style attributes, URLs in src).
type itemView struct {
	Kind     productsummary.Kind
	Text     string
	Color    string
	Size     string // text size, image size or divider thickness, in px
	Weight   string // font weight, or a space's flex weight
	Width    string // a space's fixed width in px
	URL      string
	Open     string // a toggle image's open icon ("" when unused)
	Close    string // its close icon
	HasOpen  bool   // whether the toggle shows an opening control
	HasClose bool   // whether it shows a closing one
}

// newSummaryView lays s out; nil when s has no line.
func newSummaryView(s productsummary.Summary) *summaryView {
	if len(s) == 0 {
		return nil
	}
	v := &summaryView{}
	for _, l := range s {
		lv, toggle := newLineView(l)
		switch {
		case v.Header == nil && toggle:
			v.Header = &lv
		case v.Header == nil:
			v.Before = append(v.Before, lv)
		default:
			v.Body = append(v.Body, lv)
		}
	}
	return v
}

// newLineView lays a line out and reports whether it holds a toggle image.
func newLineView(l productsummary.Line) (lineView, bool) {
	var lv lineView
	toggle := false
	for _, it := range l {
		iv, ok := newItemView(it)
		switch {
		case !ok:
		case iv.Kind == productsummary.KindBackground:
			lv.Background = cssColor(iv.Color)
		default:
			toggle = toggle || iv.Kind == productsummary.KindToggleImage
			lv.Items = append(lv.Items, iv)
		}
	}
	lv.Empty = len(lv.Items) == 1 && lv.Items[0].Kind == productsummary.KindSpace
	return lv, toggle
}

// newItemView reads one item; false for nil. The items of a decoded
// session body are values, never pointers.
func newItemView(it productsummary.Item) (itemView, bool) {
	switch v := it.(type) {
	case productsummary.Space:
		return itemView{Kind: v.Kind(), Weight: number(v.Weight), Width: number(v.Width)}, true
	case productsummary.Text:
		return itemView{Kind: v.Kind(), Text: v.Text, Color: cssColor(v.Color), Size: number(v.TextSize), Weight: fontWeight(v.FontType)}, true
	case productsummary.Image:
		return itemView{Kind: v.Kind(), URL: v.URL, Size: number(v.Size)}, true
	case productsummary.ToggleImage:
		open, closing := v.OpenIcon != "", v.CloseIcon != ""
		if !open && !closing {
			open, closing = true, true // both unused: the page still needs a control
		}
		return itemView{Kind: v.Kind(), Open: v.OpenIcon, Close: v.CloseIcon, HasOpen: open, HasClose: closing, Size: number(v.Size)}, true
	case productsummary.Divider:
		return itemView{Kind: v.Kind(), Size: number(v.Thickness), Color: cssColor(v.Color)}, true
	case productsummary.Background:
		return itemView{Kind: v.Kind(), Color: v.Color}, true
	}
	return itemView{}, false
}

// number writes a size for CSS; "" for 0, which the service treats as
// not sent.
func number(f float64) string {
	if f == 0 {
		return ""
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// fontWeight maps a font type to a CSS weight; "" keeps the default.
func fontWeight(f productsummary.FontType) string {
	switch f.Canonical() {
	case productsummary.Bold:
		return "700"
	case productsummary.SemiBold:
		return "600"
	case productsummary.Regular:
		return "400"
	}
	return ""
}

// cssColor writes a summary colour for CSS: #AARRGGBB, the alpha-first
// form of the service's mobile SDKs, becomes #RRGGBBAA; #RGB and #RRGGBB
// stay. Anything else is dropped (the session was refused for it).
func cssColor(c string) string {
	if !productsummary.IsHexColor(c) {
		return ""
	}
	if len(c) == 9 {
		return "#" + c[3:] + c[1:3]
	}
	return strings.ToLower(c)
}
