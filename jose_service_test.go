package checkout

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

// The fixtures of the JWE+JWS tests: keys, replies, and the service itself
// played by go-jose alone, so that what the SDK seals is read, and what it
// opens is written, by code that is none of the SDK's.

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
