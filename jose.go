package checkout

import (
	"bytes"
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/payorch/checkout-go/internal/httpfield"
	"github.com/payorch/checkout-go/internal/jose"
)

// Errors of the JWE+JWS mode (see WithJWE). Every such error is a
// *JOSEError whose Kind is one of these, so errors.Is(err, ErrSignature)
// tells a forged or unsigned reply from one that does not decrypt.
const (
	// ErrKey matches a key that cannot be parsed or used: a PEM file that
	// holds no RSA key of the right kind, or a key the request could not be
	// signed or encrypted with.
	ErrKey = sentinel("checkout: unusable RSA key")
	// ErrEnvelope matches a successful reply in the wrong form for the
	// client's mode: one that is not an encrypted envelope at all, such as
	// plain JSON where the JWE+JWS mode expects a sealed reply, or a sealed
	// reply to a client without WithJWE (the account has the mode switched
	// on). Nothing of it is decoded.
	ErrEnvelope = sentinel("checkout: reply is not an encrypted envelope")
	// ErrDecrypt matches an encrypted reply that does not decrypt with the
	// merchant key: another recipient, a refused algorithm or key id, or a
	// tampered header, key, iv, ciphertext or tag.
	ErrDecrypt = sentinel("checkout: reply does not decrypt")
	// ErrSignature matches a reply whose content is not signed, or whose
	// signature is not RS256 by the service key with the configured key id
	// (including alg "none", HS256 and a tampered signature).
	ErrSignature = sentinel("checkout: reply signature not verified")
	// ErrKeyOperation matches a failure of the merchant's signer or
	// decrypter ([WithJWEKeys]): a locked HSM, a key service timeout.
	ErrKeyOperation = sentinel("checkout: key operation failed")
)

// JOSEError is a failure to parse a key, seal a request or open a reply in
// the JWE+JWS mode. Its message never holds key material, the request body
// or the decrypted reply; treat the reply as not received and, after a
// create or a refund, ask GetOrder what happened.
type JOSEError struct {
	// Op names what failed: "parse private key", "parse public key", or the
	// call ("create session", "get order", "refund").
	Op string
	// Kind is ErrKey, ErrEnvelope, ErrDecrypt or ErrSignature;
	// errors.Is(err, Kind) holds.
	Kind error
	// Detail says what was wrong, in words fit for a log.
	Detail string
}

// Error returns "checkout: <op>: <detail>".
func (e *JOSEError) Error() string {
	if e == nil {
		return "checkout: <nil *JOSEError>"
	}
	return "checkout: " + e.Op + ": " + e.Detail
}

// Unwrap returns Kind, so errors.Is matches the sentinel.
func (e *JOSEError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Kind
}

// joseErr turns an error of internal/jose into a *JOSEError for op, with
// prefix ("reply: ", "request: ") before its detail.
func joseErr(op, prefix string, err error) error {
	var e *jose.Error
	if !errors.As(err, &e) {
		return &JOSEError{Op: op, Kind: ErrDecrypt, Detail: prefix + "unexpected failure"}
	}
	var kind error
	switch e.Kind {
	case jose.KindEnvelope:
		kind = ErrEnvelope
	case jose.KindSignature:
		kind = ErrSignature
	case jose.KindKey:
		kind = ErrKey
	default:
		kind = ErrDecrypt
	}
	return &JOSEError{Op: op, Kind: kind, Detail: prefix + e.Detail}
}

// ParseRSAPrivateKeyPEM reads the merchant's private key from PEM text: the
// first PEM block, PKCS#1 ("RSA PRIVATE KEY") or PKCS#8 ("PRIVATE KEY").
// Encrypted PEM is not supported. A failure is a *JOSEError matching ErrKey
// whose message never quotes the key.
func ParseRSAPrivateKeyPEM(pemBytes []byte) (*rsa.PrivateKey, error) {
	k, err := jose.ParsePrivateKeyPEM(pemBytes)
	if err != nil {
		return nil, joseErr("parse private key", "", err)
	}
	return k, nil
}

// ParseRSAPublicKeyPEM reads the service's public key from PEM text: the
// first PEM block, PKIX ("PUBLIC KEY"), PKCS#1 ("RSA PUBLIC KEY") or the
// key of an X.509 certificate ("CERTIFICATE"; the certificate itself is not
// checked). A failure is a *JOSEError matching ErrKey.
func ParseRSAPublicKeyPEM(pemBytes []byte) (*rsa.PublicKey, error) {
	k, err := jose.ParsePublicKeyPEM(pemBytes)
	if err != nil {
		return nil, joseErr("parse public key", "", err)
	}
	return k, nil
}

// WithJWE switches the client to the service's JWE+JWS mode (see the
// package doc): [Client.CreateSession], [Client.GetOrder] and
// [Client.Refund] call their /v4 forms, signed with merchantKey and
// encrypted to serviceKey under keyID, without the Basic Authorization
// header. Both keys need 2048 bits or more; read PEM files with
// [ParseRSAPrivateKeyPEM] and [ParseRSAPublicKeyPEM]. A bad key or an empty
// key id makes NewClient fail with an error matching [ErrInvalidOption].
func WithJWE(keyID string, merchantKey *rsa.PrivateKey, serviceKey *rsa.PublicKey) Option {
	return optionFunc(func(c *Client) error {
		switch {
		case strings.TrimSpace(keyID) == "":
			return optErr("JWE: key id is empty")
		case !httpfield.ValidValue(keyID):
			return optErr("JWE: key id holds control characters")
		}
		if err := jose.CheckPrivateKey("merchant key", merchantKey); err != nil {
			return optErr("JWE: %s", err.Error())
		}
		if err := jose.CheckPublicKey("service key", serviceKey); err != nil {
			return optErr("JWE: %s", err.Error())
		}
		c.jwe = &jweConfig{keyID: keyID, merchant: merchantKey, service: serviceKey}
		return nil
	})
}

// jweConfig holds the keys of the JWE+JWS mode. It is immutable once made
// and prints without key material.
type jweConfig struct {
	keyID    string
	merchant *rsa.PrivateKey // signs requests, decrypts replies
	service  *rsa.PublicKey  // encrypts requests, verifies replies
}

// seal turns a JSON request body into the sealed /v4 body.
func (j *jweConfig) seal(_ context.Context, op string, body []byte) ([]byte, error) {
	out, err := jose.Seal(body, j.merchant, j.service, j.keyID)
	if err != nil {
		return nil, joseErr(op, "request: ", err)
	}
	return out, nil
}

// open turns a sealed 2xx reply into the JSON the service signed, byte for
// byte.
func (j *jweConfig) open(_ context.Context, op string, body []byte) ([]byte, error) {
	plain, err := jose.Open(body, j.merchant, j.service, j.keyID)
	if err != nil {
		return nil, joseErr(op, "reply: ", err)
	}
	return plain, nil
}

// isSealed reports whether body looks like an encrypted envelope, so a
// client in Basic mode can say why it cannot read such a reply. Plain
// replies, which hold neither envelope key, are told apart without
// parsing them.
func isSealed(body []byte) bool {
	if !bytes.Contains(body, []byte(`"encryptedPayload"`)) && !bytes.Contains(body, []byte(`"JWT"`)) {
		return false
	}
	return jose.IsEnvelope(body)
}

// sealedInBasicMode is the error for a sealed 2xx reply to a client
// without WithJWE: it would otherwise decode as an empty value.
func sealedInBasicMode(op string) error {
	return &JOSEError{Op: op, Kind: ErrEnvelope,
		Detail: "reply: the reply is encrypted: the account uses the JWE+JWS mode; configure the client with WithJWE"}
}

// String describes the configuration without key material. The methods
// have value receivers so that a copy prints redacted too.
func (j jweConfig) String() string {
	return fmt.Sprintf("JWE{kid: %q, merchant key: RSA-%d [REDACTED], service key: RSA-%d}",
		j.keyID, bitLen(j.merchant), pubBitLen(j.service))
}

// GoString is String.
func (j jweConfig) GoString() string { return j.String() }

// Format prints String for every verb.
func (j jweConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, j.String()) }

// LogValue makes log/slog print String.
func (j jweConfig) LogValue() slog.Value { return slog.StringValue(j.String()) }

func bitLen(k *rsa.PrivateKey) int {
	if k == nil || k.N == nil {
		return 0
	}
	return k.N.BitLen()
}

func pubBitLen(k *rsa.PublicKey) int {
	if k == nil || k.N == nil {
		return 0
	}
	return k.N.BitLen()
}
