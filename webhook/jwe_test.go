package webhook

import (
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
	"strconv"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
)

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
		_, err := NewJWEDecrypterFromPEM(b, nil)
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

// A JWEConfig and SealOptions print their keys by size only (fmt, slog)
// and json.Marshal leaves the keys out, a value or a pointer.
func TestJWEConfigAndSealOptionsHideKeys(t *testing.T) {
	cfg := JWEConfig{PrivateKey: merchantKey(), KeyID: "key_m", VerificationKey: &serviceKey().PublicKey, VerificationKeyID: "key_s"}
	opts := SealOptions{Recipient: &merchantKey().PublicKey, RecipientKeyID: "key_m", Signer: serviceKey(), SignerKeyID: "key_s", LegacyOAEP: true}
	for _, tt := range []struct {
		vals       []any
		text, json string
	}{
		{[]any{cfg, &cfg}, `webhook.JWEConfig{PrivateKey: RSA-2048 [redacted], KeyID: "key_m", VerificationKey: RSA-2048, VerificationKeyID: "key_s"}`,
			`{"KeyID":"key_m","VerificationKeyID":"key_s"}`},
		{[]any{opts, &opts}, `webhook.SealOptions{Recipient: RSA-2048, RecipientKeyID: "key_m", Signer: RSA-2048 [redacted], SignerKeyID: "key_s", SignatureAsJSON: false, LegacyOAEP: true}`,
			`{"RecipientKeyID":"key_m","SignerKeyID":"key_s","SignatureAsJSON":false,"LegacyOAEP":true}`},
	} {
		for _, v := range tt.vals {
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d"} {
				require.Equal(t, tt.text, fmt.Sprintf(verb, v), verb)
			}
			var buf strings.Builder
			slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "v", v)
			require.Contains(t, buf.String(), `"v":`+strconv.Quote(tt.text))
			b, err := json.Marshal(v)
			require.NoError(t, err)
			require.Equal(t, tt.json, string(b))
		}
	}
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

func TestJWEDecrypterLogValue(t *testing.T) {
	d, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey()})
	require.NoError(t, err)
	var buf strings.Builder
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "dec", d)
	require.Contains(t, buf.String(), `"dec":"webhook.JWEDecrypter{PrivateKey: RSA-2048 [redacted]`)
	require.NotContains(t, buf.String(), merchantKey().D.String()[:20])
}
