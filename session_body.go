package checkout

// The body of a session request: its typed fields as encoding/json writes
// them, the gateway entries and Extra after them, and what keeps the body
// saying what the request says.

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/payorch/checkout-go/validation"
)

// sessionBody is the JSON object of a session request's typed fields: the
// request's own tagged fields, the mandate's (top-level keys of the body),
// product_summary as a JSON string and the mandate dates as Unix seconds in
// text. Its fields are the only list of the keys a typed field writes.
type sessionBody struct {
	*plainSession
	ProductSummary string `json:"product_summary,omitempty"`
	*Mandate
	StartDate string `json:"mandate.start_date,omitempty"`
	EndDate   string `json:"mandate.end_date,omitempty"`
}

// plainSession is SessionRequest without its methods, for sessionBody.
type plainSession SessionRequest

// declaresSessionKey reports whether a typed field of SessionRequest reads
// the key k, set or not, as encoding/json matches keys (in any case): json
// decoding, told to refuse keys it has no field for, answers from the tags
// of sessionBody. UnmarshalJSON keeps the other keys in Extra.
func declaresSessionKey(k string) bool {
	key, err := json.Marshal(k)
	if err != nil {
		return false
	}
	dec := json.NewDecoder(strings.NewReader("{" + string(key) + ":null}"))
	dec.DisallowUnknownFields()
	probe := sessionBody{plainSession: new(plainSession), Mandate: new(Mandate)}
	return dec.Decode(&probe) == nil
}

// checkBody records what would make the body say something other than the
// request (Validate and MarshalJSON both refuse it): text that is not
// valid UTF-8, which encoding would replace, and a gateway entry or Extra
// key that is ambiguous, given twice or written by a typed field. The keys
// the typed fields write are read from their encoding, so the declaration
// is the only list of them. It returns that encoding, or the error of
// encoding the typed fields.
func (r *SessionRequest) checkBody(v *validation.Error, ns string) ([]byte, error) {
	typed, err := r.typedBody(ns)
	if err != nil {
		return nil, err
	}
	written := checkMembers(v, typed, len(r.Extra) > 0 || len(r.GatewayMetadata) > 0)
	seen := r.GatewayMetadata.check(v, func(k string) bool { return written[k] }, "SessionRequest")
	checkExtra(v, r.Extra, func(k string) bool { return written[k] || seen[k] }, "SessionRequest")
	return typed, nil
}

// MarshalJSON returns the body CreateSession sends, the gateway reference
// in [DefaultNamespace]: the typed keys, product_summary as a JSON string,
// mandate dates as Unix seconds in text, then the gateway entries and the
// Extra keys, sorted. It does not run Validate, but refuses as Validate
// does what the body could not say: invalid UTF-8, a gateway entry or an
// Extra key that clashes, an Extra value that cannot be encoded.
func (r SessionRequest) MarshalJSON() ([]byte, error) {
	var v validation.Error
	typed, err := r.checkBody(&v, DefaultNamespace)
	if err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return r.appendUntyped(typed)
}

// encode returns the body with the gateway reference in namespace ns,
// without checking it (CreateSession has run Validate).
func (r *SessionRequest) encode(ns string) ([]byte, error) {
	typed, err := r.typedBody(ns)
	if err != nil {
		return nil, err
	}
	return r.appendUntyped(typed)
}

// typedBody returns the JSON object the typed fields write, gateway
// entries and Extra aside, the gateway reference in namespace ns.
func (r *SessionRequest) typedBody(ns string) ([]byte, error) {
	w := sessionBody{plainSession: (*plainSession)(r), Mandate: r.Mandate}
	if ns != DefaultNamespace && r.GatewayReferenceID != "" {
		c := plainSession(*r)
		c.GatewayReferenceID = "" // appended below under the client's namespace
		w.plainSession = &c
	}
	if r.ProductSummary != nil && len(*r.ProductSummary) > 0 {
		text, err := r.ProductSummary.MarshalJSON()
		if err != nil {
			return nil, err
		}
		w.ProductSummary = string(text)
	}
	if m := r.Mandate; m != nil {
		w.StartDate, w.EndDate = unixText(m.StartDate), unixText(m.EndDate)
	}
	body, err := marshalNoEscape(w)
	if err != nil {
		return nil, err
	}
	if ns != DefaultNamespace && r.GatewayReferenceID != "" {
		body, _ = appendMember(body, gatewayReferenceKey(ns), r.GatewayReferenceID)
	}
	return body, nil
}

// appendUntyped returns body, the typed fields' object, with the gateway
// entries and then the Extra keys, sorted, appended.
func (r *SessionRequest) appendUntyped(body []byte) ([]byte, error) {
	for _, m := range r.GatewayMetadata {
		body, _ = appendMember(body, m.key(), m.Value)
	}
	var err error
	for _, k := range slices.Sorted(maps.Keys(r.Extra)) { // Validate has checked that each value encodes
		if body, err = appendMember(body, k, r.Extra[k]); err != nil {
			return nil, err
		}
	}
	return body, nil
}

// unixText is a mandate date as sent: Unix seconds in decimal text, or ""
// (not sent) for the zero time.
func unixText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.Unix(), 10)
}
