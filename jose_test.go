package checkout

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/jose"
	"github.com/payorch/checkout-go/internal/testio"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// Keys are generated once per test binary (slow under -race).
var (
	merchantRSA = sync.OnceValue(func() *rsa.PrivateKey { return genRSA(2048) })
	serviceRSA  = sync.OnceValue(func() *rsa.PrivateKey { return genRSA(2048) })
	strangerRSA = sync.OnceValue(func() *rsa.PrivateKey { return genRSA(2048) })
)

func genRSA(bits int) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		panic(err)
	}
	return k
}

const testKID = "key_222cdef5c98347cc967d190c6e2766a3"

// secretMarker sits in every plaintext the tests seal: no error may show it.
const secretMarker = "ord_secret_ஆ_marker"

// jweReply is a reply whose exact bytes matter: odd spacing, escapes and a
// nested sdk_payload that must come out byte for byte.
const jweReply = `{"status":"NEW" ,"id":"ordeh_1","order_id":"` + secretMarker + `",` +
	`"sdk_payload":{"requestId":"af2f6664","payload":{"amount":"1.0","note":"\u00e9 😀 வணக்கம்","n":1.50}}}`

func testJWE(t testing.TB) *jweConfig {
	t.Helper()
	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey))
	require.NoError(t, err)
	require.NotNil(t, c.jwe)
	return c.jwe
}

// ---- the service, played by go-jose alone (none of the SDK's code) ----

// svcReply says how the independent code seals a reply.
type svcReply struct {
	alg        gojose.KeyAlgorithm // default RSA-OAEP-256
	enc        gojose.ContentEncryption
	recipient  any // default the merchant's public key
	jweKID     *string
	cty        bool // add "cty":"JWT" as the Node.js SDK does
	sigAlg     gojose.SignatureAlgorithm
	sigKey     any // default the service's private key
	jwsKID     *string
	embedJWK   bool
	compactJWS bool   // inner JWS compact instead of {"header","payload","signature"}
	inner      []byte // encrypt these bytes instead of a JWS
	jwtForm    bool   // {"JWT": "<compact>"} instead of the five-part envelope
}

func strp(s string) *string { return &s }

func (o svcReply) seal(t testing.TB, payload string) []byte {
	t.Helper()
	inner := o.inner
	if inner == nil {
		alg, key := o.sigAlg, o.sigKey
		if alg == "" {
			alg = gojose.RS256
		}
		if key == nil {
			key = serviceRSA()
		}
		so := &gojose.SignerOptions{EmbedJWK: o.embedJWK}
		kid := strp(testKID)
		if o.jwsKID != nil {
			kid = o.jwsKID
		}
		if *kid != "" {
			so = so.WithHeader("kid", *kid)
		}
		s, err := gojose.NewSigner(gojose.SigningKey{Algorithm: alg, Key: key}, so)
		require.NoError(t, err)
		jws, err := s.Sign([]byte(payload))
		require.NoError(t, err)
		compact, err := jws.CompactSerialize()
		require.NoError(t, err)
		if o.compactJWS {
			inner = []byte(compact)
		} else {
			p := strings.Split(compact, ".")
			inner, err = json.Marshal(map[string]string{"header": p[0], "payload": p[1], "signature": p[2]})
			require.NoError(t, err)
		}
	}
	return svcEncrypt(t, o, inner)
}

func svcEncrypt(t testing.TB, o svcReply, inner []byte) []byte {
	t.Helper()
	if o.alg == "" {
		o.alg = gojose.RSA_OAEP_256
	}
	if o.enc == "" {
		o.enc = gojose.A256GCM
	}
	if o.recipient == nil {
		o.recipient = &merchantRSA().PublicKey
	}
	kid := testKID
	if o.jweKID != nil {
		kid = *o.jweKID
	}
	eo := &gojose.EncrypterOptions{}
	if o.cty {
		eo = eo.WithContentType("JWT")
	}
	e, err := gojose.NewEncrypter(o.enc, gojose.Recipient{Algorithm: o.alg, Key: o.recipient, KeyID: kid}, eo)
	require.NoError(t, err)
	obj, err := e.Encrypt(inner)
	require.NoError(t, err)
	compact, err := obj.CompactSerialize()
	require.NoError(t, err)
	var body []byte
	if o.jwtForm {
		body, err = json.Marshal(map[string]string{"JWT": compact})
	} else {
		p := strings.Split(compact, ".")
		body, err = json.Marshal(map[string]string{"header": p[0], "encryptedKey": p[1], "iv": p[2], "encryptedPayload": p[3], "tag": p[4]})
	}
	require.NoError(t, err)
	return body
}

// svcOpen opens what the SDK sends as the service would, with go-jose
// alone, and returns the payload and the two protected headers as sent.
func svcOpen(t *testing.T, body []byte) (payload []byte, jweHeader, jwsHeader string) {
	t.Helper()
	var env map[string]string
	require.NoError(t, json.Unmarshal(body, &env))
	require.Len(t, env, 5, "exactly the five envelope keys")
	parts := []string{env["header"], env["encryptedKey"], env["iv"], env["encryptedPayload"], env["tag"]}
	for _, p := range parts {
		require.NotEmpty(t, p)
		require.NotContains(t, p, "=", "base64url without padding")
		_, err := base64.RawURLEncoding.DecodeString(p)
		require.NoError(t, err)
	}
	obj, err := gojose.ParseEncryptedCompact(strings.Join(parts, "."), []gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})
	require.NoError(t, err)
	signed, err := obj.Decrypt(serviceRSA())
	require.NoError(t, err)
	var sig map[string]string
	require.NoError(t, json.Unmarshal(signed, &sig))
	require.Len(t, sig, 3, "exactly header, payload, signature")
	jws, err := gojose.ParseSignedCompact(sig["header"]+"."+sig["payload"]+"."+sig["signature"], []gojose.SignatureAlgorithm{gojose.RS256})
	require.NoError(t, err)
	payload, err = jws.Verify(&merchantRSA().PublicKey)
	require.NoError(t, err)
	h1, err := base64.RawURLEncoding.DecodeString(parts[0])
	require.NoError(t, err)
	h2, err := base64.RawURLEncoding.DecodeString(sig["header"])
	require.NoError(t, err)
	return payload, string(h1), string(h2)
}

// jsonKeys lists the top-level keys of a JSON object in their order.
func jsonKeys(t *testing.T, b []byte) []string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	_, err := d.Token()
	require.NoError(t, err)
	var keys []string
	for d.More() {
		k, err := d.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, d.Decode(&skip))
	}
	return keys
}

func TestJWESealIsReadByIndependentCode(t *testing.T) {
	j := testJWE(t)
	body := []byte(`{"order_id":"` + secretMarker + `","amount":"1.0","description":"😀 வணக்கம் \u00e9"}`)
	sealed, err := j.seal("create session", body)
	require.NoError(t, err)
	require.NotContains(t, string(sealed), secretMarker)

	payload, jweHdr, jwsHdr := svcOpen(t, sealed)
	require.Equal(t, string(body), string(payload), "byte for byte")
	require.Equal(t, `{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"`+testKID+`"}`, jweHdr)
	require.Equal(t, `{"alg":"RS256","kid":"`+testKID+`"}`, jwsHdr)
	// The member order of the service's SDKs.
	require.Equal(t, []string{"header", "encryptedKey", "iv", "encryptedPayload", "tag"}, jsonKeys(t, sealed))

	// The signed envelope inside has the SDKs' order too.
	var env map[string]string
	require.NoError(t, json.Unmarshal(sealed, &env))
	obj, err := gojose.ParseEncryptedCompact(env["header"]+"."+env["encryptedKey"]+"."+env["iv"]+"."+env["encryptedPayload"]+"."+env["tag"],
		[]gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})
	require.NoError(t, err)
	inner, err := obj.Decrypt(serviceRSA())
	require.NoError(t, err)
	require.Equal(t, []string{"header", "payload", "signature"}, jsonKeys(t, inner))

	// Fresh key and IV each time.
	again, err := j.seal("create session", body)
	require.NoError(t, err)
	require.NotEqual(t, string(sealed), string(again))

	// The merchant cannot open its own request: it is for the service.
	_, err = j.open("create session", sealed)
	require.ErrorIs(t, err, ErrDecrypt)
}

func TestJWEOpenReadsIndependentReplies(t *testing.T) {
	j := testJWE(t)
	for _, alg := range []gojose.KeyAlgorithm{gojose.RSA_OAEP_256, gojose.RSA_OAEP} {
		for _, jwt := range []bool{false, true} {
			for _, compact := range []bool{false, true} {
				name := fmt.Sprintf("%s/jwt=%v/compactJWS=%v", alg, jwt, compact)
				t.Run(name, func(t *testing.T) {
					body := svcReply{alg: alg, jwtForm: jwt, compactJWS: compact}.seal(t, jweReply)
					got, err := j.open("create session", body)
					require.NoError(t, err)
					require.Equal(t, jweReply, string(got), "byte for byte")
				})
			}
		}
	}
	// Variants the service's tools produce.
	for name, o := range map[string]svcReply{
		"signature without kid":      {jwsKID: strp("")},
		"cty JWT as the Node.js SDK": {alg: gojose.RSA_OAEP, cty: true},
	} {
		got, err := j.open("get order", o.seal(t, jweReply))
		require.NoError(t, err, name)
		require.Equal(t, jweReply, string(got), name)
	}
	// White space around the body and the JWT is tolerated.
	body := svcReply{jwtForm: true}.seal(t, jweReply)
	got, err := j.open("refund", append(append([]byte("\n  "), body...), '\n'))
	require.NoError(t, err)
	require.Equal(t, jweReply, string(got))
}

// flipPart changes one character in the middle of part key of a
// five-part envelope ("header" … "tag"), keeping it base64url.
func flipPart(t *testing.T, body []byte, key string) []byte {
	t.Helper()
	return editEnvelope(t, body, func(env map[string]string) { env[key] = wiretest.Flip(t, env[key]) })
}

// dropPart removes a part from a five-part envelope.
func dropPart(t *testing.T, body []byte, key string) []byte {
	t.Helper()
	return editEnvelope(t, body, func(env map[string]string) { delete(env, key) })
}

// editEnvelope returns the JSON envelope body after edit changed its parts.
func editEnvelope(t *testing.T, body []byte, edit func(env map[string]string)) []byte {
	t.Helper()
	var env map[string]string
	require.NoError(t, json.Unmarshal(body, &env))
	edit(env)
	out, err := json.Marshal(env)
	require.NoError(t, err)
	return out
}

// tamperedJWS is a JSON JWS signed by the service whose part key was
// changed after signing.
func tamperedJWS(t *testing.T, key string) []byte {
	t.Helper()
	s, err := gojose.NewSigner(gojose.SigningKey{Algorithm: gojose.RS256, Key: serviceRSA()}, (&gojose.SignerOptions{}).WithHeader("kid", testKID))
	require.NoError(t, err)
	jws, err := s.Sign([]byte(jweReply))
	require.NoError(t, err)
	c, err := jws.CompactSerialize()
	require.NoError(t, err)
	p := strings.Split(c, ".")
	m := map[string]string{"header": p[0], "payload": p[1], "signature": p[2]}
	switch key {
	case "header":
		m[key] = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256","kid":"` + testKID + `","x":1}`))
	case "payload":
		m[key] = base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(jweReply, "NEW", "CHARGED", 1)))
	case "signature":
		m[key] = wiretest.Flip(t, m[key])
	}
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

func noneJWS(t *testing.T, compact bool) []byte {
	hdr := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","kid":"` + testKID + `"}`))
	pl := base64.RawURLEncoding.EncodeToString([]byte(jweReply))
	if compact {
		return []byte(hdr + "." + pl + ".")
	}
	b, err := json.Marshal(map[string]string{"header": hdr, "payload": pl, "signature": ""})
	require.NoError(t, err)
	return b
}

func TestJWEOpenFailsClosed(t *testing.T) {
	j := testJWE(t)
	good := svcReply{}.seal(t, jweReply)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: must(x509.MarshalPKIXPublicKey(&serviceRSA().PublicKey))})
	mine, err := j.seal("create session", []byte(jweReply))
	require.NoError(t, err)

	tests := []struct {
		name string
		body []byte
		want error
	}{
		{"tampered header", flipPart(t, good, "header"), ErrDecrypt},
		{"tampered encryptedKey", flipPart(t, good, "encryptedKey"), ErrDecrypt},
		{"tampered iv", flipPart(t, good, "iv"), ErrDecrypt},
		{"tampered encryptedPayload", flipPart(t, good, "encryptedPayload"), ErrDecrypt},
		{"tampered tag", flipPart(t, good, "tag"), ErrDecrypt},
		{"tampered JWS header", svcEncrypt(t, svcReply{}, tamperedJWS(t, "header")), ErrSignature},
		{"tampered JWS payload", svcEncrypt(t, svcReply{}, tamperedJWS(t, "payload")), ErrSignature},
		{"tampered JWS signature", svcEncrypt(t, svcReply{}, tamperedJWS(t, "signature")), ErrSignature},
		{"alg none, JSON JWS", svcEncrypt(t, svcReply{}, noneJWS(t, false)), ErrSignature},
		{"alg none, compact JWS", svcEncrypt(t, svcReply{}, noneJWS(t, true)), ErrSignature},
		{"HS256 keyed with the service's public key", svcReply{sigAlg: gojose.HS256, sigKey: pubPEM}.seal(t, jweReply), ErrSignature},
		{"RS384 by the service key", svcReply{sigAlg: gojose.RS384}.seal(t, jweReply), ErrSignature},
		{"PS256 by the service key", svcReply{sigAlg: gojose.PS256}.seal(t, jweReply), ErrSignature},
		{"signed by another key", svcReply{sigKey: strangerRSA()}.seal(t, jweReply), ErrSignature},
		{"signed by another key that embeds its jwk", svcReply{sigKey: strangerRSA(), embedJWK: true}.seal(t, jweReply), ErrSignature},
		{"signed by the merchant key", svcReply{sigKey: merchantRSA()}.seal(t, jweReply), ErrSignature},
		{"signature kid of another key", svcReply{jwsKID: strp("key_other")}.seal(t, jweReply), ErrSignature},
		{"unsigned plaintext inside", svcReply{inner: []byte(jweReply)}.seal(t, jweReply), ErrSignature},
		{"JSON JWS with a number", svcEncrypt(t, svcReply{}, []byte(`{"header":1,"payload":"e30","signature":"c2ln"}`)), ErrSignature},
		{"encrypted to another key", svcReply{recipient: &strangerRSA().PublicKey}.seal(t, jweReply), ErrDecrypt},
		{"our own request echoed back", mine, ErrDecrypt},
		{"JWE kid of another key", svcReply{jweKID: strp("key_other")}.seal(t, jweReply), ErrDecrypt},
		{"JWE without kid", svcReply{jweKID: strp("")}.seal(t, jweReply), ErrDecrypt},
		{"RSA1_5", svcReply{alg: gojose.RSA1_5}.seal(t, jweReply), ErrDecrypt},
		{"A128GCM", svcReply{enc: gojose.A128GCM}.seal(t, jweReply), ErrDecrypt},
		{"dir", svcReply{alg: gojose.DIRECT, recipient: make([]byte, 32)}.seal(t, jweReply), ErrDecrypt},
		{"JWT form tampered", []byte(`{"JWT":"` + strings.Replace(string(svcCompact(t)), "A", "B", 1) + `"}`), ErrDecrypt},
		{"part with a dot", []byte(`{"header":"a.b","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), ErrDecrypt},
		{"part with padding", []byte(`{"header":"YQ==","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), ErrDecrypt},
		{"plain JSON reply", []byte(jweReply), ErrEnvelope},
		{"empty body", nil, ErrEnvelope},
		{"not JSON", []byte("<html>"), ErrEnvelope},
		{"JSON array", []byte(`[1]`), ErrEnvelope},
		{"envelope without tag", dropPart(t, good, "tag"), ErrDecrypt},
		{"envelope without encryptedKey", dropPart(t, good, "encryptedKey"), ErrDecrypt},
		{"signed but not encrypted", tamperedJWS(t, "none"), ErrEnvelope},
		{"JWT mixed with parts", []byte(`{"JWT":"a.b.c.d.e","header":"a"}`), ErrEnvelope},
		{"empty JWT", []byte(`{"JWT":" "}`), ErrEnvelope},
		{"JWT not a string", []byte(`{"JWT":5}`), ErrEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := j.open("create session", tt.body)
			require.Nil(t, got)
			require.ErrorIs(t, err, tt.want)
			var je *JOSEError
			require.ErrorAs(t, err, &je)
			require.Equal(t, "create session", je.Op)
			require.Equal(t, tt.want, je.Kind)
			msg := err.Error()
			t.Log(msg)
			require.True(t, strings.HasPrefix(msg, "checkout: create session: reply: "), msg)
			require.NotContains(t, msg, secretMarker)
			require.NotContains(t, msg, "CHARGED")
			require.NotContains(t, msg, "go-jose")
			require.NotContains(t, msg, merchantRSA().D.String()[:16])
			require.LessOrEqual(t, len(msg), 200, msg)
		})
	}
}

func svcCompact(t *testing.T) string {
	var env struct{ JWT string }
	require.NoError(t, json.Unmarshal(svcReply{jwtForm: true}.seal(t, jweReply), &env))
	return env.JWT
}

// must returns v, panicking on err: for setup that cannot fail.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The JWS test vectors of the service's PHP and .NET SDKs. Their keys are
// not published, so the signatures cannot be checked here; what can be
// checked is everything else: RS256 is deterministic, so the SDK writes
// the very same header and payload segments, and a signature covers the
// header (the PHP vector without kid must fail).
func TestJWSConformanceVectors(t *testing.T) {
	s := conformance.Files(t, "jwt", "jws_rs256_test_vector_php_sdk.txt")[0]
	var tokens []string
	for _, line := range strings.Split(string(s.Data), "\n") {
		line = strings.TrimSpace(line)
		if strings.Count(line, ".") == 2 && strings.HasPrefix(line, "eyJ") {
			tokens = append(tokens, line)
		}
	}
	require.Len(t, tokens, 3, "PHP vector, its negative, .NET vector")
	php, negative, dotnet := tokens[0], tokens[1], tokens[2]

	for _, tc := range []struct {
		token, payload string
	}{{php, "hello world"}, {dotnet, "hello world 😀 வணக்கம்"}} {
		// The SDK's signing writes the same header and payload segments.
		ours, err := jose.Sign([]byte(tc.payload), merchantRSA(), "key_xxxxx")
		require.NoError(t, err)
		require.Equal(t, strings.Join(strings.Split(tc.token, ".")[:2], "."), strings.Join(strings.Split(ours, ".")[:2], "."))
		again, err := jose.Sign([]byte(tc.payload), merchantRSA(), "key_xxxxx")
		require.NoError(t, err)
		require.Equal(t, ours, again, "RS256 is deterministic: the same key gives the same string")

		// It parses as RS256 with kid key_xxxxx and a 2048-bit signature.
		jws, err := gojose.ParseSignedCompact(tc.token, []gojose.SignatureAlgorithm{gojose.RS256})
		require.NoError(t, err)
		require.Equal(t, "key_xxxxx", jws.Signatures[0].Protected.KeyID)
		require.Equal(t, tc.payload, string(jws.UnsafePayloadWithoutVerification()))
		require.Len(t, jws.Signatures[0].Signature, 256)
		// And it verifies with no key of ours.
		for _, k := range []*rsa.PrivateKey{merchantRSA(), serviceRSA()} {
			_, err := jose.Verify(tc.token, &k.PublicKey, "key_xxxxx", jose.KIDIfPresent)
			require.Error(t, err)
		}
	}

	// The negative vector: the PHP signature under a header without kid.
	hdr, err := base64.RawURLEncoding.DecodeString(strings.Split(negative, ".")[0])
	require.NoError(t, err)
	require.Equal(t, `{"alg":"RS256"}`, string(hdr))
	require.Equal(t, strings.Split(php, ".")[2], strings.Split(negative, ".")[2])
	// The same rule with a key we hold: dropping kid breaks the signature.
	ours, err := jose.Sign([]byte("hello world"), serviceRSA(), "key_xxxxx")
	require.NoError(t, err)
	_, err = jose.Verify(ours, &serviceRSA().PublicKey, "key_xxxxx", jose.KIDIfPresent)
	require.NoError(t, err)
	spliced := strings.Split(negative, ".")[0] + "." + strings.Join(strings.Split(ours, ".")[1:], ".")
	_, err = jose.Verify(spliced, &serviceRSA().PublicKey, "key_xxxxx", jose.KIDIfPresent)
	require.ErrorContains(t, err, "does not verify")
}

// The /v4 reply samples hold placeholders, so they cannot be decrypted;
// they must parse as envelopes and fail at decryption, not before, and the
// readable header names what the SDK accepts and sends.
func TestJWEConformanceEnvelopes(t *testing.T) {
	j := testJWE(t)
	seen := 0
	for _, s := range conformance.Files(t, "jwt", "*.json") {
		t.Run(s.Name, func(t *testing.T) {
			got, err := j.open("get order", s.Data)
			require.Nil(t, got)
			switch {
			case strings.HasPrefix(s.Name, "v4_") || strings.Contains(s.Name, "jwe_json_envelope"):
				seen++
				require.True(t, isSealed(s.Data))
				tok, err2 := jose.EnvelopeToken(s.Data)
				require.NoError(t, err2)
				require.Equal(t, 4, strings.Count(tok, "."))
				require.ErrorIs(t, err, ErrDecrypt, "%v", err)
				if hdr, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[0]); err == nil && json.Valid(hdr) {
					var h map[string]string
					require.NoError(t, json.Unmarshal(hdr, &h))
					require.Equal(t, "RSA-OAEP-256", h["alg"])
					require.Equal(t, "A256GCM", h["enc"])
					require.True(t, strings.HasPrefix(h["kid"], "key_"), "replies carry the key id")
					require.Equal(t, []string{"alg", "enc", "kid"}, jsonKeys(t, hdr), "the order the SDK writes")
				}
			case strings.Contains(s.Name, "webhook_jwt"):
				require.True(t, isSealed(s.Data))
				require.ErrorIs(t, err, ErrDecrypt, "%v", err)
			case strings.Contains(s.Name, "plain"):
				require.False(t, isSealed(s.Data))
				require.ErrorIs(t, err, ErrEnvelope)
			case strings.Contains(s.Name, "jws_json"):
				// The signed envelope found inside a JWE: recognised as
				// signed, refused (its header is a placeholder).
				tok, signed, err := jose.SignedToken(s.Data)
				require.NoError(t, err)
				require.True(t, signed)
				_, err = jose.Verify(tok, &serviceRSA().PublicKey, testKID, jose.KIDIfPresent)
				require.Error(t, err)
			default:
				t.Fatalf("sample %s has no expectation", s.Name)
			}
		})
	}
	require.GreaterOrEqual(t, seen, 4, "the /v4 reply samples and the request envelope were found")
}

func TestParseRSAKeyPEM(t *testing.T) {
	k := merchantRSA()
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	pkcs8 := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: must(x509.MarshalPKCS8PrivateKey(k))})
	pkixPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: must(x509.MarshalPKIXPublicKey(&k.PublicKey))})
	pub1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&k.PublicKey)})
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "service"}, NotAfter: time.Now().Add(time.Hour)}
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: must(x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k))})

	for name, b := range map[string][]byte{"pkcs1": pkcs1, "pkcs8": pkcs8, "with text around": append(append([]byte("key for shop\n"), pkcs1...), "trailer"...)} {
		got, err := ParseRSAPrivateKeyPEM(b)
		require.NoError(t, err, name)
		require.True(t, got.Equal(k), name)
	}
	for name, b := range map[string][]byte{"pkix": pkixPEM, "pkcs1": pub1, "certificate": cert} {
		got, err := ParseRSAPublicKeyPEM(b)
		require.NoError(t, err, name)
		require.True(t, got.Equal(&k.PublicKey), name)
	}

	ec := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	ecPKCS8 := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: must(x509.MarshalPKCS8PrivateKey(ec))})
	ecPKIX := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: must(x509.MarshalPKIXPublicKey(&ec.PublicKey))})
	encrypted := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-256-CBC,00"}, Bytes: x509.MarshalPKCS1PrivateKey(k)})
	encPKCS8 := pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1, 2, 3}})
	broken := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)[:300]})
	secret := strings.Split(string(pkcs1), "\n")[3] // a line of the key's base64

	privCases := map[string]struct {
		b    []byte
		want string
	}{
		"empty":             {nil, "no PEM block found"},
		"garbage":           {[]byte("-----BEGIN nothing"), "no PEM block found"},
		"public as private": {pkixPEM, "holds a public key"},
		"EC key":            {ecPKCS8, "want RSA"},
		"encrypted PEM":     {encrypted, "encrypted PEM is not supported"},
		"encrypted PKCS#8":  {encPKCS8, "encrypted PEM is not supported"},
		"broken PKCS#1":     {broken, "invalid PKCS#1"},
	}
	for name, tc := range privCases {
		_, err := ParseRSAPrivateKeyPEM(tc.b)
		require.ErrorIs(t, err, ErrKey, name)
		require.ErrorContains(t, err, tc.want, name)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: parse private key: "), err.Error())
		require.NotContains(t, err.Error(), secret, name)
	}
	pubCases := map[string]struct {
		b    []byte
		want string
	}{
		"empty":             {nil, "no PEM block found"},
		"private as public": {pkcs1, "is a private key"},
		"EC key":            {ecPKIX, "want RSA"},
		"bad certificate":   {pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}), "invalid certificate"},
		"other block":       {pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: []byte{1}}), `PEM block "EC PARAMETERS"`},
	}
	for name, tc := range pubCases {
		_, err := ParseRSAPublicKeyPEM(tc.b)
		require.ErrorIs(t, err, ErrKey, name)
		require.ErrorContains(t, err, tc.want, name)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: parse public key: "), err.Error())
		require.NotContains(t, err.Error(), secret, name)
	}
}

func TestWithJWEValidates(t *testing.T) {
	small := genRSA(1024)
	cases := map[string]struct {
		kid  string
		priv *rsa.PrivateKey
		pub  *rsa.PublicKey
		want string
	}{
		"empty kid":          {" ", merchantRSA(), &serviceRSA().PublicKey, "key id is empty"},
		"kid with newline":   {"key_1\n", merchantRSA(), &serviceRSA().PublicKey, "control characters"},
		"nil merchant key":   {testKID, nil, &serviceRSA().PublicKey, "merchant key is nil"},
		"nil service key":    {testKID, merchantRSA(), nil, "service key is nil"},
		"small merchant key": {testKID, small, &serviceRSA().PublicKey, "merchant key has 1024 bits, want at least 2048"},
		"small service key":  {testKID, merchantRSA(), &small.PublicKey, "service key has 1024 bits"},
		"zero merchant key":  {testKID, &rsa.PrivateKey{}, &serviceRSA().PublicKey, "not a valid RSA private key"},
		"zero service key":   {testKID, merchantRSA(), &rsa.PublicKey{}, "not a valid RSA public key"},
		"even exponent":      {testKID, merchantRSA(), &rsa.PublicKey{N: serviceRSA().N, E: 65536}, "not a valid RSA public key"},
	}
	for name, tc := range cases {
		require.NotPanics(t, func() {
			c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"), WithJWE(tc.kid, tc.priv, tc.pub))
			require.Nil(t, c, name)
			require.ErrorIs(t, err, ErrInvalidOption, name)
			require.ErrorContains(t, err, tc.want, name)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: new client: "), err.Error())
		}, name)
	}

	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"))
	require.NoError(t, err)
	require.Nil(t, c.jwe, "Basic mode by default")
	j := testJWE(t)
	require.Equal(t, testKID, j.keyID)
	require.Same(t, merchantRSA(), j.merchant)
	require.True(t, j.service.Equal(&serviceRSA().PublicKey))
}

func TestJWEConfigRedacts(t *testing.T) {
	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey))
	require.NoError(t, err)
	secrets := []string{merchantRSA().D.String()[:24], merchantRSA().Primes[0].String()[:24], merchantRSA().Primes[1].String()[:24],
		fmt.Sprintf("%x", merchantRSA().D.Bytes()[:12]), testKey}
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q"} {
		for _, v := range []any{c, *c, c.jwe, *c.jwe, struct{ J *jweConfig }{c.jwe}} {
			outs = append(outs, fmt.Sprintf(verb, v))
		}
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "jwe", c.jwe, "copy", *c.jwe, "client", c)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "jwe", c.jwe, "client", c)
	outs = append(outs, buf.String())
	for _, out := range outs {
		for _, s := range secrets {
			require.NotContains(t, out, s)
		}
	}
	require.Equal(t, `JWE{kid: "`+testKID+`", merchant key: RSA-2048 [REDACTED], service key: RSA-2048}`, c.jwe.String())
	require.Contains(t, buf.String(), `"jwe":"JWE{kid:`)
}

// One client seals and opens from many goroutines (run with -race).
func TestJWEConcurrentUse(t *testing.T) {
	j := testJWE(t)
	reply := svcReply{}.seal(t, jweReply)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Go(func() {
			body := []byte(fmt.Sprintf(`{"order_id":"o_%d"}`, i))
			sealed, err := j.seal("create session", body)
			if err == nil {
				var got []byte
				if got, err = j.open("create session", reply); err == nil && string(got) != jweReply {
					err = errors.New("reply changed")
				}
			}
			if err == nil {
				if p, _ := svcOpenErr(sealed); string(p) != string(body) {
					err = errors.New("request changed")
				}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// svcOpenErr is svcOpen without a testing.T, for goroutines.
func svcOpenErr(body []byte) ([]byte, error) {
	var env map[string]string
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	obj, err := gojose.ParseEncryptedCompact(env["header"]+"."+env["encryptedKey"]+"."+env["iv"]+"."+env["encryptedPayload"]+"."+env["tag"],
		[]gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})
	if err != nil {
		return nil, err
	}
	signed, err := obj.Decrypt(serviceRSA())
	if err != nil {
		return nil, err
	}
	var sig map[string]string
	if err := json.Unmarshal(signed, &sig); err != nil {
		return nil, err
	}
	jws, err := gojose.ParseSignedCompact(sig["header"]+"."+sig["payload"]+"."+sig["signature"], []gojose.SignatureAlgorithm{gojose.RS256})
	if err != nil {
		return nil, err
	}
	p, err := jws.Verify(&merchantRSA().PublicKey)
	return p, err
}

func TestJOSEErrorNil(t *testing.T) {
	var e *JOSEError
	require.NotPanics(t, func() { _ = e.Error() })
	require.Nil(t, e.Unwrap())
	err := error(&JOSEError{Op: "get order", Kind: ErrSignature, Detail: "x"})
	require.True(t, errors.Is(err, ErrSignature))
	require.False(t, errors.Is(err, ErrDecrypt))
	require.Equal(t, "checkout: get order: x", err.Error())
}

// ---- benchmarks: the SDK's seal+open beside the RSA operations alone ----

// benchJWEBodies are a session request and reply of realistic size.
func benchJWEBodies(b *testing.B) (req, reply []byte) {
	req, err := json.Marshal(benchRequest())
	if err != nil {
		b.Fatal(err)
	}
	return req, []byte(benchSessionReply)
}

// BenchmarkRSAOperations is the cryptography of one JWE+JWS call done with
// go-jose directly: sign and encrypt the request, decrypt and verify the
// reply. BenchmarkSealOpen does the same through the SDK.
func BenchmarkRSAOperations(b *testing.B) {
	req, reply := benchJWEBodies(b)
	mk, sk := merchantRSA(), serviceRSA()
	sign := func(p []byte, k *rsa.PrivateKey) string {
		s := must(gojose.NewSigner(gojose.SigningKey{Algorithm: gojose.RS256, Key: k}, (&gojose.SignerOptions{}).WithHeader("kid", testKID)))
		return must(must(s.Sign(p)).CompactSerialize())
	}
	encrypt := func(p []byte, k *rsa.PublicKey) string {
		e := must(gojose.NewEncrypter(gojose.A256GCM, gojose.Recipient{Algorithm: gojose.RSA_OAEP_256, Key: k, KeyID: testKID}, nil))
		return must(must(e.Encrypt(p)).CompactSerialize())
	}
	decrypt := func(tok string, k *rsa.PrivateKey) []byte {
		return must(must(gojose.ParseEncryptedCompact(tok, []gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})).Decrypt(k))
	}
	verify := func(tok string, k *rsa.PublicKey) []byte {
		return must(must(gojose.ParseSignedCompact(tok, []gojose.SignatureAlgorithm{gojose.RS256})).Verify(k))
	}
	signedReply := sign(reply, sk)
	sealedReply := encrypt([]byte(signedReply), &mk.PublicKey)
	signedReq := sign(req, mk)

	b.Run("sign", func(b *testing.B) {
		for b.Loop() {
			sign(req, mk)
		}
	})
	b.Run("encrypt", func(b *testing.B) {
		for b.Loop() {
			encrypt([]byte(signedReq), &sk.PublicKey)
		}
	})
	b.Run("decrypt", func(b *testing.B) {
		for b.Loop() {
			decrypt(sealedReply, mk)
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			verify(signedReply, &sk.PublicKey)
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			encrypt([]byte(sign(req, mk)), &sk.PublicKey)
			if len(verify(string(decrypt(sealedReply, mk)), &sk.PublicKey)) != len(reply) {
				b.Fatal("reply changed")
			}
		}
	})
}

// BenchmarkSealOpen is the SDK's seal of a session request and open of a
// session reply (in the service's JSON envelopes, with every check).
func BenchmarkSealOpen(b *testing.B) {
	req, reply := benchJWEBodies(b)
	j := testJWE(b)
	sealed := svcReply{}.seal(b, string(reply))
	b.Run("seal", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.seal("create session", req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.open("create session", sealed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.seal("create session", req); err != nil {
				b.Fatal(err)
			}
			p, err := j.open("create session", sealed)
			if err != nil || len(p) != len(reply) {
				b.Fatal(err)
			}
		}
	})
}

// ---- the /v4 calls through the client's one request path ----

// v4Replies are replies of the three calls whose exact bytes matter.
const (
	v4StatusReply = `{"order_id":"o/1" ,"status":"CHARGED","status_id":21,"amount":"10.00","customer_email":"` + secretMarker + `","refunded":false}`
	v4RefundReply = `{"order_id":"o/1","status":"CHARGED","amount":"10.00","refunded":true,"amount_refunded":"10.00",` +
		`"refunds":[{"unique_request_id":"rf-1","status":"PENDING","amount":"10.00","sent_to_gateway":false}]}`
)

func jweClient(t testing.TB, base string, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, base, append([]Option{WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey)}, opts...)...)
}

// sealedReply is a 200 reply sealed by the service with go-jose alone.
func sealedReply(t testing.TB, o svcReply, payload string) reply {
	return reply{status: 200, body: string(o.seal(t, payload))}
}

// The three calls, sealed by the client and opened by go-jose alone as the
// service would; the service's replies, sealed by go-jose alone, are
// accepted and decoded into the same types as Basic mode, Raw and
// SDKPayload byte for byte.
func TestJWECallsRoundTripWithIndependentCode(t *testing.T) {
	rec := newRecorder(t,
		sealedReply(t, svcReply{}, jweReply),
		sealedReply(t, svcReply{jwtForm: true, alg: gojose.RSA_OAEP}, v4StatusReply),
		sealedReply(t, svcReply{compactJWS: true}, v4RefundReply))
	c := jweClient(t, rec.URL)
	ctx := context.Background()

	req := baseSession()
	req.Description = "😀 <b>&</b> வணக்கம்"
	sess, err := c.CreateSession(ctx, req)
	require.NoError(t, err)
	st, err := c.GetOrder(ctx, "o/1")
	require.NoError(t, err)
	rf, err := c.Refund(ctx, "o/1", &RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.NoError(t, err)

	// Replies: byte for byte, decoded as in Basic mode.
	require.Equal(t, jweReply, string(sess.Raw))
	i := strings.Index(jweReply, `"sdk_payload":`) + len(`"sdk_payload":`)
	require.Equal(t, jweReply[i:len(jweReply)-1], string(sess.SDKPayload))
	require.Equal(t, "ordeh_1", sess.ID)
	require.Equal(t, secretMarker, sess.OrderID)
	require.Equal(t, v4StatusReply, string(st.Raw))
	require.EqualValues(t, "CHARGED", st.Status)
	require.Equal(t, Amount("10.00"), st.Amount)
	require.Equal(t, v4RefundReply, string(rf.Raw))
	require.True(t, rf.Refunded)
	require.Len(t, rf.Refunds, 1)
	require.Equal(t, "rf-1", rf.Refunds[0].UniqueRequestID)

	// Requests: what the service would read.
	basicBody, err := req.encode()
	require.NoError(t, err)
	all := rec.all()
	require.Len(t, all, 3)
	want := []struct {
		uri, payload string
		version      bool
	}{
		{"/v4/session", string(basicBody), false},
		{"/v4/order-status", `{"order_id":"o/1"}`, true},
		{"/v4/orders/o%2F1/refunds", `{"unique_request_id":"rf-1","amount":"10.00"}`, true},
	}
	for i, w := range want {
		got := all[i]
		require.Equal(t, "POST", got.Method, w.uri)
		require.Equal(t, w.uri, got.RequestURI)
		require.Empty(t, got.Header.Values("Authorization"), "the signature authenticates a sealed call")
		require.Equal(t, []string{testMerchant}, got.Header.Values("X-Merchantid"))
		require.Equal(t, []string{"application/json"}, got.Header.Values("Content-Type"))
		if w.version {
			require.Equal(t, []string{DefaultAPIVersion}, got.Header.Values("Version"), w.uri)
		} else {
			require.Empty(t, got.Header.Values("Version"), w.uri)
		}
		require.NotContains(t, string(got.Body), "order_dummy_1")
		require.NotContains(t, string(got.Body), "rf-1")
		payload, jweHdr, jwsHdr := svcOpen(t, got.Body)
		require.Equal(t, w.payload, string(payload), "the JSON sealed, byte for byte")
		require.Equal(t, `{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"`+testKID+`"}`, jweHdr)
		require.Equal(t, `{"alg":"RS256","kid":"`+testKID+`"}`, jwsHdr)
	}
}

// Calls without a /v4 form keep Basic authentication in the JWE+JWS mode.
func TestJWEModeLeavesOtherCallsBasic(t *testing.T) {
	rec := newRecorder(t, reply{status: 200, body: `{"status":"CREATED","order_id":"o"}`})
	_, err := jweClient(t, rec.URL).CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	got := rec.last(t)
	require.Equal(t, "/orders", got.RequestURI)
	require.Equal(t, []string{testAuth}, got.Header.Values("Authorization"))
	require.Equal(t, []string{"application/x-www-form-urlencoded"}, got.Header.Values("Content-Type"))
}

// runV4 makes each of the three calls against a server answering with rep
// and returns their errors and whether a value came back.
func runV4(t *testing.T, rep reply, opts ...Option) map[string]error {
	t.Helper()
	rec := newRecorder(t, rep)
	c := jweClient(t, rec.URL, opts...)
	ctx := context.Background()
	errs := map[string]error{}
	sess, err := c.CreateSession(ctx, baseSession())
	require.True(t, sess == nil || err == nil)
	errs["create session"] = err
	st, err := c.GetOrder(ctx, "o/1")
	require.True(t, st == nil || err == nil)
	errs["get order"] = err
	st, err = c.Refund(ctx, "o/1", &RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.True(t, st == nil || err == nil)
	errs["refund"] = err
	return errs
}

// Tampered and forged replies fail closed on every call, with a
// *JOSEError naming the call and never quoting the reply.
func TestJWECallsFailClosed(t *testing.T) {
	good := svcReply{}.seal(t, jweReply)
	tests := []struct {
		name string
		body []byte
		want error
	}{
		{"tampered tag", flipPart(t, good, "tag"), ErrDecrypt},
		{"tampered ciphertext", flipPart(t, good, "encryptedPayload"), ErrDecrypt},
		{"tampered JWS payload", svcEncrypt(t, svcReply{}, tamperedJWS(t, "payload")), ErrSignature},
		{"tampered JWS signature", svcEncrypt(t, svcReply{}, tamperedJWS(t, "signature")), ErrSignature},
		{"signed by another key", svcReply{sigKey: strangerRSA()}.seal(t, jweReply), ErrSignature},
		{"alg none", svcEncrypt(t, svcReply{}, noneJWS(t, false)), ErrSignature},
		{"unsigned content", svcReply{inner: []byte(jweReply)}.seal(t, jweReply), ErrSignature},
		{"encrypted to another key", svcReply{recipient: &strangerRSA().PublicKey}.seal(t, jweReply), ErrDecrypt},
		{"JWE kid of another key", svcReply{jweKID: strp("key_other")}.seal(t, jweReply), ErrDecrypt},
		{"plain JSON", []byte(jweReply), ErrEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for op, err := range runV4(t, reply{status: 200, body: string(tt.body)}) {
				require.ErrorIs(t, err, tt.want, op)
				var je *JOSEError
				require.ErrorAs(t, err, &je, op)
				require.Equal(t, op, je.Op)
				require.True(t, strings.HasPrefix(err.Error(), "checkout: "+op+": reply: "), err.Error())
				require.NotContains(t, err.Error(), secretMarker)
				require.NotContains(t, err.Error(), "CHARGED")
			}
		})
	}
}

// Error replies decode into *APIError: plain JSON as the service writes
// them, a sealed one once opened, and one that does not open by its HTTP
// status alone.
func TestJWEErrorReplies(t *testing.T) {
	plain := `{"status":"ERROR","error_code":"INVALID_REQUEST","error_message":"amount is wrong","status_id":-1}`
	for name, tc := range map[string]struct {
		rep          reply
		is           error
		code, status string
	}{
		"plain":            {reply{status: 400, body: plain}, ErrInvalidRequest, "INVALID_REQUEST", "ERROR"},
		"sealed":           {reply{status: 400, body: string(svcReply{}.seal(t, plain))}, ErrInvalidRequest, "INVALID_REQUEST", "ERROR"},
		"sealed, forged":   {reply{status: 401, body: string(svcReply{sigKey: strangerRSA()}.seal(t, plain))}, ErrUnauthorized, "", ""},
		"sealed, tampered": {reply{status: 403, body: string(flipPart(t, svcReply{}.seal(t, plain), "tag"))}, ErrForbidden, "", ""},
	} {
		for op, err := range runV4(t, tc.rep) {
			var ae *APIError
			require.ErrorAs(t, err, &ae, "%s %s", name, op)
			require.ErrorIs(t, err, tc.is, name)
			require.Equal(t, tc.rep.status, ae.HTTPStatus)
			require.Equal(t, op, ae.Operation)
			require.Equal(t, tc.code, ae.ErrorCode, name)
			require.Equal(t, tc.status, ae.Status, name)
		}
	}
}

// The order status read stays idempotent in the JWE+JWS mode: a 503 is
// retried with the same sealed body, and the second reply is opened.
func TestJWEGetOrderRetries(t *testing.T) {
	rec := newRecorder(t, reply{status: 503, body: `{"status":"ERROR"}`}, sealedReply(t, svcReply{}, v4StatusReply))
	st, err := jweClient(t, rec.URL).GetOrder(context.Background(), "o/1")
	require.NoError(t, err)
	require.Equal(t, v4StatusReply, string(st.Raw))
	all := rec.all()
	require.Len(t, all, 2)
	require.Equal(t, string(all[0].Body), string(all[1].Body))
	p, _, _ := svcOpen(t, all[1].Body)
	require.Equal(t, `{"order_id":"o/1"}`, string(p))
}

// A client without WithJWE refuses a sealed 2xx reply instead of decoding
// it as an empty order, and says what to configure.
func TestBasicModeRefusesSealedReply(t *testing.T) {
	for name, body := range map[string][]byte{
		"envelope": svcReply{}.seal(t, v4StatusReply),
		"JWT form": svcReply{jwtForm: true}.seal(t, v4StatusReply),
	} {
		rec := newRecorder(t, reply{status: 200, body: string(body)})
		st, err := newTestClient(t, rec.URL).GetOrder(context.Background(), "o/1")
		require.Nil(t, st, name)
		require.ErrorIs(t, err, ErrEnvelope, name)
		require.ErrorContains(t, err, "checkout: get order: reply: the reply is encrypted")
		require.ErrorContains(t, err, "WithJWE")
		require.Equal(t, "/orders/o%2F1", rec.last(t).RequestURI)
	}
	// A plain reply naming the keys in a value is still plain.
	rec := newRecorder(t, reply{status: 200, body: `{"order_id":"o","description":"\"JWT\" and \"encryptedPayload\""}`})
	st, err := newTestClient(t, rec.URL).GetOrder(context.Background(), "o")
	require.NoError(t, err)
	require.Equal(t, "o", st.OrderID)
}

// The debug log of the JWE+JWS calls names method, host, /v4 path, status
// and attempt, and never holds a body (sealed or not), a key, a header
// value or the API key; their errors hold none of those either.
func TestJWEDebugLogAndErrorsHoldNoSecrets(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var sealedBodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		k := n
		sealedBodies = append(sealedBodies, string(body))
		mu.Unlock()
		var out []byte
		switch k {
		case 1: // a session, signed by the service
			out = svcReply{}.seal(t, strings.Replace(jweReply, `"status":"NEW"`, `"status":"NEW","note":"resp-marker-session"`, 1))
		case 2: // an order status signed by another key
			out = svcReply{sigKey: strangerRSA()}.seal(t, `{"order_id":"resp-marker-forged","status":"CHARGED"}`)
		default: // a refused refund, in plain JSON
			w.WriteHeader(400)
			out = []byte(`{"status":"ERROR","error_message":"resp-marker-refund-refused"}`)
		}
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	var buf testio.SyncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := jweClient(t, srv.URL, WithLogger(logger))
	ctx := context.Background()
	sess := baseSession()
	sess.OrderID, sess.CustomerEmail = "body-marker-order", "body-marker@example.com"

	_, err1 := c.CreateSession(ctx, sess, WithHeader("X-Custom", "hdr-marker"))
	require.NoError(t, err1)
	_, err2 := c.GetOrder(ctx, "o")
	require.ErrorIs(t, err2, ErrSignature)
	_, err3 := c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "body-marker-refund", Amount: "1.00"})
	require.ErrorIs(t, err3, ErrInvalidRequest)

	out := buf.String()
	forbidden := []string{testKey, "Basic", "Authorization", testMerchant, "body-marker", "hdr-marker", "resp-marker",
		secretMarker, "sdk_payload", "encryptedPayload", "eyJ", merchantRSA().D.String()[:24], merchantRSA().Primes[0].String()[:24]}
	mu.Lock()
	for _, b := range sealedBodies {
		var env map[string]string
		require.NoError(t, json.Unmarshal([]byte(b), &env))
		forbidden = append(forbidden, env["encryptedKey"][:24], env["encryptedPayload"][:16], env["tag"])
	}
	mu.Unlock()
	for _, s := range forbidden {
		require.NotContains(t, out, s)
		require.NotContains(t, err2.Error(), s)
		require.NotContains(t, fmt.Sprintf("%v %+v %#v", err2, err2, err2), s)
	}
	require.NotContains(t, err3.Error(), testKey)
	host := strings.TrimPrefix(srv.URL, "http://")
	require.Equal(t, []logRecord{
		{host, "POST", "/v4/session", 200, 1, false},
		{host, "POST", "/v4/order-status", 200, 1, false},
		{host, "POST", "/v4/orders/o/refunds", 400, 1, false},
	}, parseLog(t, out))
}
