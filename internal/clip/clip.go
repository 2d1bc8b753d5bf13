// Package clip shortens text that someone else chose (a service message, a
// query parameter, a header a webhook sender set) before it is quoted in an
// error or a log record, so that neither can carry a whole body and neither
// gets a broken UTF-8 sequence.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// To returns s when it has at most max bytes; otherwise its longest prefix
// of at most max bytes that ends on a character boundary, followed by "…".
func To(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Quote is To(s, max) quoted as a Go string literal.
func Quote(s string, max int) string {
	return strconv.Quote(To(s, max))
}
