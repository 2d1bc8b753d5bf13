package webhook

import (
	"fmt"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// ValidationError is the SDK's one validation error type (also
// checkout.ValidationError). A [ConfigError] wraps one, so errors.As finds
// it; its paths are Config field names ("Username", "Headers[X-Shop]").
type ValidationError = validation.Error

// Problem is one entry of a ValidationError.
type Problem = validation.Problem

// ConfigError is the error of NewVerifier, Config.Validate and
// ValidateUsername: the Config is wrong, not a delivery. It reads
// "checkout: webhook: config: Password: required; …" and unwraps to the
// *ValidationError listing every problem.
type ConfigError struct {
	Err *ValidationError
}

// Error lists every problem after "checkout: webhook: config: ".
func (e *ConfigError) Error() string {
	if e == nil || e.Err == nil {
		return "checkout: webhook: config: <nil>"
	}
	problems := make([]string, len(e.Err.Problems))
	for i, p := range e.Err.Problems {
		problems[i] = p.String()
	}
	return "checkout: webhook: config: " + strings.Join(problems, "; ")
}

// Unwrap returns the *ValidationError.
func (e *ConfigError) Unwrap() error {
	if e == nil || e.Err == nil {
		return nil
	}
	return e.Err
}

// configErr is nil when col holds no problem, else a *ConfigError.
func configErr(col *validation.Error) error {
	if err := col.Err(); err != nil {
		return &ConfigError{Err: err.(*validation.Error)}
	}
	return nil
}

// Sentinel errors of Verify and Handler, wrapped with a secret-free detail
// (test with errors.Is). Constants, so no importer can reassign one. The
// status Handler replies with is in the package doc.
const (
	ErrNotConfigured    = sentinel("checkout: verify webhook: verifier not configured (use NewVerifier)")
	ErrForbiddenSource  = sentinel("checkout: verify webhook: source address not allowed")
	ErrMethodNotAllowed = sentinel("checkout: verify webhook: method not allowed")
	ErrUnauthorized     = sentinel("checkout: verify webhook: unauthorized")
	ErrHeaderMismatch   = sentinel("checkout: verify webhook: custom header mismatch")
	ErrBodyTooLarge     = sentinel("checkout: verify webhook: body too large")
	ErrMalformedBody    = sentinel("checkout: verify webhook: malformed body") // unreadable, or not a webhook

	// ErrEncrypted is the body of an encrypted envelope: ParseEvent returns
	// it, and every failure to open one (the three below) matches it.
	ErrEncrypted   = sentinel("checkout: verify webhook: encrypted payload")
	ErrNoDecrypter = encryptedSentinel("checkout: verify webhook: encrypted payload: no Decrypter configured")
	ErrDecrypt     = encryptedSentinel("checkout: verify webhook: encrypted payload: cannot decrypt")
	ErrSignature   = encryptedSentinel("checkout: verify webhook: encrypted payload: signature not verified")

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

// contentUnreadable is the error of Event.DecodeContent; it matches
// ErrMalformedBody.
type contentUnreadable string

func (e contentUnreadable) Error() string {
	return "checkout: read webhook content: malformed content: " + string(e)
}

func (e contentUnreadable) Unwrap() error { return ErrMalformedBody }
