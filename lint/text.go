package lint

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/weburl"
)

// The advice on fields several requests share: amounts, order ids, phone
// numbers, email addresses, URLs and Extra keys.

// maxOrderIDLen is the longest order id the service's documents advise.
const maxOrderIDLen = 20

// amount advises two places and no leading zeros on an amount Validate
// accepts; one it refuses is left to Validate.
func (a *advice) amount(path string, amt checkout.Amount) {
	minor, err := amt.Minor()
	if amt == "" || err != nil {
		return
	}
	places := 0
	if _, frac, ok := strings.Cut(string(amt), "."); ok {
		places = len(frac)
	}
	if places != 2 {
		what := "no decimal places"
		if places == 1 {
			what = "one decimal place"
		}
		a.Add(path, fmt.Sprintf("has %s: the service takes it, but its documents write amounts with two, like %q",
			what, string(checkout.AmountFromMinor(minor))))
	}
	if len(amt) > 1 && amt[0] == '0' && amt[1] != '.' {
		a.Add(path, "has leading zeros")
	}
}

// url advises an absolute https URL without user information.
func (a *advice) url(path, s string) {
	if s == "" {
		return
	}
	switch u := weburl.Read(s); {
	case !u.Absolute:
		a.Add(path, "is not an absolute http(s) URL")
	case u.User:
		a.Add(path, "carries user information, which ends up in logs and browser history")
	case !u.Secure:
		a.Add(path, "is not https: the customer's browser is sent there after paying")
	}
}

// email advises the shape of an email address: one "@", a dot in the
// domain, no spaces.
func (a *advice) email(path, s string) {
	if s == "" {
		return
	}
	local, domain, ok := strings.Cut(s, "@")
	if ok && local != "" && strings.Contains(domain, ".") && !strings.Contains(domain, "@") &&
		!strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".") &&
		strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return
	}
	a.Add(path, "does not look like an email address")
}

// phone advises digits only: no "+", spaces or separators.
func (a *advice) phone(path, s string) {
	if s != "" && strings.Trim(s, "0123456789") != "" {
		a.Add(path, "holds more than digits: the documents advise the number alone, without \"+\", country code or separators")
	}
}

// orderID advises an order id of at most 20 characters without
// surrounding spaces.
func (a *advice) orderID(path, s string) {
	if strings.TrimSpace(s) != s {
		a.Add(path, "has leading or trailing spaces, which are sent as part of it")
	}
	if n := utf8.RuneCountInString(s); n > maxOrderIDLen {
		a.Add(path, fmt.Sprintf("has %d characters: the documents advise at most %d", n, maxOrderIDLen))
	}
}

// extraKeys advises against Extra keys that are empty or hold control
// characters: they can be sent, but no service key looks like that.
func extraKeys[V any](a *advice, extra map[string]V) {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		switch {
		case k == "":
			a.Add("", "Extra has an empty key")
		case strings.IndexFunc(k, unicode.IsControl) >= 0:
			a.Add(strconv.Quote(k), "Extra key holds control characters")
		}
	}
}
