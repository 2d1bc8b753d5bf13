package checkouttest

import (
	"net/url"

	"github.com/payorch/checkout-go/validation"
)

// The product_summary of a session as the fake reads it (spec §2.6): JSON
// text in a string, holding an array of lines, each an array of items,
// each an object whose "type" says which fields it has.

// summaryTypes are the item types of spec §2.6; the samples write the
// accordion's type as toggleimage and as toggleImage.
var summaryTypes = []string{"space", "text", "image", "toggleimage", "toggleImage", "divider", "background"}

// readSummary reads the product summary text sent at path.
func readSummary(p *problems, path, text string) {
	doc, ok := parseJSON(&problems{}, []byte(text))
	if !ok {
		p.bad(path, "must be JSON text holding an array of lines")
		return
	}
	lines, isArray := doc.([]any)
	if !isArray {
		p.bad(path, "must be JSON text holding an array of lines, not "+kindOf(doc))
		return
	}
	for i, l := range lines {
		items, isArray := l.([]any)
		if !isArray {
			p.bad(validation.Index(path, i), "a line must be an array of items, not "+kindOf(l))
			continue
		}
		for j, it := range items {
			if o, ok := asObject(p, validation.Index(validation.Index(path, i), j), it); ok {
				readSummaryItem(o)
			}
		}
	}
}

// readSummaryItem reads one item by its type: numbers are JSON numbers
// above 0, colours hex (#RGB, #RRGGBB, #AARRGGBB), URLs absolute http(s).
func readSummaryItem(o *jsonObject) {
	typ, _ := o.enum("type", true, summaryTypes, true)
	switch typ {
	case "space":
		o.number("weight", false)
		o.number("width", false)
	case "text":
		o.text("text", false)
		readColor(o, false)
		o.number("textSize", false)
		o.text("fontType", false) // regular, bold, semibold; the samples also write Bold, SemiBold
	case "image":
		readURL(o, "url", true)
		o.number("size", false)
	case "toggleimage", "toggleImage":
		readURL(o, "openIcon", false)
		readURL(o, "closeIcon", false)
		o.number("size", false)
	case "divider":
		o.number("thickness", true)
		readColor(o, false)
	case "background":
		readColor(o, true)
	}
	o.done()
}

// readColor reads an item's color: a hex colour.
func readColor(o *jsonObject, required bool) {
	if c, ok := o.text("color", required); ok && !hexColor(c) {
		o.p.bad(o.at("color"), "must be a hex colour #RGB, #RRGGBB or #AARRGGBB")
	}
}

// readURL reads a URL of an item: absolute http(s), or "" for an unused
// accordion icon (as the samples write it) when it is not required.
func readURL(o *jsonObject, key string, required bool) {
	s, ok := o.text(key, required)
	if !ok || s == "" && !required {
		return
	}
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		o.p.bad(o.at(key), "must be an absolute http or https URL")
	}
}

// hexColor reports whether c is "#" and 3, 6 or 8 hex digits.
func hexColor(c string) bool {
	if n := len(c); n != 4 && n != 7 && n != 9 || c[0] != '#' {
		return false
	}
	for _, r := range c[1:] {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return true
}
