package webhook

import (
	"errors"
	"fmt"

	"github.com/payorch/checkout-go/internal/valid"
)

// ValidationError is returned by NewVerifier, Config.Validate and
// ValidateUsername. It is the SDK's one validation error type, so
// errors.As(err, new(*checkout.ValidationError)) works too. Problem paths are
// the Config field names ("Username", "Headers[X-Shop]", "Sources[2]").
type ValidationError = valid.Error

// Problem is one entry of a ValidationError.
type Problem = valid.Problem

// Sentinel errors returned by Verify (wrapped with detail; test with
// errors.Is). None of their messages ever holds a password, an
// Authorization value, a custom header value or a body.
var (
	// ErrNotConfigured: the Verifier was not made by NewVerifier.
	ErrNotConfigured = errors.New("webhook: verifier not configured (use NewVerifier)")

	// ErrForbiddenSource: the client address is not in Config.Sources
	// (spec §5.6), or could not be determined (fail closed). Handler: 403.
	ErrForbiddenSource = errors.New("webhook: source address not allowed")

	// ErrMethodNotAllowed: the request is not a POST (spec §6.1.2). Handler: 405.
	ErrMethodNotAllowed = errors.New("webhook: method not allowed")

	// ErrUnauthorized: the Basic credentials are missing, malformed or wrong
	// (spec §5.2–5.3). Handler: 401 with WWW-Authenticate.
	ErrUnauthorized = errors.New("webhook: unauthorized")

	// ErrHeaderMismatch: a configured custom header (spec §5.4) is missing,
	// repeated or has another value. Handler: 401.
	ErrHeaderMismatch = errors.New("webhook: custom header mismatch")

	// ErrBodyTooLarge: the body exceeds Config.MaxBodyBytes. Handler: 413.
	ErrBodyTooLarge = errors.New("webhook: body too large")

	// ErrMalformedBody: the body cannot be read or is not a webhook
	// (not a JSON object, no event_name, a broken JWT envelope). Handler: 400.
	ErrMalformedBody = errors.New("webhook: malformed body")

	// ErrEncrypted: the body is an encrypted envelope (spec §6.1.7). Every
	// failure to open one wraps it: ErrNoDecrypter, ErrDecrypt, ErrSignature.
	ErrEncrypted = errors.New("webhook: encrypted payload")

	// ErrNoDecrypter: the body is {"JWT": "..."} but Config.Decrypter is
	// nil. Handler: 500 (logged), so the service re-sends once it is set.
	ErrNoDecrypter = fmt.Errorf("%w: no Decrypter configured", ErrEncrypted)

	// ErrDecrypt: the token could not be decrypted (wrong key, tampered
	// token, unexpected algorithm). Handler: 500 (logged).
	ErrDecrypt = fmt.Errorf("%w: cannot decrypt", ErrEncrypted)

	// ErrSignature: the decrypted payload's signature is missing or does not
	// verify against the configured verification key. Handler: 500 (logged).
	ErrSignature = fmt.Errorf("%w: signature not verified", ErrEncrypted)

	// ErrInFlight: another delivery of the same event is being processed
	// right now. Handler: 409, so the service re-sends later; by then the
	// first delivery has either succeeded (the re-send gets 200) or failed
	// (the re-send is processed).
	ErrInFlight = errors.New("webhook: another delivery of this event is in progress")
)

// wrap adds a fixed, secret-free detail to a sentinel.
func wrap(sentinel error, detail string) error {
	return fmt.Errorf("%w: %s", sentinel, detail)
}
