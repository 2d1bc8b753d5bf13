package checkout

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/payorch/checkout-go/validation"
)

// DefaultNamespace is the generic namespace of the service's own keys: the
// SERVICE of metadata.SERVICE:gateway_reference_id. A deployment of the
// service uses its own name there (Juspay's reference writes JUSPAY); set
// yours with [WithNamespace].
const DefaultNamespace = "SERVICE"

// gatewayReferenceName is the name, after the namespace, of the key that
// carries GatewayReferenceID.
const gatewayReferenceName = "gateway_reference_id"

// metadataPrefix starts every metadata key of a request.
const metadataPrefix = "metadata."

// gatewayReferenceKey returns the key GatewayReferenceID is sent under in
// namespace ns: metadata.<ns>:gateway_reference_id.
func gatewayReferenceKey(ns string) string {
	return metadataPrefix + ns + ":" + gatewayReferenceName
}

// splitGatewayKey splits a key of the shape metadata.<GATEWAY>:<key>, as
// gateway-specific metadata and the gateway reference are written.
func splitGatewayKey(k string) (gateway, key string, ok bool) {
	rest, ok := strings.CutPrefix(k, metadataPrefix)
	if !ok {
		return "", "", false
	}
	gateway, key, ok = strings.Cut(rest, ":")
	return gateway, key, ok && gateway != "" && !strings.Contains(gateway, ".")
}

// validNamespace reports whether ns can stand between "." and ":" of a key
// and be read back: not empty, valid UTF-8, without ".", ":", spaces or
// control characters.
func validNamespace(ns string) bool {
	return ns != "" && utf8.ValidString(ns) && !strings.ContainsAny(ns, ".:") &&
		strings.IndexFunc(ns, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0
}

// GatewayMetadata is one value passed to a gateway, sent as
// metadata.<Gateway>:<Key>, for example {Gateway: "PAYU", Key:
// "offer_key", Value: "…"}.
type GatewayMetadata struct {
	// Gateway is the gateway's code, e.g. "PAYU"; not empty, no ":" or "."
	// (the service could not tell where it ends).
	Gateway string
	// Key is the gateway-specific key; not empty, no ":".
	Key string
	// Value is sent as given.
	Value string
}

// GatewayMetadataList is the gateway metadata of an order or a session, in
// order.
type GatewayMetadataList []GatewayMetadata

// EncodeValues adds each entry to v as metadata.<Gateway>:<Key>; it lets
// go-querystring encode an OrderRequest.
func (l GatewayMetadataList) EncodeValues(key string, v *url.Values) error {
	for _, m := range l {
		(*v)[m.key()] = []string{m.Value}
	}
	return nil
}

// key returns the form key of m: metadata.<Gateway>:<Key>.
func (m GatewayMetadata) key() string { return metadataPrefix + m.Gateway + ":" + m.Key }

// check records what the entries of a request of type owner cannot be
// sent as (an ambiguous or empty gateway or key, invalid UTF-8, a key a
// typed field owns, a key given twice) and returns the keys they write.
func (l GatewayMetadataList) check(v *validation.Error, owned func(string) bool, owner string) map[string]bool {
	if len(l) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(l))
	for i, m := range l {
		p := validation.Index("metadata", i)
		switch {
		case !utf8.ValidString(m.Gateway + m.Key + m.Value):
			v.Add(p, "is not valid UTF-8")
		case m.Gateway == "" || strings.ContainsAny(m.Gateway, ":."):
			v.Add(p+".Gateway", `must be a gateway code, not empty and without ":" or "."`)
		case m.Key == "" || strings.Contains(m.Key, ":"):
			v.Add(p+".Key", `must be a key, not empty and without ":"`)
		default:
			k := m.key()
			if owned(k) {
				v.Add(k, "is a typed field of "+owner+"; set it there")
			} else if seen[k] {
				v.Add(k, "is given twice")
			}
			seen[k] = true
		}
	}
	return seen
}

// UDFs are the ten fields the service keeps for the merchant with an
// order (udf1…udf10): send them with a session or an order, and read them
// back in the order's replies and webhooks. Request and reply types embed
// UDFs, so its fields read as theirs: req.UDF1.
type UDFs struct {
	// UDF1 is udf1; UDF2 to UDF10 are udf2 to udf10.
	UDF1  string `json:"udf1,omitempty" url:"udf1,omitempty"`
	UDF2  string `json:"udf2,omitempty" url:"udf2,omitempty"`   // See UDF1.
	UDF3  string `json:"udf3,omitempty" url:"udf3,omitempty"`   // See UDF1.
	UDF4  string `json:"udf4,omitempty" url:"udf4,omitempty"`   // See UDF1.
	UDF5  string `json:"udf5,omitempty" url:"udf5,omitempty"`   // See UDF1.
	UDF6  string `json:"udf6,omitempty" url:"udf6,omitempty"`   // See UDF1.
	UDF7  string `json:"udf7,omitempty" url:"udf7,omitempty"`   // See UDF1.
	UDF8  string `json:"udf8,omitempty" url:"udf8,omitempty"`   // See UDF1.
	UDF9  string `json:"udf9,omitempty" url:"udf9,omitempty"`   // See UDF1.
	UDF10 string `json:"udf10,omitempty" url:"udf10,omitempty"` // See UDF1.
}

// list returns UDF1…UDF10 in order.
func (u *UDFs) list() [10]string {
	return [...]string{u.UDF1, u.UDF2, u.UDF3, u.UDF4, u.UDF5, u.UDF6, u.UDF7, u.UDF8, u.UDF9, u.UDF10}
}
