package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

// The JSON body of a session request: what CreateSession sends, and
// reading such a body back.

// ownsSessionKey reports whether a typed field of SessionRequest writes the
// key k when the gateway reference is written in namespace ns.
func ownsSessionKey(k, ns string) bool {
	switch k {
	case keyOrderID, keyAmount, keyCustomerID, keyCustomerPhone, keyCustomerEmail, keyClientID, keyAction,
		keyReturnURL, keyCurrency, "description", "first_name", "last_name", keyPaymentFilter, keySDKUDF,
		keyProductSummary, keyMandateOption, keyMandateMax, keyMandateStart, keyMandateEnd, keyWebhookURL,
		keyUPIDeepLinks:
		return true
	}
	return isGatewayReferenceKey(k, ns) || isUDFKey(k)
}

// MarshalJSON returns the JSON body CreateSession sends: the service's flat
// keys, product_summary as a JSON string holding the array, mandate dates
// as Unix seconds in text, the gateway reference under
// metadata.SERVICE:gateway_reference_id ([DefaultNamespace]; CreateSession
// writes it in the client's namespace), then the Extra keys, sorted; empty
// fields are left out. json.Marshal escapes <, > and & in strings of what
// it returns (the same JSON value; the client itself sends them unescaped).
// It does not run Validate, so an incomplete request can be stored, but it
// fails with a *ValidationError when the body could not say what the
// request says: text that is not valid UTF-8, a gateway entry that is
// ambiguous, given twice or belongs to a typed field, or an Extra key that
// is not valid UTF-8, belongs to a typed field or a gateway entry, or
// whose value cannot be encoded.
func (r SessionRequest) MarshalJSON() ([]byte, error) {
	var v validation.Error
	r.checkBody(&v, DefaultNamespace)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return r.encode(DefaultNamespace)
}

// sessionWire is a SessionRequest as it travels: its own fields, with the
// mandate's keys at the top level, product_summary as a JSON string and the
// mandate dates as Unix seconds in text.
type sessionWire struct {
	*sessionFields
	*Mandate
	ProductSummary string   `json:"product_summary,omitempty"`
	StartDate      unixTime `json:"mandate.start_date,omitzero"`
	EndDate        unixTime `json:"mandate.end_date,omitzero"`
	UPIDeepLinks   string   `json:"options.get_upi_deep_links,omitempty"`
}

// sessionFields is SessionRequest without its methods.
type sessionFields SessionRequest

// encode returns the body without checking it (CreateSession has run
// Validate), the gateway reference in namespace ns. An Extra value that
// cannot be encoded is a *ValidationError at its key.
func (r *SessionRequest) encode(ns string) ([]byte, error) {
	w := sessionWire{sessionFields: (*sessionFields)(r), Mandate: r.Mandate}
	ref := r.GatewayReferenceID
	if ns != DefaultNamespace && ref != "" {
		// The reference goes under the client's namespace (appended
		// below), so the copy encoded leaves it out; r is not changed.
		fields := sessionFields(*r)
		fields.GatewayReferenceID = ""
		w.sessionFields = &fields
	}
	if r.ProductSummary != nil && len(*r.ProductSummary) > 0 {
		text, err := r.ProductSummary.MarshalJSON()
		if err != nil {
			return nil, err
		}
		w.ProductSummary = string(text)
	}
	if m := r.Mandate; m != nil {
		// Only a date that is set goes in, so that omitzero leaves out
		// exactly the zero times.
		if !m.StartDate.IsZero() {
			w.StartDate = unixTime(m.StartDate)
		}
		if !m.EndDate.IsZero() {
			w.EndDate = unixTime(m.EndDate)
		}
	}
	if r.UPIDeepLinks {
		w.UPIDeepLinks = "true" // text, as the service's own bodies send it
	}
	body, err := marshalNoEscape(w)
	if err != nil {
		return nil, err
	}
	if ns != DefaultNamespace && ref != "" {
		body = appendMember(body, gatewayReferenceKey(ns), mustQuote(ref))
	}
	for _, m := range r.GatewayMetadata {
		body = appendMember(body, m.key(), mustQuote(m.Value))
	}
	if len(r.Extra) == 0 {
		return body, nil
	}
	var v validation.Error
	for _, k := range slices.Sorted(maps.Keys(r.Extra)) {
		value, err := marshalNoEscape(r.Extra[k])
		if err != nil {
			v.Add(k, "value cannot be encoded as JSON: "+err.Error())
			continue
		}
		body = appendMember(body, k, value)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return body, nil
}

// appendMember adds the member key: value (already encoded) at the end of
// the JSON object obj.
func appendMember(obj []byte, key string, value []byte) []byte {
	obj = obj[:len(obj)-1] // reopen the object
	if len(obj) > 1 {
		obj = append(obj, ',')
	}
	obj = append(obj, mustQuote(key)...)
	obj = append(obj, ':')
	obj = append(obj, value...)
	return append(obj, '}')
}

// mustQuote returns s as a JSON string without HTML escaping; a string
// always encodes.
func mustQuote(s string) []byte {
	b, _ := marshalNoEscape(s)
	return b
}

// decodeSessionOp names the operation in the errors of decoding a session
// request: "checkout: decode session request: invalid request: …".
const decodeSessionOp = "decode session request"

// UnmarshalJSON reads a session request body as MarshalJSON writes it and
// as the service's published samples show it. Keys are read exactly as
// written (the service's keys are case sensitive); every key the typed
// fields do not own goes to Extra (numbers kept as json.Number, so their
// text is unchanged), gateway metadata such as
// metadata.AMAZONPAY:gateway_reference_id included. It does not run
// Validate and changes no value: an amount such as "1.0" stays "1.0", and
// a typed text key given as a JSON number keeps the number's text
// ("amount": 100 reads as "100"). The older spelling mandate_max_amount
// reads into Mandate.MaxAmount when mandate.max_amount is absent;
// MarshalJSON writes mandate.max_amount. A typed key given as anything else
// (null, a boolean, an object), a mandate date that is not canonical
// decimal seconds, invalid UTF-8, or a malformed payment_filter or
// product_summary is a *ValidationError naming the key, or inside
// payment_filter and product_summary the exact path of the offending value
// ("payment_filter.options[1].enable", "product_summary[1][1].type"). A
// failed decode leaves r unchanged; JSON null does too.
func (r *SessionRequest) UnmarshalJSON(data []byte) error {
	if r == nil {
		return errNilTarget("SessionRequest")
	}
	b := bytes.TrimSpace(data)
	if string(b) == "null" {
		return nil
	}
	if !utf8.Valid(b) {
		return &ValidationError{Op: decodeSessionOp, Problems: []Problem{{Message: "session request is not valid UTF-8"}}}
	}
	if kindOf(b) != "object" {
		return &ValidationError{Op: decodeSessionOp, Problems: []Problem{{Message: "session request must be a JSON object, not " + kindOf(b)}}}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return fmt.Errorf("checkout: %s: %w", decodeSessionOp, err)
	}
	var (
		out SessionRequest
		v   validation.Error
	)
	mandate := func() *Mandate {
		if out.Mandate == nil {
			out.Mandate = new(Mandate)
		}
		return out.Mandate
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		raw := members[k]
		switch k {
		case keyOrderID:
			out.OrderID = readText(&v, k, raw)
		case keyAmount:
			out.Amount = Amount(readText(&v, k, raw))
		case keyCustomerID:
			out.CustomerID = readText(&v, k, raw)
		case keyCustomerPhone:
			out.CustomerPhone = readText(&v, k, raw)
		case keyCustomerEmail:
			out.CustomerEmail = readText(&v, k, raw)
		case keyClientID:
			out.PaymentPageClientID = readText(&v, k, raw)
		case keyAction:
			out.Action = Action(readText(&v, k, raw))
		case keyReturnURL:
			out.ReturnURL = readText(&v, k, raw)
		case keyCurrency:
			out.Currency = readText(&v, k, raw)
		case "description":
			out.Description = readText(&v, k, raw)
		case "first_name":
			out.FirstName = readText(&v, k, raw)
		case "last_name":
			out.LastName = readText(&v, k, raw)
		case keySDKUDF:
			out.EMI = emi.Visibility(readText(&v, k, raw))
		case keyDefaultGWRefKey:
			out.GatewayReferenceID = readText(&v, k, raw)
		case keyWebhookURL:
			out.WebhookURL = readText(&v, k, raw)
		case keyMandateOption:
			mandate().Option = MandateOption(readText(&v, k, raw))
		case keyMandateMax:
			mandate().MaxAmount = Amount(readText(&v, k, raw))
		case keyMandateMaxOld:
			if _, both := members[keyMandateMax]; !both {
				mandate().MaxAmount = Amount(readText(&v, k, raw))
				continue
			}
			out.setExtra(&v, k, raw)
		case keyMandateStart:
			mandate().StartDate = readUnixTime(&v, k, raw)
		case keyMandateEnd:
			mandate().EndDate = readUnixTime(&v, k, raw)
		case keyPaymentFilter:
			out.PaymentFilter = readFilter(&v, raw)
		case keyProductSummary:
			out.ProductSummary = readSummary(&v, raw)
		case keyUPIDeepLinks:
			out.UPIDeepLinks = readFlag(&v, k, raw)
		default:
			if isUDFKey(k) {
				*out.UDFs.field(udfIndex(k)) = readText(&v, k, raw)
				continue
			}
			// A gateway's own entry, metadata.<GATEWAY>:<key>, as given;
			// any other key, or an entry whose value is not text, to Extra.
			if gateway, key, ok := splitGatewayKey(k); ok && (kindOf(raw) == "string" || kindOf(raw) == "number") {
				out.GatewayMetadata = append(out.GatewayMetadata, GatewayMetadata{Gateway: gateway, Key: key, Value: readText(&v, k, raw)})
				continue
			}
			out.setExtra(&v, k, raw)
		}
	}
	if err := v.Err(); err != nil {
		return invalid(decodeSessionOp, err)
	}
	*r = out
	return nil
}

// setExtra keeps the member k in Extra, numbers as json.Number so that
// their text is unchanged.
func (r *SessionRequest) setExtra(v *validation.Error, k string, raw json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		v.Add(k, "cannot be decoded: "+err.Error())
		return
	}
	if r.Extra == nil {
		r.Extra = map[string]any{}
	}
	r.Extra[k] = x
}

// readText reads the text of a typed key: a JSON string, or a number as its
// text. Anything else is a problem at key.
func readText(v *validation.Error, key string, raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch kindOf(raw) {
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			v.Add(key, "cannot be decoded: "+err.Error())
		}
		return s
	case "number":
		return string(raw)
	case "null":
		v.Add(key, "must not be null")
	default:
		v.Add(key, "must be a JSON string, not "+kindOf(raw))
	}
	return ""
}

// readFlag reads a typed flag: true or false, as a JSON boolean or as text
// ("true", as the service's own bodies send it). Anything else is a
// problem at key.
func readFlag(v *validation.Error, key string, raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "true", `"true"`:
		return true
	case "false", `"false"`:
		return false
	}
	v.Add(key, "must be true or false, not "+kindOf(raw))
	return false
}

// readUnixTime reads a mandate date: Unix seconds as canonical decimal text
// or as a JSON number.
func readUnixTime(v *validation.Error, key string, raw json.RawMessage) time.Time {
	var t unixTime
	if err := t.UnmarshalJSON(bytes.TrimSpace(raw)); err != nil {
		v.Add(key, err.Error())
	}
	return time.Time(t)
}

// readFilter decodes payment_filter, its problems at their exact paths.
func readFilter(v *validation.Error, raw json.RawMessage) *paymentfilter.Filter {
	if kindOf(raw) == "null" {
		v.Add(keyPaymentFilter, "must not be null")
		return nil
	}
	f := new(paymentfilter.Filter)
	if err := json.Unmarshal(raw, f); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			v.Add(validation.Join(keyPaymentFilter, te.Field), "cannot be a JSON "+te.Value)
		} else {
			mergeAt(v, keyPaymentFilter, err)
		}
		return nil
	}
	return f
}

// readSummary decodes product_summary, a JSON string holding the summary's
// array, its problems at their exact paths ("product_summary[1][1].type").
func readSummary(v *validation.Error, raw json.RawMessage) *productsummary.Summary {
	var text string
	if kindOf(raw) != "string" || json.Unmarshal(raw, &text) != nil {
		v.Add(keyProductSummary, "must be a JSON string holding the summary's array, not "+kindOf(raw))
		return nil
	}
	s, err := productsummary.Parse(text)
	if err != nil {
		var de *productsummary.DecodeError
		if !errors.As(err, &de) {
			mergeAt(v, keyProductSummary, err)
			return nil
		}
		msg := de.Message
		if de.Err != nil {
			msg += ": " + de.Err.Error()
		}
		mergeAt(v, keyProductSummary, &ValidationError{Problems: []Problem{{Path: de.Path, Message: msg}}})
		return nil
	}
	return &s
}

// unixTime is a mandate date on the wire: Unix seconds in decimal text
// ("1644420442").
type unixTime time.Time

// IsZero reports the zero time, which is not sent.
func (t unixTime) IsZero() bool { return time.Time(t).IsZero() }

// MarshalJSON returns the Unix seconds as a JSON string.
func (t unixTime) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, strconv.FormatInt(time.Time(t).Unix(), 10)), nil
}

// UnmarshalJSON reads Unix seconds given as canonical decimal text or as a
// JSON number.
func (t *unixTime) UnmarshalJSON(data []byte) error {
	s := string(data)
	if kindOf(data) == "string" && json.Unmarshal(data, &s) != nil {
		return errors.New("cannot be decoded")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != s {
		return errors.New(`must be Unix seconds in decimal text, like "1644420442"`)
	}
	v := time.Unix(n, 0).UTC()
	if v.IsZero() || v.Unix() != n {
		// The zero time means "not sent", and a time.Time cannot hold every
		// int64 of seconds: either would change what is sent.
		return errors.New("is outside the dates a time.Time holds")
	}
	*t = unixTime(v)
	return nil
}
