// Package spelling finds the known value a mistyped enum value stands for,
// for the messages of Validate (the root package, paymentfilter) and of
// package lint.
package spelling

import (
	"fmt"
	"strings"
)

// CaseMistake returns, when s is one of known written in another case,
// the message saying so, such as `unknown card type "credit": values are
// case sensitive, did you mean "CREDIT"?` (what names the kind of value),
// and "" otherwise: the service matches values case-exactly, so it would
// not see s, while a value it may know but the SDK does not passes.
func CaseMistake[S ~string](what string, s S, known []S) string {
	for _, k := range known {
		if k != s && strings.EqualFold(string(k), string(s)) {
			return "unknown " + what + ` "` + string(s) + `": values are case sensitive, did you mean "` + string(k) + `"?`
		}
	}
	return ""
}

// Unknown returns advice on s, a value of a set whose values are known
// (what names the kind of value), or "" when there is none: s is empty,
// known, or one of known in another case (which CaseMistake words). When
// s is within a small edit distance of a known value it is likely a typo,
// and the advice names that value: `unknown payment method type
// "WALLLET": likely a typo, did you mean "WALLET"?`. Otherwise there is
// advice only when closed is true (the service documents exactly these
// values), listing them. s is quoted with %.40q: at most 40 characters of
// it are shown.
func Unknown[S ~string](what string, s S, known []S, closed bool) string {
	if s == "" {
		return ""
	}
	best, bestDistance := S(""), 0
	for _, k := range known {
		if strings.EqualFold(string(k), string(s)) {
			return ""
		}
		d := distance(strings.ToUpper(string(s)), strings.ToUpper(string(k)))
		if d <= max(1, len(k)/4) && (best == "" || d < bestDistance) {
			best, bestDistance = k, d
		}
	}
	switch {
	case best != "":
		return fmt.Sprintf("unknown %s %.40q: likely a typo, did you mean %q?", what, string(s), string(best))
	case closed:
		list := make([]string, len(known))
		for i, k := range known {
			list[i] = string(k)
		}
		return fmt.Sprintf("unknown %s %.40q: the service documents %s only", what, string(s), strings.Join(list, ", "))
	}
	return ""
}

// distance is the number of single-byte insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (the optimal
// string alignment distance).
func distance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
