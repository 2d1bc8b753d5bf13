package webhook

import (
	"fmt"

	"github.com/payorch/checkout-go/validation"
)

// ValidationError is returned by NewVerifier, Config.Validate and
// ValidateUsername. It is the SDK's one validation error type, so
// errors.As(err, new(*checkout.ValidationError)) works too. Problem paths are
// the Config field names ("Username", "Headers[X-Shop]", "Sources[2]").
type ValidationError = validation.Error

// Problem is one entry of a ValidationError.
type Problem = validation.Problem

// Sentinel errors returned by Verify (wrapped with detail; test with
// errors.Is). They are constants, not variables, so that no importer can
// reassign one for the whole process. None of their messages, nor the
// details wrapped around them, ever holds a password, an Authorization
// value, a custom header value or a body.
const (
	// ErrNotConfigured: the Verifier was not made by NewVerifier.
	ErrNotConfigured = sentinel("checkout: verify webhook: verifier not configured (use NewVerifier)")

	// ErrForbiddenSource: the client address is not in Config.Sources, or
	// could not be determined (fail closed). Handler: 403.
	ErrForbiddenSource = sentinel("checkout: verify webhook: source address not allowed")

	// ErrMethodNotAllowed: the request is not a POST. Handler: 405.
	ErrMethodNotAllowed = sentinel("checkout: verify webhook: method not allowed")

	// ErrUnauthorized: the Basic credentials are missing, malformed or
	// wrong. Handler: 401 with WWW-Authenticate.
	ErrUnauthorized = sentinel("checkout: verify webhook: unauthorized")

	// ErrHeaderMismatch: a configured custom header is missing,
	// repeated or has another value. Handler: 401.
	ErrHeaderMismatch = sentinel("checkout: verify webhook: custom header mismatch")

	// ErrBodyTooLarge: the body (or the decrypted payload) exceeds
	// Config.MaxBodyBytes. Handler: 413.
	ErrBodyTooLarge = sentinel("checkout: verify webhook: body too large")

	// ErrMalformedBody: the body cannot be read or is not a webhook
	// (not a JSON object, no event_name, a broken JWT envelope). Handler: 400.
	ErrMalformedBody = sentinel("checkout: verify webhook: malformed body")

	// ErrEncrypted: the body is an encrypted envelope. Every
	// failure to open one wraps it: ErrNoDecrypter, ErrDecrypt, ErrSignature.
	// ParseEvent returns it as is for an envelope.
	ErrEncrypted = sentinel("checkout: verify webhook: encrypted payload")

	// ErrNoDecrypter: the body is {"JWT": "..."} but Config.Decrypter is
	// nil. Handler: 500 (logged), so the service re-sends once it is set.
	ErrNoDecrypter = encryptedSentinel("checkout: verify webhook: encrypted payload: no Decrypter configured")

	// ErrNotEncrypted: the body is plain JSON but Config.Decrypter is set
	// and Config.AcceptPlain is not: plain JSON would skip the decryption
	// and the signature check. Handler: 500 (logged), so the service
	// re-sends; set AcceptPlain while switching over to encrypted
	// webhooks.
	ErrNotEncrypted = sentinel("checkout: verify webhook: plain body refused: a Decrypter is configured and AcceptPlain is not set")

	// ErrDecrypt: the token could not be decrypted (wrong key, tampered
	// token, unexpected algorithm). Handler: 500 (logged).
	ErrDecrypt = encryptedSentinel("checkout: verify webhook: encrypted payload: cannot decrypt")

	// ErrSignature: the decrypted payload's signature is missing or does not
	// verify against the configured verification key. Handler: 500 (logged).
	ErrSignature = encryptedSentinel("checkout: verify webhook: encrypted payload: signature not verified")

	// ErrInFlight: a duplicate delivery waited Config.DuplicateWait (or
	// until its sender hung up) for the first delivery of the same event,
	// which is still running. Handler: 409 with Retry-After, so the service
	// re-sends later; by then the first delivery has either succeeded (the
	// re-send gets 200) or failed (the re-send is processed).
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

// contentUnreadable is the error of Event.DecodeContent: content that is
// not there or does not decode. It matches ErrMalformedBody, as a damaged
// body does, but its message names the operation that read it.
type contentUnreadable string

// Error names the operation, then what was wrong with the content.
func (e contentUnreadable) Error() string {
	return "checkout: read webhook content: malformed content: " + string(e)
}

// Unwrap returns ErrMalformedBody, which errors.Is matches.
func (e contentUnreadable) Unwrap() error { return ErrMalformedBody }
