package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/internal/lenient"
)

// Amount is a sum of money as the service writes it: decimal text with two
// places, for example "1499.00". It is never a float64, so no rounding ever
// happens on the way to the service.
//
// Build one with AmountFromMinor or ParseAmount. Amounts decoded from
// responses are normalised to two places when that is exact (the service
// sends 9000, 1 or "100.0"); any other decimal is kept as sent.
type Amount string

// maxMinorDigits keeps the minor units of an amount inside an int64.
const maxMinorDigits = 18

// errAmountSyntax is the message used when an amount is not decimal text
// with two places.
var errAmountSyntax = errors.New(`must be a non-negative decimal with exactly two places, like "10.00"`)

// AmountFromMinor returns the amount of minor units (paise, cents) as
// decimal text with two places: AmountFromMinor(12345) is "123.45".
//
// A negative minor gives the same text with a leading minus sign
// (AmountFromMinor(-5) is "-0.05"), as a reply's negative amount reads. No
// request takes such an amount: ParseAmount, Amount.Minor and every
// Validate reject it, so check the sign before building a request amount.
func AmountFromMinor(minor int64) Amount {
	neg := minor < 0
	u := uint64(minor)
	if neg {
		u = -u
	}
	digits := strconv.FormatUint(u, 10)
	for len(digits) < 3 {
		digits = "0" + digits
	}
	s := digits[:len(digits)-2] + "." + digits[len(digits)-2:]
	if neg {
		s = "-" + s
	}
	return Amount(s)
}

// ParseAmount checks that s is a non-negative decimal with exactly two places
// and no leading zeros ("0.50", "99.50", "1499.00") and returns it as an
// Amount. "99.5", "99", "1e3", "-1.00" and "099.00" are errors: the SDK never
// guesses what an amount meant.
func ParseAmount(s string) (Amount, error) {
	if _, err := minorUnits(s); err != nil {
		return "", err
	}
	return Amount(s), nil
}

// Minor returns the amount in minor units: Amount("123.45").Minor() is 12345.
// It fails when the amount is not in the form ParseAmount accepts.
func (a Amount) Minor() (int64, error) { return minorUnits(string(a)) }

// String returns the decimal text.
func (a Amount) String() string { return string(a) }

func minorUnits(s string) (int64, error) {
	dot := strings.IndexByte(s, '.')
	if dot < 1 || len(s)-dot-1 != 2 || dot > maxMinorDigits-2 {
		return 0, &amountError{s}
	}
	if s[0] == '0' && dot > 1 {
		return 0, &amountError{s}
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if i == dot {
			continue
		}
		c := s[i]
		if c < '0' || c > '9' {
			return 0, &amountError{s}
		}
		v = v*10 + int64(c-'0')
	}
	return v, nil
}

// amountError reports a malformed amount without echoing more than a short
// prefix of it.
type amountError struct{ text string }

func (e *amountError) Error() string {
	t := e.text
	if len(t) > 24 {
		t = t[:24] + "…"
	}
	return "amount " + strconv.Quote(t) + " " + errAmountSyntax.Error()
}

// UnmarshalJSON accepts the amount as a JSON string or number and normalises
// it to two places when that is exact ("100.0" and 100 become "100.00"). A
// value that is not a decimal number is an error; null changes nothing.
func (a *Amount) UnmarshalJSON(b []byte) error {
	if a == nil {
		return errNilTarget("Amount")
	}
	text := string(bytes.TrimSpace(b))
	switch {
	case text == "null":
		return nil
	case strings.HasPrefix(text, `"`):
		if err := json.Unmarshal(b, &text); err != nil {
			return fmt.Errorf("checkout: amount: %w", err)
		}
		text = strings.TrimSpace(text)
	}
	if !lenient.IsNumber(text) {
		return errors.New("checkout: amount: not a decimal number")
	}
	*a = amountFromWire(text)
	return nil
}

// amountFromWire normalises decimal text received from the service: two
// places when that is exact, otherwise the text unchanged.
func amountFromWire(s string) Amount {
	if s == "" {
		return ""
	}
	if norm, ok := normaliseDecimal(s); ok {
		return Amount(norm)
	}
	return Amount(s)
}

// normaliseDecimal rewrites a JSON number with at most two significant
// fractional digits as digits "." two digits. It reports false when the
// number needs more places (it is then kept as sent).
func normaliseDecimal(s string) (string, bool) {
	if !lenient.IsNumber(s) {
		return "", false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		// A huge exponent would make big.Rat build a huge number: such a
		// value is no amount, keep it as sent.
		if exp, err := strconv.Atoi(s[i+1:]); err != nil || exp > 40 || exp < -40 {
			return "", false
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return "", false
		}
		hundred := new(big.Rat).Mul(r, big.NewRat(100, 1))
		if !hundred.IsInt() {
			return "", false
		}
		n := hundred.Num()
		if !n.IsInt64() {
			return "", false
		}
		return string(AmountFromMinor(n.Int64())), true
	}
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 {
		return "", false
	}
	for len(frac) < 2 {
		frac += "0"
	}
	out := intPart + "." + frac
	if neg && out != "0.00" {
		out = "-" + out
	}
	return out, true
}
