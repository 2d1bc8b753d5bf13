package paymentfilter

import (
	"errors"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// BINRange is one element of cardFilter.cardBins: a range of card BINs
// (the leading digits of a card number), written "<from_bin>::<to_bin>" on
// the wire ("459000::460000").
//
// From and To are kept as text so that leading zeros and length survive. A
// BINRange decoded from text that is not a well-formed range keeps that
// text, is sent back unchanged and is reported by Validate; assign a new
// value (a literal, [ParseBINRange]) to replace it.
type BINRange struct {
	// From is the first BIN of the range: decimal digits, usually 6 or 8.
	From string
	// To is the last BIN of the range: decimal digits, not below From.
	To string

	raw       string // the decoded text when it did not parse
	malformed bool
}

// ParseBINRange parses "<from>::<to>": both sides decimal digits (of any
// length the service takes: 6 and 8 digits are usual), from not above to
// as numbers. What it accepts, String gives back unchanged.
func ParseBINRange(s string) (BINRange, error) {
	r, problem := parseBINRange(s)
	if problem != "" {
		return BINRange{}, errors.New("checkout: parse BIN range: " + problem)
	}
	return r, nil
}

// parseBINRange is ParseBINRange with the problem as text, as Validate
// reports it.
func parseBINRange(s string) (BINRange, string) {
	from, to, ok := strings.Cut(s, "::")
	if !ok {
		return BINRange{}, "malformed BIN range " + strconv.Quote(s) + ": want <from_bin>::<to_bin>, like \"459000::460000\""
	}
	r := BINRange{From: from, To: to}
	if msg := r.problem(); msg != "" {
		return BINRange{}, msg
	}
	return r, ""
}

// problem checks the parts of r; "" when r can be sent.
func (r BINRange) problem() string {
	for _, side := range [2]struct{ name, v string }{{"from", r.From}, {"to", r.To}} {
		if !digits(side.v) {
			return "BIN range " + strconv.Quote(r.String()) + ": " + side.name + " must be decimal digits"
		}
	}
	if numericLess(r.To, r.From) {
		return "BIN range " + strconv.Quote(r.String()) + ": from is greater than to"
	}
	return ""
}

// numericLess reports whether the decimal digits a stand for a smaller
// number than b.
func numericLess(a, b string) bool {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
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
		return errors.New("checkout: decode BIN range: nil pointer")
	}
	parsed, problem := parseBINRange(string(text))
	if problem != "" {
		parsed = BINRange{raw: string(text), malformed: true}
	}
	*r = parsed
	return nil
}

// Validate reports why r cannot be sent: text that is not a range, a side
// that is not decimal digits, or from greater than to. The problem has an
// empty path (the caller knows where r sits).
func (r BINRange) Validate() error {
	var problem string
	if r.malformed {
		_, problem = parseBINRange(r.raw)
	} else {
		problem = r.problem()
	}
	if problem == "" {
		return nil
	}
	return &validation.Error{Problems: []validation.Problem{{Message: problem}}}
}
