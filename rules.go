package checkout

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/payorch/checkout-go/validation"
)

// The rules several request types share, as plain functions: each
// Validate and Lint calls them on its own fields with the field's wire key.
// Validate refuses only what the service refuses, or what could not be
// sent as written; Lint gives advice and never repeats what Validate
// refuses.

// Wire keys that several request types or rules name.
const (
	keyOrderID       = "order_id"
	keyAmount        = "amount"
	keyCustomerID    = "customer_id"
	keyCustomerEmail = "customer_email"
	keyCustomerPhone = "customer_phone"
	keyReturnURL     = "return_url"
	keyWebhookURL    = "metadata.webhook_url"
	keyUniqueRequest = "unique_request_id"
	keyClientToken   = "options.get_client_auth_token"
	keyCurrency      = "currency"
)

// udfKey returns the key of the user-defined field i, from 0: udf1…udf10.
func udfKey(i int) string { return "udf" + strconv.Itoa(i+1) }

// checkUDFs records each user-defined field that is not valid UTF-8, at
// its key (built only then: the fields are checked on every call).
func checkUDFs(v *validation.Error, udfs [10]string) {
	for i, u := range udfs {
		if !utf8.ValidString(u) {
			checkText(v, udfKey(i), u)
		}
	}
}

// udfIndex returns the index, from 0, of the user-defined field key k, one
// of udf1…udf10.
func udfIndex(k string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(k, "udf"))
	return n - 1
}

// isUDFKey reports whether k is one of udf1…udf10.
func isUDFKey(k string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(k, "udf"))
	return strings.HasPrefix(k, "udf") && err == nil && n >= 1 && n <= 10 && k == udfKey(n-1)
}

// maxOrderIDLen is the longest order id the service's documents advise.
const maxOrderIDLen = 20

// checkRequired records a problem when s is blank.
func checkRequired(v *validation.Error, path, s string) {
	if strings.TrimSpace(s) == "" {
		v.Add(path, "is required")
	}
}

// checkText records a problem when s is not valid UTF-8: encoding would
// silently replace the bad bytes, so the service would get other text.
func checkText(v *validation.Error, path, s string) {
	if !utf8.ValidString(s) {
		v.Add(path, "is not valid UTF-8")
	}
}

// checkFormText records each value of form, a request's form as
// go-querystring encodes it, that is not valid UTF-8, at its key.
func checkFormText(v *validation.Error, form url.Values, err error) {
	v.Merge("", err)
	for _, k := range slices.Sorted(maps.Keys(form)) {
		checkText(v, k, form.Get(k))
	}
}

// checkAmount records a problem when a is set and is not an amount the
// service takes (see ParseAmount).
func checkAmount(v *validation.Error, path string, a Amount) {
	if a == "" {
		return
	}
	if msg := amountProblem(string(a)); msg != "" {
		v.Add(path, msg)
	}
}

// checkWebhookURL records a problem when s is set and is not an absolute
// https URL (http is accepted on a loopback host, for tests): the service
// delivers webhooks to HTTPS endpoints only.
func checkWebhookURL(v *validation.Error, path, s string) {
	if s == "" {
		return
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		v.Add(path, "must be an absolute https URL")
	case u.Scheme != "https" && !isLoopback(u.Hostname()):
		v.Add(path, "must be https (http only on a loopback address): the service delivers webhooks to HTTPS endpoints only")
	}
}

// isLoopback reports whether host is "localhost" or a loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// lintAmount advises two places and no leading zeros on an amount Validate
// accepts; one it refuses is left to Validate.
func lintAmount(v *validation.Error, path string, a Amount) {
	minor, err := a.Minor()
	if a == "" || err != nil {
		return
	}
	if n := a.places(); n != 2 {
		places := "no decimal places"
		if n == 1 {
			places = "one decimal place"
		}
		v.Add(path, fmt.Sprintf("has %s: the service takes it, but its documents write amounts with two, like %q",
			places, string(AmountFromMinor(minor))))
	}
	if len(a) > 1 && a[0] == '0' && a[1] != '.' {
		v.Add(path, "has leading zeros")
	}
}

// lintURL advises an absolute https URL without user information.
func lintURL(v *validation.Error, path, s string) {
	if s == "" {
		return
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		v.Add(path, "is not an absolute http(s) URL")
	case u.User != nil:
		v.Add(path, "carries user information, which ends up in logs and browser history")
	case u.Scheme != "https" && !isLoopback(u.Hostname()):
		v.Add(path, "is not https: the customer's browser is sent there after paying")
	}
}

// lintEmail advises the shape of an email address: one "@", a dot in the
// domain, no spaces.
func lintEmail(v *validation.Error, path, s string) {
	if s == "" {
		return
	}
	local, domain, ok := strings.Cut(s, "@")
	if ok && local != "" && strings.Contains(domain, ".") && !strings.Contains(domain, "@") &&
		!strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".") &&
		strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return
	}
	v.Add(path, "does not look like an email address")
}

// lintPhone advises digits only: no "+", spaces or separators.
func lintPhone(v *validation.Error, path, s string) {
	if s != "" && !allDigits(s) {
		v.Add(path, "holds more than digits: the documents advise the number alone, without \"+\", country code or separators")
	}
}

// lintOrderID advises an order id of at most 20 characters without
// surrounding spaces.
func lintOrderID(v *validation.Error, path, s string) {
	if strings.TrimSpace(s) != s {
		v.Add(path, "has leading or trailing spaces, which are sent as part of it")
	}
	if n := utf8.RuneCountInString(s); n > maxOrderIDLen {
		v.Add(path, fmt.Sprintf("has %d characters: the documents advise at most %d", n, maxOrderIDLen))
	}
}

// checkExtra records the problems of the Extra map of the request type
// owner: a key that is not valid UTF-8, a key a typed field owns (owns), a
// value that cannot be encoded or holds text that is not valid UTF-8 (which
// encoding/json would silently replace).
func checkExtra[V any](v *validation.Error, extra map[string]V, owns func(string) bool, owner string) {
	if len(extra) == 0 {
		return // no allocation for the closure of maps.Keys
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		switch b, err := json.Marshal(extra[k]); {
		case !utf8.ValidString(k):
			v.Add(strconv.Quote(k), "Extra key is not valid UTF-8")
		case owns(k):
			v.Add(k, "is a typed field of "+owner+"; set it there, not in Extra")
		case err != nil:
			v.Add(k, "value cannot be encoded as JSON: "+err.Error())
		case replacedInvalidUTF8(b) || !utf8.Valid(b):
			v.Add(k, "holds text that is not valid UTF-8")
		}
	}
}

// replacedInvalidUTF8 reports whether encoding/json replaced invalid UTF-8
// when it wrote the JSON b: it writes each invalid byte as the escape
// \ufffd, and a real U+FFFD as the character itself.
func replacedInvalidUTF8(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+6]) == "fffd" {
			return true
		}
		i++ // skip the escaped character
	}
	return false
}

// lintExtraKeys advises against Extra keys that are empty or hold control
// characters: they can be sent, but no service key looks like that.
func lintExtraKeys[V any](v *validation.Error, extra map[string]V) {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		switch {
		case k == "":
			v.Add("", "Extra has an empty key")
		case strings.IndexFunc(k, unicode.IsControl) >= 0:
			v.Add(strconv.Quote(k), "Extra key holds control characters")
		}
	}
}

// checkAll returns the problems of errs, the errors of several Validate
// calls of one operation (its path, its request), in one
// *ValidationError; nil when there is none.
func checkAll(errs ...error) error {
	var v validation.Error
	for _, err := range errs {
		v.Merge("", err)
	}
	return v.Err()
}

// problems returns the problems v collected, nil when none: the result of
// a Lint method.
func problems(v *validation.Error) []Problem {
	if len(v.Problems) == 0 {
		return nil
	}
	return v.Problems
}

// invalid returns err, the error of a Validate method, as the error of
// operation op: a *ValidationError gets op as its Op (on a copy); any other
// error is wrapped as "checkout: <op>: …".
func invalid(op string, err error) error {
	if err == nil {
		return nil
	}
	if ve, ok := err.(*ValidationError); ok {
		return ve.WithOp(op)
	}
	return fmt.Errorf("checkout: %s: %w", op, err)
}

// addAt records problems, a nested value's advice, under key: a path that
// already starts with key is kept as it is, any other is placed under key.
func addAt(v *validation.Error, key string, problems []Problem) {
	for _, p := range problems {
		path := p.Path
		if path != key && !strings.HasPrefix(path, key+".") && !strings.HasPrefix(path, key+"[") {
			path = validation.Join(key, path)
		}
		v.Add(path, p.Message)
	}
}
