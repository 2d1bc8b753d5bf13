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

// Decode is the UnmarshalText of a range type R: it sets *dst to what
// parse reads from text or, when parse fails, to malformed(text), a range
// that keeps the text. It fails only on a nil dst, with the error
// "<what> on a nil pointer".
func Decode[R any](dst *R, what string, text []byte, parse func(string) (R, error), malformed func(text string) R) error {
	if dst == nil {
		return errors.New(what + " on a nil pointer")
	}
	r, err := parse(string(text))
	if err != nil {
		r = malformed(string(text))
	}
	*dst = r
	return nil
}

// Validate is the Validate of a range type R: for a range decoded from
// text that did not parse (malformed, with that text kept), the error
// parse gives for the text; for any other, problem, the range's own
// check, which returns "" when the range can be sent. The one problem has
// an empty path: the caller knows where the range sits.
func Validate[R any](malformed bool, kept string, parse func(string) (R, error), problem func() string) error {
	var msg string
	if malformed {
		_, err := parse(kept)
		msg = err.Error()
	} else if msg = problem(); msg == "" {
		return nil
	}
	return &valid.Error{Problems: []valid.Problem{{Message: msg}}}
}
