package checkout

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// TransportError is a call that got no usable reply: no connection, a
// failed handshake, a timeout, an ended context, an unreadable reply. When
// MaybeDelivered is false nothing reached the service and the call may be
// sent again; when true, ask first (see "After a failed write" in the
// package doc). errors.Is and errors.As see through it to the cause.
type TransportError struct {
	Op       string // the call, as its error string names it: "create session"…
	Method   string // "POST"
	Path     string // below the base URL, escaped, without query
	Attempts int    // tries made under the RetryPolicy
	// MaybeDelivered: some attempt's request may have reached the service
	// (headers written, a connection in use, a reply begun); a 429 or 503
	// reply does not count.
	MaybeDelivered bool
	Err            error // the cause

	idempotent bool // a read: Error() gives no advice about resending
}

// Error returns one line: the op, method, path and cause, with advice to
// check before resending a write that may have been delivered.
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

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// transportError wraps the failure of the call's last attempt as a
// *TransportError. A *url.Error is unwrapped: the error names the method
// and path itself, and the URL's query stays out of it.
func (cl *call) transportError(err error) *TransportError {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	method, path := cl.method, cl.path
	if cl.jwe {
		method, path = http.MethodPost, cl.jwePath
	}
	return &TransportError{Op: cl.op, Method: method, Path: path, Attempts: max(cl.n, 1),
		MaybeDelivered: cl.delivered, Err: err, idempotent: cl.idempotent}
}
