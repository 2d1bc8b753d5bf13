package checkout

import (
	"bytes"
	"encoding/json"

	"github.com/payorch/checkout-go/internal/wire"
)

// jsonObject appends the members of one JSON object to a byte slice, for the
// session body: written by hand because it is on every call's hot path, and
// so that the key order is the spec's table's.
type jsonObject struct {
	b []byte
	n int // members written so far
}

func (o *jsonObject) key(k string) {
	if o.n == 0 {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = wire.AppendStringNoHTML(o.b, k)
	o.b = append(o.b, ':')
}

// str writes key: value, leaving the member out when value is empty unless
// always is set.
func (o *jsonObject) str(k, v string, always bool) {
	if v == "" && !always {
		return
	}
	o.key(k)
	o.b = wire.AppendStringNoHTML(o.b, v)
}

// raw writes key: value, where value is already JSON.
func (o *jsonObject) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *jsonObject) close() []byte {
	if o.n == 0 {
		return append(o.b, '{', '}')
	}
	return append(o.b, '}')
}

// marshalNoEscape is json.Marshal without HTML escaping (<, >, & stay as
// they are, as in the rest of the body).
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
