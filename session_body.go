package checkout

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
)

// Encoding the body CreateSession sends, in one encoding/json pass where
// it can (the keys and decoding are in session_json.go).

// encode returns the body without checking it, as MarshalJSON writes it.
func (r *SessionRequest) encode() ([]byte, error) { return r.encodeIn("") }

// encodeIn returns the body without checking it (CreateSession has run
// Validate), writing namespaced keys in ns ("" keeps a decoded body's
// spelling, else DefaultNamespace). An Extra value that cannot be encoded is
// a *ValidationError.
func (r *SessionRequest) encodeIn(ns string) ([]byte, error) {
	src, tail := r, []member(nil)
	if len(r.spelled) > 0 || (ns != "" && ns != DefaultNamespace) {
		src, tail = r.respelled(ns)
	}
	body, err := src.marshalBody()
	if err != nil || (len(tail) == 0 && len(r.Extra) == 0) {
		return body, err
	}
	body = body[:len(body)-1] // reopen the object
	add := func(key string, v []byte) {
		if len(body) > 1 {
			body = append(body, ',')
		}
		k, _ := marshalNoEscape(key) // a string always encodes
		body = append(append(append(body, k...), ':'), v...)
	}
	for _, m := range tail {
		add(m.key, m.raw)
	}
	var c valid.Collector
	for _, k := range slices.Sorted(maps.Keys(r.Extra)) {
		v, err := marshalNoEscape(r.Extra[k])
		if err != nil {
			c.Add(k, "value cannot be encoded as JSON: "+err.Error())
			continue
		}
		add(k, v)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return append(body, '}'), nil
}

// bodyPlain is sessionBody without the methods of the payment filter's
// types (see internal/tagjson), so that encoding/json writes the filter in
// the body's own pass: through Filter.MarshalJSON it scanned the filter's
// JSON once more. The nested types are those whose MarshalJSON only adds
// their Extra keys, as package paymentfilter lists them for its own
// one-pass encoding (TestBodyOnePassSameBytes compares the two ways).
var bodyPlain = sync.OnceValue(func() tagjson.Plain[sessionBody] {
	return tagjson.PlainOf[sessionBody](reflect.TypeFor[sessionFields](),
		reflect.TypeFor[paymentfilter.Filter](), reflect.TypeFor[paymentfilter.Option](),
		reflect.TypeFor[paymentfilter.CardFilter](), reflect.TypeFor[paymentfilter.UPIFilter](),
		reflect.TypeFor[emi.Options](), reflect.TypeFor[emi.SubFilter](), reflect.TypeFor[emi.Group](),
		reflect.TypeFor[emi.Filter](), reflect.TypeFor[emi.IssuerFilter]())
})

// marshalBody encodes the typed fields of r in one encoding/json pass when
// it can. The product summary's text is made first and quoted in the same
// pass as the rest (see sessionBody); a summary that cannot be encoded
// takes the path through summaryText.MarshalJSON, which reports it. The
// payment filter is written in the same pass too (see bodyPlain) unless
// Filter.MarshalJSON would write it otherwise: with Extra keys, with no
// options (which it writes as [] or leaves out), or with <, > or & in its
// text (which it escapes), and when the one pass fails.
func (r *SessionRequest) marshalBody() ([]byte, error) {
	w := r.wire()
	b := sessionBody{sessionFields: w.sessionFields, Mandate: w.Mandate, StartDate: w.StartDate, EndDate: w.EndDate}
	if w.ProductSummary != nil {
		text, err := productsummary.Summary(*w.ProductSummary).MarshalJSON()
		if err != nil {
			return marshalNoEscape(&w)
		}
		b.ProductSummary = string(text)
	}
	if f := r.PaymentFilter; f == nil || len(f.Options) > 0 {
		if view, ok := bodyPlain().View(&b); ok {
			body, err := marshalNoEscape(view)
			// A body without <, > and & has none in the filter: only
			// otherwise is the filter walked to see whether it has.
			if err == nil && (f == nil || !hasHTMLSpecial(body) || tagjson.HTMLFree(f)) {
				return body, nil
			}
		}
	}
	return marshalNoEscape(&b)
}

// hasHTMLSpecial reports whether b holds <, > or &.
func hasHTMLSpecial(b []byte) bool {
	return bytes.IndexByte(b, '<') >= 0 || bytes.IndexByte(b, '>') >= 0 || bytes.IndexByte(b, '&') >= 0
}
