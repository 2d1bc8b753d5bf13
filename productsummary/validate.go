package productsummary

import (
	"net/url"
	"strconv"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/valid"
)

// checker collects the problems of the items at one place after another.
type checker struct {
	place
	c valid.Collector
}

// add records a problem at key of the current item ("" for the item).
func (k *checker) add(key, msg string) { k.c.Add(k.path(key), msg) }

// Validate returns a *ValidationError listing every problem, with paths
// such as "product_summary[2][0].color", or nil. An empty or nil Summary is
// valid (it is not sent). It takes time in proportion to the size of the
// summary, and refuses only what the service documents as wrong or what
// cannot be sent as written.
//
// It refuses: a missing (nil) item; a colour that is not #RGB, #RRGGBB or
// #AARRGGBB; a divider without a thickness and a background without a
// colour; an image URL, or an accordion icon that is not "", that is not an
// absolute http or https URL; a number that is sent (weight, width, text
// size, size, thickness) but is not finite or not greater than 0; text or
// a font type that is not valid UTF-8 (it cannot be sent as written). A
// number left at 0 is not sent, so the only zero it reports is a divider's
// missing thickness. It lets through what the service does not document
// as wrong: a line with no items, a blank text, a font type other than
// regular, bold and semibold (see [FontType.Valid] for that check), an
// accordion with both icons "".
func (s *Summary) Validate() error {
	if s == nil {
		return nil
	}
	k := checker{place: place{root: rootPath}}
	for i, l := range *s {
		k.line = i
		for j, it := range l {
			k.item = j
			if it = concrete(it); it == nil {
				k.add("", "missing item (nil)")
				continue
			}
			it.validate(&k)
			checkNumbers(&k, it, false)
		}
	}
	return k.c.Err()
}

// The validate methods check an item's own rules; they must not read
// itemTypes, which describe builds by calling them.

func (Space) validate(*checker) {}

func (t Text) validate(k *checker) {
	if !utf8.ValidString(t.Text) {
		k.add("text", "must be valid UTF-8")
	}
	checkColor(k, "color", t.Color, false)
	if !utf8.ValidString(string(t.FontType)) {
		k.add("fontType", "must be valid UTF-8")
	}
}

func (i Image) validate(k *checker) {
	if i.URL == "" {
		k.add("url", "required: an absolute http or https URL")
	} else if msg := checkURL(i.URL); msg != "" {
		k.add("url", msg)
	}
}

func (t ToggleImage) validate(k *checker) {
	if t.OpenIcon != "" {
		if msg := checkURL(t.OpenIcon); msg != "" {
			k.add("openIcon", msg+`, or "" when unused`)
		}
	}
	if t.CloseIcon != "" {
		if msg := checkURL(t.CloseIcon); msg != "" {
			k.add("closeIcon", msg+`, or "" when unused`)
		}
	}
}

func (d Divider) validate(k *checker) {
	if d.Thickness == 0 {
		k.add("thickness", "required: a number greater than 0")
	}
	checkColor(k, "color", d.Color, false)
}

func (g Background) validate(k *checker) {
	checkColor(k, "color", g.Color, true)
}

func checkColor(k *checker, key, v string, required bool) {
	switch {
	case v == "":
		if required {
			k.add(key, "required: a hex colour #RGB, #RRGGBB or #AARRGGBB")
		}
	case !IsHexColor(v):
		k.add(key, "must be a hex colour #RGB, #RRGGBB or #AARRGGBB, got "+quote(v))
	}
}

// IsHexColor reports whether v is a colour the service reads: "#" followed
// by 3, 6 or 8 hex digits (#RGB, #RRGGBB, #AARRGGBB), in either letter
// case.
func IsHexColor(v string) bool {
	if len(v) != 4 && len(v) != 7 && len(v) != 9 || v[0] != '#' {
		return false
	}
	for i := 1; i < len(v); i++ {
		c := v[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// checkURL returns why v is not an absolute http(s) URL with a host, or "".
func checkURL(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || !utf8.ValidString(v) {
		return "must be an absolute http or https URL, got " + quote(v)
	}
	return ""
}

// quote shortens long values so that a message stays one readable line.
func quote(v string) string {
	const limit = 64
	if len(v) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		v = v[:cut] + "…"
	}
	return strconv.Quote(v)
}
