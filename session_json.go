package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
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

// sessionJSON is a SessionRequest as it travels: its own fields, with
// product_summary as a JSON string and the mandate dates as Unix seconds in
// text. Both directions go through it, so each key is declared once.
type sessionJSON struct {
	*sessionFields
	ProductSummary *summaryText `json:"product_summary,omitempty"`
	StartDate      unixTime     `json:"mandate.start_date,omitzero"`
	EndDate        unixTime     `json:"mandate.end_date,omitzero"`
}

// wire returns the traveling form of r, sharing its fields.
func (r *SessionRequest) wire() sessionJSON {
	w := sessionJSON{sessionFields: (*sessionFields)(r)}
	if r.ProductSummary != nil && len(*r.ProductSummary) > 0 {
		w.ProductSummary = (*summaryText)(r.ProductSummary)
	}
	if m := r.Mandate; m != nil {
		w.StartDate, w.EndDate = unixTime(m.StartDate), unixTime(m.EndDate)
	}
	return w
}

var (
	sessionChecks = checksOf[sessionJSON]("json")
	sessionNames  = namesOf[sessionJSON]("json")
	// sessionKeys are the keys the typed fields of a session request own.
	sessionKeys = sync.OnceValue(func() map[string]tags.Field {
		out := map[string]tags.Field{}
		for _, f := range tags.Fields(reflect.TypeFor[sessionJSON](), "json") {
			out[f.Key] = f
		}
		return out
	})
)

func sessionKey(k string) bool { _, ok := sessionKeys()[k]; return ok }

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
	checkExtra(c, r.Extra, sessionKey, "SessionRequest")
}

// MarshalJSON returns the JSON body CreateSession sends: the service's flat
// keys, product_summary as a JSON string holding the array, mandate dates as
// Unix seconds in text, then the Extra keys, sorted; empty fields are left
// out. json.Marshal escapes <, > and & in strings of what it returns (the
// same JSON value; the client itself sends them unescaped). It does not run
// Validate, so an incomplete request can be stored, but it fails with a
// *ValidationError when the body could not say what the request says: text
// that is not valid UTF-8, or an Extra key that is empty, holds control
// characters or belongs to a typed field.
func (r SessionRequest) MarshalJSON() ([]byte, error) {
	var c valid.Collector
	r.checkEncodable(&c)
	if err := c.Err(); err != nil {
		return nil, err
	}
	return r.encode()
}

// encode returns the body without checking it (CreateSession has run
// Validate). An Extra value that cannot be encoded is a *ValidationError.
func (r *SessionRequest) encode() ([]byte, error) {
	w := r.wire()
	body, err := marshalNoEscape(&w)
	if err != nil || len(r.Extra) == 0 {
		return body, err
	}
	body = body[:len(body)-1] // reopen the object
	var c valid.Collector
	for _, k := range sortedKeys(r.Extra) {
		v, err := marshalNoEscape(r.Extra[k])
		if err != nil {
			c.Add(k, "value cannot be encoded as JSON: "+err.Error())
			continue
		}
		if len(body) > 1 {
			body = append(body, ',')
		}
		key, _ := marshalNoEscape(k) // a string always encodes
		body = append(append(append(body, key...), ':'), v...)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return append(body, '}'), nil
}

// UnmarshalJSON reads a session request body as MarshalJSON writes it and
// as the service's published samples show it: every key the typed fields do
// not own goes to Extra (numbers kept as json.Number, so their text is
// unchanged). It does not run Validate and changes no value: an amount such
// as "1.0" stays "1.0". A typed text key given as a JSON number keeps the
// number's text ("amount": 100 reads as "100"). A typed key given as
// anything else (null, a boolean, an object), a mandate date that is not
// canonical decimal seconds, invalid UTF-8, an Extra key that is empty or
// holds control characters, or a malformed payment_filter or
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
		return &ValidationError{Problems: []Problem{{Message: "session request is not valid UTF-8"}}}
	}
	if len(b) == 0 || b[0] != '{' {
		return &ValidationError{Problems: []Problem{{Message: "session request must be a JSON object, not " + kindOf(b)}}}
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
	for _, k := range sortedKeys(members) {
		if f, ok := sessionKeys()[k]; ok {
			decodeMember(&c, k, members[k], fieldAt(wv, f.Index))
			continue
		}
		if !checkExtraKey(&c, k) {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(members[k]))
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
	}
	if err := c.Err(); err != nil {
		return err
	}
	out.ProductSummary = (*productsummary.Summary)(w.ProductSummary)
	if !w.StartDate.IsZero() || !w.EndDate.IsZero() {
		if out.Mandate == nil {
			out.Mandate = new(Mandate)
		}
		out.StartDate, out.EndDate = time.Time(w.StartDate), time.Time(w.EndDate)
	}
	*r = out
	return nil
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
// message and underlying error but without the "productsummary: decode
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
// ("1644420442"); the zero time is not sent.
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
