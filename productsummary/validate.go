package productsummary

import (
	"math"
	"net/url"
	"reflect"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/clip"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/weburl"
)

// maxQuoted bounds a value quoted in a problem, so that a message stays
// one readable line.
const maxQuoted = 64

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
			checkItem(&k, it, false)
		}
	}
	return k.c.Err()
}

// encodable returns a *ValidationError for what JSON cannot carry: a nil
// item, or a number that is NaN or infinite, at the item's place p.
func encodable(it Item, p place) error {
	k := checker{place: p}
	if it = concrete(it); it == nil {
		k.add("", "missing item (nil)")
	} else {
		checkItem(&k, it, true)
	}
	return k.c.Err()
}

// checkItem adds the problems of it field by field, as the fields' tags
// say (see fields.go). With encodeOnly it checks only what JSON cannot
// carry, a number that is NaN or infinite, as MarshalJSON needs. it must
// not be nil or a pointer.
func checkItem(k *checker, it Item, encodeOnly bool) {
	t := itemTypes[it.Kind()]
	v := reflect.ValueOf(it)
	for i := range t.fields {
		f := &t.fields[i]
		switch {
		case f.number:
			checkNumber(k, f, v.Field(f.index).Float(), encodeOnly)
		case !encodeOnly:
			checkString(k, f, v.Field(f.index).String())
		}
	}
}

// checkNumber checks a number; 0 (or -0) is the unset field, which is not
// sent.
func checkNumber(k *checker, f *field, n float64, encodeOnly bool) {
	switch {
	case n == 0:
		if f.required && !encodeOnly {
			k.add(f.key, "required: a number greater than 0")
		}
	case math.IsNaN(n) || math.IsInf(n, 0):
		k.add(f.key, "must be a finite number")
	case n < 0 && !encodeOnly:
		k.add(f.key, "must be greater than 0")
	}
}

const (
	wantColor = "a hex colour #RGB, #RRGGBB or #AARRGGBB"
	wantURL   = "an absolute http or https URL"
)

// checkString checks a string: a colour, a URL ("" when unused, unless
// required), or any other text, which must be valid UTF-8 since
// encoding/json would send bad bytes changed.
func checkString(k *checker, f *field, s string) {
	switch {
	case s == "":
		switch {
		case !f.required:
		case f.color:
			k.add(f.key, "required: "+wantColor)
		case f.url:
			k.add(f.key, "required: "+wantURL)
		default:
			k.add(f.key, "required")
		}
	case f.color:
		if !IsHexColor(s) {
			k.add(f.key, "must be "+wantColor+", got "+clip.Quote(s, maxQuoted))
		}
	case f.url:
		if !isURL(s) {
			msg := "must be " + wantURL + ", got " + clip.Quote(s, maxQuoted)
			if !f.required {
				msg += `, or "" when unused`
			}
			k.add(f.key, msg)
		}
	case !utf8.ValidString(s):
		k.add(f.key, "must be valid UTF-8")
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
	if _, _, ok := weburl.Plain(v); ok {
		return true // the common case, decided without url.Parse
	}
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && utf8.ValidString(v)
}
