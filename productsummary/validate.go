package productsummary

import (
	"fmt"
	"math"
	"net/url"
	"unicode/utf8"

	"github.com/payorch/checkout-go/validation"
)

// Validate returns a *[validation.Error] listing every problem, with paths
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
			k.checkItem(it)
		}
	}
	return k.problems.Err()
}

// encodable returns a *validation.Error for what JSON cannot carry: a nil
// item, or a number that is NaN or infinite, at the item's place p.
func encodable(it Item, p place) error {
	k := checker{place: p, encodeOnly: true}
	k.checkItem(it)
	return k.problems.Err()
}

// checker collects the problems of the items at one place after another.
// Each item kind's check method (beside the kind, in items.go) calls its
// methods once per field, naming the field's wire key. With encodeOnly
// they report only what JSON cannot carry, as MarshalJSON needs: a number
// that is NaN or infinite.
type checker struct {
	place
	encodeOnly bool
	problems   validation.Error
}

// Whether a field must be set: the last argument of the checks and of
// readNumber.
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

// color checks a hex colour; "" is the unset field.
func (k *checker) color(key, s string, required bool) {
	switch {
	case k.encodeOnly:
	case s == "":
		if required {
			k.add(key, "required: "+wantColor)
		}
	case !IsHexColor(s):
		k.add(key, fmt.Sprintf("must be %s, got %.40q", wantColor, s))
	}
}

// url checks an absolute http or https URL; "" is the unset field, or an
// unused accordion icon.
func (k *checker) url(key, s string, required bool) {
	switch {
	case k.encodeOnly:
	case s == "":
		if required {
			k.add(key, "required: "+wantURL)
		}
	case !isURL(s):
		msg := fmt.Sprintf("must be %s, got %.40q", wantURL, s)
		if !required {
			msg += `, or "" when unused`
		}
		k.add(key, msg)
	}
}

// utf8 checks text that is sent as written: encoding/json would send bad
// bytes changed.
func (k *checker) utf8(key, s string) {
	if !k.encodeOnly && !utf8.ValidString(s) {
		k.add(key, "must be valid UTF-8")
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

// isURL reports whether v is an absolute http(s) URL with a host, in valid
// UTF-8 (url.Parse takes bad bytes, which encoding/json would send
// changed).
func isURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && utf8.ValidString(v)
}
