package e2e_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
)

var amountType = reflect.TypeFor[checkout.Amount]()

// sameText compares a named field with the text the row expects.
func sameText(t *testing.T, path, want string, got reflect.Value) {
	t.Helper()
	text := textOf(got)
	if got.IsValid() && got.Type() == amountType && sameDecimal(want, text) {
		return
	}
	require.Equal(t, want, text, path)
}

func textOf(v reflect.Value) string {
	if !v.IsValid() {
		return "<invalid>"
	}
	switch x := v.Interface().(type) {
	case checkout.Timestamp:
		return textOf(reflect.ValueOf(x.Time))
	case time.Time:
		if x.IsZero() {
			return ""
		}
		return x.UTC().Format(time.RFC3339Nano)
	case json.RawMessage:
		return string(x)
	case checkout.Secret:
		return string(x)
	case fmt.Stringer:
		if v.Kind() != reflect.Pointer && v.Kind() != reflect.Struct {
			return x.String()
		}
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "<nil>"
		}
		return textOf(v.Elem())
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// lookup follows a field path (see fields) from v.
func lookup(v reflect.Value, path string) (reflect.Value, error) {
	for _, part := range splitPath(path) {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if part != "len()" && strings.HasSuffix(part, "()") && v.MethodByName(strings.TrimSuffix(part, "()")).IsValid() {
				break // a method of the pointer
			}
			if v.IsNil() {
				return reflect.Value{}, fmt.Errorf("%s: nil before %s", path, part)
			}
			v = v.Elem()
		}
		switch {
		case part == "len()":
			v = reflect.ValueOf(v.Len())
		case strings.HasSuffix(part, "()"):
			m := v.MethodByName(strings.TrimSuffix(part, "()"))
			if !m.IsValid() && v.CanAddr() {
				m = v.Addr().MethodByName(strings.TrimSuffix(part, "()"))
			}
			if !m.IsValid() {
				return reflect.Value{}, fmt.Errorf("%s: no method %s on %s", path, part, v.Type())
			}
			v = m.Call(nil)[0]
		case strings.HasPrefix(part, "["):
			key := part[1 : len(part)-1]
			switch v.Kind() {
			case reflect.Slice, reflect.Array:
				i, err := strconv.Atoi(key)
				if err != nil || i >= v.Len() {
					return reflect.Value{}, fmt.Errorf("%s: no element %s of %d", path, key, v.Len())
				}
				v = v.Index(i)
			case reflect.Map:
				e := v.MapIndex(reflect.ValueOf(key).Convert(v.Type().Key()))
				if !e.IsValid() {
					return reflect.Value{}, fmt.Errorf("%s: no key %q", path, key)
				}
				v = e
			default:
				return reflect.Value{}, fmt.Errorf("%s: %s is not indexable", path, v.Type())
			}
		default:
			if v.Kind() != reflect.Struct {
				return reflect.Value{}, fmt.Errorf("%s: %s has no field %s", path, v.Type(), part)
			}
			f, ok := v.Type().FieldByName(part)
			if !ok || !f.IsExported() {
				return reflect.Value{}, fmt.Errorf("%s: %s has no field %s", path, v.Type(), part)
			}
			v = v.FieldByIndex(f.Index)
		}
	}
	return v, nil
}

// splitPath cuts "A.B[0].C()" into "A", "B", "[0]", "C()"; a key in
// brackets may hold dots.
func splitPath(path string) []string {
	var parts []string
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			parts, path = append(parts, path[:end+1]), path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			parts, path = append(parts, path[:end]), path[end:]
		}
	}
	return parts
}
