package webhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
)

// Event is one webhook notification: its envelope (id, event_name,
// date_created) and its content, the object the event is about, nested
// under a key that names its kind ("order", "txn", "mandate",
// "notification"). Unknown event names are normal.
//
// The content is typed on demand: [Event.Order] gives the order as the
// same [checkout.OrderStatus] that [checkout.Client.GetOrder] returns,
// [Event.Transaction] the payment attempt, [Event.Mandate] the mandate and
// [Event.Refund] the refund, each with an error naming what is missing
// when the event carries no such thing. Content stays as the service sent
// it, and the light helpers Kind, OrderID, Status and Field read single
// values without decoding the rest.
//
// For an event from ParseEvent or Verifier, that object, its order_id and
// its status are found once, on the first call of Kind, OrderID, Status,
// Field or DecodeContent, so a handler that never calls them pays nothing
// for them and further calls cost nothing more. An Event built by hand, or
// one whose Content is replaced, is read from Content on each call. An Event may be copied, and its methods called from several
// goroutines.
type Event struct {
	// ID is "id", e.g. "evt_V2_b737837102414514ae0e9717a9f2664d". A number
	// is kept as its decimal text. It may be empty.
	ID string

	// Name is "event_name", e.g. "ORDER_SUCCEEDED", "TXN_FAILED".
	Name string

	// DateCreated is "date_created", read as [checkout.Timestamp] reads a
	// time (RFC 3339, the +0000 offset, Unix seconds as a number or a
	// string). It is the zero time when absent or in another form; the
	// original text stays in Raw.
	DateCreated time.Time

	// Content is "content", exactly as sent (usually an object with one key
	// naming the kind of object). Nil when absent.
	Content json.RawMessage

	// Raw is the whole event JSON. For an encrypted delivery it is the
	// decrypted (and verified) payload, not the envelope.
	Raw []byte

	// Encrypted reports that the event arrived in a JWT envelope
	// and was decrypted.
	Encrypted bool

	// decoded is the Content the event was decoded with and what Kind,
	// Field, OrderID, Status and DecodeContent read from it, found on
	// their first call. It is used only while Content is still the slice
	// it was decoded with (see decodedContent.holds), so an Event built by
	// hand, or one whose Content was replaced, is read from its Content on
	// each call.
	decoded *decodedContent
}

// Event names the service documents, one constant for each. The service
// adds events: Event.Name holds whatever the service sent, and an event
// without a constant is handled like any other (the content accessors read
// its shape, not its name).
const (
	// OrderSucceeded is ORDER_SUCCEEDED: an order was paid. Read the order
	// with [Event.Order] and check it with [checkout.OrderStatus.CheckPaid]
	// before fulfilling.
	OrderSucceeded = "ORDER_SUCCEEDED"

	// OrderFailed is ORDER_FAILED: an order's payment failed; [Event.Order]
	// says how (its status and the gateway's response).
	OrderFailed = "ORDER_FAILED"

	// OrderPartialCharged is ORDER_PARTIAL_CHARGED: an order was paid in
	// part (status PARTIAL_CHARGED): one transaction is CHARGED and another,
	// by another instrument, is TO_BE_CHARGED. It is not paid yet: do not
	// fulfil it. [Event.Order] gives the order, and its TxnList every
	// transaction; [Event.Transaction] gives the order's txn_detail, the
	// transaction the service names latest.
	OrderPartialCharged = "ORDER_PARTIAL_CHARGED"

	// OrderRefunded is ORDER_REFUNDED: a refund of an order succeeded. The
	// event carries the order with its refunds: see [Event.Refund].
	OrderRefunded = "ORDER_REFUNDED"

	// OrderRefundFailed is ORDER_REFUND_FAILED: a refund of an order failed
	// ([Event.Refund], [Event.Order]).
	OrderRefundFailed = "ORDER_REFUND_FAILED"

	// RefundManualReviewNeeded is REFUND_MANUAL_REVIEW_NEEDED: the outcome
	// of a refund is unclear at the gateway (its status is MANUAL_REVIEW):
	// reconcile it with the gateway yourself. The event carries the order
	// with its refunds ([Event.Refund], [Event.Order]).
	RefundManualReviewNeeded = "REFUND_MANUAL_REVIEW_NEEDED"

	// RefundInitiated is REFUND_INITIATED: a refund was started and is
	// pending ([Event.Refund], [Event.Order]).
	RefundInitiated = "REFUND_INITIATED"

	// AutoRefundInitiated is AUTO_REFUND_INITIATED: the service started
	// refunding a payment on its own, for example one that succeeded after
	// the order had been paid ([Event.Refund], [Event.Order]).
	AutoRefundInitiated = "AUTO_REFUND_INITIATED"

	// AutoRefundSucceeded is AUTO_REFUND_SUCCEEDED: such an automatic
	// refund succeeded ([Event.Refund], [Event.Order]).
	AutoRefundSucceeded = "AUTO_REFUND_SUCCEEDED"

	// AutoRefundFailed is AUTO_REFUND_FAILED: such an automatic refund
	// failed ([Event.Refund], [Event.Order]).
	AutoRefundFailed = "AUTO_REFUND_FAILED"

	// TxnCreated is TXN_CREATED: a payment attempt was created. As
	// published it carries the order, whose latest transaction
	// [Event.Transaction] returns.
	TxnCreated = "TXN_CREATED"

	// TxnCharged is TXN_CHARGED: a payment attempt was charged. It carries
	// the transaction ([Event.Transaction]) or the order with it as its
	// latest transaction ([Event.Order]); an order paid by several
	// transactions may see one TXN_CHARGED per transaction before its
	// ORDER_SUCCEEDED.
	TxnCharged = "TXN_CHARGED"

	// TxnFailed is TXN_FAILED: a payment attempt failed. It carries the
	// transaction only ([Event.Transaction]), not the order.
	TxnFailed = "TXN_FAILED"

	// MandateCreated is MANDATE_CREATED: a mandate was created
	// ([Event.Mandate]).
	MandateCreated = "MANDATE_CREATED"

	// MandateActivated is MANDATE_ACTIVATED: a mandate became active and
	// can be debited ([Event.Mandate]).
	MandateActivated = "MANDATE_ACTIVATED"

	// MandateFailed is MANDATE_FAILED: a mandate's registration failed
	// ([Event.Mandate]).
	MandateFailed = "MANDATE_FAILED"

	// MandatePaused is MANDATE_PAUSED: a mandate was paused
	// ([Event.Mandate]).
	MandatePaused = "MANDATE_PAUSED"

	// MandateRevoked is MANDATE_REVOKED: a mandate was cancelled, by the
	// customer or at the bank, and can no longer be debited
	// ([Event.Mandate]).
	MandateRevoked = "MANDATE_REVOKED"

	// MandateExpired is MANDATE_EXPIRED: a mandate reached its end date
	// ([Event.Mandate]).
	MandateExpired = "MANDATE_EXPIRED"

	// NotificationSucceeded is NOTIFICATION_SUCCEEDED: a notification to the
	// customer about a mandate debit (a pre-debit SMS, for example) was
	// delivered. Its content is "notification": read it with
	// [Event.Notification].
	NotificationSucceeded = "NOTIFICATION_SUCCEEDED"

	// NotificationFailed is NOTIFICATION_FAILED: such a notification could
	// not be delivered ([Event.Notification]).
	NotificationFailed = "NOTIFICATION_FAILED"
)

// wireBody is every top-level key a webhook body may have: the plain event
// envelope, the {"JWT": "..."} envelope, and the JSON-serialised JWE
// (header, encryptedKey, iv, encryptedPayload, tag) the service uses on its
// encrypted API responses.
type wireBody struct {
	ID          json.RawMessage `json:"id"`
	EventName   json.RawMessage `json:"event_name"`
	DateCreated json.RawMessage `json:"date_created"`
	Content     json.RawMessage `json:"content"`

	JWT json.RawMessage `json:"JWT"`

	Header           json.RawMessage `json:"header"`
	EncryptedKey     json.RawMessage `json:"encryptedKey"`
	IV               json.RawMessage `json:"iv"`
	EncryptedPayload json.RawMessage `json:"encryptedPayload"`
	Tag              json.RawMessage `json:"tag"`
}

func (w *wireBody) isEvent() bool {
	return w.ID != nil || w.EventName != nil || w.DateCreated != nil || w.Content != nil
}

// ParseEvent decodes a plain (not encrypted) webhook body. It accepts any
// JSON object with a non-empty event_name, tolerates unknown keys, numbers
// given as strings and redacted values ("FILTERED") anywhere, and keeps
// content and the whole body raw. An encrypted envelope is ErrEncrypted:
// use Verifier.Verify, which decrypts it. Every other failure is
// ErrMalformedBody. body is kept as Event.Raw; do not modify it afterwards.
func ParseEvent(body []byte) (*Event, error) {
	var w wireBody
	if err := decodeObject(body, &w); err != nil {
		return nil, err
	}
	if w.JWT != nil || (w.EncryptedPayload != nil && !w.isEvent()) {
		return nil, ErrEncrypted
	}
	return eventFrom(&w, body)
}

func decodeObject(body []byte, w *wireBody) error {
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return wrap(ErrMalformedBody, "not a JSON object")
	}
	if err := json.Unmarshal(body, w); err != nil {
		return wrap(ErrMalformedBody, "not valid JSON")
	}
	return nil
}

func eventFrom(w *wireBody, body []byte) (*Event, error) {
	ev := &Event{
		ID:          scalarText(w.ID),
		Name:        scalarText(w.EventName),
		DateCreated: parseTime(w.DateCreated),
		Raw:         body,
	}
	if ev.Name == "" {
		return nil, wrap(ErrMalformedBody, "no event_name")
	}
	if c := bytes.TrimSpace(w.Content); len(c) > 0 && string(c) != "null" {
		ev.Content = c
		// body was checked to be valid JSON by json.Unmarshal.
		ev.decoded = &decodedContent{content: c}
	}
	return ev, nil
}

// scalarText reads a JSON string or number as text; null, objects, arrays
// and booleans read as "". raw has already been validated by json.Unmarshal.
func scalarText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch c := raw[0]; {
	case c == '"':
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 {
			return string(inner)
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return s
	case c == '-' || (c >= '0' && c <= '9'):
		return string(raw)
	default:
		return ""
	}
}

// parseTime reads a time in any form a reply's [checkout.Timestamp] reads
// (RFC 3339, the +0000 offset, Unix seconds as a number or text); anything
// else is the zero time.
func parseTime(raw json.RawMessage) time.Time {
	var ts checkout.Timestamp
	if ts.UnmarshalJSON(raw) != nil {
		return time.Time{}
	}
	return ts.Time
}

// Kind returns the key of the object under content that the event is
// about: "order", "txn", "mandate", "notification", or any other key whose
// value is an object. It is "" when content holds no object, and for a
// nil Event.
func (e *Event) Kind() string {
	return e.currentSubject().kind
}

// Field returns a top-level field of the content's object (see Kind) as
// text: strings as they are, numbers as their decimal text, "" for null,
// absent, objects, arrays and booleans, and for a nil Event.
func (e *Event) Field(name string) string {
	return scalarText(member(e.currentSubject().obj, name))
}

// OrderID returns the merchant's order id ("order_id") of the order,
// transaction or mandate the event is about, or "" when it names none (a
// notification event, for example).
func (e *Event) OrderID() string {
	return e.currentSubject().orderID
}

// Status returns the "status" of the object the event is about, e.g.
// "CHARGED" for an order, "AUTHORIZATION_FAILED" for a transaction, "ACTIVE"
// for a mandate. The service does not list the statuses.
func (e *Event) Status() string {
	return e.currentSubject().status
}

// currentSubject returns what Kind, Field, OrderID, Status and
// DecodeContent read: the subject found when the event was decoded while
// Content is still the slice it was found in, else the one Content holds
// now. A nil Event holds the zero subject: no kind, no object.
func (e *Event) currentSubject() subject {
	if e == nil {
		return subject{}
	}
	if e.decoded.holds(e.Content) {
		return e.decoded.subject()
	}
	return readSubject(e.Content)
}

// DecodeContent unmarshals the object the event is about (see Kind) into v,
// for content the typed accessors ([Event.Order], [Event.Transaction],
// [Event.Mandate], [Event.Refund]) do not cover, such as a notification.
// Declare fields that may arrive as "FILTERED" or as numbers-in-strings as
// json.RawMessage or string. Its error matches ErrMalformedBody when
// content holds no object or does not decode into v (and for a nil Event).
func (e *Event) DecodeContent(v any) error {
	sub := e.currentSubject()
	if sub.kind == "" {
		return contentUnreadable("content holds no object")
	}
	if err := json.Unmarshal(sub.obj, v); err != nil {
		return contentUnreadable("content." + sub.kind + ": " + err.Error())
	}
	return nil
}

// DedupKey is the key under which the event is remembered by the
// Deduplicator: "id:" + name + ":" + id when the event has an id, else
// "sha256:" and the hex SHA-256 of Raw. The name is part of the key because
// the service's published samples reuse one id across different events; a
// re-send of one notification carries the same name and id. Keys are
// printable ASCII of at most 128 bytes, safe for any store and bounding
// what a MemoryDeduplicator holds per event: a name or id outside that
// alphabet, a name holding ':', or a name and id longer than 124 bytes
// together are hashed, so that two events can never share a key. A nil
// Event has no key: "".
func (e *Event) DedupKey() string {
	if e == nil {
		return ""
	}
	if e.ID != "" {
		if len(e.Name)+len(e.ID) <= maxPlainKeyText && printable(e.Name) && printable(e.ID) && !strings.Contains(e.Name, ":") {
			return "id:" + e.Name + ":" + e.ID
		}
		sum := sha256.Sum256([]byte(e.Name + "\x00" + e.ID))
		return "idsha256:" + hex.EncodeToString(sum[:])
	}
	sum := sha256.Sum256(e.Raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// maxPlainKeyText bounds the name and id that DedupKey writes out as they
// are; longer ones are hashed (the hashed key is 73 bytes).
const maxPlainKeyText = 124

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// MarshalJSON encodes the event as the service's envelope:
// "id" (omitted when empty), "event_name", "date_created" (RFC 3339, UTC;
// omitted when zero) and "content" as held. It is built from the fields,
// so a changed field is reflected; Raw and Encrypted are not encoded.
// ParseEvent reads the result back. json.Marshal encodes a nil *Event as
// null without calling it.
func (e Event) MarshalJSON() ([]byte, error) {
	var w struct {
		ID          string          `json:"id,omitempty"`
		Name        string          `json:"event_name"`
		DateCreated string          `json:"date_created,omitempty"`
		Content     json.RawMessage `json:"content,omitempty"`
	}
	w.ID, w.Name, w.Content = e.ID, e.Name, e.Content
	if !e.DateCreated.IsZero() {
		w.DateCreated = e.DateCreated.UTC().Format(time.RFC3339Nano)
	}
	return json.Marshal(w)
}
