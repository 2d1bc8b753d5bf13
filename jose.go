package checkout

import (
	"bytes"
	"crypto/rsa"
	"errors"

	"github.com/payorch/checkout-go/internal/jose"
)

// Errors of the JWE+JWS mode: the Kind of every [*JOSEError]. Package
// webhook's errors about encrypted deliveries match them too.
const (
	// ErrKey matches a key that cannot be parsed or used.
	ErrKey = sentinel("checkout: unusable RSA key")
	// ErrEnvelope matches a 2xx reply in the wrong form for the client's
	// mode: plain where a sealed one is expected, or sealed in Basic mode.
	ErrEnvelope = sentinel("checkout: reply is not an encrypted envelope")
	// ErrDecrypt matches a reply, or an encrypted webhook, that does not
	// decrypt with the merchant key: another recipient, a refused
	// algorithm or key id, tampering.
	ErrDecrypt = sentinel("checkout: does not decrypt with the merchant key")
	// ErrSignature matches a reply, or a signed webhook, not signed RS256
	// by the service key.
	ErrSignature = sentinel("checkout: service signature not verified")
	// ErrKeyOperation matches a failure of the merchant's signer or
	// decrypter ([WithJWEKeys], a webhook JWEConfig.Decrypter): a locked
	// HSM, a key service timeout, a panic, a wrong signature, or a context
	// that ended while the key was busy. A signing failure sent nothing; a
	// decrypting one came after the service acted (the client then reads
	// before it writes again, see [ConflictError]).
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

// joseErr turns an error of internal/jose into a *JOSEError; prefix is
// "request: " or "reply: ".
func joseErr(op, prefix string, err error) error {
	reply := prefix == "reply: "
	var e *jose.Error
	if !errors.As(err, &e) {
		return &JOSEError{Op: op, Kind: ErrDecrypt, Detail: prefix + "unexpected failure", reply: reply}
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
		step := "sign request"
		if reply {
			step = "decrypt reply"
		}
		return &JOSEError{Op: op, Kind: ErrKeyOperation, Detail: step + ": " + e.Detail, Err: e.Err, reply: reply}
	default:
		kind = ErrDecrypt
	}
	return &JOSEError{Op: op, Kind: kind, Detail: prefix + e.Detail, Err: e.Err, reply: reply}
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
