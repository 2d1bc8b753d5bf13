package paymentfilter

import (
	"errors"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/internal/valid"
)

// BINRange is one element of cardFilter.cardBins (spec §2.3): a range of card
// BINs written "<from_bin>::<to_bin>" on the wire ("459000::460000").
//
// From and To are kept as text so that leading zeros and length survive. A
// BINRange decoded from text that is not a well-formed range keeps that
// text, is sent back unchanged and is reported by Validate; assign a new
// value (a literal, ParseBINRange) to replace it.
type BINRange struct {
	// From is the first BIN of the range: 6 to 19 decimal digits.
	From string
	// To is the last BIN of the range: as many digits as From, not below it.
	To string

	raw       string // the decoded text when it did not parse
	malformed bool
}

// BIN lengths: an issuer identification number has at least 6 digits
// (ISO/IEC 7812) and a card number at most 19.
const (
	minBINDigits = 6
	maxBINDigits = 19
)

// ParseBINRange parses "<from>::<to>" strictly: both sides 6 to 19 decimal
// digits of the same length, from not above to. What it accepts, String
// gives back unchanged.
func ParseBINRange(s string) (BINRange, error) {
	from, to, ok := strings.Cut(s, "::")
	if !ok {
		return BINRange{}, errors.New("malformed BIN range " + strconv.Quote(s) + ": want <from_bin>::<to_bin>, like \"459000::460000\"")
	}
	r := BINRange{From: from, To: to}
	if msg := r.problem(); msg != "" {
		return BINRange{}, errors.New(msg)
	}
	return r, nil
}

// problem checks the parts of r; "" when r can be sent.
func (r BINRange) problem() string {
	for _, side := range []struct{ name, v string }{{"from", r.From}, {"to", r.To}} {
		if !digits(side.v) {
			return "BIN range " + strconv.Quote(r.String()) + ": " + side.name + " must be decimal digits"
		}
		if len(side.v) < minBINDigits || len(side.v) > maxBINDigits {
			return "BIN range " + strconv.Quote(r.String()) + ": " + side.name + " must have 6 to 19 digits"
		}
	}
	if len(r.From) != len(r.To) {
		return "BIN range " + strconv.Quote(r.String()) + ": from and to must have the same number of digits"
	}
	if r.From > r.To { // same length, digits only: text order is numeric order
		return "BIN range " + strconv.Quote(r.String()) + ": from is greater than to"
	}
	return ""
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Malformed reports whether r was decoded from text that is not a
// well-formed range; String then returns that text.
func (r BINRange) Malformed() bool { return r.malformed }

// String returns the wire form "<from>::<to>", or the decoded text when it
// was not a well-formed range.
func (r BINRange) String() string {
	if r.malformed {
		return r.raw
	}
	return r.From + "::" + r.To
}

// MarshalText returns the wire form (see String).
func (r BINRange) MarshalText() ([]byte, error) {
	return []byte(r.String()), nil
}

// UnmarshalText decodes the wire form. It fails only on a nil r: text that
// is not a well-formed range is kept as it is, so that nothing is lost, and
// Validate reports it.
func (r *BINRange) UnmarshalText(text []byte) error {
	if r == nil {
		return errors.New("BINRange: UnmarshalText on a nil pointer")
	}
	p, err := ParseBINRange(string(text))
	if err != nil {
		*r = BINRange{raw: string(text), malformed: true}
		return nil
	}
	*r = p
	return nil
}

// Validate reports why r cannot be sent. The problem has an empty path (the
// caller knows where r sits).
func (r BINRange) Validate() error {
	var msg string
	if r.malformed {
		_, err := ParseBINRange(r.raw)
		msg = err.Error()
	} else if msg = r.problem(); msg == "" {
		return nil
	}
	return &valid.Error{Problems: []valid.Problem{{Message: msg}}}
}
