// Package deepcopy copies the request models (payment filters, EMI
// options) so that the copy shares nothing a caller can change: every
// exported pointer, slice and map is copied, down to the bytes of a
// json.RawMessage. It reads the fields by reflection, so a field added to
// a model is copied without anyone listing it.
package deepcopy

import "reflect"

// Of returns a deep copy of *v, or nil for nil. Unexported fields and
// interface values are copied as they are (a shallow copy): a type holding
// an unexported slice or map that it changes later copies that field
// itself. A nil slice or
// map stays nil and an empty one stays empty, so the copy is
// reflect.DeepEqual to v.
func Of[T any](v *T) *T {
	if v == nil {
		return nil
	}
	c := *v
	exported(reflect.ValueOf(&c).Elem())
	return &c
}

// exported replaces, in the settable value v, every pointer, slice and map
// reachable through exported fields with a copy of its own.
func exported(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(v.Elem())
			exported(p.Elem())
			v.Set(p)
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(s, v)
			for i := range s.Len() {
				exported(s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Map:
		if !v.IsNil() {
			m := reflect.MakeMapWithSize(v.Type(), v.Len())
			for iter := v.MapRange(); iter.Next(); {
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(iter.Value())
				exported(e)
				m.SetMapIndex(iter.Key(), e)
			}
			v.Set(m)
		}
	case reflect.Array:
		for i := range v.Len() {
			exported(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				exported(v.Field(i))
			}
		}
	}
}
