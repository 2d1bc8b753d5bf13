package emi

import (
	"errors"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// TenureRange is one element of issuerFilter.tenures: a range of
// EMI tenures in months, written "<from>::<to>" on the wire ("9::12").
//
// A TenureRange decoded from text that is not a well-formed range keeps that
// text, is sent back unchanged and is reported by Validate; assign a new
// value (Months, ParseTenureRange) to replace it.
type TenureRange struct {
	// From is the first tenure of the range, in months (at least 1).
	From int
	// To is the last tenure of the range, in months (at least From).
	To int

	raw       string // the decoded text when it did not parse
	malformed bool
}

// Months returns the tenure range from..to months.
func Months(from, to int) TenureRange { return TenureRange{From: from, To: to} }

// maxTenureDigits bounds each side of a range so that parsing cannot
// overflow; no real tenure comes near it (the service's are a few months).
const maxTenureDigits = 9

// ParseTenureRange parses "<from>::<to>" strictly: decimal months without sign
// or leading zeros, at most nine digits each, from at least 1 and not after
// to. What it accepts, String gives back unchanged.
func ParseTenureRange(s string) (TenureRange, error) {
	r, problem := parseTenureRange(s)
	if problem != "" {
		return TenureRange{}, errors.New("checkout: parse tenure range: " + problem)
	}
	return r, nil
}

// parseTenureRange is ParseTenureRange with the problem as text, as
// Validate reports it.
func parseTenureRange(s string) (TenureRange, string) {
	from, to, ok := strings.Cut(s, "::")
	if !ok {
		return TenureRange{}, "malformed tenure range " + strconv.Quote(s) + ": want <from>::<to> in months, like \"9::12\""
	}
	f, okF := parseMonths(from)
	t, okT := parseMonths(to)
	if !okF || !okT {
		return TenureRange{}, "malformed tenure range " + strconv.Quote(s) + ": want <from>::<to> in months without sign or leading zeros, like \"9::12\""
	}
	r := TenureRange{From: f, To: t}
	if msg := r.rangeProblem(); msg != "" {
		return TenureRange{}, msg
	}
	return r, ""
}

// maxMonths is the longest tenure the text form holds: nine digits.
const maxMonths = 999_999_999

// rangeProblem checks a range: months from 1 to maxMonths (what the text
// form holds, so that a range the SDK writes reads back), from not after
// to.
func (r TenureRange) rangeProblem() string {
	switch {
	case r.From < 1:
		return "tenure range " + strconv.Quote(r.String()) + " starts below 1 month"
	case r.To > maxMonths:
		return "tenure range " + strconv.Quote(r.String()) + " ends after " + strconv.Itoa(maxMonths) + " months"
	case r.From > r.To:
		return "tenure range " + strconv.Quote(r.String()) + " has from greater than to"
	}
	return ""
}

func parseMonths(s string) (int, bool) {
	if s == "" || len(s) > maxTenureDigits || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Malformed reports whether r was decoded from text that is not a
// well-formed range; String then returns that text.
func (r TenureRange) Malformed() bool { return r.malformed }

// String returns the wire form "<from>::<to>", or the decoded text when it
// was not a well-formed range.
func (r TenureRange) String() string {
	if r.malformed {
		return r.raw
	}
	return strconv.Itoa(r.From) + "::" + strconv.Itoa(r.To)
}

func (r TenureRange) appendText(b []byte) []byte {
	if r.malformed {
		return append(b, r.raw...)
	}
	b = strconv.AppendInt(b, int64(r.From), 10)
	b = append(b, ':', ':')
	return strconv.AppendInt(b, int64(r.To), 10)
}

// MarshalText returns the wire form (see String).
func (r TenureRange) MarshalText() ([]byte, error) {
	return r.appendText(nil), nil
}

// UnmarshalText decodes the wire form. It fails only on a nil r: text that
// is not a well-formed range is kept as it is, so that nothing is lost, and
// Validate reports it.
func (r *TenureRange) UnmarshalText(text []byte) error {
	if r == nil {
		return errors.New("checkout: decode tenure range: nil pointer")
	}
	parsed, problem := parseTenureRange(string(text))
	if problem != "" {
		parsed = TenureRange{raw: string(text), malformed: true}
	}
	*r = parsed
	return nil
}

// Validate reports why r cannot be sent: malformed text, a start below one
// month, an end beyond nine digits of months (which the text form cannot
// hold), or from greater than to. The problem has an empty path (the caller
// knows where r sits).
func (r TenureRange) Validate() error {
	var problem string
	if r.malformed {
		_, problem = parseTenureRange(r.raw)
	} else {
		problem = r.rangeProblem()
	}
	if problem == "" {
		return nil
	}
	return &validation.Error{Problems: []validation.Problem{{Message: problem}}}
}
