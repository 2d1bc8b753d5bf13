package checkouttest

import (
	"encoding"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/tags"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/validation"
)

// The fake reads a form body into the request type of package checkout
// that the client encodes it from, so that the type's own Validate decides
// what is refused. go-querystring only encodes; the keys come from the same
// url tags it reads, never from a list written here. Where a field's type
// writes keys of its own (an address writes billing_address_city, the
// collection links write a flag beside their JSON text), go-querystring is
// asked which keys a field writes, by encoding a probe.

// formField is how one form key sets a field of the request.
type formField struct {
	index []int // the field in the request type
	inner []int // for a field of a nested struct (an address): the field inside it
}

// formType is what the fake knows of a request type's form.
type formType struct {
	keys  map[string]formField // key → the text, bool or text-unmarshaler field it sets
	owned map[string]bool      // every key a typed field writes (companion keys too)
	extra []int                // the Extra map[string]string field, nil when none
}

var formTypes sync.Map // reflect.Type → *formType

// formTypeOf returns, once per type, the form of struct type t.
func formTypeOf(t reflect.Type) *formType {
	if ft, ok := formTypes.Load(t); ok {
		return ft.(*formType)
	}
	ft := &formType{keys: map[string]formField{}, owned: map[string]bool{}}
	base := probe(reflect.New(t).Elem())
	for _, f := range tags.Fields(t, "url") {
		switch ft.kind(f.Type) {
		case kindText, kindBool, kindUnmarshaler:
			ft.keys[f.Key] = formField{index: f.Index}
			ft.owned[f.Key] = true
			if ft.kind(f.Type) == kindUnmarshaler {
				v := reflect.New(t).Elem()
				v.FieldByIndex(f.Index).Set(reflect.New(f.Type.Elem()))
				for k := range probe(v) {
					_, always := base[k]
					ft.owned[k] = ft.owned[k] || !always
				}
			}
		case kindNested:
			elem := f.Type.Elem()
			for _, in := range tags.Fields(elem, "url") {
				if in.Type.Kind() != reflect.String {
					continue
				}
				v := reflect.New(t).Elem()
				nested := reflect.New(elem)
				const marker = "\x00checkouttest-probe"
				nested.Elem().FieldByIndex(in.Index).SetString(marker)
				v.FieldByIndex(f.Index).Set(nested)
				for k, vs := range probe(v) {
					if len(vs) == 1 && vs[0] == marker {
						ft.keys[k] = formField{index: f.Index, inner: in.Index}
						ft.owned[k] = true
					}
				}
			}
		}
	}
	if sf, ok := t.FieldByName("Extra"); ok && sf.Type == reflect.TypeFor[map[string]string]() {
		ft.extra = sf.Index
	}
	actual, _ := formTypes.LoadOrStore(t, ft)
	return actual.(*formType)
}

// wireKey returns the key the tag (json or url) of field name of T
// declares, "" when T has no such field on the wire.
func wireKey[T any](tag, name string) string {
	for _, f := range tags.Fields(reflect.TypeFor[T](), tag) {
		if f.Name == name {
			return f.Key
		}
	}
	return ""
}

// probe returns the form go-querystring writes for the struct v, or
// nothing when it cannot encode it.
func probe(v reflect.Value) url.Values {
	out, err := query.Values(v.Addr().Interface())
	if err != nil {
		return url.Values{}
	}
	return out
}

type fieldKind int

const (
	kindOther       fieldKind = iota // keys written by the type itself (gateway metadata): left to Extra
	kindText                         // a string, or a type with a string underneath (checkout.Amount)
	kindBool                         // "true" or "false"
	kindUnmarshaler                  // a pointer to a type that reads its own text (the collection links)
	kindNested                       // a pointer to a struct whose fields have url tags (an address)
)

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

func (*formType) kind(t reflect.Type) fieldKind {
	switch {
	case t.Kind() == reflect.String:
		return kindText
	case t.Kind() == reflect.Bool:
		return kindBool
	case t.Kind() != reflect.Pointer:
		return kindOther
	case t.Implements(textUnmarshaler):
		return kindUnmarshaler
	case t.Elem().Kind() == reflect.Struct && len(tags.Fields(t.Elem(), "url")) > 0:
		return kindNested
	}
	return kindOther
}

// formOK reads the form into req (see readForm) and, when the service would
// refuse it, writes the refusal; it reports whether the handler goes on.
func formOK(w http.ResponseWriter, p *problems, r *http.Request, body []byte, req interface{ Validate() error }) bool {
	readForm(p, r, body, req)
	if !p.empty() {
		p.write(w)
		return false
	}
	return true
}

// versionedFormOK is formOK for the calls whose version header is
// optional: the header is checked as optionalVersion checks it, and its
// problems are refused together with the form's.
func versionedFormOK(w http.ResponseWriter, r *http.Request, body []byte, req interface{ Validate() error }) bool {
	p := &problems{}
	optionalVersion(p, r)
	return formOK(w, p, r, body, req)
}

// readForm reads a form body into req, a request type of package checkout,
// and validates it, adding to p what the content type, the form or req's
// Validate refuses.
func readForm(p *problems, r *http.Request, body []byte, req interface{ Validate() error }) {
	if mt := mediaType(r); mt != "application/x-www-form-urlencoded" {
		p.bad("Content-Type", fmt.Sprintf("must be application/x-www-form-urlencoded, got %q", r.Header.Get("Content-Type")))
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		p.bad("body", "is not a well-formed form: "+err.Error())
		return
	}
	if err = decodeForm(form, req); err == nil {
		err = req.Validate()
	}
	if err != nil {
		p.refuse(err, formDoc(form))
	}
}

// decodeForm sets the request dst points to from form: each key a typed
// field writes goes to that field, every other key to the type's Extra
// (and is dropped by a type without one, as the service ignores keys it
// does not read). What cannot be read into the type is a
// *validation.Error naming the key: a key sent more than once (a field
// holds one value), a flag that is not "true" or "false", text the field's
// type does not read.
func decodeForm(form url.Values, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	ft := formTypeOf(v.Type())
	var c valid.Collector
	for _, k := range slices.Sorted(maps.Keys(form)) {
		vals := form[k]
		if len(vals) != 1 {
			c.Add(k, "is sent "+strconv.Itoa(len(vals))+" times")
			continue
		}
		f, typed := ft.keys[k]
		switch {
		case typed:
			setFormField(&c, k, vals[0], ft, v, f)
		case ft.owned[k]: // a companion key (the collection link flag) the typed field writes itself
		case ft.extra != nil:
			m := v.FieldByIndex(ft.extra)
			if m.IsNil() {
				m.Set(reflect.MakeMap(m.Type()))
			}
			m.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(vals[0]))
		}
	}
	return c.Err()
}

func setFormField(c *valid.Collector, key, text string, ft *formType, v reflect.Value, f formField) {
	field := v.FieldByIndex(f.index)
	if f.inner != nil {
		if field.IsNil() {
			field.Set(reflect.New(field.Type().Elem()))
		}
		field.Elem().FieldByIndex(f.inner).SetString(text)
		return
	}
	switch ft.kind(field.Type()) {
	case kindText:
		field.SetString(text)
	case kindBool:
		b, err := strconv.ParseBool(text)
		if err != nil || (text != "true" && text != "false") {
			c.Add(key, strconv.Quote(text)+" is neither true nor false")
			return
		}
		field.SetBool(b)
	case kindUnmarshaler:
		p := reflect.New(field.Type().Elem())
		err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(text))
		var ve *validation.Error
		switch {
		case errors.As(err, &ve):
			c.Merge(key, ve)
		case err != nil:
			c.Add(key, err.Error())
		default:
			field.Set(p)
		}
	}
}
