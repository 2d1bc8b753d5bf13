package productsummary

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/valid"
)

// Validate checks s against spec §2.6 and returns a *ValidationError listing
// every problem, with paths such as "product_summary[2][0].color", or nil.
// An empty or nil Summary is valid (it is not sent).
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
	var c valid.Collector
	for i, l := range *s {
		lp := valid.Index(rootPath, i)
		if len(l) == 0 {
			c.Add(lp, "empty line: an empty line is a single space item")
			continue
		}
		for j, it := range l {
			ip := valid.Index(lp, j)
			it = concrete(it)
			if it == nil {
				c.Add(ip, "missing item (nil)")
				continue
			}
			it.validate(&c, ip)
		}
	}
	return c.Err()
}

func (s Space) validate(c *valid.Collector, path string) {
	checkNum(c, valid.Join(path, "weight"), s.Weight, false)
	checkNum(c, valid.Join(path, "width"), s.Width, false)
}

func (t Text) validate(c *valid.Collector, path string) {
	switch {
	case strings.TrimSpace(t.Text) == "":
		c.Add(valid.Join(path, "text"), "required: text must not be blank")
	case !utf8.ValidString(t.Text):
		c.Add(valid.Join(path, "text"), "must be valid UTF-8")
	}
	checkColor(c, valid.Join(path, "color"), t.Color, false)
	checkNum(c, valid.Join(path, "textSize"), t.TextSize, false)
	if t.FontType != "" && !t.FontType.Valid() {
		c.Add(valid.Join(path, "fontType"), "unknown font type "+quote(string(t.FontType))+": want regular, bold or semibold")
	}
}

func (i Image) validate(c *valid.Collector, path string) {
	if i.URL == "" {
		c.Add(valid.Join(path, "url"), "required: an absolute http or https URL")
	} else if msg := checkURL(i.URL); msg != "" {
		c.Add(valid.Join(path, "url"), msg)
	}
	checkNum(c, valid.Join(path, "size"), i.Size, false)
}

func (t ToggleImage) validate(c *valid.Collector, path string) {
	if t.OpenIcon == "" && t.CloseIcon == "" {
		c.Add(path, "openIcon and closeIcon are both empty: set at least one icon URL")
	}
	if t.OpenIcon != "" {
		if msg := checkURL(t.OpenIcon); msg != "" {
			c.Add(valid.Join(path, "openIcon"), msg+`, or "" when unused`)
		}
	}
	if t.CloseIcon != "" {
		if msg := checkURL(t.CloseIcon); msg != "" {
			c.Add(valid.Join(path, "closeIcon"), msg+`, or "" when unused`)
		}
	}
	checkNum(c, valid.Join(path, "size"), t.Size, false)
}

func (d Divider) validate(c *valid.Collector, path string) {
	checkNum(c, valid.Join(path, "thickness"), d.Thickness, true)
	checkColor(c, valid.Join(path, "color"), d.Color, false)
}

func (g Background) validate(c *valid.Collector, path string) {
	checkColor(c, valid.Join(path, "color"), g.Color, true)
}

// checkNum checks a number field; 0 (or -0) is the unset field, which is
// not sent.
func checkNum(c *valid.Collector, path string, v float64, required bool) {
	switch {
	case v == 0:
		if required {
			c.Add(path, "required: a number greater than 0")
		}
	case math.IsNaN(v) || math.IsInf(v, 0):
		c.Add(path, "must be a finite number")
	case v < 0:
		c.Add(path, "must be greater than 0")
	}
}

func checkColor(c *valid.Collector, path, v string, required bool) {
	switch {
	case v == "":
		if required {
			c.Add(path, "required: a hex colour #RGB, #RRGGBB or #AARRGGBB")
		}
	case !IsHexColor(v):
		c.Add(path, "must be a hex colour #RGB, #RRGGBB or #AARRGGBB, got "+quote(v))
	}
}

// IsHexColor reports whether v is a colour the service reads: "#" followed by
// 3, 6 or 8 hex digits (#RGB, #RRGGBB, #AARRGGBB), in either letter case.
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
	const msg = "must be an absolute http or https URL"
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return msg + ", got " + quote(v)
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
