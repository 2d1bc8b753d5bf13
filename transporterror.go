package checkout

import (
	"cmp"
	"errors"
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
	// MaybeDelivered: the call failed after some request of it may have
	// reached the service (headers written, a connection in use, a reply
	// begun, a 2xx reply it could not read), so a write may have taken
	// effect; a 429 or 503 reply does not count. It means the same as on
	// an [Attempt] and an [OperationResult].
	MaybeDelivered bool
	Err            error // the cause

	write bool // Error() advises checking before resending only a write
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
		cause = e.cause()
	}
	if e.MaybeDelivered && e.write {
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

// cause is the text of Err on one line, a *url.Error's URL left out.
func (e *TransportError) cause() string {
	err := e.Err
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	// A cause that names the call itself (a *JOSEError) is not named twice.
	return oneLine(strings.TrimPrefix(err.Error(), "checkout: "+e.Op+": "), 5*maxMessage)
}

// replyError is a 2xx reply the client could not use: one that does not
// decode as the call's reply, or names another order.
type replyError struct{ err error }

func (e replyError) Error() string { return e.err.Error() }
func (e replyError) Unwrap() error { return e.err }

// errRequestFailed is the error of an exchange that ended with neither a
// reply nor an error (go-retryablehttp never does so).
const errRequestFailed = sentinel("request failed")
