package webhook

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// Decrypter opens the encrypted webhook body of spec §6.1.7: it receives
// the token found under "JWT" and returns the plaintext event JSON. Errors
// should wrap ErrDecrypt or ErrSignature. JWEDecrypter is the implementation
// for the service's RSA keys; implement the interface to keep the key in a
// KMS or HSM. Implementations must be safe for concurrent use.
type Decrypter interface {
	// Decrypt opens token, the compact JWE found under "JWT", and returns
	// the event JSON inside (verified, when the implementation checks a
	// signature).
	Decrypt(token string) ([]byte, error)
}

// JWEConfig configures a JWEDecrypter. The spec does not publish the
// decryption procedure (§6.1.7); the service's published envelopes
// (conformance/jwt) show compact JWE with "alg":"RSA-OAEP-256",
// "enc":"A256GCM" and a "kid", and its SDKs sign with RS256.
type JWEConfig struct {
	// PrivateKey is the merchant's RSA key the service encrypts to.
	// Required.
	PrivateKey *rsa.PrivateKey
	// KeyID, when set, must equal the token's "kid" header.
	KeyID string
	// VerificationKey is the service's RSA public key. When set, the
	// decrypted payload must be a compact JWS signed with RS256 by this key
	// and Decrypt returns its verified payload. When nil, the payload must
	// be plain JSON: a signed payload is refused (ErrSignature) rather than
	// accepted unverified.
	VerificationKey *rsa.PublicKey
	// VerificationKeyID, when set, must equal the JWS "kid" header.
	VerificationKeyID string
}

// JWEDecrypter decrypts compact JWE tokens (RSA-OAEP-256 or RSA-OAEP key
// encryption, A256GCM content encryption) and verifies an inner RS256 JWS
// when a verification key is configured. It is safe for concurrent use.
// Formatting it never prints key material.
type JWEDecrypter struct {
	priv     *rsa.PrivateKey
	kid      string
	verify   *rsa.PublicKey
	verifyID string
}

// Minimum RSA size accepted for either key.
const minRSABits = 2048

// maxDetail bounds the go-jose text an error carries.
const maxDetail = 160

// NewJWEDecrypter checks cfg and returns a JWEDecrypter.
func NewJWEDecrypter(cfg JWEConfig) (*JWEDecrypter, error) {
	if cfg.PrivateKey == nil {
		return nil, errors.New("webhook: JWEConfig.PrivateKey is required")
	}
	if err := cfg.PrivateKey.Validate(); err != nil {
		return nil, errors.New("webhook: JWEConfig.PrivateKey is not a valid RSA key")
	}
	if cfg.PrivateKey.N.BitLen() < minRSABits {
		return nil, fmt.Errorf("webhook: JWEConfig.PrivateKey has %d bits, want at least %d", cfg.PrivateKey.N.BitLen(), minRSABits)
	}
	if k := cfg.VerificationKey; k != nil && (k.N == nil || k.N.Sign() <= 0 || k.E < 3 || k.E%2 == 0) {
		return nil, errors.New("webhook: JWEConfig.VerificationKey is not a valid RSA public key")
	}
	if cfg.VerificationKey != nil && cfg.VerificationKey.N.BitLen() < minRSABits {
		return nil, fmt.Errorf("webhook: JWEConfig.VerificationKey has %d bits, want at least %d", cfg.VerificationKey.N.BitLen(), minRSABits)
	}
	if cfg.VerificationKeyID != "" && cfg.VerificationKey == nil {
		return nil, errors.New("webhook: JWEConfig.VerificationKeyID is set without a VerificationKey")
	}
	return &JWEDecrypter{priv: cfg.PrivateKey, kid: cfg.KeyID, verify: cfg.VerificationKey, verifyID: cfg.VerificationKeyID}, nil
}

// NewJWEDecrypterFromPEM builds a JWEDecrypter from PEM text: the merchant's
// private key (PKCS#1 "RSA PRIVATE KEY" or PKCS#8 "PRIVATE KEY") and,
// optionally (nil or empty), the service's public key (see
// ParseRSAPublicKeyPEM).
func NewJWEDecrypterFromPEM(privatePEM, verificationPEM []byte) (*JWEDecrypter, error) {
	priv, err := ParseRSAPrivateKeyPEM(privatePEM)
	if err != nil {
		return nil, err
	}
	cfg := JWEConfig{PrivateKey: priv}
	if len(bytes.TrimSpace(verificationPEM)) > 0 {
		if cfg.VerificationKey, err = ParseRSAPublicKeyPEM(verificationPEM); err != nil {
			return nil, err
		}
	}
	return NewJWEDecrypter(cfg)
}

// ParseRSAPrivateKeyPEM reads the first PEM block of b as an RSA private
// key in PKCS#1 ("RSA PRIVATE KEY") or PKCS#8 ("PRIVATE KEY") form.
// Encrypted PEM is not supported. Errors never quote key material.
func ParseRSAPrivateKeyPEM(b []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("webhook: private key: no PEM block found")
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, errors.New("webhook: private key: invalid PKCS#1 RSA key")
		}
		return k, nil
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, errors.New("webhook: private key: invalid PKCS#8 key")
		}
		rk, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("webhook: private key: PKCS#8 key is %T, want RSA", k)
		}
		return rk, nil
	default:
		return nil, fmt.Errorf("webhook: private key: PEM block %q, want \"RSA PRIVATE KEY\" or \"PRIVATE KEY\"", block.Type)
	}
}

// ParseRSAPublicKeyPEM reads the first PEM block of b as an RSA public key:
// PKIX ("PUBLIC KEY"), PKCS#1 ("RSA PUBLIC KEY") or the key of a
// certificate ("CERTIFICATE").
func ParseRSAPublicKeyPEM(b []byte) (*rsa.PublicKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("webhook: public key: no PEM block found")
	}
	var k any
	var err error
	switch block.Type {
	case "PUBLIC KEY":
		k, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PUBLIC KEY":
		k, err = x509.ParsePKCS1PublicKey(block.Bytes)
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			k = cert.PublicKey
		}
	default:
		return nil, fmt.Errorf("webhook: public key: PEM block %q, want \"PUBLIC KEY\", \"RSA PUBLIC KEY\" or \"CERTIFICATE\"", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("webhook: public key: invalid %s", strings.ToLower(block.Type))
	}
	rk, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("webhook: public key: %T, want RSA", k)
	}
	return rk, nil
}

var _ Decrypter = (*JWEDecrypter)(nil)

// Decrypt opens a compact JWE token, then verifies the inner JWS when a
// verification key is configured. Failures wrap ErrDecrypt or ErrSignature.
func (d *JWEDecrypter) Decrypt(token string) ([]byte, error) {
	if d == nil || d.priv == nil {
		return nil, wrap(ErrDecrypt, "JWEDecrypter not configured (use NewJWEDecrypter)")
	}
	token = strings.TrimSpace(token)
	if strings.Count(token, ".") != 4 {
		return nil, wrap(ErrDecrypt, "not a compact JWE (want five dot-separated parts)")
	}
	obj, err := jose.ParseEncryptedCompact(token,
		[]jose.KeyAlgorithm{jose.RSA_OAEP_256, jose.RSA_OAEP},
		[]jose.ContentEncryption{jose.A256GCM})
	if err != nil {
		// go-jose's text names a refused algorithm, which helps; it may
		// quote header values the sender chose, so it is clipped.
		return nil, wrap(ErrDecrypt, clip(err.Error(), maxDetail))
	}
	if d.kid != "" && obj.Header.KeyID != d.kid {
		return nil, wrap(ErrDecrypt, "token kid "+strconv.Quote(clip(obj.Header.KeyID, 64))+" is not the configured KeyID")
	}
	plain, err := obj.Decrypt(d.priv)
	if err != nil {
		return nil, wrap(ErrDecrypt, "the token does not open with the configured PrivateKey")
	}
	if d.verify == nil {
		if looksLikeCompactJWS(plain) {
			return nil, wrap(ErrSignature, "the payload is signed but no VerificationKey is configured")
		}
		return plain, nil
	}
	// From here on the text is decrypted: go-jose's errors, which may
	// quote it, are not passed on.
	jws, err := jose.ParseSignedCompact(string(bytes.TrimSpace(plain)), []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return nil, wrap(ErrSignature, "payload is not a compact JWS signed with RS256")
	}
	if d.verifyID != "" && (len(jws.Signatures) != 1 || jws.Signatures[0].Header.KeyID != d.verifyID) {
		return nil, wrap(ErrSignature, "JWS kid is not the configured VerificationKeyID")
	}
	payload, err := jws.Verify(d.verify)
	if err != nil {
		return nil, wrap(ErrSignature, "the signature does not verify with the VerificationKey")
	}
	return payload, nil
}

// looksLikeCompactJWS: three base64url parts and nothing else.
func looksLikeCompactJWS(b []byte) bool {
	b = bytes.TrimSpace(b)
	if bytes.Count(b, []byte{'.'}) != 2 {
		return false
	}
	for _, c := range b {
		if !(c == '.' || c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// String describes the decrypter without key material.
func (d *JWEDecrypter) String() string {
	if d == nil {
		return "webhook.JWEDecrypter(nil)"
	}
	bits := 0
	if d.priv != nil && d.priv.N != nil {
		bits = d.priv.N.BitLen()
	}
	return fmt.Sprintf("webhook.JWEDecrypter{PrivateKey: RSA-%d %s, KeyID: %q, VerificationKey: %s, VerificationKeyID: %q}",
		bits, redacted, d.kid, setOrNil(d.verify != nil), d.verifyID)
}

// Format makes every fmt verb print String: the private key never leaks
// through %v or %+v.
func (d *JWEDecrypter) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, d.String()) }

// SealOptions says how Seal builds a token.
type SealOptions struct {
	// Recipient is the merchant's public key (the counterpart of
	// JWEConfig.PrivateKey). Required.
	Recipient *rsa.PublicKey
	// RecipientKeyID is written as the JWE "kid".
	RecipientKeyID string
	// Signer, when set, signs the payload with RS256 before encryption (the
	// counterpart of JWEConfig.VerificationKey).
	Signer *rsa.PrivateKey
	// SignerKeyID is written as the JWS "kid".
	SignerKeyID string
	// LegacyOAEP selects RSA-OAEP (SHA-1) instead of RSA-OAEP-256.
	LegacyOAEP bool
}

// Seal does what the service does for an encrypted webhook (spec §6.1.7):
// optionally sign payload with RS256, then encrypt it to the merchant's key
// as a compact JWE (RSA-OAEP-256, A256GCM). The body to send is
// {"JWT": "<token>"}. It exists for tests and fakes such as checkouttest.
func Seal(payload []byte, opts SealOptions) (string, error) {
	if opts.Recipient == nil {
		return "", errors.New("webhook: SealOptions.Recipient is required")
	}
	inner := payload
	if opts.Signer != nil {
		so := &jose.SignerOptions{}
		if opts.SignerKeyID != "" {
			so = so.WithHeader(jose.HeaderKey("kid"), opts.SignerKeyID)
		}
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: opts.Signer}, so)
		if err != nil {
			return "", fmt.Errorf("webhook: seal: %w", err)
		}
		jws, err := signer.Sign(payload)
		if err != nil {
			return "", fmt.Errorf("webhook: seal: %w", err)
		}
		s, err := jws.CompactSerialize()
		if err != nil {
			return "", fmt.Errorf("webhook: seal: %w", err)
		}
		inner = []byte(s)
	}
	alg := jose.RSA_OAEP_256
	if opts.LegacyOAEP {
		alg = jose.RSA_OAEP
	}
	enc, err := jose.NewEncrypter(jose.A256GCM, jose.Recipient{Algorithm: alg, Key: opts.Recipient, KeyID: opts.RecipientKeyID}, nil)
	if err != nil {
		return "", fmt.Errorf("webhook: seal: %w", err)
	}
	obj, err := enc.Encrypt(inner)
	if err != nil {
		return "", fmt.Errorf("webhook: seal: %w", err)
	}
	return obj.CompactSerialize()
}

// LogValue makes log/slog print String, never the key.
func (d *JWEDecrypter) LogValue() slog.Value { return slog.StringValue(d.String()) }
