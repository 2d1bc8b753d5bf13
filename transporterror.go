package checkout

import (
	"cmp"
	"net/http"
	"strconv"
	"strings"
)

// TransportError is a call that got no usable reply from the service: the
// connection could not be made or broke, the TLS handshake failed, the call
// timed out or its context ended, or the reply could not be read. Unlike an
// [*APIError] it carries no status: the service said nothing readable.
//
// MaybeDelivered says what to do next. When it is false nothing reached the
// service, so the call had no effect and may be sent again as it is. When it
// is true the service may have acted: before sending a create or a refund
// again, ask [Client.GetOrder], or [Client.GetCustomer] after a customer
// call (see "After a failed write" at [Client]).
//
// errors.Is(err, context.DeadlineExceeded) and errors.Is(err,
// context.Canceled) see through it, and errors.As reaches the cause (a
// *net.OpError, a net.Error whose Timeout reports a timeout, an x509 error).
type TransportError struct {
	// Op names the call that failed as its error string does:
	// "create session", "get order", "refund", "refund transaction", ….
	Op string
	// Method is the HTTP method of the call ("POST").
	Method string
	// Path is the endpoint's path below the base URL, escaped, without
	// query ("/orders/ord_1/refunds").
	Path string
	// Attempts is how many times the request was tried (more than 1 when
	// the client retried under its RetryPolicy).
	Attempts int
	// MaybeDelivered reports whether the request may have reached the
	// service: request headers were written, a connection was in use when
	// the failure came so that it cannot be known, or a reply began to
	// arrive. A reply of 429 or 503 to an earlier attempt does not count:
	// the service says with it that it did not act on the request.
	MaybeDelivered bool
	// Err is the cause.
	Err error

	// idempotent marks a call that changes nothing (GetOrder), for which
	// Error() gives no advice about resending.
	idempotent bool
}

// Error returns one line: "checkout: <op>: <method> <path>: " and the
// cause, and, when the request may have reached the service and the call
// is a write, the advice to check with GetOrder (GetCustomer for a
// customer call) before resending.
func (e *TransportError) Error() string {
	if e == nil {
		return "checkout: <nil *TransportError>"
	}
	var where, tries, advice string
	cause := "transport failure"
	if s := strings.TrimSpace(e.Method + " " + e.Path); s != "" {
		where = s + ": "
	}
	if e.Attempts > 1 {
		tries = "after " + strconv.Itoa(e.Attempts) + " attempts: "
	}
	if e.Err != nil {
		cause = oneLine(e.Err.Error(), 5*maxMessage)
	}
	if e.MaybeDelivered && !e.idempotent && e.Method != http.MethodGet && e.Method != http.MethodHead {
		check := "GetOrder"
		if strings.HasPrefix(e.Path, "/customers") {
			check = "GetCustomer"
		}
		advice = " (may have reached the service; check with " + check + " before resending)"
	}
	return "checkout: " + cmp.Or(e.Op, "request") + ": " + where + tries + cause + advice
}

// Unwrap returns the cause, so errors.Is and errors.As see through e.
func (e *TransportError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}
