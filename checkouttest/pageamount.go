package checkouttest

import (
	"fmt"
	"strconv"
	"strings"
)

// pageAmount writes minor units as the page shows an amount: the
// currency's symbol, the whole units grouped as the currency's customers
// read them, and two decimal places. INR uses the Indian grouping (the
// last three digits, then pairs): ₹1,499.00, ₹1,23,456.00. USD, EUR and
// GBP use their symbols and groups of three; other currencies are written
// with their code, "AED 1,234.50".
func pageAmount(minor int64, currency string) string {
	neg := minor < 0
	if neg {
		minor = -minor
	}
	whole := strconv.FormatInt(minor/100, 10)
	frac := minor % 100
	grouped := groupDigits(whole, 3)
	if currency == "INR" && len(whole) > 3 {
		// the last three digits, then pairs
		grouped = groupDigits(whole[:len(whole)-3], 2) + "," + whole[len(whole)-3:]
	}
	text := fmt.Sprintf("%s.%02d", grouped, frac)
	switch currency {
	case "INR":
		text = "₹" + text
	case "USD":
		text = "$" + text
	case "EUR":
		text = "€" + text
	case "GBP":
		text = "£" + text
	default:
		text = currency + " " + text
	}
	if neg {
		text = "-" + text
	}
	return text
}

// groupDigits puts a comma between groups of n digits, counted from the
// right.
func groupDigits(d string, n int) string {
	var b strings.Builder
	for i, r := range d {
		if i > 0 && (len(d)-i)%n == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
