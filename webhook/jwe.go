package webhook

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	gojose "github.com/go-jose/go-jose/v4"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/jose"
)

// Decrypter opens an encrypted webhook body: it receives the token found
// under "JWT" (or rebuilt from a JSON-serialised JWE) and returns the
// plaintext event JSON. Errors should wrap checkout.ErrDecrypt or
// checkout.ErrSignature (checkout.ErrKeyOperation when the key failed).
// JWEDecrypter is the implementation for the service's RSA keys; implement
// the interface to keep the key in a KMS or HSM. Implementations must be
// safe for concurrent use.
type Decrypter interface {
	// Decrypt opens token, the compact JWE found under "JWT", and returns
	// the event JSON inside (verified, when the implementation checks a
	// signature).
	Decrypt(token string) ([]byte, error)
}

// JWEConfig configures a JWEDecrypter. The service encrypts webhooks as a
// compact JWE ("alg":"RSA-OAEP-256", "enc":"A256GCM", with a "kid") and
// signs with RS256 when signing is switched on.
//
// fmt's verbs and log/slog print [JWEConfig.String]; json.Marshal writes
// the key ids only. None shows the private key.
type JWEConfig struct {
	// PrivateKey is the merchant's RSA key the service encrypts to.
	// Required.
	PrivateKey *rsa.PrivateKey `json:"-"`
	// Decrypter, instead of PrivateKey, is the merchant's key held in an
	// HSM or a key service (RSA-OAEP-256 or RSA-OAEP), as for
	// [checkout.WithJWEKeys]. Set one of the two.
	Decrypter crypto.Decrypter `json:"-"`
	// KeyID, when set, must equal the token's "kid" header.
	KeyID string
	// VerificationKey is the service's RSA public key. When set, the
	// decrypted payload must be signed with RS256 by this key, as a compact
	// JWS or as {"header","payload","signature"}, and Decrypt returns the
	// verified payload; plain JSON is refused (checkout.ErrSignature). When nil, the
	// payload must be the plain event JSON: a signed payload is refused
	// (checkout.ErrSignature) rather than accepted unverified.
	VerificationKey *rsa.PublicKey `json:"-"`
	// VerificationKeyID, when set, must equal the JWS "kid" header.
	VerificationKeyID string
}

// JWEDecrypter decrypts compact JWE tokens (RSA-OAEP-256 or RSA-OAEP key
// encryption, A256GCM content encryption). The decrypted content may be a
// compact JWS, a JSON JWS {"header","payload","signature"}, or the plain
// event JSON; a signature is verified (RS256 only) wherever there is one,
// and unsigned content is refused when a verification key is configured.
// It is safe for concurrent use. Formatting it never prints key material.
type JWEDecrypter struct {
	priv     crypto.Decrypter
	kid      string
	verify   *rsa.PublicKey
	verifyID string
}

// NewJWEDecrypter checks cfg and returns a JWEDecrypter. Both keys must be
// valid RSA keys of at least 2048 bits. A Decrypter must open a test
// secret encrypted to its Public key within 10 s (a key of another pair
// than it says fails here, not on the first delivery); when it fails,
// panics or does not answer, the error matches checkout.ErrKeyOperation.
func NewJWEDecrypter(cfg JWEConfig) (*JWEDecrypter, error) {
	const op = "checkout: new webhook decrypter: "
	var dec crypto.Decrypter = cfg.Decrypter
	switch {
	case cfg.PrivateKey == nil && cfg.Decrypter == nil:
		return nil, errors.New(op + "JWEConfig.PrivateKey is required")
	case cfg.PrivateKey != nil && cfg.Decrypter != nil:
		return nil, errors.New(op + "set JWEConfig.PrivateKey or Decrypter, not both")
	case cfg.PrivateKey != nil:
		if err := jose.CheckPrivateKey("JWEConfig.PrivateKey", cfg.PrivateKey); err != nil {
			return nil, errors.New(op + err.Error())
		}
		dec = cfg.PrivateKey
	default:
		key, err := jose.PublicKey(cfg.Decrypter)
		if err != nil {
			return nil, keyCheckErr(op+"JWEConfig.Decrypter: ", err)
		}
		pub, _ := key.(*rsa.PublicKey)
		if err := jose.CheckPublicKey("JWEConfig.Decrypter", pub); err != nil {
			return nil, errors.New(op + err.Error())
		}
		if err := jose.ProveKeys(nil, cfg.Decrypter, pub, keyCheckTimeout); err != nil {
			return nil, keyCheckErr(op+"JWEConfig.Decrypter: ", err)
		}
	}
	if cfg.VerificationKey != nil {
		if err := jose.CheckPublicKey("JWEConfig.VerificationKey", cfg.VerificationKey); err != nil {
			return nil, errors.New(op + err.Error())
		}
	}
	if cfg.VerificationKeyID != "" && cfg.VerificationKey == nil {
		return nil, errors.New(op + "JWEConfig.VerificationKeyID is set without a VerificationKey")
	}
	return &JWEDecrypter{priv: dec, kid: cfg.KeyID, verify: cfg.VerificationKey, verifyID: cfg.VerificationKeyID}, nil
}

// keyCheckTimeout bounds NewJWEDecrypter's check of a Decrypter, which has
// no context; a key that hangs is left running aside until it returns.
const keyCheckTimeout = 10 * time.Second

// keyCheckErr is the error of a Decrypter that failed NewJWEDecrypter's
// check: it matches checkout.ErrKeyOperation, and the key's own error,
// when the key failed rather than answered wrong.
func keyCheckErr(prefix string, err error) error {
	var je *jose.Error
	if errors.As(err, &je) && je.Kind == jose.KindKeyOp {
		return fmt.Errorf("%s%w", prefix, &keyFailure{detail: je.Detail, err: je.Err})
	}
	return errors.New(prefix + err.Error())
}

// keyFailure is a failure of the merchant's key: it matches
// checkout.ErrKeyOperation and the key's own error.
type keyFailure struct {
	detail string
	err    error
}

func (e *keyFailure) Error() string   { return e.detail }
func (e *keyFailure) Unwrap() []error { return []error{checkout.ErrKeyOperation, e.err} }

// NewJWEDecrypterFromPEM builds a JWEDecrypter from PEM text: the merchant's
// private key (PKCS#1 "RSA PRIVATE KEY" or PKCS#8 "PRIVATE KEY", read by
// [checkout.ParseRSAPrivateKeyPEM]) and, optionally (nil or empty), the
// service's public key (read by [checkout.ParseRSAPublicKeyPEM]).
func NewJWEDecrypterFromPEM(privatePEM, verificationPEM []byte) (*JWEDecrypter, error) {
	priv, err := checkout.ParseRSAPrivateKeyPEM(privatePEM)
	if err != nil {
		return nil, err
	}
	cfg := JWEConfig{PrivateKey: priv}
	if len(bytes.TrimSpace(verificationPEM)) > 0 {
		if cfg.VerificationKey, err = checkout.ParseRSAPublicKeyPEM(verificationPEM); err != nil {
			return nil, err
		}
	}
	return NewJWEDecrypter(cfg)
}

var _ Decrypter = (*JWEDecrypter)(nil)

// Decrypt opens a compact JWE token, then reads the content: a compact or
// JSON JWS is verified with the VerificationKey (and refused without one),
// plain JSON is returned as it is (and refused when a VerificationKey is
// configured). Failures match [ErrEncrypted] and checkout.ErrDecrypt,
// checkout.ErrSignature or, when the key failed or panicked,
// checkout.ErrKeyOperation; their text never holds the decrypted content.
func (d *JWEDecrypter) Decrypt(token string) ([]byte, error) {
	if d == nil || d.priv == nil {
		return nil, openErr(checkout.ErrDecrypt, "JWEDecrypter not configured (use NewJWEDecrypter)", nil)
	}
	plain, err := jose.Decrypt(token, d.priv, d.kid)
	if err != nil {
		return nil, openErr(checkout.ErrDecrypt, err.Error(), err)
	}
	jws, signed, err := jose.SignedToken(plain)
	if err != nil {
		return nil, openErr(checkout.ErrSignature, err.Error(), nil)
	}
	switch {
	case d.verify == nil && signed:
		return nil, openErr(checkout.ErrSignature, "the payload is signed but no VerificationKey is configured", nil)
	case d.verify == nil:
		return plain, nil
	case !signed:
		return nil, openErr(checkout.ErrSignature, "the payload is not signed but a VerificationKey is configured", nil)
	}
	rule := jose.KIDIfPresent
	if d.verifyID != "" {
		rule = jose.KIDRequired
	}
	payload, err := jose.Verify(jws, d.verify, d.verifyID, rule)
	if err != nil {
		return nil, openErr(checkout.ErrSignature, err.Error(), nil)
	}
	return payload, nil
}

// String describes the decrypter without key material.
func (d *JWEDecrypter) String() string {
	if d == nil {
		return "webhook.JWEDecrypter(nil)"
	}
	return fmt.Sprintf("webhook.JWEDecrypter{PrivateKey: %s, KeyID: %q, VerificationKey: %s, VerificationKeyID: %q}",
		privateKeyText(d.priv), d.kid, publicKeyText(d.verify), d.verifyID)
}

// privateKeyText names a private key by its size, never its numbers.
func privateKeyText(k interface{ Public() crypto.PublicKey }) string {
	if k == nil {
		return "nil"
	}
	if p, ok := k.(*rsa.PrivateKey); ok && p == nil {
		return "nil"
	}
	pub, _ := k.Public().(*rsa.PublicKey)
	return publicKeyText(pub) + " " + redacted
}

// publicKeyText names a public key by its size.
func publicKeyText(k *rsa.PublicKey) string {
	if k == nil {
		return "nil"
	}
	bits := 0
	if k.N != nil {
		bits = k.N.BitLen()
	}
	return "RSA-" + strconv.Itoa(bits)
}

// String describes the JWEConfig with its keys named by size only.
func (c JWEConfig) String() string {
	var key interface{ Public() crypto.PublicKey } = c.PrivateKey
	if c.Decrypter != nil {
		key = c.Decrypter
	}
	return fmt.Sprintf("webhook.JWEConfig{PrivateKey: %s, KeyID: %q, VerificationKey: %s, VerificationKeyID: %q}",
		privateKeyText(key), c.KeyID, publicKeyText(c.VerificationKey), c.VerificationKeyID)
}

// Format makes every fmt verb print String.
func (c JWEConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue makes log/slog print String.
func (c JWEConfig) LogValue() slog.Value { return slog.StringValue(c.String()) }

// String describes the SealOptions with their keys named by size only.
func (o SealOptions) String() string {
	return fmt.Sprintf("webhook.SealOptions{Recipient: %s, RecipientKeyID: %q, Signer: %s, SignerKeyID: %q, SignatureAsJSON: %t, LegacyOAEP: %t}",
		publicKeyText(o.Recipient), o.RecipientKeyID, privateKeyText(o.Signer), o.SignerKeyID, o.SignatureAsJSON, o.LegacyOAEP)
}

// Format makes every fmt verb print String.
func (o SealOptions) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, o.String()) }

// LogValue makes log/slog print String.
func (o SealOptions) LogValue() slog.Value { return slog.StringValue(o.String()) }

// Format makes every fmt verb print String: the private key never leaks
// through %v or %+v.
func (d *JWEDecrypter) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, d.String()) }

// SealOptions says how Seal builds a token. Like [JWEConfig], fmt and
// log/slog print [SealOptions.String] and json.Marshal leaves the keys
// out, never showing the Signer's key.
type SealOptions struct {
	// Recipient is the merchant's public key (the counterpart of
	// JWEConfig.PrivateKey). Required.
	Recipient *rsa.PublicKey `json:"-"`
	// RecipientKeyID is written as the JWE "kid".
	RecipientKeyID string
	// Signer, when set, signs the payload with RS256 before encryption (the
	// counterpart of JWEConfig.VerificationKey): an *rsa.PrivateKey or a
	// key behind crypto.Signer.
	Signer crypto.Signer `json:"-"`
	// SignerKeyID is written as the JWS "kid".
	SignerKeyID string
	// SignatureAsJSON writes the signature as {"header","payload",
	// "signature"} (the form of the service's encrypted API replies)
	// instead of a compact JWS. It needs Signer.
	SignatureAsJSON bool
	// LegacyOAEP selects RSA-OAEP (SHA-1) instead of RSA-OAEP-256.
	LegacyOAEP bool
}

// Seal does what the service does for an encrypted webhook: optionally
// sign payload with RS256, then encrypt it to the merchant's key as a
// compact JWE (RSA-OAEP-256, A256GCM). The body to send is
// {"JWT": "<token>"}. It exists for tests and fakes such as checkouttest.
func Seal(payload []byte, opts SealOptions) (string, error) {
	if opts.Recipient == nil {
		return "", errors.New("checkout: seal webhook: SealOptions.Recipient is required")
	}
	if opts.SignatureAsJSON && opts.Signer == nil {
		return "", errors.New("checkout: seal webhook: SealOptions.SignatureAsJSON needs a Signer")
	}
	inner := payload
	switch {
	case opts.Signer != nil && opts.SignatureAsJSON:
		b, err := jose.SignJSON(payload, opts.Signer, opts.SignerKeyID)
		if err != nil {
			return "", errors.New("checkout: seal webhook: " + err.Error())
		}
		inner = b
	case opts.Signer != nil:
		s, err := jose.Sign(payload, opts.Signer, opts.SignerKeyID)
		if err != nil {
			return "", errors.New("checkout: seal webhook: " + err.Error())
		}
		inner = []byte(s)
	}
	alg := gojose.RSA_OAEP_256
	if opts.LegacyOAEP {
		alg = gojose.RSA_OAEP
	}
	tok, err := jose.Encrypt(inner, opts.Recipient, opts.RecipientKeyID, alg)
	if err != nil {
		return "", errors.New("checkout: seal webhook: " + err.Error())
	}
	return tok, nil
}

// LogValue makes log/slog print String, never the key.
func (d *JWEDecrypter) LogValue() slog.Value { return slog.StringValue(d.String()) }
