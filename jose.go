package checkout

import (
	"bytes"
	"context"
	"crypto"
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
	// Kind is ErrKey, ErrEnvelope, ErrDecrypt, ErrSignature or
	// ErrKeyOperation; errors.Is(err, Kind) holds.
	Kind error
	// Detail says what was wrong, in words fit for a log.
	Detail string
	// Err is the signer's or decrypter's own error (ErrKeyOperation), such
	// as context.DeadlineExceeded; errors.Is sees it too.
	Err error
}

// Error returns "checkout: <op>: <detail>".
func (e *JOSEError) Error() string {
	if e == nil {
		return "checkout: <nil *JOSEError>"
	}
	return "checkout: " + e.Op + ": " + e.Detail
}

// Unwrap returns Kind and Err, so errors.Is matches the sentinel and the
// cause.
func (e *JOSEError) Unwrap() []error {
	if e == nil {
		return nil
	}
	return []error{e.Kind, e.Err}
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
	case jose.KindKeyOp:
		kind = ErrKeyOperation
	default:
		kind = ErrDecrypt
	}
	return &JOSEError{Op: op, Kind: kind, Detail: prefix + e.Detail, Err: e.Err}
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
	if merchantKey == nil { // not a typed nil inside the interfaces
		return WithJWEKeys(keyID, nil, nil, serviceKey)
	}
	return WithJWEKeys(keyID, merchantKey, merchantKey, serviceKey)
}

// WithJWEKeys is [WithJWE] for a merchant key held in an HSM or a key
// service: requests are signed through signer (RS256) and replies'
// content keys decrypted through decrypter (RSA-OAEP-256 or RSA-OAEP),
// usually one object. A failure of either is a [*JOSEError] matching
// [ErrKeyOperation], never retried; a signer still busy when the call's
// context ends is abandoned and nothing is sent.
func WithJWEKeys(keyID string, signer crypto.Signer, decrypter crypto.Decrypter, serviceKey *rsa.PublicKey) Option {
	return optionFunc(func(c *Client) error {
		switch {
		case strings.TrimSpace(keyID) == "":
			return optErr("JWE: key id is empty")
		case !httpfield.ValidValue(keyID):
			return optErr("JWE: key id holds control characters")
		}
		if err := jose.CheckKeys("merchant key", signer, decrypter); err != nil {
			return optErr("JWE: %s", err.Error())
		}
		if err := jose.CheckPublicKey("service key", serviceKey); err != nil {
			return optErr("JWE: %s", err.Error())
		}
		c.jwe = &jweConfig{keyID: keyID, signer: signer, decrypter: decrypter, service: serviceKey}
		return nil
	})
}

// jweConfig holds the keys of the JWE+JWS mode. It is immutable once made
// and prints without key material.
type jweConfig struct {
	keyID     string
	signer    crypto.Signer    // signs requests
	decrypter crypto.Decrypter // decrypts replies
	service   *rsa.PublicKey   // encrypts requests, verifies replies
}

// seal turns a JSON request body into the sealed /v4 body.
func (j *jweConfig) seal(ctx context.Context, op string, body []byte) ([]byte, error) {
	return keyStep(ctx, j.signer, op, "request: ", func() ([]byte, error) {
		return jose.Seal(body, j.signer, j.service, j.keyID)
	})
}

// open turns a sealed reply into the JSON the service signed, byte for
// byte.
func (j *jweConfig) open(ctx context.Context, op string, body []byte) ([]byte, error) {
	return keyStep(ctx, j.decrypter, op, "reply: ", func() ([]byte, error) {
		return jose.Open(body, j.decrypter, j.service, j.keyID)
	})
}

// keyStep runs f, which uses key. A key of our own (*rsa.PrivateKey) runs
// inline; another (an HSM, a key service) runs aside, so that the call
// ends as soon as ctx does, with an error matching ErrKeyOperation.
func keyStep(ctx context.Context, key any, op, prefix string, f func() ([]byte, error)) ([]byte, error) {
	step := "sign request"
	if prefix == "reply: " {
		step = "decrypt reply"
	}
	fail := func(err error) error {
		return &JOSEError{Op: op, Kind: ErrKeyOperation, Detail: step + ": " + err.Error(), Err: err}
	}
	if err := ctx.Err(); err != nil {
		return nil, fail(err)
	}
	if _, ok := key.(*rsa.PrivateKey); ok {
		out, err := f()
		if err != nil {
			return nil, joseErr(op, prefix, err)
		}
		return out, nil
	}
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := f()
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, joseErr(op, prefix, r.err)
		}
		return r.out, nil
	case <-ctx.Done():
		return nil, fail(ctx.Err())
	}
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
	pub, _ := j.signer.Public().(*rsa.PublicKey)
	return fmt.Sprintf("JWE{kid: %q, merchant key: RSA-%d [REDACTED], service key: RSA-%d}",
		j.keyID, pubBitLen(pub), pubBitLen(j.service))
}

// GoString is String.
func (j jweConfig) GoString() string { return j.String() }

// Format prints String for every verb.
func (j jweConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, j.String()) }

// LogValue makes log/slog print String.
func (j jweConfig) LogValue() slog.Value { return slog.StringValue(j.String()) }

func pubBitLen(k *rsa.PublicKey) int {
	if k == nil || k.N == nil {
		return 0
	}
	return k.N.BitLen()
}
