package webhook

import (
	"errors"
	"fmt"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/jose"
	"github.com/payorch/checkout-go/validation"
)

// ValidationError is the SDK's one validation error type (also
// checkout.ValidationError). A [validation.ConfigError] wraps one, so
// errors.As finds it; its paths are Config field names ("Username",
// "Headers[X-Shop]").
type ValidationError = validation.Error

// Problem is one entry of a ValidationError.
type Problem = validation.Problem

// configErr is nil when col holds no problem, else a
// *validation.ConfigError of "webhook: config".
func configErr(col *validation.Error) error { return col.ConfigErr("webhook: config") }

// Sentinel errors of Verify and Handler, wrapped with a secret-free detail
// (test with errors.Is). Constants, so no importer can reassign one. The
// status Handler replies with is in the package doc.
const (
	ErrNotConfigured    = sentinel("checkout: verify webhook: verifier not configured (use NewVerifier)")
	ErrForbiddenSource  = sentinel("checkout: verify webhook: source address not allowed")
	ErrMethodNotAllowed = sentinel("checkout: verify webhook: method not allowed")
	ErrBadCredentials   = sentinel("checkout: verify webhook: credentials not accepted")
	ErrHeaderMismatch   = sentinel("checkout: verify webhook: custom header mismatch")
	ErrBodyTooLarge     = sentinel("checkout: verify webhook: body too large")
	ErrMalformedBody    = sentinel("checkout: verify webhook: malformed body") // unreadable, or not a webhook

	// ErrEncrypted is the body of an encrypted envelope: ParseEvent returns
	// it, and every failure to open one matches it: ErrNoDecrypter, and
	// the errors of a Decrypter, which also match checkout.ErrDecrypt,
	// checkout.ErrSignature or checkout.ErrKeyOperation, as the client's.
	ErrEncrypted   = sentinel("checkout: verify webhook: encrypted payload")
	ErrNoDecrypter = encryptedSentinel("checkout: verify webhook: encrypted payload: no Decrypter configured")

	// ErrNotEncrypted: a plain body while a Decrypter is configured and
	// AcceptPlain is not (it would skip the decryption and the signature).
	ErrNotEncrypted = sentinel("checkout: verify webhook: plain body refused: a Decrypter is configured and AcceptPlain is not set")

	// ErrInFlight: a duplicate waited Config.DuplicateWait for the first
	// delivery of its event, still running (Handler: 409 with Retry-After).
	ErrInFlight = sentinel("checkout: deduplicate webhook: another delivery of this event is in progress")
)

// sentinel is the type of the constant errors above.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// encryptedSentinel is a constant error that also matches ErrEncrypted.
type encryptedSentinel string

func (e encryptedSentinel) Error() string { return string(e) }
func (e encryptedSentinel) Unwrap() error { return ErrEncrypted }

// wrap adds a fixed, secret-free detail to a sentinel.
func wrap(sentinel error, detail string) error {
	return fmt.Errorf("%w: %s", sentinel, detail)
}

// openError is a failure to open an encrypted body: it matches ErrEncrypted,
// kind (checkout.ErrDecrypt, checkout.ErrSignature or
// checkout.ErrKeyOperation, as for the client's replies) and the key's or
// the Decrypter's own error.
type openError struct {
	kind   error
	detail string // fixed text, or a Decrypter's; never the content
	err    error
}

func (e *openError) Error() string {
	what := "cannot decrypt"
	switch e.kind {
	case checkout.ErrSignature:
		what = "signature not verified"
	case checkout.ErrKeyOperation:
		what = "decrypting with the merchant key"
	}
	return "checkout: verify webhook: encrypted payload: " + what + ": " + e.detail
}

func (e *openError) Unwrap() []error { return []error{ErrEncrypted, e.kind, e.err} }

// openErr is the openError of kind with detail; an error of internal/jose
// that is the key's own failure becomes checkout.ErrKeyOperation.
func openErr(kind error, detail string, err error) error {
	var je *jose.Error
	if errors.As(err, &je) && je.Kind == jose.KindKeyOp {
		kind, err = checkout.ErrKeyOperation, je.Err
	}
	return &openError{kind: kind, detail: detail, err: err}
}

// contentUnreadable is the error of Event.DecodeContent; it matches
// ErrMalformedBody.
type contentUnreadable string

func (e contentUnreadable) Error() string {
	return "checkout: read webhook content: malformed content: " + string(e)
}

func (e contentUnreadable) Unwrap() error { return ErrMalformedBody }
