package paymentfilter

import (
	"errors"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// BINRange is one element of cardFilter.cardBins: a range of card BINs
// (the leading digits of a card number), written "<from_bin>::<to_bin>" on
// the wire ("459000::460000"). From and To are text, so leading zeros and
// length survive. Text that is not a well-formed range decodes without
// error into a range that keeps the text, sent back unchanged and
// reported by Validate.
type BINRange struct {
	// From is the first BIN of the range: decimal digits, usually 6 or 8.
	From string
	// To is the last BIN of the range: decimal digits, not below From.
	To string

	raw       string // the decoded text when it did not parse
	malformed bool
}

// ParseBINRange parses "<from>::<to>": both sides decimal digits (of any
// length), from not above to as numbers. String gives back what it accepts.
func ParseBINRange(s string) (BINRange, error) {
	r, problem := parseBINRange(s)
	if problem != "" {
		return BINRange{}, errors.New("checkout: parse BIN range: " + problem)
	}
	return r, nil
}

// parseBINRange is ParseBINRange with the problem as text.
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
	// Compare as numbers: leading zeros aside, the longer is the larger.
	from, to := strings.TrimLeft(r.From, "0"), strings.TrimLeft(r.To, "0")
	if len(to) < len(from) || len(to) == len(from) && to < from {
		return "BIN range " + strconv.Quote(r.String()) + ": from is greater than to"
	}
	return ""
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// String returns the wire form "<from>::<to>", or the decoded text when it
// was not a well-formed range (Validate then reports it).
func (r BINRange) String() string {
	if r.malformed {
		return r.raw
	}
	return r.From + "::" + r.To
}

// MarshalText returns the wire form (see [BINRange.String]).
func (r BINRange) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText decodes the wire form. Text that is not a well-formed
// range is kept as it is, for Validate to report: it never fails.
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
	problem := r.problem()
	if r.malformed {
		_, problem = parseBINRange(r.raw)
	}
	if problem == "" {
		return nil
	}
	return &validation.Error{Problems: []validation.Problem{{Message: problem}}}
}
