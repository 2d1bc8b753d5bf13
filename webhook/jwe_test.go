package webhook

import (
	"context"
	"crypto"
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
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
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
		{"wrong key", mk(JWEConfig{PrivateKey: strangerKey()}), good, checkout.ErrDecrypt},
		{"tampered header", plainDec, tamper(good, 0), checkout.ErrDecrypt},
		{"tampered key", plainDec, tamper(good, 1), checkout.ErrDecrypt},
		{"tampered iv", plainDec, tamper(good, 2), checkout.ErrDecrypt},
		{"tampered ciphertext", plainDec, tamper(good, 3), checkout.ErrDecrypt},
		{"tampered tag", plainDec, tamper(good, 4), checkout.ErrDecrypt},
		{"truncated", plainDec, good[:len(good)-10], checkout.ErrDecrypt},
		{"not a jwe", plainDec, "hello", checkout.ErrDecrypt},
		{"a jws is not a jwe", plainDec, "eyJhbGciOiJSUzI1NiJ9.aGVsbG8gd29ybGQ.sig", checkout.ErrDecrypt},
		{"A128GCM refused", plainDec, otherAlg(jose.RSA_OAEP_256, jose.A128GCM, &merchantKey().PublicKey), checkout.ErrDecrypt},
		{"RSA1_5 refused", plainDec, otherAlg(jose.RSA1_5, jose.A256GCM, &merchantKey().PublicKey), checkout.ErrDecrypt},
		{"dir refused", plainDec, otherAlg(jose.DIRECT, jose.A256GCM, make([]byte, 32)), checkout.ErrDecrypt},
		{"kid mismatch", mk(JWEConfig{KeyID: "key_other"}), good, checkout.ErrDecrypt},
		{"signed payload without verification key", plainDec, signed, checkout.ErrSignature},
		{"unsigned payload when a signature is required", verifying, good, checkout.ErrSignature},
		{"signed by a stranger", verifying, seal(t, utf8Event, SealOptions{Signer: strangerKey(), SignerKeyID: "key_svc"}), checkout.ErrSignature},
		{"signature kid mismatch", verifying, seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignerKeyID: "key_xxxxx"}), checkout.ErrSignature},
		{"signature without kid", verifying, seal(t, utf8Event, SealOptions{Signer: serviceKey()}), checkout.ErrSignature},
		{"HS256 refused", verifying, hsSigned, checkout.ErrSignature},
		{"huge alg header", plainDec, hugeHeader(`{"alg":"` + strings.Repeat("A", 5000) + `","enc":"A256GCM"}`), checkout.ErrDecrypt},
		{"huge kid", mk(JWEConfig{KeyID: "key_m"}), seal(t, utf8Event, SealOptions{RecipientKeyID: strings.Repeat("k", 5000)}), checkout.ErrDecrypt},
		{"payload JWS with huge header", verifying, seal(t, base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"`+strings.Repeat("B", 5000)+`"}`))+"."+
			base64.RawURLEncoding.EncodeToString([]byte(utf8Event))+".c2ln", SealOptions{}), checkout.ErrSignature},
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
	require.ErrorIs(t, err, checkout.ErrDecrypt)
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

	pub, err := checkout.ParseRSAPublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&serviceKey().PublicKey)}))
	require.NoError(t, err)
	require.True(t, pub.Equal(&serviceKey().PublicKey))
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "service"}, NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &serviceKey().PublicKey, serviceKey())
	require.NoError(t, err)
	pub, err = checkout.ParseRSAPublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	require.NoError(t, err)
	require.True(t, pub.Equal(&serviceKey().PublicKey))
	_, err = checkout.ParseRSAPublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}))
	require.ErrorContains(t, err, "invalid certificate")
	_, err = checkout.ParseRSAPublicKeyPEM(nil)
	require.ErrorContains(t, err, "no PEM block")
	_, err = checkout.ParseRSAPublicKeyPEM(pkixPEM(t, &ec.PublicKey))
	require.ErrorContains(t, err, "want RSA")
	_, err = checkout.ParseRSAPublicKeyPEM(pkcs1PEM(merchantKey()))
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
// checkout.ErrDecrypt.
type failingDecrypter struct{}

func (failingDecrypter) Decrypt(string) ([]byte, error) { return nil, fmt.Errorf("kms unavailable") }

func TestCustomDecrypterErrorsAreWrapped(t *testing.T) {
	cfg := baseConfig()
	cfg.Decrypter = failingDecrypter{}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	_, err = v.Verify(NewTestRequest(cfg, []byte(`{"JWT":"a.b.c.d.e"}`)))
	require.ErrorIs(t, err, checkout.ErrDecrypt)
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

// vaultKey is the merchant key behind crypto.Decrypter, as an HSM hands it
// out: Public names pub; it decrypts with priv; fault (when set) runs
// before each decryption, numbered from 1, and may fail or panic.
type vaultKey struct {
	pub   *rsa.PublicKey
	priv  *rsa.PrivateKey
	fault func(n int) error
	n     *atomic.Int64
}

func newVaultKey(fault func(n int) error) vaultKey {
	return vaultKey{pub: &merchantKey().PublicKey, priv: merchantKey(), fault: fault, n: new(atomic.Int64)}
}

func (k vaultKey) Public() crypto.PublicKey { return k.pub }
func (k vaultKey) Decrypt(r io.Reader, m []byte, o crypto.DecrypterOpts) ([]byte, error) {
	n := int(k.n.Add(1))
	if k.fault != nil {
		if err := k.fault(n); err != nil {
			return nil, err
		}
	}
	return k.priv.Decrypt(r, m, o)
}

// NewJWEDecrypter makes a JWEConfig.Decrypter open a test secret: one that
// decrypts with another key pair than its Public names, or fails, or
// panics, is refused before the first delivery; a fault or panic later is
// an error matching checkout.ErrKeyOperation and ErrEncrypted (Handler:
// 500, so the service re-sends), never the end of the process.
func TestJWEConfigDecrypterIsChecked(t *testing.T) {
	liar := newVaultKey(nil)
	liar.priv = strangerKey()
	_, err := NewJWEDecrypter(JWEConfig{Decrypter: liar})
	require.ErrorContains(t, err, "checkout: new webhook decrypter: JWEConfig.Decrypter: the decrypter cannot open a secret encrypted to its public key")
	require.NotErrorIs(t, err, checkout.ErrKeyOperation)

	locked := errors.New("CKR_USER_NOT_LOGGED_IN")
	_, err = NewJWEDecrypter(JWEConfig{Decrypter: newVaultKey(func(int) error { return locked })})
	require.ErrorIs(t, err, checkout.ErrKeyOperation)
	require.ErrorIs(t, err, locked)
	require.EqualError(t, err, "checkout: new webhook decrypter: JWEConfig.Decrypter: decrypting a test secret: the key failed: CKR_USER_NOT_LOGGED_IN")
	_, err = NewJWEDecrypter(JWEConfig{Decrypter: newVaultKey(func(int) error { panic("nil session") })})
	require.ErrorIs(t, err, checkout.ErrKeyOperation)
	require.ErrorContains(t, err, "the key panicked: nil session")

	key := newVaultKey(func(n int) error {
		if n > 1 { // after NewJWEDecrypter's check
			panic(locked)
		}
		return nil
	})
	cfg, v := jweVerifier(t, JWEConfig{Decrypter: key})
	tok := seal(t, utf8Event, SealOptions{})
	_, err = v.decrypter.Decrypt(tok)
	require.ErrorIs(t, err, checkout.ErrKeyOperation)
	require.ErrorIs(t, err, ErrEncrypted)
	require.ErrorIs(t, err, locked)
	require.EqualError(t, err, "checkout: verify webhook: encrypted payload: decrypting with the merchant key: the key panicked: CKR_USER_NOT_LOGGED_IN")
	called := false
	h := v.Handler(func(context.Context, *Event) error { called = true; return nil })
	body, err := json.Marshal(map[string]string{"JWT": tok})
	require.NoError(t, err)
	require.Equal(t, 500, serve(h, NewTestRequest(cfg, body)).Code)
	require.False(t, called)
}
