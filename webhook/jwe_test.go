package webhook

import (
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
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// Keys are generated once per test binary: RSA generation is slow under -race.
var (
	merchantKey = sync.OnceValue(func() *rsa.PrivateKey { return genKey() })
	serviceKey  = sync.OnceValue(func() *rsa.PrivateKey { return genKey() })
	strangerKey = sync.OnceValue(func() *rsa.PrivateKey { return genKey() })
)

func genKey() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
}

func pkcs1PEM(k *rsa.PrivateKey) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
}

func pkcs8PEM(t *testing.T, k any) []byte {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

func pkixPEM(t *testing.T, k any) []byte {
	der, err := x509.MarshalPKIXPublicKey(k)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

const utf8Event = `{"id":"evt_jwe_1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_ஆ_1","status":"CHARGED","note":"hello world 😀 வணக்கம்"}}}`

func seal(t *testing.T, payload string, opts SealOptions) string {
	t.Helper()
	if opts.Recipient == nil {
		opts.Recipient = &merchantKey().PublicKey
	}
	tok, err := Seal([]byte(payload), opts)
	require.NoError(t, err)
	return tok
}

// jweVerifier returns baseConfig with a JWEDecrypter made from jc, and the
// Verifier made from it, for tests that deliver encrypted webhooks.
func jweVerifier(t *testing.T, jc JWEConfig) (Config, *Verifier) {
	t.Helper()
	dec, err := NewJWEDecrypter(jc)
	require.NoError(t, err)
	cfg := baseConfig()
	cfg.Decrypter = dec
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	return cfg, v
}

func TestJWEDecryptFromPEM(t *testing.T) {
	for name, privPEM := range map[string][]byte{
		"pkcs1": pkcs1PEM(merchantKey()),
		"pkcs8": pkcs8PEM(t, merchantKey()),
	} {
		t.Run(name, func(t *testing.T) {
			d, err := NewJWEDecrypterFromPEM(privPEM, nil)
			require.NoError(t, err)
			for _, legacy := range []bool{false, true} {
				plain, err := d.Decrypt(seal(t, utf8Event, SealOptions{LegacyOAEP: legacy}))
				require.NoError(t, err)
				require.Equal(t, utf8Event, string(plain), "UTF-8 survives byte for byte")
			}

			// With the service's verification key: the payload is a JWS.
			dv, err := NewJWEDecrypterFromPEM(privPEM, pkixPEM(t, &serviceKey().PublicKey))
			require.NoError(t, err)
			plain, err := dv.Decrypt(seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignerKeyID: "key_svc"}))
			require.NoError(t, err)
			require.Equal(t, utf8Event, string(plain))
		})
	}
}

func TestJWEDecryptFailures(t *testing.T) {
	mk := func(cfg JWEConfig) *JWEDecrypter {
		if cfg.PrivateKey == nil {
			cfg.PrivateKey = merchantKey()
		}
		d, err := NewJWEDecrypter(cfg)
		require.NoError(t, err)
		return d
	}
	plainDec := mk(JWEConfig{})
	verifying := mk(JWEConfig{VerificationKey: &serviceKey().PublicKey, VerificationKeyID: "key_svc"})
	good := seal(t, utf8Event, SealOptions{RecipientKeyID: "key_m"})
	signed := seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignerKeyID: "key_svc"})

	tamper := func(tok string, part int) string {
		parts := strings.Split(tok, ".")
		parts[part] = wiretest.Flip(t, parts[part])
		return strings.Join(parts, ".")
	}
	otherAlg := func(alg jose.KeyAlgorithm, enc jose.ContentEncryption, key any) string {
		e, err := jose.NewEncrypter(enc, jose.Recipient{Algorithm: alg, Key: key}, nil)
		require.NoError(t, err)
		obj, err := e.Encrypt([]byte(utf8Event))
		require.NoError(t, err)
		s, err := obj.CompactSerialize()
		require.NoError(t, err)
		return s
	}
	hsSigned := seal(t, goJoseSign(t, jose.HS256, []byte("0123456789abcdef0123456789abcdef"), "", utf8Event), SealOptions{})

	tests := []struct {
		name  string
		d     *JWEDecrypter
		token string
		want  error
	}{
		{"wrong key", mk(JWEConfig{PrivateKey: strangerKey()}), good, ErrDecrypt},
		{"tampered header", plainDec, tamper(good, 0), ErrDecrypt},
		{"tampered key", plainDec, tamper(good, 1), ErrDecrypt},
		{"tampered iv", plainDec, tamper(good, 2), ErrDecrypt},
		{"tampered ciphertext", plainDec, tamper(good, 3), ErrDecrypt},
		{"tampered tag", plainDec, tamper(good, 4), ErrDecrypt},
		{"truncated", plainDec, good[:len(good)-10], ErrDecrypt},
		{"not a jwe", plainDec, "hello", ErrDecrypt},
		{"a jws is not a jwe", plainDec, "eyJhbGciOiJSUzI1NiJ9.aGVsbG8gd29ybGQ.sig", ErrDecrypt},
		{"A128GCM refused", plainDec, otherAlg(jose.RSA_OAEP_256, jose.A128GCM, &merchantKey().PublicKey), ErrDecrypt},
		{"RSA1_5 refused", plainDec, otherAlg(jose.RSA1_5, jose.A256GCM, &merchantKey().PublicKey), ErrDecrypt},
		{"dir refused", plainDec, otherAlg(jose.DIRECT, jose.A256GCM, make([]byte, 32)), ErrDecrypt},
		{"kid mismatch", mk(JWEConfig{KeyID: "key_other"}), good, ErrDecrypt},
		{"signed payload without verification key", plainDec, signed, ErrSignature},
		{"unsigned payload when a signature is required", verifying, good, ErrSignature},
		{"signed by a stranger", verifying, seal(t, utf8Event, SealOptions{Signer: strangerKey(), SignerKeyID: "key_svc"}), ErrSignature},
		{"signature kid mismatch", verifying, seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignerKeyID: "key_xxxxx"}), ErrSignature},
		{"signature without kid", verifying, seal(t, utf8Event, SealOptions{Signer: serviceKey()}), ErrSignature},
		{"HS256 refused", verifying, hsSigned, ErrSignature},
		{"huge alg header", plainDec, hugeHeader(`{"alg":"` + strings.Repeat("A", 5000) + `","enc":"A256GCM"}`), ErrDecrypt},
		{"huge kid", mk(JWEConfig{KeyID: "key_m"}), seal(t, utf8Event, SealOptions{RecipientKeyID: strings.Repeat("k", 5000)}), ErrDecrypt},
		{"payload JWS with huge header", verifying, seal(t, base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"`+strings.Repeat("B", 5000)+`"}`))+"."+
			base64.RawURLEncoding.EncodeToString([]byte(utf8Event))+".c2ln", SealOptions{}), ErrSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain, err := tt.d.Decrypt(tt.token)
			require.ErrorIs(t, err, tt.want)
			require.ErrorIs(t, err, ErrEncrypted)
			require.Nil(t, plain)
			// Errors are logged by Handler: they never carry the payload
			// nor long text the sender chose.
			require.NotContains(t, err.Error(), "ord_ஆ_1")
			require.NotContains(t, err.Error(), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
			require.LessOrEqual(t, len(err.Error()), 300, err.Error())
		})
	}

	// Kid checks that match pass.
	plain, err := mk(JWEConfig{KeyID: "key_m"}).Decrypt(good)
	require.NoError(t, err)
	require.Equal(t, utf8Event, string(plain))

	var nilD *JWEDecrypter
	_, err = nilD.Decrypt(good)
	require.ErrorIs(t, err, ErrDecrypt)
}

func TestJWEConfigAndPEMErrors(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	require.NoError(t, err)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)

	_, err = NewJWEDecrypter(JWEConfig{})
	require.ErrorContains(t, err, "PrivateKey is required")
	_, err = NewJWEDecrypter(JWEConfig{PrivateKey: small})
	require.ErrorContains(t, err, "1024 bits")
	_, err = NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), VerificationKey: &small.PublicKey})
	require.ErrorContains(t, err, "VerificationKey has 1024 bits")
	_, err = NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), VerificationKeyID: "k"})
	require.ErrorContains(t, err, "without a VerificationKey")
	// Zero and broken keys are errors, not panics.
	for name, cfg := range map[string]JWEConfig{
		"zero private key":       {PrivateKey: &rsa.PrivateKey{}},
		"zero public key":        {PrivateKey: merchantKey(), VerificationKey: &rsa.PublicKey{}},
		"public key without E":   {PrivateKey: merchantKey(), VerificationKey: &rsa.PublicKey{N: serviceKey().N}},
		"public key with even E": {PrivateKey: merchantKey(), VerificationKey: &rsa.PublicKey{N: serviceKey().N, E: 65536}},
	} {
		require.NotPanics(t, func() {
			d, err := NewJWEDecrypter(cfg)
			require.Error(t, err, name)
			require.Nil(t, d, name)
		}, name)
	}
	require.NotPanics(t, func() { _ = (&JWEDecrypter{priv: &rsa.PrivateKey{}}).String() })

	for name, b := range map[string][]byte{
		"empty":             nil,
		"not pem":           []byte("-----BEGIN nothing"),
		"public as private": pkixPEM(t, &merchantKey().PublicKey),
		"ec pkcs8":          pkcs8PEM(t, ec),
		"broken pkcs1":      pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte{1, 2, 3}}),
		"broken pkcs8":      pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}),
	} {
		_, err := ParseRSAPrivateKeyPEM(b)
		require.Error(t, err, name)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: parse private key: "), name)
	}

	pub, err := ParseRSAPublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&serviceKey().PublicKey)}))
	require.NoError(t, err)
	require.True(t, pub.Equal(&serviceKey().PublicKey))
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "service"}, NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &serviceKey().PublicKey, serviceKey())
	require.NoError(t, err)
	pub, err = ParseRSAPublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	require.NoError(t, err)
	require.True(t, pub.Equal(&serviceKey().PublicKey))
	_, err = ParseRSAPublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}))
	require.ErrorContains(t, err, "invalid certificate")
	_, err = ParseRSAPublicKeyPEM(nil)
	require.ErrorContains(t, err, "no PEM block")
	_, err = ParseRSAPublicKeyPEM(pkixPEM(t, &ec.PublicKey))
	require.ErrorContains(t, err, "want RSA")
	_, err = ParseRSAPublicKeyPEM(pkcs1PEM(merchantKey()))
	require.Error(t, err)
	_, err = NewJWEDecrypterFromPEM(pkcs1PEM(merchantKey()), []byte("garbage"))
	require.Error(t, err)

	_, err = Seal([]byte("x"), SealOptions{})
	require.ErrorContains(t, err, "Recipient is required")
}

func TestJWEDecrypterHidesKey(t *testing.T) {
	d, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), KeyID: "key_m"})
	require.NoError(t, err)
	secret := merchantKey().D.String()[:20]
	prime := merchantKey().Primes[0].String()[:20]
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d"} {
		for _, val := range []any{d, *d, Config{Decrypter: d}} {
			out := fmt.Sprintf(verb, val)
			require.NotContains(t, out, secret, verb)
			require.NotContains(t, out, prime, verb)
		}
	}
	require.Equal(t, `webhook.JWEDecrypter{PrivateKey: RSA-2048 [redacted], KeyID: "key_m", VerificationKey: nil, VerificationKeyID: ""}`, d.String())
}

func TestHandlerEncryptedWebhooks(t *testing.T) {
	cfg, v := jweVerifier(t, JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey})
	var got []*Event
	h := v.Handler(func(_ context.Context, ev *Event) error { got = append(got, ev); return nil })

	envelope := func(tok string) []byte {
		b, err := json.Marshal(map[string]string{"JWT": tok})
		require.NoError(t, err)
		return b
	}
	opts := SealOptions{Signer: serviceKey()}
	// Each re-send is encrypted afresh; it is still one event.
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, envelope(seal(t, utf8Event, opts)))).Code)
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, envelope(seal(t, utf8Event, opts)))).Code)
	require.Len(t, got, 1)
	ev := got[0]
	require.True(t, ev.Encrypted)
	require.Equal(t, "evt_jwe_1", ev.ID)
	require.Equal(t, "ord_ஆ_1", ev.OrderID())
	require.Equal(t, utf8Event, string(ev.Raw))

	// Plain JSON keeps working next to JWT (backward compatible, §6.1.7).
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Len(t, got, 2)
	require.False(t, got[1].Encrypted)

	// The JSON-serialised JWE envelope of the service's API responses.
	parts := strings.Split(seal(t, strings.Replace(utf8Event, "evt_jwe_1", "evt_jwe_2", 1), opts), ".")
	body, err := json.Marshal(map[string]string{"header": parts[0], "encryptedKey": parts[1], "iv": parts[2], "encryptedPayload": parts[3], "tag": parts[4]})
	require.NoError(t, err)
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, body)).Code)
	require.Len(t, got, 3)
	require.Equal(t, "evt_jwe_2", got[2].ID)

	// Failures are 500 (nothing lost) or 400, never 200.
	for name, tc := range map[string]struct {
		body []byte
		code int
	}{
		"wrong recipient":            {envelope(seal(t, utf8Event, SealOptions{Recipient: &strangerKey().PublicKey, Signer: serviceKey()})), 500},
		"unsigned":                   {envelope(seal(t, utf8Event, SealOptions{})), 500},
		"payload not an event":       {envelope(seal(t, `{"order_id":"x"}`, opts)), 400},
		"payload not json":           {envelope(seal(t, `hello`, opts)), 400},
		"nested envelope":            {envelope(seal(t, `{"JWT":"a.b.c.d.e"}`, opts)), 400},
		"incomplete json envelope":   {[]byte(`{"header":"a","iv":"c","encryptedPayload":"d","tag":"e"}`), 400},
		"json envelope with dot":     {[]byte(`{"header":"a.b","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), 400},
		"json envelope placeholders": {[]byte(`{"header":"a","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), 500},
	} {
		require.Equal(t, tc.code, serve(h, NewTestRequest(cfg, tc.body)).Code, name)
	}
	require.Len(t, got, 3)
}

// hugeHeader is a compact JWE (or, cut, JWS) whose protected header is hdr
// and whose other parts are placeholders.
func hugeHeader(hdr string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(hdr)) + ".a2V5.aXY.Y2lwaGVy.dGFn"
}

// A Decrypter that is not a JWEDecrypter: its plain errors are classed as
// ErrDecrypt.
type failingDecrypter struct{}

func (failingDecrypter) Decrypt(string) ([]byte, error) { return nil, fmt.Errorf("kms unavailable") }

func TestCustomDecrypterErrorsAreWrapped(t *testing.T) {
	cfg := baseConfig()
	cfg.Decrypter = failingDecrypter{}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	_, err = v.Verify(NewTestRequest(cfg, []byte(`{"JWT":"a.b.c.d.e"}`)))
	require.ErrorIs(t, err, ErrDecrypt)
	require.ErrorContains(t, err, "kms unavailable")
}

// The published envelopes (conformance/jwt): the JWT webhook header names
// exactly the algorithms Seal uses and Decrypt accepts, and every published
// envelope is refused cleanly (they are truncated or hold placeholders).
func TestConformanceJWT(t *testing.T) {
	samples := conformance.Files(t, "jwt", "*.json")
	cfg, v := jweVerifier(t, JWEConfig{PrivateKey: merchantKey()})
	sawWebhook := false
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			ev, err := v.Verify(NewTestRequest(cfg, s.Data))
			require.Error(t, err)
			require.Nil(t, ev)
			require.True(t, StatusFor(err) == http.StatusBadRequest || StatusFor(err) == http.StatusInternalServerError, "%v", err)

			var env struct{ JWT string }
			if json.Unmarshal(s.Data, &env) != nil || env.JWT == "" {
				return
			}
			sawWebhook = true
			require.ErrorIs(t, err, ErrDecrypt)
			// The visible prefix of the header decodes to the algorithms we use.
			prefix := env.JWT[:strings.IndexAny(env.JWT, ". ")]
			prefix = prefix[:len(prefix)/4*4]
			hdr, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(prefix, "="))
			require.NoError(t, err)
			require.Contains(t, string(hdr), `{"alg":"RSA-OAEP-256","enc":"A256GCM"`)

			ours := seal(t, utf8Event, SealOptions{})
			obj, err := jose.ParseEncryptedCompact(ours, []jose.KeyAlgorithm{jose.RSA_OAEP_256}, []jose.ContentEncryption{jose.A256GCM})
			require.NoError(t, err)
			require.Equal(t, "RSA-OAEP-256", obj.Header.Algorithm)
		})
	}
	require.True(t, sawWebhook, "the JWT webhook envelope sample was not found")
}

func TestJWEDecrypterLogValue(t *testing.T) {
	d, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey()})
	require.NoError(t, err)
	var buf strings.Builder
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "dec", d)
	require.Contains(t, buf.String(), `"dec":"webhook.JWEDecrypter{PrivateKey: RSA-2048 [redacted]`)
	require.NotContains(t, buf.String(), merchantKey().D.String()[:20])
}

// jsonJWS writes a compact JWS as {"header","payload","signature"}, the
// form the service's encrypted API replies use, with independent code.
func jsonJWS(t *testing.T, compact string) string {
	t.Helper()
	p := strings.Split(compact, ".")
	require.Len(t, p, 3)
	b, err := json.Marshal(map[string]string{"header": p[0], "payload": p[1], "signature": p[2]})
	require.NoError(t, err)
	return string(b)
}

// goJoseSign signs with go-jose directly (not the package's Seal).
func goJoseSign(t *testing.T, alg jose.SignatureAlgorithm, key any, kid, payload string) string {
	t.Helper()
	so := &jose.SignerOptions{}
	if kid != "" {
		so = so.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, so)
	require.NoError(t, err)
	jws, err := s.Sign([]byte(payload))
	require.NoError(t, err)
	c, err := jws.CompactSerialize()
	require.NoError(t, err)
	return c
}

// The decrypted content of a JWT webhook may be a compact JWS, a JSON JWS
// or the plain event: a signature is verified wherever there is one, and
// unsigned content is refused when a verification key is configured.
func TestJWEDecryptContentShapes(t *testing.T) {
	verifying, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey})
	require.NoError(t, err)
	plainOnly, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey()})
	require.NoError(t, err)
	signed := goJoseSign(t, jose.RS256, serviceKey(), "key_svc", utf8Event)
	shapes := map[string]string{
		"compact JWS": signed,
		"JSON JWS":    jsonJWS(t, signed),
		"plain event": utf8Event,
	}
	for name, content := range shapes {
		t.Run(name, func(t *testing.T) {
			tok := seal(t, content, SealOptions{})
			got, err := verifying.Decrypt(tok)
			if name == "plain event" {
				require.ErrorIs(t, err, ErrSignature, "unsigned content with a verification key")
				require.ErrorContains(t, err, "not signed")
				require.Nil(t, got)
			} else {
				require.NoError(t, err)
				require.Equal(t, utf8Event, string(got), "byte for byte")
			}
			got, err = plainOnly.Decrypt(tok)
			if name == "plain event" {
				require.NoError(t, err)
				require.Equal(t, utf8Event, string(got))
			} else {
				require.ErrorIs(t, err, ErrSignature, "signed content is never accepted unverified")
				require.Nil(t, got)
			}
		})
	}

	// Seal makes the JSON form too.
	tok := seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignatureAsJSON: true, LegacyOAEP: true})
	got, err := verifying.Decrypt(tok)
	require.NoError(t, err)
	require.Equal(t, utf8Event, string(got))
	_, err = Seal([]byte(utf8Event), SealOptions{Recipient: &merchantKey().PublicKey, SignatureAsJSON: true})
	require.ErrorContains(t, err, "needs a Signer")
}

func TestJWEDecryptJSONSignatureFailures(t *testing.T) {
	verifying, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey, VerificationKeyID: "key_svc"})
	require.NoError(t, err)
	good := goJoseSign(t, jose.RS256, serviceKey(), "key_svc", utf8Event)
	p := strings.Split(good, ".")
	b64 := base64.RawURLEncoding.EncodeToString
	tests := map[string]string{
		"signed by another key": jsonJWS(t, goJoseSign(t, jose.RS256, strangerKey(), "key_svc", utf8Event)),
		"tampered signature":    jsonJWS(t, p[0]+"."+p[1]+"."+wiretest.Flip(t, p[2])),
		"tampered payload":      jsonJWS(t, p[0]+"."+b64([]byte(strings.Replace(utf8Event, "CHARGED", "REFUNDED", 1)))+"."+p[2]),
		"header without kid":    jsonJWS(t, b64([]byte(`{"alg":"RS256"}`))+"."+p[1]+"."+p[2]),
		"kid of another key":    jsonJWS(t, goJoseSign(t, jose.RS256, serviceKey(), "key_other", utf8Event)),
		"no kid":                jsonJWS(t, goJoseSign(t, jose.RS256, serviceKey(), "", utf8Event)),
		"alg none":              `{"header":"` + b64([]byte(`{"alg":"none","kid":"key_svc"}`)) + `","payload":"` + p[1] + `","signature":""}`,
		"HS256":                 jsonJWS(t, goJoseSign(t, jose.HS256, []byte("0123456789abcdef0123456789abcdef"), "key_svc", utf8Event)),
		"parts not strings":     `{"header":1,"payload":"` + p[1] + `","signature":"` + p[2] + `"}`,
		"parts not base64url":   `{"header":"a=","payload":"` + p[1] + `","signature":"` + p[2] + `"}`,
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			plain, err := verifying.Decrypt(seal(t, content, SealOptions{}))
			require.ErrorIs(t, err, ErrSignature)
			require.Nil(t, plain)
			require.NotContains(t, err.Error(), "ord_ஆ_1")
			require.NotContains(t, err.Error(), "REFUNDED")
		})
	}
	// Wrong recipient and tampered JWE around a JSON JWS: ErrDecrypt.
	tok := seal(t, jsonJWS(t, good), SealOptions{Recipient: &strangerKey().PublicKey})
	_, err = verifying.Decrypt(tok)
	require.ErrorIs(t, err, ErrDecrypt)
	parts := strings.Split(seal(t, jsonJWS(t, good), SealOptions{}), ".")
	for i := range parts {
		q := append([]string(nil), parts...)
		q[i] = wiretest.Flip(t, q[i])
		_, err = verifying.Decrypt(strings.Join(q, "."))
		require.ErrorIs(t, err, ErrDecrypt, "part %d", i)
	}
}

// The service's published JSON JWS sample (placeholders) is recognised as
// signed content and refused, with or without a verification key.
func TestJWEConformanceSignedEnvelope(t *testing.T) {
	s := conformance.Files(t, "jwt", "jwt_step3_jws_json_envelope.json")[0]
	tok := seal(t, string(s.Data), SealOptions{})
	for _, cfg := range []JWEConfig{{PrivateKey: merchantKey()}, {PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey}} {
		d, err := NewJWEDecrypter(cfg)
		require.NoError(t, err)
		plain, err := d.Decrypt(tok)
		require.ErrorIs(t, err, ErrSignature)
		require.Nil(t, plain)
	}
}

func TestHandlerJSONSignedWebhook(t *testing.T) {
	cfg, v := jweVerifier(t, JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey})
	tok := seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignatureAsJSON: true})
	ev, err := v.Verify(NewTestRequest(cfg, []byte(`{"JWT":"`+tok+`"}`)))
	require.NoError(t, err)
	require.True(t, ev.Encrypted)
	require.Equal(t, "ord_ஆ_1", ev.OrderID())
	require.Equal(t, utf8Event, string(ev.Raw))

	// Unsigned content is refused with a 500 (the service re-sends).
	h := v.Handler(func(context.Context, *Event) error { t.Fatal("called"); return nil })
	require.Equal(t, 500, serve(h, NewTestRequest(cfg, []byte(`{"JWT":"`+seal(t, utf8Event, SealOptions{})+`"}`))).Code)
}
