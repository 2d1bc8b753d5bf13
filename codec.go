package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode"

	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/internal/tags"
)

// What the request and reply types share on the wire.

// marshalNoEscape is json.Marshal without HTML escaping: <, > and & stay as
// they are, as the service's own bodies write them.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// replyType is a reply type: decode reads a body into a fresh value, keeps
// the body as Raw, and stores the value only when all went well.
type replyType[T any] interface {
	*T
	decode(body []byte) error
}

// unmarshalReply is the UnmarshalJSON of every reply type T, named what in
// its errors: a nil t is an error, JSON null leaves t unchanged, anything
// else goes to t's decode with a copy of data it may keep as Raw.
func unmarshalReply[T any, P replyType[T]](t P, data []byte, what string) error {
	if t == nil {
		return errNilTarget(reflect.TypeFor[T]().Name())
	}
	if kindOf(data) == "null" {
		return nil
	}
	if err := t.decode(bytes.Clone(data)); err != nil {
		return fmt.Errorf("checkout: %s: %w", what, err)
	}
	return nil
}

// marshalReply is the MarshalJSON of every reply type: raw when it is set
// (Raw wins over edited fields), else wire, the typed fields as the
// service writes them, encoded.
func marshalReply[W any](raw json.RawMessage, wire W) ([]byte, error) {
	if len(raw) > 0 {
		return raw, nil
	}
	return json.Marshal(wire)
}

// decodePlain decodes body leniently into a fresh P, keeps body as its Raw
// field, lets check (when not nil) refuse or complete it, and stores it in
// *t only when all succeed. P is a reply type's plain twin (type plain T:
// the same fields without T's methods, so decoding does not call T's
// UnmarshalJSON again).
func decodePlain[P any](t *P, body []byte, check func(*P) error) error {
	var p P
	if err := lenient.Unmarshal(body, &p); err != nil {
		return err
	}
	reflect.ValueOf(&p).Elem().FieldByName("Raw").SetBytes(body)
	if check != nil {
		if err := check(&p); err != nil {
			return err
		}
	}
	*t = p
	return nil
}

// decodeResponse is decodePlain for a whole reply, whose errors say so.
func decodeResponse[P any](t *P, body []byte, check func(*P) error) error {
	if err := decodePlain(t, body, check); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// decodeReply reads a successful reply, which must be a JSON object that
// looks like a T: a reply of another shape is an error, never an empty
// value. What identifies a T is declared beside its wire keys: the fields
// tagged reply:"identifies" (for an order status: order_id, id and status),
// or, in a type that tags none, any of its json fields. A reply holding
// none of them is refused. (An encrypted envelope never gets here: the
// request path refuses it with [ErrEnvelope].)
func decodeReply[T any, P replyType[T]](body []byte) (*T, error) {
	if k := kindOf(body); k != "object" {
		switch k {
		case "nothing":
			k = "empty"
		case "null":
		default:
			k = "a JSON " + k
		}
		return nil, fmt.Errorf("decode response: the reply is %s, not a JSON object", k)
	}
	v := P(new(T))
	err := v.decode(body)
	if err == nil {
		err = identified(reflect.ValueOf(v).Elem())
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// identity is what identifies a reply type: the fields whose presence says
// a body is one, their keys, and the type's name in plain words.
type identity struct {
	fields [][]int
	keys   []string
	name   string
}

var identities sync.Map // reflect.Type → *identity

// identityOf reads, once per type, the fields of struct type t tagged
// reply:"identifies", or all its json fields when it tags none.
func identityOf(t reflect.Type) *identity {
	if id, ok := identities.Load(t); ok {
		return id.(*identity)
	}
	id := &identity{name: typeWords(t.Name())}
	all := &identity{}
	for _, f := range tags.Fields(t, "json") {
		all.fields, all.keys = append(all.fields, f.Index), append(all.keys, f.Key)
		if t.FieldByIndex(f.Index).Tag.Get("reply") == "identifies" {
			id.fields, id.keys = append(id.fields, f.Index), append(id.keys, f.Key)
		}
	}
	if len(id.fields) == 0 {
		id.fields, id.keys = all.fields, all.keys
	}
	got, _ := identities.LoadOrStore(t, id)
	return got.(*identity)
}

// identified reports an error when the decoded reply v (a struct) has none
// of the fields that identify its type set.
func identified(v reflect.Value) error {
	id := identityOf(v.Type())
	for _, index := range id.fields {
		if f, err := v.FieldByIndexErr(index); err == nil && !f.IsZero() {
			return nil
		}
	}
	if len(id.keys) == 0 {
		return nil
	}
	return fmt.Errorf("decode response: the reply is not %s %s: it has none of %s",
		article(id.name), id.name, strings.Join(id.keys, ", "))
}

// typeWords writes a Go type name in lower-case words: "OrderStatus" is
// "order status".
func typeWords(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// article is "an" before a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// kindOf names the kind of a JSON value by its first byte, without an
// article: "object", "array", "string", "number", "boolean", "null", or
// "nothing".
func kindOf(raw []byte) string {
	k := tagjson.KindOf(raw)
	return strings.TrimPrefix(strings.TrimPrefix(k, "an "), "a ")
}

// errNilTarget is what an UnmarshalJSON method called on a nil pointer
// returns instead of panicking (encoding/json never makes such a call; a
// direct one may), as json.RawMessage does.
func errNilTarget(typ string) error {
	return fmt.Errorf("checkout: %s.UnmarshalJSON on nil pointer", typ)
}
