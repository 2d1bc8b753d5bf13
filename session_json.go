package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/tags"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/productsummary"
)

// The JSON form of a session request: the body CreateSession sends, and
// reading such a body back.

// sessionFields is SessionRequest without its methods.
type sessionFields SessionRequest

// sessionWire is a SessionRequest as it travels: its own fields, with
// product_summary as a JSON string and the mandate dates as Unix seconds in
// text. Both directions go through it, so each key is declared once; S is
// how it holds the product summary (sessionJSON, sessionBody).
type sessionWire[S any] struct {
	*sessionFields
	// Mandate's keys are top-level keys of the body: embedded here, not in
	// SessionRequest, where a promoted field of a nil Mandate would panic
	// on assignment.
	*Mandate
	ProductSummary S        `json:"product_summary,omitempty"`
	StartDate      unixTime `json:"mandate.start_date,omitzero"`
	EndDate        unixTime `json:"mandate.end_date,omitzero"`
}

// sessionJSON holds the product summary itself: decoding, validation and
// the keys of a session request go through it.
type sessionJSON = sessionWire[*summaryText]

// sessionBody holds the product summary's JSON text, made beforehand, for
// encodeIn: encoding/json then quotes it in the same pass as the rest of
// the body. Through summaryText.MarshalJSON it would scan the quoted text
// once more, character by character, escapes and all (about a third of
// what encoding a session request cost).
type sessionBody = sessionWire[string]

// wire returns the traveling form of r, sharing its fields.
func (r *SessionRequest) wire() sessionJSON {
	w := sessionJSON{sessionFields: (*sessionFields)(r), Mandate: r.Mandate}
	if r.ProductSummary != nil && len(*r.ProductSummary) > 0 {
		w.ProductSummary = (*summaryText)(r.ProductSummary)
	}
	if m := r.Mandate; m != nil {
		// Only a date that is set goes in, so that omitzero's test of the
		// whole struct (a zero time.Time may still carry a location)
		// leaves out exactly the zero times.
		if !m.StartDate.IsZero() {
			w.StartDate = unixTime(m.StartDate)
		}
		if !m.EndDate.IsZero() {
			w.EndDate = unixTime(m.EndDate)
		}
	}
	return w
}

var (
	sessionChecks = checksOf[sessionJSON]("json")
	sessionNames  = namesOf[sessionJSON]("json")
	// sessionKeys are the keys the typed fields of a session request own,
	// as their tags write them.
	sessionKeys = sync.OnceValue(func() map[string]tags.Field {
		out := map[string]tags.Field{}
		for _, f := range tags.Fields(reflect.TypeFor[sessionJSON](), "json") {
			out[f.Key] = f
		}
		return out
	})
	// sessionAliases are the other keys decoding reads into typed text
	// fields: the older spellings of their alias tags. The namespaced keys
	// (sessionNamespaced) are recognised in any namespace.
	sessionAliases = sync.OnceValue(func() map[string]tags.Field {
		out := map[string]tags.Field{}
		for _, fc := range sessionChecks() {
			if fc.alias != "" {
				out[fc.alias] = sessionKeys()[fc.key]
			}
		}
		return out
	})
	sessionNamespaced = sync.OnceValue(func() []tags.Field {
		var out []tags.Field
		for k, f := range sessionKeys() {
			if isNamespaced(k) {
				out = append(out, f)
			}
		}
		return out
	})
)

// sessionKey reports whether the tag of a typed field writes k.
func sessionKey(k string) bool { _, ok := sessionKeys()[k]; return ok }

// sessionOwns reports whether a typed field owns k: its tag writes it, or
// it is a namespaced key written in another namespace.
func sessionOwns(k string) bool {
	_, ok := otherNamespace(k)
	return sessionKey(k) || ok
}

// otherNamespace returns the typed field whose namespaced key k is, written
// in a namespace other than DefaultNamespace.
func otherNamespace(k string) (tags.Field, bool) {
	for _, f := range sessionNamespaced() {
		if sameKeyOtherNamespace(k, f.Key) {
			return f, true
		}
	}
	return tags.Field{}, false
}

// spelling is how a decoded body wrote one typed text field when
// MarshalJSON would write it otherwise: under an older key
// (mandate_max_amount), in another namespace
// (metadata.JUSPAY:gateway_reference_id) or as a JSON number ("amount":
// 100). MarshalJSON writes it back the same way while the field still holds
// the value that was read; CreateSession writes namespaced keys in the
// client's namespace.
type spelling struct {
	index      []int           // the field in sessionJSON
	key        string          // the key as the body wrote it
	raw        json.RawMessage // the value as the body wrote it
	value      string          // the field's text read from raw
	namespaced bool
}

// member is one key and its encoded value, appended to the body.
type member struct {
	key string
	raw []byte
}

// respelled returns a copy of r whose fields that are written in another
// spelling (see spelling) or in namespace ns are empty, and those fields as
// members to append. ns "" keeps the decoded spelling of namespaced keys;
// any other value writes them in ns.
func (r *SessionRequest) respelled(ns string) (*SessionRequest, []member) {
	cp := *r
	if cp.Mandate != nil {
		m := *cp.Mandate
		cp.Mandate = &m
	}
	w := sessionJSON{sessionFields: (*sessionFields)(&cp), Mandate: cp.Mandate}
	wv := reflect.ValueOf(&w).Elem()
	var tail []member
	for _, s := range r.spelled {
		f, err := wv.FieldByIndexErr(s.index)
		if err != nil || f.String() != s.value || (s.namespaced && ns != "") {
			continue
		}
		tail = append(tail, member{s.key, s.raw})
		f.SetString("")
	}
	if ns != "" && ns != DefaultNamespace {
		for _, nf := range sessionNamespaced() {
			f, err := wv.FieldByIndexErr(nf.Index)
			if err != nil || f.String() == "" {
				continue
			}
			v, _ := marshalNoEscape(f.String()) // a string always encodes
			tail = append(tail, member{inNamespace(nf.Key, ns), v})
			f.SetString("")
		}
	}
	return &cp, tail
}

// checkEncodable records the problems that would make the encoded body
// differ from the request: text that is not valid UTF-8 (encoding would
// replace it with U+FFFD), and Extra keys that are empty, hold control
// characters or belong to a typed field, and Extra values holding invalid
// UTF-8 anywhere inside.
func (r *SessionRequest) checkEncodable(c *valid.Collector) {
	w := r.wire()
	for _, fc := range sessionChecks() {
		if f, err := reflect.ValueOf(&w).Elem().FieldByIndexErr(fc.index); err == nil && !utf8.ValidString(f.String()) {
			c.Add(fc.key, "is not valid UTF-8")
		}
	}
	checkExtra(c, r.Extra, sessionOwns, "SessionRequest")
}

// MarshalJSON returns the JSON body CreateSession sends: the service's flat
// keys, product_summary as a JSON string holding the array, mandate dates as
// Unix seconds in text, then the Extra keys, sorted; empty fields are left
// out. A request read by UnmarshalJSON is written back as it was read:
// typed values given as JSON numbers stay numbers, and older or
// namespaced keys (mandate_max_amount,
// metadata.JUSPAY:gateway_reference_id) keep their spelling while the
// field keeps its value; CreateSession itself writes the gateway reference
// in the client's namespace ([WithNamespace]). json.Marshal escapes <, >
// and & in strings of what it returns (the same JSON value; the client
// itself sends them unescaped). It does not run Validate, so an incomplete
// request can be stored, but it fails with a *ValidationError when the body
// could not say what the request says: text that is not valid UTF-8, or an
// Extra key that is not valid UTF-8 or belongs to a typed field.
func (r SessionRequest) MarshalJSON() ([]byte, error) {
	var c valid.Collector
	r.checkEncodable(&c)
	if err := c.Err(); err != nil {
		return nil, err
	}
	return r.encode()
}

// decodeSessionOp names the operation in the errors of decoding a session
// request: "checkout: decode session request: invalid request: …".
const decodeSessionOp = "decode session request"

// UnmarshalJSON reads a session request body as MarshalJSON writes it and
// as the service's published samples show it: every key the typed fields do
// not own goes to Extra (numbers kept as json.Number, so their text is
// unchanged). It does not run Validate and changes no value: an amount such
// as "1.0" stays "1.0", and a typed text key given as a JSON number keeps
// the number's text ("amount": 100 reads as "100") and is written back as a
// number. The older spelling mandate_max_amount reads into
// Mandate.MaxAmount when mandate.max_amount is absent, and the gateway
// reference key is read in any namespace (metadata.JUSPAY:…) when the
// default one is absent; both are written back as read. A typed key given
// as anything else (null, a boolean, an object), a mandate date that is not
// canonical decimal seconds, invalid UTF-8, or a malformed payment_filter or
// product_summary is a *ValidationError naming the key, or inside
// payment_filter and product_summary the exact path of the offending value
// ("payment_filter.options[1].enable", "product_summary[1][1].type"). A
// failed decode leaves r unchanged; JSON null does too.
//
// product_summary is held as a productsummary.Summary, so MarshalJSON
// writes its JSON text as package productsummary does: the same array, but
// not always the same characters.
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
	if len(b) == 0 || b[0] != '{' {
		return &ValidationError{Op: decodeSessionOp, Problems: []Problem{{Message: "session request must be a JSON object, not " + kindOf(b)}}}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return fmt.Errorf("checkout: session request: %w", err)
	}
	var (
		out SessionRequest
		c   valid.Collector
	)
	w := sessionJSON{sessionFields: (*sessionFields)(&out)}
	wv := reflect.ValueOf(&w).Elem()
	read := map[string]bool{} // typed fields read from another spelling
	for _, k := range slices.Sorted(maps.Keys(members)) {
		raw := bytes.TrimSpace(members[k])
		f, typed := sessionKeys()[k]
		respelled := false
		if !typed {
			f, respelled = otherSpelling(k, members, read)
			typed = respelled
		}
		if !typed {
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				c.Add(k, "cannot be decoded: "+err.Error())
				continue
			}
			if out.Extra == nil {
				out.Extra = make(map[string]any, len(members))
			}
			out.Extra[k] = v
			continue
		}
		field := fieldAt(wv, f.Index)
		decodeMember(&c, k, raw, field)
		if field.Kind() == reflect.String && (respelled || kindOf(raw) != "string") {
			out.spelled = append(out.spelled, spelling{index: f.Index, key: k, raw: bytes.Clone(raw),
				value: field.String(), namespaced: isNamespaced(f.Key)})
		}
	}
	if err := c.Err(); err != nil {
		return valid.ForOp(decodeSessionOp, err)
	}
	out.ProductSummary = (*productsummary.Summary)(w.ProductSummary)
	out.Mandate = w.Mandate
	if !time.Time(w.StartDate).IsZero() || !time.Time(w.EndDate).IsZero() {
		if out.Mandate == nil {
			out.Mandate = new(Mandate)
		}
		out.Mandate.StartDate, out.Mandate.EndDate = time.Time(w.StartDate), time.Time(w.EndDate)
	}
	*r = out
	return nil
}

// otherSpelling returns the typed field k writes in another spelling (an
// alias, or a namespaced key in another namespace), when the body does not
// also hold the field's own key and no other spelling of it was read.
func otherSpelling(k string, members map[string]json.RawMessage, read map[string]bool) (tags.Field, bool) {
	f, ok := sessionAliases()[k]
	if !ok {
		f, ok = otherNamespace(k)
	}
	if !ok || read[f.Key] {
		return tags.Field{}, false
	}
	if _, own := members[f.Key]; own {
		return tags.Field{}, false
	}
	read[f.Key] = true
	return f, true
}

// fieldAt returns the field at index in v, allocating the embedded
// pointers on the way.
func fieldAt(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// decodeMember decodes the value of one typed key into field, recording a
// problem at key when it does not fit. Text fields take a JSON string, or a
// number as its text, without their own decoding (an amount stays as sent).
func decodeMember(c *valid.Collector, key string, raw json.RawMessage, field reflect.Value) {
	raw = bytes.TrimSpace(raw)
	text := field.Kind() == reflect.String
	switch {
	case text && len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			c.Add(key, "cannot be decoded: "+err.Error())
			return
		}
		field.SetString(s)
	case text && lenient.IsNumber(string(raw)):
		field.SetString(string(raw))
	case text:
		c.Add(key, "must be a JSON string, not "+kindOf(raw))
	case kindOf(raw) == "null":
		c.Add(key, "must not be null")
	default:
		err := json.Unmarshal(raw, field.Addr().Interface())
		var de *productsummary.DecodeError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &de):
			addSummaryProblem(c, key, de)
		case errors.As(err, &te):
			c.Add(valid.Join(key, te.Field), "cannot be a JSON "+te.Value)
		default:
			mergeProblems(c, key, err)
		}
	}
}

// addSummaryProblem reports a product_summary decode error at the exact path
// of the offending value (such as "product_summary[1][1].type"), with the
// message and underlying error but without the "checkout: decode product summary:
// <path>:" prefix the path replaces.
func addSummaryProblem(c *valid.Collector, key string, de *productsummary.DecodeError) {
	path := de.Path
	if path != key && !strings.HasPrefix(path, key+"[") && !strings.HasPrefix(path, key+".") {
		path = valid.Join(key, path)
	}
	msg := de.Message
	if de.Err != nil {
		msg += ": " + de.Err.Error()
	}
	c.Add(path, msg)
}

// summaryText is a product summary on the wire: a JSON string holding the
// summary's array.
type summaryText productsummary.Summary

// MarshalJSON returns the summary's JSON text as a JSON string.
func (s summaryText) MarshalJSON() ([]byte, error) {
	text, err := marshalNoEscape(productsummary.Summary(s))
	if err != nil {
		return nil, err
	}
	return marshalNoEscape(string(text))
}

// UnmarshalJSON reads a JSON string holding the summary's array.
func (s *summaryText) UnmarshalJSON(data []byte) error {
	var text string
	if len(data) == 0 || data[0] != '"' || json.Unmarshal(data, &text) != nil {
		return errors.New("must be a JSON string holding the summary's array, not " + kindOf(data))
	}
	return (*productsummary.Summary)(s).UnmarshalText([]byte(text))
}

// unixTime is a mandate date on the wire: Unix seconds in decimal text
// ("1644420442"). The zero time is not sent: wire leaves it the zero
// struct, which omitzero leaves out without calling a method (an IsZero
// method would box the time on every encoding).
type unixTime time.Time

// MarshalJSON returns the Unix seconds as a JSON string.
func (t unixTime) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, strconv.FormatInt(time.Time(t).Unix(), 10)), nil
}

// UnmarshalJSON reads Unix seconds given as canonical decimal text or as a
// JSON number.
func (t *unixTime) UnmarshalJSON(data []byte) error {
	s := string(data)
	if len(data) > 0 && data[0] == '"' && json.Unmarshal(data, &s) != nil {
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
