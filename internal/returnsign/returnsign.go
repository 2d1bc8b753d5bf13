// Package returnsign computes the signature the service puts on its redirect
// to a merchant's return_url. checkout.VerifyReturn checks it and
// checkouttest signs its redirects with it, so the two cannot disagree.
package returnsign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"sort"
	"strings"
)

// Algorithm is the signature_algorithm value of a signed redirect.
const Algorithm = "HMAC-SHA256"

// The query parameters that carry the signature; every other parameter is
// signed.
const (
	SignatureParam = "signature"
	AlgorithmParam = "signature_algorithm"
)

// Message is the text the signature covers: the signed parameters sorted by
// key, each written QueryEscape(key)=QueryEscape(value), joined with "&",
// and the whole string query-escaped once more. A key with several values
// contributes its first (callers refuse such queries before signing).
// The signature and signature_algorithm parameters are left out.
func Message(params url.Values) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		if k == SignatureParam || k == AlgorithmParam {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k))
		b.WriteByte('=')
		if v := params[k]; len(v) > 0 {
			b.WriteString(url.QueryEscape(v[0]))
		}
	}
	return url.QueryEscape(b.String())
}

// MAC returns the HMAC-SHA256 of Message(params) under key.
func MAC(params url.Values, key string) []byte {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(Message(params)))
	return m.Sum(nil)
}

// Sign returns the signature as the service computes it, standard base64 of
// MAC. The redirect carries it query-escaped once more than the other
// parameters (SignedQuery does that).
func Sign(params url.Values, key string) string {
	return base64.StdEncoding.EncodeToString(MAC(params, key))
}

// SignedQuery returns the query string of a signed redirect: params plus
// signature and signature_algorithm, with the signature escaped twice as
// the service sends it ("...%253D").
func SignedQuery(params url.Values, key string) string {
	q := make(url.Values, len(params)+2)
	for k, v := range params {
		q[k] = append([]string(nil), v...)
	}
	q.Set(SignatureParam, url.QueryEscape(Sign(params, key)))
	q.Set(AlgorithmParam, Algorithm)
	return q.Encode()
}
