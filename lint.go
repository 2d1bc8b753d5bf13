package checkout

import (
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/payorch/checkout-go/internal/valid"
)

// Advice: what the service's documents recommend but the service does not
// refuse, so Validate lets it through and only the Lint methods report it
// ([SessionRequest.Lint], [OrderRequest.Lint], [UpdateOrderRequest.Lint],
// [CreateCustomerRequest.Lint], [CustomerDetails.Lint]). Lint is opt-in:
// call it in a test or before sending, log what it returns or fail on it;
// the client never calls it. The rules sit in a field's lint tag:
//
//	amount  an amount is written with two places ("10.00"), without leading zeros
//	url     an absolute https URL without user information
//	email   the shape of an email address: one "@", a dot in the domain, no spaces
//	phone   digits only: no "+", spaces or separators
//	id      at most 20 characters, no surrounding spaces (order ids)

// maxOrderIDLen is the longest order id the service's documents advise.
const maxOrderIDLen = 20

// lintFields applies the lint rules of checks to the struct v, reporting
// each piece of advice at prefix followed by the field's key.
func lintFields(c *valid.Collector, prefix string, v reflect.Value, checks []fieldCheck) {
	for _, fc := range checks {
		f, err := v.FieldByIndexErr(fc.index)
		if err != nil || f.String() == "" {
			continue
		}
		s, path := f.String(), prefix+fc.key
		for rule := range strings.SplitSeq(fc.lints, ",") {
			switch rule {
			case "amount":
				lintAmount(c, path, Amount(s))
			case "url":
				lintURL(c, path, s)
			case "email":
				if !emailShaped(s) {
					c.Add(path, "does not look like an email address")
				}
			case "phone":
				if !allDigits(s) {
					c.Add(path, "holds more than digits: the documents advise the number alone, without \"+\", country code or separators")
				}
			case "id":
				if strings.TrimSpace(s) != s {
					c.Add(path, "has leading or trailing spaces, which are sent as part of it")
				}
				if n := len([]rune(s)); n > maxOrderIDLen {
					c.Add(path, fmt.Sprintf("has %d characters: the documents advise at most %d", n, maxOrderIDLen))
				}
			}
		}
	}
}

// lintAmount advises two places and no leading zeros on an amount Validate
// accepts; one it refuses is left to Validate.
func lintAmount(c *valid.Collector, path string, a Amount) {
	if amountProblem(string(a)) != "" {
		return
	}
	if n := a.places(); n != 2 {
		places := "no decimal places"
		if n == 1 {
			places = "one decimal place"
		}
		c.Add(path, fmt.Sprintf("has %s: the service takes it, but its documents write amounts with two, like %q",
			places, string(AmountFromMinor(mustMinor(a)))))
	}
	if len(a) > 1 && a[0] == '0' && a[1] != '.' {
		c.Add(path, "has leading zeros")
	}
}

func mustMinor(a Amount) int64 {
	m, _ := a.Minor()
	return m
}

// lintURL advises an absolute https URL without user information.
func lintURL(c *valid.Collector, path, s string) {
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		c.Add(path, "is not an absolute http(s) URL")
	case u.User != nil:
		c.Add(path, "carries user information, which ends up in logs and browser history")
	case u.Scheme != "https" && !isLoopback(u.Hostname()):
		c.Add(path, "is not https: the customer's browser is sent there after paying")
	}
}

// emailShaped reports whether s has the shape of an email address.
func emailShaped(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && strings.Contains(domain, ".") && !strings.ContainsAny(domain, "@") &&
		!strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".") &&
		strings.IndexFunc(s, unicode.IsSpace) < 0
}

// lintExtraKeys advises against Extra keys that are empty or hold control
// characters: they can be sent, but no service key looks like that.
func lintExtraKeys[V any](c *valid.Collector, extra map[string]V) {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		switch {
		case k == "":
			c.Add("", "Extra has an empty key")
		case strings.IndexFunc(k, unicode.IsControl) >= 0:
			c.Add(strconv.Quote(k), "Extra key holds control characters")
		}
	}
}

// problems returns what c collected, nil when nothing.
func problems(c *valid.Collector) []Problem {
	if err := c.Err(); err != nil {
		return err.(*valid.Error).Problems
	}
	return nil
}
