package checkout

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/jsontext"
	"github.com/payorch/checkout-go/internal/weburl"
	"github.com/payorch/checkout-go/validation"
)

// The rules several request types share, as plain functions: each
// Validate calls them on its own fields with the field's wire key. They
// refuse only what the service refuses, or what could not be sent as
// written; the advice on what the service takes is package lint's.

// Wire keys that rules in several files name (the keys of one type's rules
// are written where the rule is).
const (
	keyOrderID    = "order_id"
	keyAmount     = "amount"
	keyCustomerID = "customer_id"
)

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
	switch u := weburl.Read(s); {
	case !u.Absolute:
		v.Add(path, "must be an absolute https URL")
	case !u.Secure:
		v.Add(path, "must be https (http only on a loopback address): the service delivers webhooks to HTTPS endpoints only")
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
		case jsontext.Repaired(b) || !utf8.Valid(b):
			v.Add(k, "holds text that is not valid UTF-8")
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

// checkMembers records each member of obj, a request's typed fields as
// encoding/json wrote them, whose text encoding/json had to repair: it
// replaces invalid UTF-8, so the field holds text the service would get
// otherwise. It returns the keys obj writes (when keys asks for them),
// which gateway entries and Extra may not repeat. Reading the encoding, not a list of fields, keeps
// the declaration the only list of the type's keys.
func checkMembers(v *validation.Error, obj []byte, keys bool) map[string]bool {
	if !keys && !jsontext.Repaired(obj) && utf8.Valid(obj) {
		return nil // nothing repaired, and no one asks for the keys
	}
	written := map[string]bool{}
	jsontext.Members(obj, func(k string, repaired bool) {
		written[k] = true
		if repaired {
			v.Add(k, "is not valid UTF-8")
		}
	})
	return written
}
