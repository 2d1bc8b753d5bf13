// Package jose holds the JWE+JWS envelopes of the service, shared by the
// client's request mode (package checkout) and encrypted webhooks (package
// webhook). Every cryptographic operation is go-jose's; this package only
// chooses the algorithms, moves the five (or three) parts between the
// service's JSON envelopes and the compact form, and checks key ids.
//
// Errors are *Error values whose Detail is fixed text, or text the sender
// chose that is clipped and quoted (an algorithm name, a key id). They never
// hold key material, a decrypted payload or go-jose's own messages.
package jose

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	gojose "github.com/go-jose/go-jose/v4"
)

// Kind says which stage of opening or sealing failed.
type Kind uint8

// The kinds of Error.
const (
	// KindEnvelope: the body is not an encrypted envelope at all (not JSON, no
	// envelope keys, an envelope mixed with other keys).
	KindEnvelope Kind = iota + 1
	// KindDecrypt: the envelope was recognised but does not decrypt: a part
	// is not base64url, an algorithm or key id is refused, the key is not
	// the one it was encrypted to, or it was tampered with.
	KindDecrypt
	// KindSignature: the decrypted content is not signed, or its signature is
	// refused (algorithm, key id) or does not verify.
	KindSignature
	// KindKey: a key is missing, unusable or cannot be parsed.
	KindKey
)

// Error is a failure of this package. Detail never holds key material or
// decrypted content.
type Error struct {
	Kind   Kind
	Detail string
	Err    error // the key's own error, *KeyPanic or the context's (KindKeyOp)
}

func (e *Error) Error() string { return e.Detail }

func (e *Error) Unwrap() error { return e.Err }

func fail(k Kind, detail string) error { return &Error{Kind: k, Detail: detail} }

// keyAlgorithms returns the key algorithms of the service's envelopes.
// Requests are encrypted with RSA-OAEP-256; RSA-OAEP (SHA-1) is accepted
// on input because one of the service's SDKs sends it.
func keyAlgorithms() []gojose.KeyAlgorithm {
	return []gojose.KeyAlgorithm{gojose.RSA_OAEP_256, gojose.RSA_OAEP}
}

// contentEncryption returns the content encryption of the envelopes.
func contentEncryption() []gojose.ContentEncryption {
	return []gojose.ContentEncryption{gojose.A256GCM}
}

// signatureAlgs returns the signature algorithms of the envelopes.
func signatureAlgs() []gojose.SignatureAlgorithm { return []gojose.SignatureAlgorithm{gojose.RS256} }

// JWEEnvelope is the JSON form of a compact JWE the service uses for /v4
// request and reply bodies: the five base64url parts under their own
// names, in this order.
type JWEEnvelope struct {
	Header           string `json:"header"`
	EncryptedKey     string `json:"encryptedKey"`
	IV               string `json:"iv"`
	EncryptedPayload string `json:"encryptedPayload"`
	Tag              string `json:"tag"`
}

// JWSEnvelope is the JSON form of a compact JWS found inside a JWEEnvelope:
// the three base64url parts under their own names.
type JWSEnvelope struct {
	Header    string `json:"header"`
	Payload   string `json:"payload"`
	Signature string `json:"signature"`
}

// reply is every top-level key an encrypted reply may carry: the JSON
// envelope, or {"JWT": "<compact JWE>"}.
type reply struct {
	JWEEnvelope
	JWT *string `json:"JWT"`
}

// Sign signs payload with RS256 and returns the compact JWS, whose
// protected header is {"alg":"RS256","kid":kid} (go-jose writes header
// members in sorted order, as the service's SDKs do). A signature made by
// a key behind crypto.Signer is verified with its Public key before it is
// returned: a wrong one is a KindKeyOp Error.
func Sign(payload []byte, key crypto.Signer, kid string) (string, error) {
	if k, ok := key.(*rsa.PrivateKey); key == nil || ok && k == nil {
		return "", fail(KindKey, "no signing key")
	}
	sk, opaque, err := signingKey(key)
	if err != nil {
		return "", err
	}
	opts := &gojose.SignerOptions{}
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	s, err := gojose.NewSigner(gojose.SigningKey{Algorithm: gojose.RS256, Key: sk}, opts)
	if err != nil {
		return "", fail(KindKey, "the signing key is not usable for RS256")
	}
	jws, err := s.Sign(payload)
	if err := opaque.keyOpErr(); err != nil {
		return "", err
	}
	if err != nil {
		return "", fail(KindKey, "signing failed")
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		return "", fail(KindKey, "signing gave no compact JWS")
	}
	if err := opaque.checkSignature(out); err != nil {
		return "", err
	}
	return out, nil
}

// Encrypt encrypts plain to key as a compact JWE with A256GCM content
// encryption, key encryption alg (RSA-OAEP-256 or RSA-OAEP) and, when kid is
// not empty, a "kid" header: {"alg":…,"enc":"A256GCM","kid":…}.
func Encrypt(plain []byte, key *rsa.PublicKey, kid string, alg gojose.KeyAlgorithm) (string, error) {
	if key == nil {
		return "", fail(KindKey, "no encryption key")
	}
	if alg != gojose.RSA_OAEP_256 && alg != gojose.RSA_OAEP {
		return "", fail(KindKey, "key algorithm "+quote(string(alg))+" is not one of the service's")
	}
	e, err := gojose.NewEncrypter(gojose.A256GCM, gojose.Recipient{Algorithm: alg, Key: key, KeyID: kid}, nil)
	if err != nil {
		return "", fail(KindKey, "the encryption key is not usable for "+string(alg))
	}
	obj, err := e.Encrypt(plain)
	if err != nil {
		return "", fail(KindKey, "encryption failed")
	}
	return obj.CompactSerialize()
}

// SignJSON signs payload like Sign and writes the JWS as a JWSEnvelope:
// {"header":…,"payload":…,"signature":…}.
func SignJSON(payload []byte, key crypto.Signer, kid string) ([]byte, error) {
	jws, err := Sign(payload, key, kid)
	if err != nil {
		return nil, err
	}
	var s JWSEnvelope
	s.Header, s.Payload, s.Signature = split3(jws)
	out, err := json.Marshal(&s)
	if err != nil {
		return nil, fail(KindKey, "cannot write the signed envelope")
	}
	return out, nil
}

// Seal builds a /v4 request body: payload signed with signer (RS256, kid),
// the JWS written as a JWSEnvelope, that JSON encrypted to recipient
// (RSA-OAEP-256, A256GCM, kid), and the JWE written as a JWEEnvelope.
func Seal(payload []byte, signer crypto.Signer, recipient *rsa.PublicKey, kid string) ([]byte, error) {
	inner, err := SignJSON(payload, signer, kid)
	if err != nil {
		return nil, err
	}
	jwe, err := Encrypt(inner, recipient, kid, gojose.RSA_OAEP_256)
	if err != nil {
		return nil, err
	}
	var e JWEEnvelope
	parts := strings.SplitN(jwe, ".", 5)
	if len(parts) != 5 {
		return nil, fail(KindKey, "encryption gave no compact JWE")
	}
	e.Header, e.EncryptedKey, e.IV, e.EncryptedPayload, e.Tag = parts[0], parts[1], parts[2], parts[3], parts[4]
	out, err := json.Marshal(&e)
	if err != nil {
		return nil, fail(KindKey, "cannot write the encrypted envelope")
	}
	return out, nil
}

// Open reads a sealed body in either envelope form (see EnvelopeToken),
// decrypts it with decryptKey (the JWE "kid" must be present and equal
// kid), and verifies the signed content inside with verifyKey (RS256; its
// "kid", when present, must equal kid too). It returns the payload exactly
// as it was signed. Content that is not signed is a KindSignature error.
// The client opens replies with (merchant key, service key); the service,
// or a fake of it, opens requests with (service key, merchant key).
func Open(body []byte, decryptKey crypto.Decrypter, verifyKey *rsa.PublicKey, kid string) ([]byte, error) {
	if kid == "" {
		return nil, fail(KindKey, "no key id configured")
	}
	token, err := EnvelopeToken(body)
	if err != nil {
		return nil, err
	}
	plain, err := Decrypt(token, decryptKey, kid)
	if err != nil {
		return nil, err
	}
	jws, signed, err := SignedToken(plain)
	if err != nil {
		return nil, err
	}
	if !signed {
		return nil, fail(KindSignature, "the decrypted content is not signed")
	}
	return Verify(jws, verifyKey, kid, KIDIfPresent)
}

// split3 splits a compact JWS made by go-jose into its parts.
func split3(s string) (a, b, c string) {
	a, rest, _ := strings.Cut(s, ".")
	b, c, _ = strings.Cut(rest, ".")
	return a, b, c
}

// IsEnvelope reports whether body looks like an encrypted envelope (a JSON
// object with a "JWT" or an "encryptedPayload" key) without checking it.
// It lets a caller tell a sealed 2xx reply from a plain one.
func IsEnvelope(body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var r reply
	if json.Unmarshal(b, &r) != nil {
		return false
	}
	return r.JWT != nil || r.EncryptedPayload != ""
}

// EnvelopeToken reads an encrypted reply body, either the JSON envelope
// {"header","encryptedKey","iv","encryptedPayload","tag"} or
// {"JWT": "<compact JWE>"}, and returns the compact JWE. A body that is
// neither (not JSON, plain JSON without "JWT" or "encryptedPayload", both
// forms at once) is a KindEnvelope error; a part that is not base64url is a
// KindDecrypt error, and so, once Decrypt runs, is a missing part.
func EnvelopeToken(body []byte) (string, error) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return "", fail(KindEnvelope, "the body is not a JSON object")
	}
	var r reply
	if err := json.Unmarshal(b, &r); err != nil {
		return "", fail(KindEnvelope, "the body is not valid JSON")
	}
	e := r.JWEEnvelope
	switch {
	case r.JWT != nil && (e.Header != "" || e.EncryptedKey != "" || e.IV != "" || e.EncryptedPayload != "" || e.Tag != ""):
		return "", fail(KindEnvelope, "the body mixes a JWT with envelope parts")
	case r.JWT != nil:
		tok := strings.TrimSpace(*r.JWT)
		if tok == "" {
			return "", fail(KindEnvelope, "JWT is empty")
		}
		return tok, nil
	case e.EncryptedPayload == "":
		return "", fail(KindEnvelope, "the body is not an encrypted envelope (no JWT, no encryptedPayload)")
	}
	// From here on the body is an envelope: a missing or broken part is a
	// failure to decrypt it, like a tampered one.
	parts := [5]string{e.Header, e.EncryptedKey, e.IV, e.EncryptedPayload, e.Tag}
	names := [5]string{"header", "encryptedKey", "iv", "encryptedPayload", "tag"}
	for i, p := range parts {
		if !isBase64URL(p) {
			return "", fail(KindDecrypt, "envelope part "+names[i]+" is not base64url without padding")
		}
	}
	return strings.Join(parts[:], "."), nil
}

// Decrypt opens a compact JWE with key. Only RSA-OAEP-256 or RSA-OAEP key
// encryption and A256GCM content encryption are accepted. When kid is not
// empty the token's "kid" header must be present and equal to it; the check
// comes before any RSA operation.
func Decrypt(token string, key crypto.Decrypter, kid string) ([]byte, error) {
	if k, ok := key.(*rsa.PrivateKey); key == nil || ok && k == nil {
		return nil, fail(KindKey, "no decryption key")
	}
	obj, err := gojose.ParseEncryptedCompact(strings.TrimSpace(token), keyAlgorithms(), contentEncryption())
	if err != nil {
		return nil, fail(KindDecrypt, jweParseDetail(token))
	}
	if kid != "" && obj.Header.KeyID != kid {
		if obj.Header.KeyID == "" {
			return nil, fail(KindDecrypt, "the token has no kid; want the configured key id")
		}
		return nil, fail(KindDecrypt, "token kid "+quote(obj.Header.KeyID)+" is not the configured key id")
	}
	dk, opaque := decryptionKey(key)
	plain, err := obj.Decrypt(dk)
	if err := opaque.keyOpErr(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fail(KindDecrypt, decryptDetail(token, err))
	}
	return plain, nil
}

// decryptDetail says why a token that parsed did not open. go-jose fails
// with ErrCryptoFailure when the key or the ciphertext is wrong; after a
// successful decryption only decompressing the content ("zip") can fail,
// and it refuses content that would decompress past its limit.
func decryptDetail(token string, err error) string {
	h, _ := peekHeader(token)
	switch {
	case errors.Is(err, gojose.ErrCryptoFailure) || h.Zip == "":
		return "the token does not decrypt with the private key (another key, or tampered)"
	case h.Zip != string(gojose.DEFLATE):
		return fmt.Sprintf("the token's content is compressed with %.64q, which is not supported", h.Zip)
	}
	return `the token's content is compressed ("zip":"DEF") and decompresses past the limit (250 kB, or 10 times ` +
		`its compressed size): refused as a decompression bomb, or it is not DEFLATE`
}

// jweParseDetail says why go-jose refused a compact JWE, naming a refused
// algorithm when the header can be read.
func jweParseDetail(token string) string {
	h, ok := peekHeader(token)
	switch {
	case !ok:
		return "not a compact JWE (five base64url parts with a JSON header)"
	case !containsAlg(h.Alg, "RSA-OAEP-256", "RSA-OAEP"):
		return "key algorithm " + quote(h.Alg) + " is not accepted (want RSA-OAEP-256 or RSA-OAEP)"
	case h.Enc != "A256GCM":
		return "content encryption " + quote(h.Enc) + " is not accepted (want A256GCM)"
	}
	return "not a well-formed compact JWE"
}

// SignedToken classifies decrypted content. A compact JWS (three base64url
// parts) or a JWSEnvelope (a JSON object with string header, payload and
// signature) is returned as a compact JWS with signed true. Anything else is
// returned unchanged with signed false. A JSON object with all three keys
// that is not a well-formed JWS is an error, so a broken signature is never
// mistaken for unsigned content.
func SignedToken(plain []byte) (token string, signed bool, err error) {
	b := bytes.TrimSpace(plain)
	if isCompactJWS(b) {
		return string(b), true, nil
	}
	if len(b) == 0 || b[0] != '{' {
		return "", false, nil
	}
	var probe struct {
		Header    json.RawMessage `json:"header"`
		Payload   json.RawMessage `json:"payload"`
		Signature json.RawMessage `json:"signature"`
	}
	if json.Unmarshal(b, &probe) != nil || probe.Header == nil || probe.Payload == nil || probe.Signature == nil {
		return "", false, nil
	}
	var s JWSEnvelope
	if json.Unmarshal(b, &s) != nil {
		return "", false, fail(KindSignature, "the signed envelope's parts are not strings")
	}
	if s.Header == "" || !isBase64URL(s.Header) || !isBase64URL(s.Payload) || !isBase64URL(s.Signature) {
		return "", false, fail(KindSignature, "the signed envelope's parts are not base64url")
	}
	return s.Header + "." + s.Payload + "." + s.Signature, true, nil
}

// KIDRule says how Verify treats the JWS "kid" header.
type KIDRule uint8

// The rules for the JWS "kid".
const (
	// KIDIfPresent: a kid, when present, must equal the expected one.
	KIDIfPresent KIDRule = iota
	// KIDRequired: the kid must be present and equal the expected one.
	KIDRequired
)

// Verify checks a compact JWS signed with RS256 by key and returns its
// payload exactly as signed. alg "none", HS256 and every other algorithm are
// refused. kid is checked by rule when not empty.
func Verify(token string, key *rsa.PublicKey, kid string, rule KIDRule) ([]byte, error) {
	if key == nil {
		return nil, fail(KindKey, "no verification key")
	}
	jws, err := gojose.ParseSignedCompact(token, signatureAlgs())
	if err != nil {
		if h, ok := peekHeader(token); ok && h.Alg != "RS256" {
			return nil, fail(KindSignature, "signature algorithm "+quote(h.Alg)+" is not accepted (want RS256)")
		}
		return nil, fail(KindSignature, "not a well-formed compact JWS")
	}
	if len(jws.Signatures) != 1 {
		return nil, fail(KindSignature, "want exactly one signature")
	}
	got := jws.Signatures[0].Protected.KeyID
	if kid != "" && got != kid && (got != "" || rule == KIDRequired) {
		if got == "" {
			return nil, fail(KindSignature, "the signature has no kid; want the configured key id")
		}
		return nil, fail(KindSignature, "signature kid "+quote(got)+" is not the configured key id")
	}
	payload, err := jws.Verify(key)
	if err != nil {
		return nil, fail(KindSignature, "the signature does not verify with the public key (another signer, or tampered)")
	}
	return payload, nil
}

// header is what peekHeader reads of a protected header.
type header struct {
	Alg string `json:"alg"`
	Enc string `json:"enc"`
	Kid string `json:"kid"`
	Zip string `json:"zip"`
}

// peekHeader decodes the first part of a compact token, without trusting
// it, to explain a refusal.
func peekHeader(token string) (header, bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(token), ".")
	var h header
	raw, err := base64.RawURLEncoding.DecodeString(first)
	if err != nil || json.Unmarshal(raw, &h) != nil {
		return h, false
	}
	return h, true
}

func containsAlg(alg string, list ...string) bool {
	for _, a := range list {
		if alg == a {
			return true
		}
	}
	return false
}

// isCompactJWS: three base64url parts, the header and payload not empty
// (a JWS with a detached or empty payload is not what the service sends).
// An empty signature still counts, so that alg "none" is refused by Verify
// by name instead of passing for unsigned content.
func isCompactJWS(b []byte) bool {
	if bytes.Count(b, []byte{'.'}) != 2 {
		return false
	}
	i := bytes.IndexByte(b, '.')
	j := i + 1 + bytes.IndexByte(b[i+1:], '.')
	if i == 0 || j == i+1 {
		return false
	}
	for _, c := range b {
		if c != '.' && !base64URLByte(c) {
			return false
		}
	}
	return true
}

func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		if !base64URLByte(s[i]) {
			return false
		}
	}
	return true
}

func base64URLByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// quote quotes sender-chosen text (an algorithm, a key id) for an error,
// cut to its first 24 characters (on a character boundary), so a hostile
// sender cannot fill a log line.
func quote(s string) string { return fmt.Sprintf("%.24q", s) }
