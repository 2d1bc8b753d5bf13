// Package tags reads the wire keys that struct tags give a type's fields,
// the way encoding/json and go-querystring read them. Code that needs the
// keys (which keys a request type owns, the path of a problem, the field a
// lenient decoder fills) derives them from the one declaration, the tag,
// instead of writing them out again.
package tags

import (
	"reflect"
	"strings"
)

// Field is one field that a tag puts on the wire.
type Field struct {
	// Name is the Go field name.
	Name string
	// Key is the wire key: the tag's name, or the Go name when the tag
	// gives none.
	Key string
	// Index is the field's index sequence, for reflect.Value.FieldByIndex
	// (embedded structs make it longer than one).
	Index []int
	// Type is the field's type.
	Type reflect.Type
	// Options is what follows the key in the tag ("omitempty", …).
	Options string
	// Tag is the field's whole struct tag, for the other keys a caller
	// reads beside the wire key (such as a check:"…" of its own).
	Tag reflect.StructTag

	tagged bool
}

// Has reports whether the tag's options name option ("omitempty",
// "omitzero", "string", …).
func (f Field) Has(option string) bool {
	for o := range strings.SplitSeq(f.Options, ",") {
		if o == option {
			return true
		}
	}
	return false
}

// Fields returns the fields of struct type t (or pointer to one) that the
// tag named tag ("json", "url") puts on the wire, in field order: exported
// fields whose tag is not "-", with the fields of an embedded struct, or
// pointer to struct, that has no tag name taking its place. When two fields
// claim one key, the shallower wins, then the tagged one; a tie hides both,
// as encoding/json does. Any other type has no fields.
func Fields(t reflect.Type, tag string) []Field {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var all []Field
	collect(&all, t, tag, nil, map[reflect.Type]bool{})
	return dominant(all)
}

func collect(out *[]Field, t reflect.Type, tag string, index []int, seen map[reflect.Type]bool) {
	if seen[t] {
		return // an embedding cycle through pointers
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
			continue
		}
		value := sf.Tag.Get(tag)
		if value == "-" {
			continue
		}
		name, opts, _ := strings.Cut(value, ",")
		idx := append(append([]int(nil), index...), i)
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			collect(out, ft, tag, idx, seen)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		f := Field{Name: sf.Name, Key: name, Index: idx, Type: sf.Type, Options: opts, Tag: sf.Tag, tagged: name != ""}
		if f.Key == "" {
			f.Key = sf.Name
		}
		*out = append(*out, f)
	}
}

// dominant keeps, for each key, the field encoding/json would use.
func dominant(all []Field) []Field {
	byKey := make(map[string][]int, len(all))
	for i, f := range all {
		byKey[f.Key] = append(byKey[f.Key], i)
	}
	out := all[:0:0]
	for i, f := range all {
		rivals := byKey[f.Key]
		if len(rivals) == 1 {
			out = append(out, f)
			continue
		}
		if winner(all, rivals) == i {
			out = append(out, f)
		}
	}
	return out
}

// winner returns the index in all of the field that wins among rivals, or
// -1 when none does.
func winner(all []Field, rivals []int) int {
	depth := len(all[rivals[0]].Index)
	for _, i := range rivals {
		depth = min(depth, len(all[i].Index))
	}
	win, tagged, n := -1, 0, 0
	for _, i := range rivals {
		if len(all[i].Index) != depth {
			continue
		}
		n++
		if all[i].tagged {
			tagged++
			win = i
		}
	}
	switch {
	case n == 1:
		for _, i := range rivals {
			if len(all[i].Index) == depth {
				return i
			}
		}
	case tagged == 1:
		return win
	}
	return -1
}

// Keys returns the set of wire keys of Fields(t, tag).
func Keys(t reflect.Type, tag string) map[string]bool {
	fields := Fields(t, tag)
	out := make(map[string]bool, len(fields))
	for _, f := range fields {
		out[f.Key] = true
	}
	return out
}
