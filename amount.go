package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Amount is a sum of money as decimal text: digits, then optionally a
// point and one or two digits ("1", "10.00", "1499.50"), never a float64,
// so a request sends it exactly as written. Build one with
// [AmountFromMinor] or [ParseAmount], or write the text; lint.Check advises two
// places. A reply's amount (9000, 1 or "100.0") reads as two places when
// that is exact, otherwise as sent.
type Amount string

// maxIntDigits keeps the minor units of an amount inside an int64.
const maxIntDigits = 16

// AmountFromMinor returns the amount of minor units (paise, cents) as
// decimal text with two places: AmountFromMinor(12345) is "123.45". A
// negative minor gives "-0.05" and the like, which every Validate refuses
// at the field's path, so a negative amount is never sent.
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

// ParseAmount checks that s is an amount the service takes (digits, then
// optionally a point and one or two digits: "10", "10.5", "10.00") and
// returns it unchanged as an Amount. A negative amount, more than two
// places ("1.005"), an exponent ("1e3"), a sign, spaces, a point without
// digits on both sides (".5", "5.") and more than 16 digits before the
// point are errors: the SDK never guesses what an amount meant.
func ParseAmount(s string) (Amount, error) {
	if _, err := minorUnits(s); err != nil {
		return "", err
	}
	return Amount(s), nil
}

// Minor returns the amount in minor units: Amount("123.45").Minor() is
// 12345 and Amount("10").Minor() is 1000. It fails on what ParseAmount
// refuses, a negative amount included.
func (a Amount) Minor() (int64, error) { return minorUnits(string(a)) }

// String returns the decimal text.
func (a Amount) String() string { return string(a) }

// places returns the number of digits after the point of a valid amount.
func (a Amount) places() int {
	if dot := strings.IndexByte(string(a), '.'); dot >= 0 {
		return len(a) - dot - 1
	}
	return 0
}

// amountProblem says why s is not an amount the service takes, in the
// words of a problem at the amount's path; "" when it is one.
func amountProblem(s string) string {
	if rest, neg := strings.CutPrefix(s, "-"); neg && unsignedProblem(rest) == "" {
		return "must not be negative"
	}
	return unsignedProblem(s)
}

// unsignedProblem is amountProblem without the sign.
func unsignedProblem(s string) string {
	intPart, frac, hasDot := strings.Cut(s, ".")
	switch {
	case !allDigits(intPart) || (hasDot && !allDigits(frac)):
		return `must be decimal text: digits, then optionally a point and one or two digits, like "10.00" or "10"`
	case len(frac) > 2:
		return "must have at most two decimal places"
	case len(intPart) > maxIntDigits:
		return "must have at most 16 digits before the point"
	}
	return ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func minorUnits(s string) (int64, error) {
	if msg := amountProblem(s); msg != "" {
		return 0, &amountError{text: s, msg: msg}
	}
	intPart, frac, _ := strings.Cut(s, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	var v int64
	for _, c := range intPart + frac {
		v = v*10 + int64(c-'0')
	}
	return v, nil
}

// amountError reports a malformed amount without echoing more than a short
// prefix of it.
type amountError struct{ text, msg string }

func (e *amountError) Error() string {
	return fmt.Sprintf("checkout: amount: %.24q %s", e.text, e.msg)
}

// UnmarshalJSON reads an amount of a reply, given as a JSON string or
// number, and normalises it to two places when that is exact ("100.0" and
// 100 become "100.00"). Text that is not a decimal number, such as the
// service's redacted "FILTERED", and any other JSON value read as the
// empty Amount (the reply's Raw keeps it); null changes nothing.
// Request types read their amounts as written, without normalising.
func (a *Amount) UnmarshalJSON(b []byte) error {
	text := string(bytes.TrimSpace(b))
	switch kindOf(b) {
	case "null":
		return nil
	case "string":
		if json.Unmarshal(b, &text) != nil {
			text = ""
		}
		text = strings.TrimSpace(text)
	case "number":
	default:
		text = ""
	}
	if !isNumber(text) {
		text = ""
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

// maxDecimalText is the longest text read as an exact number: far more
// digits than any amount has.
const maxDecimalText = 64

// normaliseDecimal rewrites a number with at most two significant
// fractional digits as digits "." two digits. It reports false when the
// number needs more places or is no amount (it is then kept as sent).
func normaliseDecimal(s string) (string, bool) {
	r, ok := decimal(s)
	if !ok || !isNumber(s) {
		return "", false
	}
	r.Mul(r, big.NewRat(100, 1))
	if !r.IsInt() || !r.Num().IsInt64() {
		return "", false
	}
	return string(AmountFromMinor(r.Num().Int64())), true
}

// isNumber reports whether s is a number in JSON syntax: an optional minus,
// digits without a leading zero, an optional fraction and exponent. A plus
// sign, "NaN", "Inf" and surrounding spaces are not numbers.
func isNumber(s string) bool {
	return s != "" && strings.IndexByte("-0123456789", s[0]) >= 0 &&
		s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && json.Valid([]byte(s))
}

// decimal reads decimal text ("1", "1.0", "10.00", "1e3") as an exact
// number. Text longer than maxDecimalText and exponents beyond ±40 are
// refused, so a hostile value cannot make a huge number or a slow parse.
func decimal(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if len(s) > maxDecimalText || !isNumber(s) {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if exp, err := strconv.Atoi(s[i+1:]); err != nil || exp > 40 || exp < -40 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}

// equal reports whether a and b are the same decimal number.
func (a Amount) equal(b Amount) bool {
	x, ok1 := decimal(string(a))
	y, ok2 := decimal(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}
