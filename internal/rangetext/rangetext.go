// Package rangetext holds what the SDK's "<from>::<to>" range types share:
// the BIN ranges of package paymentfilter and the tenure ranges of package
// emi. Both are decoded leniently: text that is not a well-formed range is
// kept as it is, sent back unchanged and reported by Validate, so that
// decoding then encoding a filter loses nothing.
package rangetext

import (
	"errors"

	"github.com/payorch/checkout-go/internal/valid"
)

// A Parser reads the text of a range: the range, or what is wrong with the
// text ("" when nothing is).
type Parser[R any] func(text string) (R, string)

// Parse is the exported Parse function of a range type: parse's range, or
// its problem as an error "checkout: <op>: <problem>".
func Parse[R any](op, text string, parse Parser[R]) (R, error) {
	r, problem := parse(text)
	if problem != "" {
		var zero R
		return zero, errors.New("checkout: " + op + ": " + problem)
	}
	return r, nil
}

// Decode is the UnmarshalText of a range type R: it sets *dst to what
// parse reads from text or, when parse finds a problem, to malformed(text),
// a range that keeps the text. It fails only on a nil dst, with the error
// "checkout: <op>: nil pointer".
func Decode[R any](dst *R, op string, text []byte, parse Parser[R], malformed func(text string) R) error {
	if dst == nil {
		return errors.New("checkout: " + op + ": nil pointer")
	}
	r, problem := parse(string(text))
	if problem != "" {
		r = malformed(string(text))
	}
	*dst = r
	return nil
}

// Validate is the Validate of a range r of type R: for a range decoded from
// text that did not parse (malformed, with that text kept), the problem
// parse finds in the text; for any other, check(r), the range's own check,
// which returns "" when the range can be sent. The one problem has an empty
// path: the caller knows where the range sits.
func Validate[R any](r R, malformed bool, kept string, parse Parser[R], check func(R) string) error {
	var msg string
	if malformed {
		_, msg = parse(kept)
	} else {
		msg = check(r)
	}
	if msg == "" {
		return nil
	}
	return &valid.Error{Problems: []valid.Problem{{Message: msg}}}
}
