// Package clip shortens text that someone else chose (a service message, a
// query parameter, a header a webhook sender set) before it is quoted in an
// error or a log record, so that neither can carry a whole body. The cut
// never falls inside a character; text that is already invalid UTF-8 stays
// as it is (quote it with %q or Quote).
package clip

import (
	"strconv"
	"unicode/utf8"
)

// To returns s when it has at most n bytes; otherwise its longest prefix
// of at most n bytes that ends on a character boundary, followed by "…".
func To(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Quote is To(s, n) quoted as a Go string literal.
func Quote(s string, n int) string {
	return strconv.Quote(To(s, n))
}
