package checkouttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/valid"
)

// This file checks request bodies against the spec, strictly: keys and enum
// values are case sensitive, unknown keys inside
// payment_filter are refused, and every problem is reported at its JSON path.

// decodeJSON parses data as one JSON value with numbers kept as json.Number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// field says how one key of an object is checked.
type field struct {
	required bool
	check    func(p *problems, path string, v any)
}

// checkObject checks that v is an object whose keys are exactly among
// fields (case sensitive) and runs each field's check.
func checkObject(p *problems, path string, v any, fields map[string]field) {
	m, ok := v.(map[string]any)
	if !ok {
		p.bad(path, "must be a JSON object, got "+jsonKind(v))
		return
	}
	for _, k := range sortedKeys(m) {
		f, ok := fields[k]
		if !ok {
			p.bad(valid.Join(path, k), unknownKey(k, fields))
			continue
		}
		if f.check != nil {
			f.check(p, valid.Join(path, k), m[k])
		}
	}
	for _, k := range sortedKeys(fields) {
		if _, ok := m[k]; !ok && fields[k].required {
			p.miss(valid.Join(path, k))
		}
	}
}

// singularCardKeys are the documented field table's card filter spellings; the
// service accepts the plural ones (conformance/README.md).
var singularCardKeys = map[string]string{
	"cardBrand": "cardBrands", "cardBin": "cardBins", "cardType": "cardTypes", "cardSubType": "cardSubTypes",
	"issuerFilters": "issuerFilter",
}

func unknownKey[V any](k string, fields map[string]V) string {
	if want, ok := singularCardKeys[k]; ok {
		if _, known := fields[want]; known {
			return fmt.Sprintf("unknown key; the service reads %q", want)
		}
	}
	for _, name := range sortedKeys(fields) {
		if strings.EqualFold(name, k) {
			return fmt.Sprintf("unknown key; keys are case sensitive, did you mean %q?", name)
		}
	}
	return "unknown key"
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func isBool(p *problems, path string, v any) {
	if _, ok := v.(bool); !ok {
		p.bad(path, "must be a JSON boolean, got "+jsonKind(v))
	}
}

func isString(p *problems, path string, v any) {
	if _, ok := v.(string); !ok {
		p.bad(path, "must be a JSON string, got "+jsonKind(v))
	}
}

func nonEmptyString(p *problems, path string, v any) {
	s, ok := v.(string)
	switch {
	case !ok:
		p.bad(path, "must be a JSON string, got "+jsonKind(v))
	case s == "":
		p.bad(path, "may not be empty")
	}
}

// enum checks a string against exact values, naming the right spelling of
// a mis-cased one.
func enum(values ...string) func(*problems, string, any) {
	return func(p *problems, path string, v any) {
		s, ok := v.(string)
		if !ok {
			p.bad(path, "must be a JSON string, got "+jsonKind(v))
			return
		}
		for _, want := range values {
			if s == want {
				return
			}
		}
		for _, want := range values {
			if strings.EqualFold(s, want) {
				p.bad(path, fmt.Sprintf("%q is not accepted; values are case sensitive, did you mean %q?", s, want))
				return
			}
		}
		p.bad(path, fmt.Sprintf("%q is not one of %s", s, strings.Join(values, ", ")))
	}
}

// arrayOf checks that v is an array and checks each element.
func arrayOf(elem func(*problems, string, any)) func(*problems, string, any) {
	return func(p *problems, path string, v any) {
		a, ok := v.([]any)
		if !ok {
			p.bad(path, "must be a JSON array, got "+jsonKind(v))
			return
		}
		for i, e := range a {
			elem(p, valid.Index(path, i), e)
		}
	}
}

func objectOf(fields map[string]field) func(*problems, string, any) {
	return func(p *problems, path string, v any) { checkObject(p, path, v, fields) }
}

// rangeString checks "<from>::<to>" with digits on both sides, from <= to
// (BIN ranges, EMI tenure ranges).
func rangeString(what string) func(*problems, string, any) {
	return func(p *problems, path string, v any) {
		s, ok := v.(string)
		if !ok {
			p.bad(path, "must be a JSON string, got "+jsonKind(v))
			return
		}
		from, to, found := strings.Cut(s, "::")
		if !found || !allDigits(from) || !allDigits(to) {
			p.bad(path, fmt.Sprintf("%q is not a %s range <from>::<to>", s, what))
			return
		}
		a, err1 := strconv.ParseUint(from, 10, 64)
		b, err2 := strconv.ParseUint(to, 10, 64)
		if err1 != nil || err2 != nil || a > b {
			p.bad(path, fmt.Sprintf("%q: from must not exceed to", s))
		}
	}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

var methodTypes = []string{"CARD", "UPI", "WALLET", "NB", "CONSUMER_FINANCE", "REWARD", "CASH"}

// paymentFilterFields is payment_filter with the plural card
// keys and the singular issuerFilter the service reads.
var paymentFilterFields = func() map[string]field {
	strings := arrayOf(isString)
	cardFilter := map[string]field{
		"enable":       {required: true, check: isBool},
		"cardBrands":   {check: strings},
		"cardBins":     {check: arrayOf(rangeString("BIN"))},
		"cardTypes":    {check: arrayOf(enum("DEBIT", "CREDIT"))},
		"cardSubTypes": {check: strings},
		"cardBanks":    {check: strings},
	}
	upiFilter := map[string]field{
		"enable":     {required: true, check: isBool},
		"upiType":    {check: enum("COLLECT", "INTENT")},
		"upiMethods": {check: strings},
	}
	option := map[string]field{
		"paymentMethodType": {required: true, check: enum(methodTypes...)},
		"enable":            {required: true, check: isBool},
		"paymentMethods":    {check: strings},
		"cardFilters":       {check: arrayOf(objectOf(cardFilter))},
		"upiFilters":        {check: arrayOf(objectOf(upiFilter))},
	}
	issuerFilter := map[string]field{
		"issuers": {check: strings},
		"tenures": {check: arrayOf(rangeString("tenure"))},
		"enable":  {check: isBool},
	}
	emiFilter := map[string]field{
		"enable":            {required: true, check: isBool},
		"paymentMethodType": {check: enum(methodTypes...)},
		"paymentMethod":     {check: isString},
		"issuerFilter":      {check: objectOf(issuerFilter)},
	}
	group := map[string]field{
		"enable":  {required: true, check: isBool},
		"filters": {check: arrayOf(objectOf(emiFilter))},
	}
	sub := map[string]field{
		"enable":   {required: true, check: isBool},
		"credit":   {check: objectOf(group)},
		"debit":    {check: objectOf(group)},
		"cardless": {check: objectOf(group)},
	}
	emiOptions := map[string]field{
		"standardEmi": {check: objectOf(sub)},
		"lowCostEmi":  {check: objectOf(sub)},
		"noCostEmi":   {check: objectOf(sub)},
		"showOnlyEmi": {check: isBool},
	}
	return map[string]field{
		"allowDefaultOptions": {required: true, check: isBool},
		"options":             {required: true, check: checkOptions(option)},
		"emiOptions":          {check: objectOf(emiOptions)},
	}
}()

// checkOptions checks payment_filter.options: each option's keys, then the
// rules between them: CARD and UPI must be enabled when they
// carry filters; card filters belong to CARD, UPI filters to UPI;
// paymentMethods has no effect on CARD and UPI; and one block per method
// type, since the service honours only the first. The service ignores the
// mistakes it does not refuse; the fake refuses them so that they show.
func checkOptions(option map[string]field) func(*problems, string, any) {
	elems := arrayOf(objectOf(option))
	return func(p *problems, path string, v any) {
		before := len(p.invalid) + len(p.missing)
		elems(p, path, v)
		if len(p.invalid)+len(p.missing) > before {
			return
		}
		seen := map[string]int{}
		for i, e := range v.([]any) {
			o := e.(map[string]any)
			op := valid.Index(path, i)
			t := o["paymentMethodType"].(string)
			enabled := o["enable"].(bool)
			_, hasCard := o["cardFilters"]
			_, hasUPI := o["upiFilters"]
			_, hasMethods := o["paymentMethods"]
			if first, dup := seen[t]; dup {
				p.bad(valid.Join(op, "paymentMethodType"), fmt.Sprintf("%s already has an option block at options[%d]; the service honours only the first", t, first))
			} else {
				seen[t] = i
			}
			switch {
			case hasCard && t != "CARD":
				p.bad(valid.Join(op, "cardFilters"), "is considered only when paymentMethodType is CARD")
			case hasUPI && t != "UPI":
				p.bad(valid.Join(op, "upiFilters"), "is considered only when paymentMethodType is UPI")
			case (hasCard || hasUPI) && !enabled:
				p.bad(valid.Join(op, "enable"), "must be true when "+t+" carries filters")
			}
			if hasMethods && (t == "CARD" || t == "UPI") {
				p.bad(valid.Join(op, "paymentMethods"), "is ignored when paymentMethodType is "+t+"; use cardFilters or upiFilters")
			}
		}
	}
}

// checkProductSummary checks the product_summary string: JSON
// text of an array of lines, each an array of items with a known type.
func checkProductSummary(p *problems, path string, v any) {
	s, ok := v.(string)
	if !ok {
		p.bad(path, "must be a JSON string holding the array, got "+jsonKind(v))
		return
	}
	doc, err := decodeJSON([]byte(s))
	if err != nil {
		p.bad(path, "is not JSON text: "+err.Error())
		return
	}
	lines, ok := doc.([]any)
	if !ok {
		p.bad(path, "must hold a JSON array of lines, got "+jsonKind(doc))
		return
	}
	for i, l := range lines {
		items, ok := l.([]any)
		lp := valid.Index(path, i)
		if !ok {
			p.bad(lp, "a line must be an array of items, got "+jsonKind(l))
			continue
		}
		for j, it := range items {
			ip := valid.Index(lp, j)
			m, ok := it.(map[string]any)
			if !ok {
				p.bad(ip, "an item must be an object, got "+jsonKind(it))
				continue
			}
			t, _ := m["type"].(string)
			switch t {
			case "space", "text", "image", "toggleimage", "toggleImage":
			case "divider":
				if n, ok := m["thickness"].(json.Number); !ok || n.String() == "0" || strings.HasPrefix(n.String(), "-") {
					p.bad(valid.Join(ip, "thickness"), "is required and must be a positive number")
				}
			case "background":
				if c, ok := m["color"].(string); !ok || c == "" {
					p.bad(valid.Join(ip, "color"), "is required")
				}
			default:
				p.bad(valid.Join(ip, "type"), fmt.Sprintf("%q is not a product summary item type", t))
			}
		}
	}
}

// parseAmount reads a decimal amount with at most two decimal places
// into minor units. It must be positive.
func parseAmount(s string) (int64, error) {
	whole, frac, hasDot := strings.Cut(s, ".")
	if !allDigits(whole) || hasDot && (len(frac) == 0 || len(frac) > 2 || !allDigits(frac)) {
		return 0, fmt.Errorf("%q is not a decimal amount with at most two decimal places", s)
	}
	if len(whole) > 13 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	var f int64
	if hasDot {
		f, _ = strconv.ParseInt((frac + "0")[:2], 10, 64)
	}
	minor := w*100 + f
	if minor <= 0 {
		return 0, fmt.Errorf("%q must be greater than zero", s)
	}
	return minor, nil
}

// amountNumber writes minor units as the JSON number the service's
// responses use: 2, 9000, 12.5.
func amountNumber(minor int64) json.Number {
	if minor%100 == 0 {
		return json.Number(strconv.FormatInt(minor/100, 10))
	}
	s := fmt.Sprintf("%d.%02d", minor/100, minor%100)
	return json.Number(strings.TrimSuffix(s, "0"))
}

// amountText is minor units as a two-place decimal string.
func amountText(minor int64) string { return fmt.Sprintf("%d.%02d", minor/100, minor%100) }

func checkAbsoluteURL(p *problems, path, s string) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		p.bad(path, "must be an absolute http(s) URL")
	}
}

// checkVersion checks the version header: a date YYYY-MM-DD.
func checkVersion(v string) error {
	if len(v) != len("2006-01-02") {
		return fmt.Errorf("%q is not a date YYYY-MM-DD", v)
	}
	if _, err := time.Parse("2006-01-02", v); err != nil {
		return fmt.Errorf("%q is not a date YYYY-MM-DD", v)
	}
	return nil
}

// linkDetails is payment_collection_link_details once checked:
// lifetime in minutes per requested method (PAY, QR).
type linkDetails map[string]int

const defaultLinkExpiryMins = 15

// parseLinkDetails checks the JSON text of payment_collection_link_details
// strictly: known keys only, methods PAY and QR, expiry_in_mins sent as text.
func parseLinkDetails(p *problems, raw string) linkDetails {
	const path = "payment_collection_link_details"
	before := len(p.invalid) + len(p.missing)
	doc, err := decodeJSON([]byte(raw))
	if err != nil {
		p.bad(path, "is not JSON text: "+err.Error())
		return nil
	}
	methods := enum("PAY", "QR")
	checkObject(p, path, doc, map[string]field{
		"supported_payment_methods": {required: true, check: arrayOf(methods)},
		"expiry_details": {check: arrayOf(objectOf(map[string]field{
			"payment_method": {required: true, check: methods},
			"expiry_in_mins": {required: true, check: func(p *problems, path string, v any) {
				s, ok := v.(string)
				if !ok {
					p.bad(path, "must be a JSON string of minutes (sent as text), got "+jsonKind(v))
					return
				}
				if n, err := strconv.Atoi(s); err != nil || n <= 0 || !allDigits(s) {
					p.bad(path, fmt.Sprintf("%q is not a positive whole number of minutes", s))
				}
			}},
		}))},
	})
	if len(p.invalid)+len(p.missing) > before {
		return nil
	}
	m := doc.(map[string]any)
	out := linkDetails{}
	sup := m["supported_payment_methods"].([]any)
	if len(sup) == 0 {
		p.bad(path+".supported_payment_methods", "may not be empty")
		return nil
	}
	for i, s := range sup {
		name := s.(string)
		if _, dup := out[name]; dup {
			p.bad(valid.Index(path+".supported_payment_methods", i), fmt.Sprintf("%q is listed twice", name))
		}
		out[name] = defaultLinkExpiryMins
	}
	if ed, ok := m["expiry_details"].([]any); ok {
		seen := map[string]bool{}
		for i, e := range ed {
			em := e.(map[string]any)
			name := em["payment_method"].(string)
			ep := valid.Index(path+".expiry_details", i)
			if _, ok := out[name]; !ok {
				p.bad(ep+".payment_method", fmt.Sprintf("%q is not in supported_payment_methods", name))
				continue
			}
			if seen[name] {
				p.bad(ep+".payment_method", fmt.Sprintf("%q has two expiry_details", name))
				continue
			}
			seen[name] = true
			out[name], _ = strconv.Atoi(em["expiry_in_mins"].(string))
		}
	}
	return out
}
