package checkout

import (
	"context"
	"time"
)

// Observer hears every call the Client makes and every webhook delivery a
// handler answers, for tracing and metrics (package otelcheckout adapts it
// to OpenTelemetry). Give one to [WithObserver] and to the webhook Config.
// Its methods run on the caller's goroutine, must be safe for concurrent
// use, and should return quickly. The context each Start method returns is
// the one passed to its End method and to what runs within it (attempts
// within an operation, polls within [Client.AwaitFinal]), so an observer
// can keep its span there. Embed [NopObserver] to implement only some.
type Observer interface {
	// StartOperation hears a call begin.
	StartOperation(ctx context.Context, op Operation) context.Context
	// StartAttempt hears one request of the call about to be sent: a
	// send, a retry, or the read that settles an unknown outcome.
	StartAttempt(ctx context.Context, op Operation, a Attempt) context.Context
	// EndAttempt hears how that request ended.
	EndAttempt(ctx context.Context, op Operation, a Attempt)
	// EndOperation hears the call end, as the caller sees it end.
	EndOperation(ctx context.Context, op Operation, r OperationResult)
	// ObserveDelivery hears how a webhook handler answered one delivery
	// (package webhook's Config.Observer).
	ObserveDelivery(ctx context.Context, d Delivery)
}

// NopObserver observes nothing; embed it in an [Observer] that needs only
// some of the methods.
type NopObserver struct{}

// StartOperation returns ctx.
func (NopObserver) StartOperation(ctx context.Context, _ Operation) context.Context { return ctx }

// StartAttempt returns ctx.
func (NopObserver) StartAttempt(ctx context.Context, _ Operation, _ Attempt) context.Context {
	return ctx
}

// EndAttempt does nothing.
func (NopObserver) EndAttempt(context.Context, Operation, Attempt) {}

// EndOperation does nothing.
func (NopObserver) EndOperation(context.Context, Operation, OperationResult) {}

// ObserveDelivery does nothing.
func (NopObserver) ObserveDelivery(context.Context, Delivery) {}

// Operation describes one call of the Client, as an [Observer] hears it.
// Nothing in it is secret; OrderID is the merchant's own id, which an
// observer should report only when its user opts in.
type Operation struct {
	Name          string // the Client method: "CreateSession", "GetOrder", "Do", "AwaitFinal"…
	Method        string // HTTP method of the call as sent ("POST"); "" for AwaitFinal
	Route         string // path template: "/orders/{order_id}", never the raw path
	BaseURL       string // the service's base URL: scheme://host[:port][/prefix], never a credential or query
	ServerAddress string // host of the base URL
	ServerPort    int    // port of the base URL (443 when not written)
	JWE           bool   // sent in the JWE+JWS mode
	OrderID       string // the order the call names, "" when none
}

// ErrorKind classifies why an attempt or operation failed, in few enough
// values to label a metric with.
type ErrorKind string

// The kinds of failure an [Observer] hears; "" is success.
const (
	ErrorKindTimeout    ErrorKind = "timeout"    // a deadline or timeout ended it
	ErrorKindCanceled   ErrorKind = "canceled"   // the caller's context was canceled
	ErrorKindConnection ErrorKind = "connection" // dialling, TLS or the connection failed
	ErrorKindHTTP       ErrorKind = "http"       // the service answered with a non-2xx status
	ErrorKindDecode     ErrorKind = "decode"     // a 2xx reply could not be read, opened or decoded
	ErrorKindInvalid    ErrorKind = "invalid"    // refused before sending (validation, options)
	ErrorKindJOSE       ErrorKind = "jose"       // sealing or signing the request failed
	ErrorKindConflict   ErrorKind = "conflict"   // a replayed write found another ([ConflictError])
	ErrorKindOther      ErrorKind = "other"
)

// AttemptKind says which request of an operation an attempt sent.
type AttemptKind string

// The requests of an operation.
const (
	// AttemptSend is the operation's own request: its first attempt, a
	// retry, or a write sent again after a settle read found nothing.
	AttemptSend AttemptKind = "send"
	// AttemptSettle is a read of the order a write was about, made after
	// the write's outcome was unknown (see [ConflictError]).
	AttemptSettle AttemptKind = "settle"
)

// Attempt is what an [Observer] hears of one HTTP request of an operation:
// Number, Kind, Method and Route when it starts, all of it when it ends.
type Attempt struct {
	Number int         // 1 for a request's first attempt, 2 for the next one of the same request…
	Kind   AttemptKind // the operation's own request, or a settle read
	Method string      // HTTP method as sent ("POST")
	Route  string      // path template as sent: "/orders/{order_id}"
	// Path is the path as sent, without the query: a call about an order
	// names it ("/orders/ord_1"), others show their Route (never another id).
	Path string

	Protocol string // HTTP version of the reply: "1.1", "2"; "" when none came

	HTTPStatus     int           // 0 when no reply came
	ErrorKind      ErrorKind     // "" when the attempt got a 2xx reply it could read
	MaybeDelivered bool          // it failed after its request may have reached the service (see [OperationResult])
	Duration       time.Duration // from sending to the end of reading the reply
}

// OperationResult is what an [Observer] hears when an operation ends: the
// outcome of the call as a whole, as the caller gets it.
type OperationResult struct {
	Attempts   int       // HTTP requests made, settle reads included; 0 when refused before sending
	HTTPStatus int       // status of the last reply, 0 when none
	ErrorKind  ErrorKind // "" on success
	Err        error     // the error the call returns, nil on success
	// MaybeDelivered means, here as on an [Attempt] and a
	// [TransportError]: it failed, and a request of it may have reached
	// the service, so a write may have taken effect. Never set on success.
	MaybeDelivered bool
	Replayed       bool          // the write's outcome was settled by reading it back (see [ConflictError])
	OrderStatus    Status        // the order's status when the call returns an order: a known status, or "_OTHER"
	Duration       time.Duration // the whole call, retries, settle reads and waits included
}

// DeliveryOutcome is how a webhook handler answered one delivery.
type DeliveryOutcome string

// The outcomes of a webhook delivery.
const (
	DeliveryProcessed     DeliveryOutcome = "processed"        // the function ran and succeeded: 200
	DeliveryDuplicate     DeliveryOutcome = "duplicate"        // processed before (200) or still in flight (409): not run again
	DeliveryUnauthorized  DeliveryOutcome = "unauthorized"     // wrong credentials, custom headers or signature: 401 (500 for a signature)
	DeliveryForbidden     DeliveryOutcome = "forbidden_source" // from an address outside the allow-list: 403
	DeliveryDecodeFailure DeliveryOutcome = "decode_failure"   // not a POST, too large, unreadable, undecryptable or not an event: 4xx/500
	DeliveryHandlerError  DeliveryOutcome = "handler_error"    // the function or the claim store failed: 500, the service re-sends
	DeliveryNotConfigured DeliveryOutcome = "not_configured"   // no Decrypter, a plain body refused, no function: 500
)

// Delivery is what an [Observer] hears of one webhook delivery. It holds
// nothing secret: no credential, header value or body.
type Delivery struct {
	Outcome    DeliveryOutcome
	HTTPStatus int           // the status the handler answered
	EventName  string        // the event's name when it was read (at most 128 bytes), else ""
	Duration   time.Duration // from the request's arrival to the answer
}
