package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	checkout "github.com/payorch/checkout-go"
)

// The typed content of an event. The service nests the object an event is
// about under one key of "content": "order" for the order events
// (ORDER_SUCCEEDED, ORDER_FAILED, the refund events and, as published,
// TXN_CREATED), "txn" for TXN_FAILED, "mandate" for the mandate events and
// "notification" for the notification events. The accessors below read
// that shape, not the event name, so they work the same on an event this
// package has no constant for.

// ErrNoContent is matched (with errors.Is) by the error of [Event.Order],
// [Event.Transaction], [Event.Mandate] and [Event.Refund] when the event
// does not carry what was asked for, such as the order of a MANDATE_CREATED
// event. It is not a fault of the delivery: answer it as your handler
// answers any event it does not act on.
const ErrNoContent = sentinel("checkout: read webhook content: event carries no such content")

// ContentError is the error of [Event.Order], [Event.Transaction],
// [Event.Mandate] and [Event.Refund]. It names the event and what it lacks:
//
//	checkout: read webhook content: MANDATE_CREATED event carries no order (its content holds "mandate")
//
// errors.Is(err, ErrNoContent) holds when the content is absent;
// errors.Is(err, ErrMalformedBody) holds when it is there but does not
// decode (Err says why).
type ContentError struct {
	// Event is the event's name (event_name).
	Event string
	// Want is what was asked for: "order", "transaction", "mandate" or
	// "refund".
	Want string
	// Holds is the key of the object the content holds instead ("txn",
	// "notification", …; see [Event.Kind]), or "" when it holds none.
	Holds string
	// Err is why the content did not decode; nil when it is absent.
	Err error
}

// Error returns one line naming the event and what it lacks.
func (e *ContentError) Error() string {
	if e == nil {
		return "checkout: read webhook content: <nil *ContentError>"
	}
	name := fmt.Sprintf("%.64s", e.Event) // the sender chose it: clipped
	if name == "" {
		name = "unnamed"
	}
	if e.Err != nil {
		return fmt.Sprintf("checkout: read webhook content: %s event: its %s does not decode: %v", name, e.Want, e.Err)
	}
	holds := "no object"
	if e.Holds != "" {
		holds = fmt.Sprintf("%.32q", e.Holds)
	}
	return fmt.Sprintf("checkout: read webhook content: %s event carries no %s (its content holds %s)", name, e.Want, holds)
}

// Is matches ErrNoContent when the content is absent and ErrMalformedBody
// when it does not decode.
func (e *ContentError) Is(target error) bool {
	if e == nil {
		return false
	}
	if e.Err != nil {
		return target == ErrMalformedBody
	}
	return target == ErrNoContent
}

// Unwrap returns Err, the decoding error, or nil.
func (e *ContentError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// Order returns the order the event carries (content.order) as the same
// [checkout.OrderStatus] that [checkout.Client.GetOrder] returns, with its
// status, amount, latest transaction, refunds and Raw. The order events
// (ORDER_SUCCEEDED, ORDER_FAILED), the refund events (ORDER_REFUNDED,
// REFUND_INITIATED, AUTO_REFUND_…) and TXN_CREATED carry one. Before
// fulfilling, check it as the service advises:
//
//	order, err := ev.Order()
//	if err != nil {
//		return err
//	}
//	if err := order.CheckPaid(expected); err != nil {
//		// do not ship
//	}
//
// An event without an order is a [*ContentError] matching [ErrNoContent].
func (e *Event) Order() (*checkout.OrderStatus, error) {
	return typedContent[checkout.OrderStatus](e, "order", "order", "")
}

// Transaction returns the payment attempt the event is about: the
// transaction of TXN_FAILED (content.txn), or, for an event that carries
// the order (TXN_CREATED as published, the order events), the order's
// latest transaction (its txn_detail). In the second case the order's own
// fields (payment method, card, gateway response) are not copied into it:
// read them from [Event.Order]. An order paid by several transactions
// (ORDER_PARTIAL_CHARGED) lists them all in the TxnList of [Event.Order];
// Transaction still returns its txn_detail, the one the service names
// latest, never a pick among the list. An event with neither is a
// [*ContentError] matching [ErrNoContent].
func (e *Event) Transaction() (*checkout.Transaction, error) {
	return typedContent[checkout.Transaction](e, "txn", "transaction", "txn_detail")
}

// Mandate returns the mandate the event is about: the mandate of the
// mandate events (MANDATE_CREATED, MANDATE_ACTIVATED, …: content.mandate),
// or, for an event that carries an order which registered or paid with a
// mandate, that order's mandate. A notification event names its mandate
// only by id: read it with DecodeContent. An event with no mandate is a
// [*ContentError] matching [ErrNoContent].
func (e *Event) Mandate() (*checkout.MandateDetail, error) {
	return typedContent[checkout.MandateDetail](e, "mandate", "mandate", "mandate")
}

// Notification returns the notification a NOTIFICATION_SUCCEEDED or
// NOTIFICATION_FAILED event is about (content.notification): a message to
// the customer before a mandate debit. An event without one is a
// [*ContentError] matching [ErrNoContent].
func (e *Event) Notification() (*Notification, error) {
	return typedContent[Notification](e, "notification", "notification", "")
}

// Refund returns the refund the event is about. The service's refund events
// (ORDER_REFUNDED, ORDER_REFUND_FAILED, REFUND_INITIATED, AUTO_REFUND_…)
// carry the whole order with all its refunds; Refund returns the one
// created last (by its created time; among equal or missing times, the
// last listed), or content.refund when the service sends a refund on its
// own. An order can
// have several refunds, and an event may be about an earlier one: to act on
// each, range over the Refunds of [Event.Order] and match your
// UniqueRequestID. An event with no refund is a [*ContentError] matching
// [ErrNoContent].
func (e *Event) Refund() (*checkout.Refund, error) {
	obj, _, err := e.contentObject("refund", "refund")
	if err != nil {
		return nil, err
	}
	if obj != nil {
		return decodeContent[checkout.Refund](e, obj, "refund")
	}
	var refunds []checkout.Refund
	if order, err := e.Order(); err == nil {
		refunds = order.AllRefunds() // top-level refunds and those inside txn_list
	}
	if len(refunds) == 0 {
		return nil, e.lacks("refund", e.Kind())
	}
	latest := -1
	for i := range refunds {
		if refunds[i].ID == "" && refunds[i].UniqueRequestID == "" && refunds[i].Status == "" {
			continue // a redacted element ("FILTERED") or an empty one: no refund to report
		}
		if latest < 0 || !refunds[i].Created.Before(refunds[latest].Created.Time) {
			latest = i
		}
	}
	switch {
	case latest < 0 && len(refunds) > 0:
		return nil, e.undecodable("refund", errors.New("no element of refunds has an id, unique_request_id or status"))
	case latest < 0:
		return nil, e.lacks("refund", e.Kind())
	}
	return &refunds[latest], nil
}

// typedContent decodes what a typed accessor returns: the object under
// content.key or, when the content has none and orderMember is not "",
// that member of content.order (the order's transaction or mandate). want
// names it in the ContentError for an event that has neither.
func typedContent[T any](e *Event, key, want, orderMember string) (*T, error) {
	obj, holds, err := e.contentObject(key, want)
	if err != nil {
		return nil, err
	}
	if obj == nil && orderMember != "" {
		obj = objectMember(e.orderObject(), orderMember)
	}
	if obj == nil {
		return nil, e.lacks(want, holds)
	}
	return decodeContent[T](e, obj, want)
}

// decodeContent unmarshals obj, the object an accessor found, into a new
// T; a failure is the ContentError matching ErrMalformedBody named after
// want.
func decodeContent[T any](e *Event, obj json.RawMessage, want string) (*T, error) {
	v := new(T)
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(obj, v); err != nil && !errors.As(err, &te) {
		return nil, e.undecodable(want, err) // a field of another type is left out, as the client does
	}
	switch r := any(v).(type) { // Raw on the top-level replies, as the client sets it
	case *checkout.OrderStatus:
		r.Raw = checkout.RawJSON(bytes.Clone(obj))
	case *checkout.Refund:
		r.Raw = checkout.RawJSON(bytes.Clone(obj))
	}
	return v, nil
}

// content returns Content when it is a JSON object (checked once when the
// event was decoded, else here), or nil.
func (e *Event) content() json.RawMessage {
	if e == nil {
		return nil
	}
	c := e.Content
	if e.decoded.holds(c) { // valid JSON, checked when decoded
		if !isObject(c) {
			return nil
		}
		return c
	}
	c = bytes.TrimSpace(c)
	if len(c) == 0 || c[0] != '{' || !json.Valid(c) {
		return nil
	}
	return c
}

// contentObject returns the object under content.key, or nil and the kind
// the content holds instead. Content that is not a JSON object, or a key
// that is there but holds no object (a number, text, null), is an error
// matching ErrMalformedBody named after want: the event is damaged, not
// about something else, so it must not be acknowledged like one.
func (e *Event) contentObject(key, want string) (obj json.RawMessage, holds string, err error) {
	c := e.content()
	if c == nil {
		if e != nil {
			if raw := bytes.TrimSpace(e.Content); len(raw) > 0 && string(raw) != "null" {
				return nil, "", e.undecodable(want, errors.New("the event's content is not a JSON object"))
			}
		}
		return nil, e.Kind(), nil
	}
	if v := member(c, key); len(v) > 0 {
		if v[0] != '{' {
			return nil, "", e.undecodable(want, fmt.Errorf("content.%s is not a JSON object", key))
		}
		return v, key, nil
	}
	return nil, e.Kind(), nil
}

// orderObject returns the object under content.order, or nil.
func (e *Event) orderObject() json.RawMessage {
	return objectMember(e.content(), "order")
}

// objectMember returns the value of obj's member name when it is a JSON
// object, else nil. obj must be valid JSON (or nil).
func objectMember(obj json.RawMessage, name string) json.RawMessage {
	if len(obj) == 0 {
		return nil
	}
	v := member(obj, name)
	if len(v) == 0 || v[0] != '{' {
		return nil
	}
	return v
}

func (e *Event) name() string {
	if e == nil {
		return ""
	}
	return e.Name
}

func (e *Event) lacks(want, holds string) error {
	return &ContentError{Event: e.name(), Want: want, Holds: holds}
}

func (e *Event) undecodable(want string, err error) error {
	return &ContentError{Event: e.name(), Want: want, Holds: e.Kind(), Err: err}
}
