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
	OutcomeDuplicate     Outcome = "duplicate"        // already processed or in flight: not run again
	OutcomeUnauthorized  Outcome = "unauthorized"     // wrong credentials or custom headers: 401
	OutcomeForbidden     Outcome = "forbidden_source" // from an address outside the allow-list: 403
	OutcomeDecodeFailure Outcome = "decode_failure"   // too large, unreadable or not an event: 4xx
	OutcomeHandlerError  Outcome = "handler_error"    // the function failed: 500, the service re-sends
	OutcomeNotConfigured Outcome = "not_configured"   // an encrypted body without a decrypter: 500
)

// Delivery is what an [Observer] hears of one delivery. It holds nothing
// secret: no credential, header value or body.
type Delivery struct {
	Outcome    Outcome
	HTTPStatus int           // the status the handler answered
	EventName  string        // the event's name when it was read, else ""
	Duration   time.Duration // from the request's arrival to the answer
}
