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

// Errors of the JWE+JWS mode: the Kind of every [*JOSEError].
const (
	// ErrKey matches a key that cannot be parsed or used.
	ErrKey = sentinel("checkout: unusable RSA key")
	// ErrEnvelope matches a 2xx reply in the wrong form for the client's
	// mode: plain where a sealed one is expected, or sealed in Basic mode.
	ErrEnvelope = sentinel("checkout: reply is not an encrypted envelope")
	// ErrDecrypt matches a reply that does not decrypt with the merchant
	// key: another recipient, a refused algorithm or key id, tampering.
	ErrDecrypt = sentinel("checkout: reply does not decrypt")
	// ErrSignature matches a reply not signed RS256 by the service key.
	ErrSignature = sentinel("checkout: reply signature not verified")
	// ErrKeyOperation matches a failure of the merchant's signer or
	// decrypter ([WithJWEKeys]): a locked HSM, a key service timeout, or
	// too many key operations still running. A signing failure sent
	// nothing; a decrypting one came after the service acted (the client
	// then reads before it writes again, see [ConflictError]).
	ErrKeyOperation = sentinel("checkout: key operation failed")
)

// JOSEError is a failure to parse a key, seal a request or open a reply in
// the JWE+JWS mode; its message never holds key material or a body.
type JOSEError struct {
	Op     string // "parse private key", or the call: "create session"…
	Kind   error  // ErrKey, ErrEnvelope, ErrDecrypt, ErrSignature or ErrKeyOperation
	Detail string // what was wrong, fit for a log
	Err    error  // the signer's or decrypter's own error, or the context's

	reply bool // opening a reply failed: the request was sent
}

// Error returns "checkout: <op>: <detail>".
func (e *JOSEError) Error() string {
	if e == nil {
		return "checkout: <nil *JOSEError>"
	}
	return "checkout: " + e.Op + ": " + e.Detail
}

// Unwrap returns Kind and Err.
func (e *JOSEError) Unwrap() []error {
	if e == nil {
		return nil
	}
	return []error{e.Kind, e.Err}
}

// joseErr turns an error of internal/jose into a *JOSEError.
func joseErr(op, prefix string, err error) error {
	var e *jose.Error
	if !errors.As(err, &e) {
		return &JOSEError{Op: op, Kind: ErrDecrypt, Detail: prefix + "unexpected failure", reply: prefix == "reply: "}
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
	return &JOSEError{Op: op, Kind: kind, Detail: prefix + e.Detail, Err: e.Err, reply: prefix == "reply: "}
}

// ParseRSAPrivateKeyPEM reads the first PEM block, PKCS#1 or PKCS#8, as
// the merchant's key; a failure is a *JOSEError matching ErrKey.
func ParseRSAPrivateKeyPEM(pemBytes []byte) (*rsa.PrivateKey, error) {
	k, err := jose.ParsePrivateKeyPEM(pemBytes)
	if err != nil {
		return nil, joseErr("parse private key", "", err)
	}
	return k, nil
}

// ParseRSAPublicKeyPEM reads the first PEM block, PKIX, PKCS#1 or a
// certificate's key, as the service's key; a failure matches ErrKey.
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
// context ends is abandoned and nothing is sent. At most 64 key operations
// run at once: more, or abandoned ones that never return, fail at once.
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
		c.jwe = &jweConfig{keyID: keyID, signer: signer, decrypter: decrypter, service: serviceKey,
			slots: make(chan struct{}, maxKeyOps)}
		return nil
	})
}

// jweConfig holds the keys of the JWE+JWS mode; it prints redacted.
type jweConfig struct {
	keyID     string
	signer    crypto.Signer    // signs requests
	decrypter crypto.Decrypter // decrypts replies
	service   *rsa.PublicKey   // encrypts requests, verifies replies
	slots     chan struct{}    // key operations running aside (keyStep)
}

// maxKeyOps bounds the key operations of an HSM or key service running at
// once, so that one that hangs cannot pile up goroutines call after call.
const maxKeyOps = 64

// seal turns a JSON request body into the sealed /v4 body.
func (j *jweConfig) seal(ctx context.Context, op string, body []byte) ([]byte, error) {
	return keyStep(ctx, j.slots, j.signer, op, "request: ", func() ([]byte, error) {
		return jose.Seal(body, j.signer, j.service, j.keyID)
	})
}

// open turns a sealed reply into the JSON the service signed.
func (j *jweConfig) open(ctx context.Context, op string, body []byte) ([]byte, error) {
	return keyStep(ctx, j.slots, j.decrypter, op, "reply: ", func() ([]byte, error) {
		return jose.Open(body, j.decrypter, j.service, j.keyID)
	})
}

// keyStep runs f, which uses key. A key of our own (*rsa.PrivateKey) runs
// inline; another (an HSM, a key service) runs aside, so that the call
// ends as soon as ctx does, with an error matching ErrKeyOperation; it
// holds one of slots until f returns, and fails at once when none is free.
func keyStep(ctx context.Context, slots chan struct{}, key any, op, prefix string, f func() ([]byte, error)) ([]byte, error) {
	step := "sign request"
	if prefix == "reply: " {
		step = "decrypt reply"
	}
	fail := func(err error) error {
		return &JOSEError{Op: op, Kind: ErrKeyOperation, Detail: step + ": " + err.Error(), Err: err, reply: prefix == "reply: "}
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
	select {
	case slots <- struct{}{}:
	default:
		return nil, fail(errors.New("too many key operations still running"))
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-slots }()
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

// isSealed reports whether body is an encrypted envelope.
func isSealed(body []byte) bool {
	if !bytes.Contains(body, []byte(`"encryptedPayload"`)) && !bytes.Contains(body, []byte(`"JWT"`)) {
		return false
	}
	return jose.IsEnvelope(body)
}

// sealedInBasicMode is the error of a 2xx reply in Basic mode that did not
// decode because it is sealed: the account uses the other mode. It is nil
// when body is no encrypted envelope.
func sealedInBasicMode(op string, body []byte) error {
	if !isSealed(body) {
		return nil
	}
	return &JOSEError{Op: op, Kind: ErrEnvelope,
		Detail: "reply: the reply is encrypted: the account uses the JWE+JWS mode; configure the client with WithJWE"}
}

// String describes the keys by size (value receivers: a copy prints so too).
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
