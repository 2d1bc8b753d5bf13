package wire

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/payorch/checkout-go/internal/valid"
)

// CheckExtra reports to c the keys of extra, an object's unmodelled keys at
// path, that are surely mistakes: a modelled key (in own or aliases) set
// through Extra, a value that is not JSON, a mis-cased or misspelt key of
// own, or a key of another object (in elsewhere; what names the object for
// the message). Other keys pass: the service may know keys the spec does not
// list. Problems come in key order.
func CheckExtra(c *valid.Collector, path string, extra map[string]json.RawMessage, own, aliases, elsewhere []string, what string) {
	if len(extra) == 0 {
		return
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := valid.Join(path, k)
		if slices.Contains(own, k) || slices.Contains(aliases, k) {
			c.Add(p, "is a modelled key: set the field instead of Extra")
			continue
		}
		if !json.Valid(extra[k]) {
			c.Add(p, "value is not valid JSON")
			continue
		}
		if m := FoldMatch(own, k); m != "" {
			c.Add(p, "unknown key: keys are case sensitive, did you mean "+quote(m)+"?")
			continue
		}
		if m := FoldMatch(elsewhere, k); m != "" {
			c.Add(p, "key "+quote(m)+" does not belong in "+what)
			continue
		}
		if m := NearMatch(own, k); m != "" {
			c.Add(p, "unknown key: did you mean "+quote(m)+"?")
		}
	}
}

// Union returns the strings of lists in order of first appearance, each
// once.
func Union(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		for _, k := range l {
			if !slices.Contains(all, k) {
				all = append(all, k)
			}
		}
	}
	return all
}

// FoldMatch returns the first element of list equal to s ignoring case, or
// "".
func FoldMatch(list []string, s string) string {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return ""
}

// NearMatch returns the first element of list within two edits of s
// (ignoring case), or "". Only elements of five bytes or more count: for a
// shorter one two edits are another word, not a typo.
func NearMatch(list []string, s string) string {
	ls := strings.ToLower(s)
	for _, v := range list {
		if len(v) >= 5 && editDistance(strings.ToLower(v), ls) <= 2 {
			return v
		}
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b in bytes; past 64
// bytes it gives up and says 99 (far), which keeps the cost bounded.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
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
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
