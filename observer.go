package checkout

import (
	"context"
	"time"
)

// Observer hears every call the Client makes, for tracing and metrics
// (package otelcheckout adapts it to OpenTelemetry). Give one to
// [WithObserver]. Its methods run on the caller's goroutine, must be safe
// for concurrent use, and should return quickly. The context each Start
// method returns is the one passed to its End method and to the calls made
// within it, so an observer can keep its span there.
type Observer interface {
	StartOperation(ctx context.Context, op Operation) context.Context
	StartAttempt(ctx context.Context, op Operation, attempt int) context.Context
	EndAttempt(ctx context.Context, op Operation, a Attempt)
	EndOperation(ctx context.Context, op Operation, r OperationResult)
}

// Operation describes one call of the Client, as an [Observer] hears it.
// Nothing in it is secret; OrderID is the merchant's own id, which an
// observer should report only when its user opts in.
type Operation struct {
	Name          string // the Client method: "CreateSession", "GetOrder", "Do"…
	Method        string // HTTP method of the call as sent ("POST")
	Route         string // path template: "/orders/{order_id}", never the raw path
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
	ErrorKindDecode     ErrorKind = "decode"     // a 2xx reply could not be read or opened
	ErrorKindInvalid    ErrorKind = "invalid"    // refused before sending (validation, options)
	ErrorKindJOSE       ErrorKind = "jose"       // sealing or signing the request failed
	ErrorKindOther      ErrorKind = "other"
)

// Attempt is what an [Observer] hears when one HTTP attempt of an
// operation ends.
type Attempt struct {
	Number         int           // 1 for the first attempt, 2 for the first retry…
	HTTPStatus     int           // 0 when no reply came
	ErrorKind      ErrorKind     // "" when the attempt got a 2xx reply
	MaybeDelivered bool          // the request may have reached the service
	Duration       time.Duration // from sending to the end of reading the reply
}

// OperationResult is what an [Observer] hears when an operation ends.
type OperationResult struct {
	Attempts       int           // HTTP attempts made; 0 when refused before sending
	HTTPStatus     int           // status of the last reply, 0 when none
	ErrorKind      ErrorKind     // "" on success
	Err            error         // the error the call returns, nil on success
	MaybeDelivered bool          // a failed write may still have taken effect
	OrderStatus    Status        // the order's status when the call returns an order, else ""
	Duration       time.Duration // the whole call, retries and waits included
}
