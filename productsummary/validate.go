package productsummary

import (
	"fmt"
	"math"
	"net/url"
	"unicode/utf8"

	"github.com/payorch/checkout-go/validation"
)

// Validate reports, as a *[validation.Error] with paths such as
// "product_summary[2][0].color", what the service documents as wrong or
// what could not be sent as written; nil when there is none, and for an
// empty or nil Summary, which is not sent. The rules are the check method
// of each item kind in this file.
func (s *Summary) Validate() error {
	if s == nil {
		return nil
	}
	k := checker{}
	for i, l := range *s {
		k.line = i
		for j, it := range l {
			k.item = j
			k.checkItem(it)
		}
	}
	return k.problems.Err()
}

// checker collects the problems of items, one place after another; each
// kind's check method calls it once per field with the field's wire key.
// With encodeOnly it reports only what MarshalJSON cannot write: a nil
// item, a number that is NaN or infinite.
type checker struct {
	place
	encodeOnly bool
	problems   validation.Error
}

// Whether a field must be set: the last argument of the checks.
const (
	required = true
	optional = false
)

const (
	wantColor = "a hex colour #RGB, #RRGGBB or #AARRGGBB"
	wantURL   = "an absolute http or https URL"
)

// add records a problem at key of the current item ("" for the item).
func (k *checker) add(key, msg string) { k.problems.Add(k.path(key), msg) }

// checkItem checks it, which may be a pointer to an item.
func (k *checker) checkItem(it Item) {
	if it = concrete(it); it == nil {
		k.add("", "missing item (nil)")
		return
	}
	it.check(k)
}

// number checks a number; 0 (or -0) is the unset field, which is not
// sent.
func (k *checker) number(key string, n float64, required bool) {
	switch {
	case n == 0:
		if required && !k.encodeOnly {
			k.add(key, "required: a number greater than 0")
		}
	case math.IsNaN(n) || math.IsInf(n, 0):
		k.add(key, "must be a finite number")
	case n < 0 && !k.encodeOnly:
		k.add(key, "must be greater than 0")
	}
}

// text checks a string sent as written: encoding/json would replace
// invalid UTF-8, so the service would read other text.
func (k *checker) text(key, s string) {
	if !k.encodeOnly && !utf8.ValidString(s) {
		k.add(key, "must be valid UTF-8")
	}
}

// format checks a string that is sent when set and must then be what want
// says (valid checks it); "" is the unset field, or an unused icon.
func (k *checker) format(key, s, want string, valid func(string) bool, required bool) {
	switch {
	case k.encodeOnly:
	case !utf8.ValidString(s):
		k.text(key, s)
	case s == "" && required:
		k.add(key, "required: "+want)
	case s != "" && !valid(s):
		msg := fmt.Sprintf("must be %s, got %.40q", want, s)
		if want == wantURL && !required {
			msg += `, or "" when unused`
		}
		k.add(key, msg)
	}
}

func (s Space) check(k *checker) {
	k.number("weight", s.Weight, optional)
	k.number("width", s.Width, optional)
}

func (t Text) check(k *checker) {
	k.text("text", t.Text)
	k.format("color", t.Color, wantColor, IsHexColor, optional)
	k.number("textSize", t.TextSize, optional)
	k.text("fontType", string(t.FontType))
}

func (i Image) check(k *checker) {
	k.format("url", i.URL, wantURL, isURL, required)
	k.number("size", i.Size, optional)
}

func (t ToggleImage) check(k *checker) {
	k.format("openIcon", t.OpenIcon, wantURL, isURL, optional)
	k.format("closeIcon", t.CloseIcon, wantURL, isURL, optional)
	k.number("size", t.Size, optional)
}

func (d Divider) check(k *checker) {
	k.number("thickness", d.Thickness, required)
	k.format("color", d.Color, wantColor, IsHexColor, optional)
}

func (g Background) check(k *checker) { k.format("color", g.Color, wantColor, IsHexColor, required) }

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

// isURL reports whether v is an absolute http(s) URL with a host.
func isURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
