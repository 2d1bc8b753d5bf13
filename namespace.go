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

// A namespaced key is a wire key whose tag carries DefaultNamespace between
// its first "." and its ":" (metadata.SERVICE:gateway_reference_id). The
// tag stays the one declaration of the key; inNamespace writes it in
// another namespace and sameKeyOtherNamespace recognises it in any.

// namespaceOf returns the namespace part of key and whether key has the
// shape head.<namespace>:name.
func namespaceOf(key string) (ns string, ok bool) {
	_, rest, ok1 := strings.Cut(key, ".")
	ns, _, ok2 := strings.Cut(rest, ":")
	return ns, ok1 && ok2 && ns != ""
}

// isNamespaced reports whether the tag key is written in DefaultNamespace.
func isNamespaced(key string) bool {
	ns, ok := namespaceOf(key)
	return ok && ns == DefaultNamespace
}

// inNamespace returns the key of shape head.<namespace>:name written in
// namespace ns instead.
func inNamespace(key, ns string) string {
	head, rest, ok1 := strings.Cut(key, ".")
	old, name, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || old == "" || ns == "" {
		return key
	}
	return head + "." + ns + ":" + name
}

// sameKeyOtherNamespace reports whether k is the namespaced tag key written
// in a namespace other than DefaultNamespace.
func sameKeyOtherNamespace(k, key string) bool {
	ns, ok := namespaceOf(k)
	return ok && ns != DefaultNamespace && validNamespace(ns) && inNamespace(key, ns) == k
}

// validNamespace reports whether ns can stand between "." and ":" of a key
// and be read back: not empty, valid UTF-8, without ".", ":", spaces or
// control characters.
func validNamespace(ns string) bool {
	return ns != "" && utf8.ValidString(ns) && !strings.ContainsAny(ns, ".:") &&
		strings.IndexFunc(ns, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0
}
