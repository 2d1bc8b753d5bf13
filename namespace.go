package checkout

import (
	"strings"
	"unicode"
	"unicode/utf8"
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
