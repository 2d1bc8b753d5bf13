package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	checkout "github.com/payorch/checkout-go"
)

// ErrNoContent is matched by the error of the typed accessors
// ([Event.Order], [Event.Transaction], …) when the event does not carry
// what was asked for, such as the order of a MANDATE_CREATED event. It is
// not a fault of the delivery: acknowledge it like any event you do not
// act on.
const ErrNoContent = sentinel("checkout: read webhook content: event carries no such content")

// ContentError is the error of the typed accessors. It names the event and
// what it lacks; errors.Is(err, ErrNoContent) holds when the content is
// absent, errors.Is(err, ErrMalformedBody) when it is there but does not
// decode (Err says why).
type ContentError struct {
	Event string // the event's name
	Want  string // "order", "transaction", "mandate", "refund" or "notification"
	Holds string // the kind the content holds instead (see [Event.Kind]), or ""
	Err   error  // why the content did not decode; nil when it is absent
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
// [checkout.OrderStatus] that [checkout.Client.GetOrder] returns. The
// order, refund and TXN_CREATED events carry one; check it with CheckPaid
// before fulfilling.
func (e *Event) Order() (*checkout.OrderStatus, error) {
	return typedContent[checkout.OrderStatus](e, e.view().Order, "order", "order", nil)
}

// Transaction returns the payment attempt the event is about: content.txn
// (TXN_FAILED), else the carried order's latest transaction (txn_detail),
// without the order's own fields. An order paid by several transactions
// lists them all in the TxnList of [Event.Order].
func (e *Event) Transaction() (*checkout.Transaction, error) {
	return typedContent[checkout.Transaction](e, e.view().Txn, "txn", "transaction", func(o orderMembers) json.RawMessage { return o.TxnDetail })
}

// Mandate returns the mandate the event is about: content.mandate (the
// mandate events), else the mandate of the carried order. A notification
// names its mandate only by id (see [Event.Notification]).
func (e *Event) Mandate() (*checkout.MandateDetail, error) {
	return typedContent[checkout.MandateDetail](e, e.view().Mandate, "mandate", "mandate", func(o orderMembers) json.RawMessage { return o.Mandate })
}

// Notification returns the notification a NOTIFICATION_SUCCEEDED or
// NOTIFICATION_FAILED event is about (content.notification).
func (e *Event) Notification() (*checkout.Notification, error) {
	return typedContent[checkout.Notification](e, e.view().Notification, "notification", "notification", nil)
}

// Refund returns the refund the event is about: content.refund, else, as
// the refund events carry the whole order, the order's refund created last
// (by created time; among equal times, the last listed), wherever the order
// lists it (its refunds or a transaction's in txn_list). To act on each
// refund, range over [checkout.OrderStatus.AllRefunds] of [Event.Order].
func (e *Event) Refund() (*checkout.Refund, error) {
	v := e.view()
	if v.Refund != nil || v.damaged {
		return typedContent[checkout.Refund](e, v.Refund, "refund", "refund", nil)
	}
	var refunds []checkout.Refund
	if order, err := e.Order(); err == nil {
		refunds = order.AllRefunds() // top-level refunds and those inside txn_list
	}
	if len(refunds) == 0 {
		return nil, e.lacks("refund")
	}
	latest := -1
	for i := range refunds {
		if refunds[i].ID == "" && refunds[i].UniqueRequestID == "" && refunds[i].Status == "" {
			continue // a redacted ("FILTERED") or empty element
		}
		if latest < 0 || !refunds[i].Created.Before(refunds[latest].Created.Time) {
			latest = i
		}
	}
	switch {
	case latest < 0 && len(refunds) > 0:
		return nil, e.undecodable("refund", errors.New("no element of refunds has an id, unique_request_id or status"))
	case latest < 0:
		return nil, e.lacks("refund")
	}
	return &refunds[latest], nil
}

// typedContent decodes obj (content.key) into a new T or, when it is
// absent and fromOrder is set, that member of content.order.
func typedContent[T any](e *Event, obj json.RawMessage, key, want string, fromOrder func(orderMembers) json.RawMessage) (*T, error) {
	switch {
	case e.view().damaged:
		return nil, e.undecodable(want, errors.New("the event's content is not a JSON object"))
	case obj != nil && !isObject(obj):
		return nil, e.undecodable(want, fmt.Errorf("content.%s is not a JSON object", key))
	case obj == nil && fromOrder != nil:
		if m := fromOrder(e.orderMembers()); isObject(m) {
			obj = m
		}
	}
	if obj == nil {
		return nil, e.lacks(want)
	}
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

// contentKinds is content as the accessors read it: encoding/json matches
// keys without regard to case, and a repeated key counts with its last
// value.
type contentKinds struct {
	Order        json.RawMessage `json:"order"`
	Txn          json.RawMessage `json:"txn"`
	Mandate      json.RawMessage `json:"mandate"`
	Refund       json.RawMessage `json:"refund"`
	Notification json.RawMessage `json:"notification"`
}

// orderMembers are the members of content.order the accessors read.
type orderMembers struct {
	TxnDetail json.RawMessage `json:"txn_detail"`
	Mandate   json.RawMessage `json:"mandate"`
	Refunds   json.RawMessage `json:"refunds"`
}

func (e *Event) orderMembers() orderMembers {
	var m orderMembers
	if o := e.view().Order; isObject(o) {
		_ = json.Unmarshal(o, &m) // valid JSON: only type errors, which leave a member nil
	}
	return m
}

// contentView is what the accessors and helpers read from Content: its
// typed members, the kind and object it is about, and whether Content is
// there but no JSON object (damaged).
type contentView struct {
	contentKinds
	kind    string
	obj     json.RawMessage
	damaged bool
}

// readView reads content (valid JSON or not) into a contentView.
func readView(content json.RawMessage) contentView {
	var v contentView
	c := bytes.TrimSpace(content)
	if len(c) == 0 || string(c) == "null" {
		return v
	}
	if c[0] != '{' || json.Unmarshal(c, &v.contentKinds) != nil {
		return contentView{damaged: true}
	}
	for _, k := range [...]struct {
		name string
		obj  json.RawMessage
	}{{"order", v.Order}, {"txn", v.Txn}, {"mandate", v.Mandate}, {"refund", v.Refund}, {"notification", v.Notification}} {
		if isObject(k.obj) {
			v.kind, v.obj = k.name, k.obj
			return v
		}
	}
	// Another kind: the first key, in document order, holding an object.
	for _, m := range objectMembers(c) {
		if isObject(m.value) && !isKnownKind(m.key) {
			v.kind, v.obj = m.key, m.value
			break
		}
	}
	return v
}

func isKnownKind(key string) bool {
	for _, k := range [...]string{"order", "txn", "mandate", "refund", "notification"} {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

// decodedContent is the Content an event was parsed with and, read on the
// first call that needs them, its view and the OrderID and Status the typed
// accessors give. Copies of the Event share it.
type decodedContent struct {
	content          json.RawMessage
	viewOnce, idOnce sync.Once
	view             contentView
	orderID, status  string
}

// holds reports that d is what the event was parsed with and content is
// still that slice: a Content replaced afterwards is read afresh.
func (d *decodedContent) holds(content json.RawMessage) bool {
	return d != nil && len(d.content) > 0 && len(d.content) == len(content) && &d.content[0] == &content[0]
}

func (e *Event) view() contentView {
	switch {
	case e == nil:
		return contentView{}
	case e.decoded.holds(e.Content):
		d := e.decoded
		d.viewOnce.Do(func() { d.view = readView(d.content) })
		return d.view
	}
	return readView(e.Content)
}

// Kind returns the key of the object the content is about: "order", "txn",
// "mandate", "refund", "notification" (matched as the typed accessors
// match them), else the first other key holding an object; "" when none.
func (e *Event) Kind() string { return e.view().kind }

// OrderID returns the order_id of the object the event is about, as its
// typed accessor reads it (Order().OrderID for an order event), or "".
func (e *Event) OrderID() string { id, _ := e.idStatus(); return id }

// Status returns the status of the object the event is about, as its typed
// accessor reads it (e.g. "CHARGED" for an order), or "".
func (e *Event) Status() string { _, st := e.idStatus(); return st }

func (e *Event) idStatus() (string, string) {
	if e != nil && e.decoded.holds(e.Content) {
		d := e.decoded
		d.idOnce.Do(func() { d.orderID, d.status = e.readIDStatus() })
		return d.orderID, d.status
	}
	return e.readIDStatus()
}

func (e *Event) readIDStatus() (string, string) {
	switch e.Kind() {
	case "order":
		if o, err := e.Order(); err == nil {
			return o.OrderID, string(o.Status)
		}
	case "txn":
		if t, err := e.Transaction(); err == nil {
			return t.OrderID, string(t.Status)
		}
	case "mandate":
		if m, err := e.Mandate(); err == nil {
			return m.OrderID, m.Status
		}
	case "refund":
		if r, err := e.Refund(); err == nil {
			return r.OrderID, string(r.Status)
		}
	case "notification":
		if n, err := e.Notification(); err == nil {
			return "", n.Status
		}
	case "":
	default:
		var f struct {
			OrderID json.RawMessage `json:"order_id"`
			Status  json.RawMessage `json:"status"`
		}
		_ = json.Unmarshal(e.view().obj, &f)
		return scalarText(f.OrderID), scalarText(f.Status)
	}
	return "", ""
}

// Field returns a top-level field of the object the event is about as
// text (strings as they are, numbers as decimal text), matching name as
// encoding/json matches keys; "" for anything else.
func (e *Event) Field(name string) string {
	var v json.RawMessage
	for _, m := range objectMembers(e.view().obj) {
		if strings.EqualFold(m.key, name) {
			v = m.value
		}
	}
	return scalarText(v)
}

// DecodeContent unmarshals the object the event is about (see Kind) into
// v, for content the typed accessors do not cover. Its error matches
// ErrMalformedBody when there is no object or it does not decode into v.
func (e *Event) DecodeContent(v any) error {
	cv := e.view()
	if cv.kind == "" {
		return contentUnreadable("content holds no object")
	}
	if err := json.Unmarshal(cv.obj, v); err != nil {
		return contentUnreadable("content." + cv.kind + ": " + err.Error())
	}
	return nil
}

// jsonMember is one member of a JSON object.
type jsonMember struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the members of the JSON object obj in document
// order, or nil when obj is not one valid JSON object.
func objectMembers(obj []byte) []jsonMember {
	if !isObject(obj) || !json.Valid(obj) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	_, _ = dec.Token() // '{'
	var out []jsonMember
	for dec.More() {
		t, _ := dec.Token()
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil
		}
		out = append(out, jsonMember{key: t.(string), value: v})
	}
	return out
}

// isObject reports whether v is a JSON object.
func isObject(v json.RawMessage) bool { return len(v) > 0 && v[0] == '{' }

func (e *Event) name() string {
	if e == nil {
		return ""
	}
	return e.Name
}

func (e *Event) lacks(want string) error {
	return &ContentError{Event: e.name(), Want: want, Holds: e.Kind()}
}

func (e *Event) undecodable(want string, err error) error {
	return &ContentError{Event: e.name(), Want: want, Holds: e.Kind(), Err: err}
}
