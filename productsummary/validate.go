package productsummary

import (
	"net/url"
	"strconv"
	"strings"
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
// summary.
//
// Rules: a line has at least one item (an empty line is one space item);
// colours are #RGB, #RRGGBB or #AARRGGBB; text is non-blank UTF-8; fontType
// is regular, bold or semibold in any letter case; image URLs and accordion
// icons are absolute http(s) URLs, except that one accordion icon may be ""
// when unused (not both); a divider has a thickness and a background a
// colour; every number sent (weight, width, textSize, size, thickness) is
// finite and greater than 0. A number field left at 0 is not sent, so the
// only zero Validate reports is a divider's missing thickness.
func (s *Summary) Validate() error {
	if s == nil {
		return nil
	}
	k := checker{place: place{root: rootPath}}
	for i, l := range *s {
		k.line, k.item = i, -1
		if len(l) == 0 {
			k.add("", "empty line: an empty line is a single space item")
			continue
		}
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
	switch {
	case strings.TrimSpace(t.Text) == "":
		k.add("text", "required: text must not be blank")
	case !utf8.ValidString(t.Text):
		k.add("text", "must be valid UTF-8")
	}
	checkColor(k, "color", t.Color, false)
	if t.FontType != "" && !t.FontType.Valid() {
		k.add("fontType", "unknown font type "+quote(string(t.FontType))+": want regular, bold or semibold")
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
	if t.OpenIcon == "" && t.CloseIcon == "" {
		k.add("", "openIcon and closeIcon are both empty: set at least one icon URL")
	}
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
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
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
