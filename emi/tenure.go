package emi

import (
	"errors"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// TenureRange is one element of issuerFilter.tenures: a range of EMI
// tenures in months, written "<from>::<to>" on the wire ("9::12"). Text that
// is not a well-formed range decodes without error into a range that keeps
// the text, sent back unchanged and reported by Validate.
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

// maxMonths is the longest tenure the text form holds: nine digits, so
// parsing cannot overflow (the service's tenures are a few months).
const maxMonths = 999_999_999

// ParseTenureRange parses "<from>::<to>" strictly: decimal months without
// sign or leading zeros, at most nine digits each, from at least 1 and not
// after to. String gives back what it accepts.
func ParseTenureRange(s string) (TenureRange, error) {
	r, problem := parseTenureRange(s)
	if problem != "" {
		return TenureRange{}, errors.New("checkout: parse tenure range: " + problem)
	}
	return r, nil
}

// parseTenureRange is ParseTenureRange with the problem as text.
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
	return r, r.problem()
}

// parseMonths parses decimal digits without sign or leading zero, at most
// nine of them.
func parseMonths(s string) (int, bool) {
	if len(s) > 9 || len(s) > 1 && s[0] == '0' || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// problem checks a range: months from 1 to maxMonths (what the text form
// holds), from not after to; "" when r can be sent.
func (r TenureRange) problem() string {
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

// String returns the wire form "<from>::<to>", or the decoded text when it
// was not a well-formed range (Validate then reports it).
func (r TenureRange) String() string {
	if r.malformed {
		return r.raw
	}
	return strconv.Itoa(r.From) + "::" + strconv.Itoa(r.To)
}

// MarshalText returns the wire form (see [TenureRange.String]).
func (r TenureRange) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText decodes the wire form. Text that is not a well-formed
// range is kept as it is, for Validate to report: it never fails.
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
// month, an end beyond nine digits of months, or from greater than to. The
// problem has an empty path (the caller knows where r sits).
func (r TenureRange) Validate() error {
	problem := r.problem()
	if r.malformed {
		_, problem = parseTenureRange(r.raw)
	}
	if problem == "" {
		return nil
	}
	return &validation.Error{Problems: []validation.Problem{{Message: problem}}}
}
