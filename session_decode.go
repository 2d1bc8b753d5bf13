package checkout

// Reading a session request back (the fake does it, and so can a stored
// body): SessionRequest.UnmarshalJSON and its helpers.

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

// decodeSessionOp names the operation in the errors of decoding a session
// request: "checkout: decode session request: invalid request: …".
const decodeSessionOp = "decode session request"

// UnmarshalJSON reads a session body back, as MarshalJSON writes it and as
// the service's documents publish it: amounts and mandate dates as text or
// numbers (amounts kept as written), options.get_upi_deep_links as true or
// "true", product_summary as a JSON string holding the array, the older
// mandate_max_amount into Mandate.MaxAmount when mandate.max_amount is
// absent, text under metadata.<GATEWAY>:<key> into GatewayMetadata, and
// every other key into Extra (numbers as json.Number). It does not run
// Validate. A value of the wrong JSON type is a *ValidationError at its
// path; a failed decode, or null, leaves r unchanged.
func (r *SessionRequest) UnmarshalJSON(data []byte) error {
	if r == nil {
		return errNilTarget("SessionRequest")
	}
	if !utf8.Valid(data) {
		return invalid(decodeSessionOp, &ValidationError{Problems: []Problem{{Message: "session request is not valid UTF-8"}}})
	}
	type plain SessionRequest
	var w struct {
		plain
		Amount    any     `json:"amount"`
		Option    *string `json:"options.create_mandate"`
		MaxAmount any     `json:"mandate.max_amount"`
		OldMax    any     `json:"mandate_max_amount"`
		StartDate any     `json:"mandate.start_date"`
		EndDate   any     `json:"mandate.end_date"`
		UPI       any     `json:"options.get_upi_deep_links"`
		Summary   *string `json:"product_summary"`
	}
	var members map[string]any
	for _, into := range []any{&w, &members} {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(into); err != nil {
			return decodeError(err)
		}
	}
	if members == nil {
		return nil // null
	}
	var v validation.Error
	out := SessionRequest(w.plain)
	out.Amount = Amount(numberText(&v, keyAmount, w.Amount))
	maxAmount := numberText(&v, "mandate.max_amount", w.MaxAmount)
	if w.MaxAmount == nil {
		maxAmount = numberText(&v, "mandate_max_amount", w.OldMax)
	}
	switch w.UPI {
	case true, "true":
		out.UPIDeepLinks = true
	case nil, false, "false":
	default:
		v.Add("options.get_upi_deep_links", `must be true or "true"`)
	}
	if w.Summary != nil {
		summary, err := productsummary.Parse(*w.Summary)
		if err != nil {
			return decodeError(err)
		}
		out.ProductSummary = &summary
	}
	start, end := numberText(&v, "mandate.start_date", w.StartDate), numberText(&v, "mandate.end_date", w.EndDate)
	if maxAmount != "" || start != "" || end != "" || w.Option != nil {
		out.Mandate = new(Mandate)
		if w.Option != nil {
			out.Mandate.Option = MandateOption(*w.Option)
		}
		out.Mandate.MaxAmount = Amount(maxAmount)
		out.Mandate.StartDate = unixDate(&v, "mandate.start_date", start)
		out.Mandate.EndDate = unixDate(&v, "mandate.end_date", end)
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		gateway, key, isEntry := splitGatewayKey(k)
		text, isText := members[k].(string)
		switch {
		case declaresSessionKey(k): // decoded into a typed field, in any case
		case strings.EqualFold(k, "mandate_max_amount") && w.MaxAmount == nil:
		case isEntry && isText:
			out.GatewayMetadata = append(out.GatewayMetadata, GatewayMetadata{Gateway: gateway, Key: key, Value: text})
		default:
			if out.Extra == nil {
				out.Extra = map[string]any{}
			}
			out.Extra[k] = members[k]
		}
	}
	if err := v.Err(); err != nil {
		return invalid(decodeSessionOp, err)
	}
	*r = out
	return nil
}

// numberText returns x, a member decoded with UseNumber, as the text it
// holds: a string as it is, a number as written. Anything else is a
// problem at key.
func numberText(v *validation.Error, key string, x any) string {
	switch x := x.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return string(x)
	}
	v.Add(key, "must be text or a number")
	return ""
}

// unixDate reads a mandate date, Unix seconds in decimal text; a problem
// at key when it is not that (or is the zero time, which means "not
// sent").
func unixDate(v *validation.Error, key, text string) time.Time {
	if text == "" {
		return time.Time{}
	}
	s, err := strconv.ParseInt(text, 10, 64)
	t := time.Unix(s, 0).UTC()
	if err != nil || strconv.FormatInt(s, 10) != text || t.IsZero() || t.Unix() != s {
		v.Add(key, `must be Unix seconds in decimal text, like "1644420442"`)
		return time.Time{}
	}
	return t
}

// decodeError returns err, from decoding a session body, as a
// *ValidationError at the path of the offending value when it has one.
func decodeError(err error) error {
	var (
		v  validation.Error
		te *json.UnmarshalTypeError
		de *productsummary.DecodeError
	)
	switch {
	case errors.As(err, &de):
		msg := de.Message
		if de.Err != nil {
			msg += ": " + de.Err.Error()
		}
		v.Add(de.Path, msg)
	case errors.As(err, &te):
		path := te.Field // after the Go names of the structs SessionRequest embeds
		for _, embedded := range [...]string{"plain.", "UDFs.", "Mandate."} {
			path = strings.TrimPrefix(path, embedded)
		}
		v.Add(path, "cannot be a JSON "+te.Value)
	default:
		return invalid(decodeSessionOp, err)
	}
	return invalid(decodeSessionOp, v.Err())
}
