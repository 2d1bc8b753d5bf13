package webhook

import (
	"context"
	"time"
)

// Observer hears the outcome of each delivery the [Verifier.Handler]
// answers, for metrics and tracing (package otelcheckout adapts it). Set it
// in [Config].Observer. It runs on the request's goroutine and must be safe
// for concurrent use.
type Observer interface {
	ObserveDelivery(ctx context.Context, d Delivery)
}

// Outcome is how the handler answered one delivery.
type Outcome string

// The outcomes of a delivery.
const (
	OutcomeProcessed     Outcome = "processed"        // the function ran and succeeded: 200
	OutcomeDuplicate     Outcome = "duplicate"        // processed before (200) or still in flight (409): not run again
	OutcomeUnauthorized  Outcome = "unauthorized"     // wrong credentials, custom headers or signature: 401 (500 for a signature)
	OutcomeForbidden     Outcome = "forbidden_source" // from an address outside the allow-list: 403
	OutcomeDecodeFailure Outcome = "decode_failure"   // not a POST, too large, unreadable, undecryptable or not an event: 4xx/500
	OutcomeHandlerError  Outcome = "handler_error"    // the function or the claim store failed: 500, the service re-sends
	OutcomeNotConfigured Outcome = "not_configured"   // no Decrypter, a plain body refused, no function: 500
)

// Delivery is what an [Observer] hears of one delivery. It holds nothing
// secret: no credential, header value or body.
type Delivery struct {
	Outcome    Outcome
	HTTPStatus int           // the status the handler answered
	EventName  string        // the event's name when it was read, else ""
	Duration   time.Duration // from the request's arrival to the answer
}
