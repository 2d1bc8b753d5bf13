// Package validation holds the error every Validate method of the SDK returns
// when a request cannot be sent as it is: [Error], a list of [Problem]s, each
// naming the JSON path of the field as the service spells it.
//
// It is a leaf package so that the client (checkout.ValidationError is an
// alias of [Error]) and the value packages (paymentfilter, emi,
// productsummary) share one type: one errors.As catches the problems of a
// session request and of the filters inside it.
package validation

import (
	"slices"
	"strconv"
	"strings"
)

// sentinel is the type of [ErrInvalidRequest]: a constant, so no importer can
// reassign it.
type sentinel string

// Error returns the sentinel's message.
func (s sentinel) Error() string { return string(s) }

// ErrInvalidRequest is matched by every *[Error] with errors.Is. The client
// package re-exports it as checkout.ErrInvalidRequest, which a 4xx reply of
// the service matches too, so one check covers a request refused before it
// was sent and one the service refused.
const ErrInvalidRequest = sentinel("checkout: invalid request")

// Problem is one reason a value cannot be sent.
type Problem struct {
	// Path is the JSON path of the offending field, for example
	// "payment_filter.options[1].cardFilters[0].cardBins[2]"; empty when
	// the problem is the value as a whole.
	Path string `json:"path"`
	// Message says what is wrong, in plain words.
	Message string `json:"message"`
}

// String returns "path: message", or the message alone when Path is empty.
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Error lists every problem found in a value before anything was sent.
//
// A Validate method builds one with [Error.Add] and returns [Error.Err]:
//
//	var v validation.Error
//	if r.OrderID == "" {
//		v.Add("order_id", "is required")
//	}
//	return v.Err()
type Error struct {
	// Op is the operation that validated the value ("create session");
	// empty when Validate was called directly.
	Op string `json:"op,omitempty"`
	// Problems holds every problem found, in the order of the value's
	// fields.
	Problems []Problem `json:"problems"`
}

// Error returns one line: "checkout: <op>: invalid request: " and the
// problems separated by "; ". The operation is "validate" when Op is empty.
func (e *Error) Error() string {
	if e == nil {
		return "checkout: validate: invalid request"
	}
	op := e.Op
	if op == "" {
		op = "validate"
	}
	var b strings.Builder
	b.WriteString("checkout: ")
	b.WriteString(op)
	b.WriteString(": invalid request")
	for i, p := range e.Problems {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Is reports whether target is [ErrInvalidRequest].
func (e *Error) Is(target error) bool { return target == ErrInvalidRequest }

// Has reports whether one of the problems is at path.
func (e *Error) Has(path string) bool {
	if e == nil {
		return false
	}
	for _, p := range e.Problems {
		if p.Path == path {
			return true
		}
	}
	return false
}

// WithOp returns a copy of e whose Op is op, for a caller that validates a
// value as part of a named operation.
func (e *Error) WithOp(op string) *Error {
	if e == nil {
		return nil
	}
	return &Error{Op: op, Problems: slices.Clone(e.Problems)}
}

// Add records a problem at path.
func (e *Error) Add(path, message string) {
	e.Problems = append(e.Problems, Problem{Path: path, Message: message})
}

// Merge records the problems of err, a nested value's Validate error, with
// prefix before each path (see [Join]); any other non-nil error becomes
// one problem at prefix. A nil err adds nothing.
func (e *Error) Merge(prefix string, err error) {
	if err == nil {
		return
	}
	ve, ok := err.(*Error)
	if !ok {
		e.Add(prefix, err.Error())
		return
	}
	for _, p := range ve.Problems {
		e.Add(Join(prefix, p.Path), p.Message)
	}
}

// Err returns nil when no problem was recorded, else a copy of e as an
// error: the return value of a Validate method.
func (e *Error) Err() error {
	if e == nil || len(e.Problems) == 0 {
		return nil
	}
	return &Error{Op: e.Op, Problems: slices.Clone(e.Problems)}
}

// Join appends a field path to a prefix: Join("a", "b") is "a.b",
// Join("a", "[0]") is "a[0]", and an empty side yields the other.
func Join(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	case path[0] == '[':
		return prefix + path
	default:
		return prefix + "." + path
	}
}

// Index returns path[i]: Index("options", 1) is "options[1]".
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// ConfigError is the error of a constructor that refuses its
// configuration (webhook.NewVerifier, reconcile.New, redisclaim.New,
// pgclaim.New): the configuration is wrong, not a request. It reads
// "checkout: <Op>: " and each problem at its setting ("Config.Lease: is
// negative"), and unwraps to the *Error listing them.
type ConfigError struct {
	Op  string // the constructor: "webhook: config", "reconcile: new"
	Err *Error // every problem, at the settings' names
}

// Error lists every problem after "checkout: <Op>: ".
func (e *ConfigError) Error() string {
	if e == nil || e.Err == nil {
		return "checkout: config: <nil>"
	}
	problems := make([]string, len(e.Err.Problems))
	for i, p := range e.Err.Problems {
		problems[i] = p.String()
	}
	return "checkout: " + e.Op + ": " + strings.Join(problems, "; ")
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error {
	if e == nil || e.Err == nil {
		return nil
	}
	return e.Err
}

// ConfigErr is nil when e holds no problem, else a *ConfigError of the
// constructor op.
func (e *Error) ConfigErr(op string) error {
	if e == nil || len(e.Problems) == 0 {
		return nil
	}
	return &ConfigError{Op: op, Err: &Error{Problems: slices.Clone(e.Problems)}}
}
