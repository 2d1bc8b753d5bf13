package checkout

import (
	"fmt"
	"strings"
)

// ConflictError is what a write whose outcome was unknown returns when
// the settle read found the order or refund made with another meaning
// (see "After a failed write" in the package doc): Fields names the keys
// that differ.
type ConflictError struct {
	// Op is the call ("create order", "refund", …).
	Op string
	// OrderID is the order that exists.
	OrderID string
	// UniqueRequestID is the refund that exists; empty for an order.
	UniqueRequestID string
	// Fields are the keys that differ ("amount", "currency", "customer_id").
	Fields []string
	// Err is the failure that started the replay: the service's answer
	// that the order or refund exists, or the [*TransportError].
	Err error
}

// Error names the order or refund and the keys that differ.
func (e *ConflictError) Error() string {
	what := fmt.Sprintf("order %q", e.OrderID)
	if e.UniqueRequestID != "" {
		what = fmt.Sprintf("refund %q of %s", e.UniqueRequestID, what)
	}
	return fmt.Sprintf("checkout: %s: %s already exists with another %s", e.Op, what, strings.Join(e.Fields, ", "))
}

// Unwrap returns Err.
func (e *ConflictError) Unwrap() error { return e.Err }

// settleOrder is the settle step of a write that creates order id with
// amount, currency and customer: the order not found, it may be sent
// again; found alike, found says what to do; found different, the call
// ends with a *ConflictError. A write without an order id cannot be settled.
func settleOrder(op, id string, amount Amount, currency, customerID string, found func(*OrderStatus) settled) settleFunc {
	return func(read readFunc, cause error) (settled, error) {
		if id == "" {
			return unsettled, cause
		}
		st, err := readOrder(read, id)
		switch {
		case err != nil:
			return unsettled, cause
		case st == nil:
			return absent, cause
		}
		if d := st.differs(amount, currency, customerID); d != nil {
			return unsettled, &ConflictError{Op: op, OrderID: id, Fields: d, Err: cause}
		}
		return found(st), cause
	}
}
