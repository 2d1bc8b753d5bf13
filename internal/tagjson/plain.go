package tagjson

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
)

// plainEncoding lets Marshal encode a whole tree in one encoding/json pass
// when no object below the top has Extra keys, which is what the fluent
// builders make. encoding/json re-scans the output of every MarshalJSON it
// calls, so a tree of types that each add their Extra that way is scanned
// once per level (six levels in an emiOptions); encoding a method-free
// copy of the type, made by reflection from the same fields and tags,
// scans nothing twice. It is what keeps paymentfilter's
// BenchmarkFilterMarshal below BenchmarkFilterMarshalMap (the same tree as
// map[string]any): per level, the largest realistic filter encodes about
// twice as slowly as the map; in one pass, about three times as fast.
type plainEncoding struct {
	typ reflect.Type // the struct type with the fields, tags and layout of the Object's type, no methods
	// walk lists, for each type in the tree that adds Extra, the fields
	// to look into for Extra keys.
	walk map[reflect.Type]*extraFields
}

// extraFields says where Extra keys can sit in values of one struct type.
type extraFields struct {
	extra int   // index of the Extra field, -1 when none
	kids  []int // fields whose type holds a type that adds Extra
}

// WithPlain lets Marshal encode values of o's type in one encoding/json
// pass (see plainEncoding) while no object below the top has Extra keys.
// nested are the types in the tree (of fields, through pointers, slices
// and arrays) whose MarshalJSON does nothing but add their Extra keys to
// what their tags declare: their copies have no methods. It returns o.
// When a copy cannot have the same memory layout (never with plain
// structs), Marshal keeps to the per-level path.
func (o *Object) WithPlain(nested ...reflect.Type) *Object {
	allowed := map[reflect.Type]bool{o.typ: true}
	for _, t := range nested {
		allowed[t] = true
	}
	p := &plainEncoding{walk: map[reflect.Type]*extraFields{}}
	t, ok := p.copyOf(o.typ, allowed, map[reflect.Type]reflect.Type{})
	if ok {
		p.typ = t
		o.plain = p
	}
	return o
}

// copyOf returns the method-free copy of t: the allowed struct types are
// copied field by field, and other types are kept, except that pointers,
// slices and arrays of allowed types become pointers, slices and arrays of
// their copies. ok is false when a copy would not have t's layout.
func (p *plainEncoding) copyOf(t reflect.Type, allowed map[reflect.Type]bool, done map[reflect.Type]reflect.Type) (reflect.Type, bool) {
	switch t.Kind() {
	case reflect.Pointer:
		e, ok := p.copyOf(t.Elem(), allowed, done)
		if e == t.Elem() || !ok {
			return t, ok
		}
		return reflect.PointerTo(e), true
	case reflect.Slice:
		e, ok := p.copyOf(t.Elem(), allowed, done)
		if e == t.Elem() || !ok {
			return t, ok
		}
		return reflect.SliceOf(e), true
	case reflect.Array:
		e, ok := p.copyOf(t.Elem(), allowed, done)
		if e == t.Elem() || !ok {
			return t, ok
		}
		return reflect.ArrayOf(t.Len(), e), true
	case reflect.Struct:
		if !allowed[t] {
			return t, true
		}
	default:
		return t, true
	}
	if c, seen := done[t]; seen {
		return c, c != nil // nil: t holds itself, which a copy cannot
	}
	done[t] = nil
	w := &extraFields{extra: -1}
	fields := make([]reflect.StructField, t.NumField())
	for i := range fields {
		sf := t.Field(i)
		f := reflect.StructField{Name: sf.Name, Type: sf.Type, Tag: sf.Tag, Anonymous: sf.Anonymous}
		switch {
		case sf.Anonymous:
			// An embedded struct or pointer to one: encoding/json lifts
			// its fields whatever the field's name, which a copy must
			// spell exported.
			if !sf.IsExported() {
				f.Name = "Embedded_" + sf.Name
			}
			c, ok := p.copyOf(sf.Type, allowed, done)
			if !ok || c.Kind() != reflect.Struct && (c.Kind() != reflect.Pointer || c.Elem().Kind() != reflect.Struct) {
				return t, false
			}
			if c != sf.Type {
				w.kids = append(w.kids, i)
			}
			f.Type = c
		case !sf.IsExported():
			f.Name, f.Tag = "Unexported_"+strconv.Itoa(i)+"_"+sf.Name, `json:"-"`
		case sf.Name == "Extra" && sf.Type == rawMapType:
			w.extra = i
		default:
			c, ok := p.copyOf(sf.Type, allowed, done)
			if !ok {
				return t, false
			}
			if c != sf.Type {
				w.kids = append(w.kids, i)
			}
			f.Type = c
		}
		fields[i] = f
	}
	c := reflect.StructOf(fields)
	if c.Size() != t.Size() || c.Align() != t.Align() {
		return t, false
	}
	for i := range fields {
		if c.Field(i).Offset != t.Field(i).Offset {
			return t, false
		}
	}
	done[t] = c
	p.walk[t] = w
	return c, true
}

// nestedExtra reports whether v, a value of a type in the tree, or any
// value below it holds Extra keys; below is whether v itself is below the
// top (the top's own Extra is added by Marshal).
func (p *plainEncoding) nestedExtra(v reflect.Value, below bool) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return !v.IsNil() && p.nestedExtra(v.Elem(), below)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p.nestedExtra(v.Index(i), below) {
				return true
			}
		}
		return false
	}
	w := p.walk[v.Type()]
	if w == nil {
		return false
	}
	if below && w.extra >= 0 && v.Field(w.extra).Len() > 0 {
		return true
	}
	for _, i := range w.kids {
		if p.nestedExtra(v.Field(i), true) {
			return true
		}
	}
	return false
}

// Plain is the method-free copy of a struct type T whose tree holds types
// with Extra keys (see plainEncoding), for a caller that encodes T itself,
// in one pass with its own encoder.
type Plain[T any] struct{ p *plainEncoding }

// PlainOf returns the method-free copy of struct type T, in which T itself
// and nested (as in [Object.WithPlain]) lose their methods. T may embed
// structs or pointers to structs; embedded types that are not in nested
// keep theirs. It panics when a copy cannot have T's layout, when the
// package using it is initialised.
func PlainOf[T any](nested ...reflect.Type) Plain[T] {
	t := reflect.TypeFor[T]()
	allowed := map[reflect.Type]bool{t: true}
	for _, n := range nested {
		allowed[n] = true
	}
	p := &plainEncoding{walk: map[reflect.Type]*extraFields{}}
	c, ok := p.copyOf(t, allowed, map[reflect.Type]reflect.Type{})
	if !ok {
		panic("tagjson: no method-free copy of " + t.String())
	}
	p.typ = c
	return Plain[T]{p}
}

// View returns v as a pointer to T's copy, which encoding/json encodes as
// it would encode *v through the MarshalJSON methods of the nested types,
// except for HTML escaping (see [HTMLFree]). ok is false when a value
// below the top holds Extra keys, which only those methods add.
func (p Plain[T]) View(v *T) (view any, ok bool) {
	rv := reflect.ValueOf(v)
	if p.p.nestedExtra(rv.Elem(), false) {
		return nil, false
	}
	return reflect.NewAt(p.p.typ, rv.UnsafePointer()).Interface(), true
}

// HTMLFree reports whether no string in v, exported or not, anywhere
// below it through pointers, interfaces, structs, slices, arrays and maps,
// holds <, > or &. [Object.Marshal] encodes with json.Marshal, which
// escapes them (\u003c); an encoder without HTML escaping writes them as
// they are, so the two give the same bytes only for such a value (the text
// marshalers of the SDK's types write nothing but their fields' text and
// fixed separators).
func HTMLFree(v any) bool { return htmlFree(reflect.ValueOf(v), 0) }

func htmlFree(v reflect.Value, depth int) bool {
	if !v.IsValid() || depth > 64 {
		return depth <= 64
	}
	switch v.Kind() {
	case reflect.String:
		return !strings.ContainsAny(v.String(), "<>&")
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || htmlFree(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if !htmlFree(v.Field(i), depth+1) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Kind() == reflect.Array || !bytes.ContainsAny(v.Bytes(), "<>&")
		}
		for i := range v.Len() {
			if !htmlFree(v.Index(i), depth+1) {
				return false
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if !htmlFree(iter.Key(), depth+1) || !htmlFree(iter.Value(), depth+1) {
				return false
			}
		}
	}
	return true
}
