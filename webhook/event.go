package webhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Event is one webhook notification. The service documents the
// envelope (id, event_name, date_created, content) but not the payload of
// each event: the object under content varies ("order", "txn", "mandate",
// "notification", ...) and unknown event names are normal. Content is kept
// as the service sent it; the helpers read the common fields from whichever
// object it holds.
//
// ParseEvent and Verifier find that object, its order_id and its status once,
// when they decode the event, so Kind, OrderID and Status cost nothing
// more per call and Field reads only that object. An Event built by hand,
// or one whose Content is replaced, is read from Content on each call. An
// Event may be copied, and its helpers called from several goroutines.
type Event struct {
	// ID is "id", e.g. "evt_V2_b737837102414514ae0e9717a9f2664d". A number
	// is kept as its decimal text. It may be empty.
	ID string

	// Name is "event_name", e.g. "ORDER_SUCCEEDED", "TXN_FAILED".
	Name string

	// DateCreated is "date_created" (RFC 3339, or Unix seconds as a number
	// or a string). It is the zero time when absent or in another form; the
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

	// sub is what Kind, Field, OrderID, Status and DecodeContent read,
	// found in Content once when the event is decoded. It is never written
	// afterwards, so copies and concurrent calls share it safely; it is
	// used only while Content is still the slice it was read from (see
	// subject.from), so an Event built by hand, or one whose Content was
	// replaced, is read from its Content on each call.
	sub subject
}

// Event names seen in the service's published samples. The list is not
// complete (the service does not publish one); Event.Name holds whatever
// the service sent.
const (
	// OrderSucceeded is the "event_name" ORDER_SUCCEEDED: an order was paid;
	// content holds "order" (sample webhook_order_succeeded.json).
	OrderSucceeded = "ORDER_SUCCEEDED"

	// OrderFailed is the "event_name" ORDER_FAILED: an order's payment failed;
	// content holds "order" (webhook_order_failed.json).
	OrderFailed = "ORDER_FAILED"

	// OrderRefunded is the "event_name" ORDER_REFUNDED: a refund of an order
	// succeeded (webhook_order_refunded.json).
	OrderRefunded = "ORDER_REFUNDED"

	// OrderRefundFailed is the "event_name" ORDER_REFUND_FAILED: a refund of
	// an order failed (webhook_order_refund_failed.json).
	OrderRefundFailed = "ORDER_REFUND_FAILED"

	// RefundInitiated is the "event_name" REFUND_INITIATED: a refund was
	// started (webhook_refund_initiate.json).
	RefundInitiated = "REFUND_INITIATED"

	// AutoRefundInitiated is the "event_name" AUTO_REFUND_INITIATED: the
	// service started refunding a payment on its own
	// (webhook_auto_refunded_ec_headless.json).
	AutoRefundInitiated = "AUTO_REFUND_INITIATED"

	// AutoRefundSucceeded is the "event_name" AUTO_REFUND_SUCCEEDED: such an
	// automatic refund succeeded (webhook_auto_refund_succeeded.json).
	AutoRefundSucceeded = "AUTO_REFUND_SUCCEEDED"

	// AutoRefundFailed is the "event_name" AUTO_REFUND_FAILED: such an
	// automatic refund failed (webhook_auto_refund_failed.json).
	AutoRefundFailed = "AUTO_REFUND_FAILED"

	// TxnCreated is the "event_name" TXN_CREATED: a transaction was created;
	// the published sample's content holds "order" (webhook_txn_created.json).
	TxnCreated = "TXN_CREATED"

	// TxnFailed is the "event_name" TXN_FAILED: a transaction failed; content
	// holds "txn" (webhook_txn_failed.json).
	TxnFailed = "TXN_FAILED"

	// MandateCreated is the "event_name" MANDATE_CREATED: a mandate was
	// created; content holds "mandate" (webhook_mandate_created.json).
	MandateCreated = "MANDATE_CREATED"

	// MandateActivated is the "event_name" MANDATE_ACTIVATED: a mandate became
	// active (webhook_mandate_activated.json).
	MandateActivated = "MANDATE_ACTIVATED"

	// MandateFailed is the "event_name" MANDATE_FAILED: a mandate failed
	// (webhook_mandate_failed.json).
	MandateFailed = "MANDATE_FAILED"

	// MandatePaused is the "event_name" MANDATE_PAUSED: a mandate was paused
	// (webhook_mandate_paused.json).
	MandatePaused = "MANDATE_PAUSED"

	// MandateExpired is the "event_name" MANDATE_EXPIRED: a mandate expired
	// (webhook_mandate_expired.json).
	MandateExpired = "MANDATE_EXPIRED"

	// NotificationSucceeded is the "event_name" NOTIFICATION_SUCCEEDED: a
	// notification about a mandate (source_object MANDATE) was delivered;
	// content holds "notification" (webhook_notification_succeeded.json).
	NotificationSucceeded = "NOTIFICATION_SUCCEEDED"

	// NotificationFailed is the "event_name" NOTIFICATION_FAILED: such a
	// notification failed (webhook_notification_failed.json).
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
		ev.sub = readSubject(c, true)
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

// parseTime reads RFC 3339 text, or Unix seconds as a number or digits.
func parseTime(raw json.RawMessage) time.Time {
	s := strings.TrimSpace(scalarText(raw))
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return time.Unix(n, 0).UTC()
	}
	return time.Time{}
}

// Kind returns the key of the object under content that the event is
// about: "order", "txn", "mandate", "notification", or any other key whose
// value is an object. It is "" when content holds no object, and for a
// nil Event.
func (e *Event) Kind() string {
	if e == nil {
		return ""
	}
	if e.sub.from(e.Content) {
		return e.sub.kind
	}
	return readSubject(e.Content, false).kind
}

// Field returns a top-level field of the content's object (see Kind) as
// text: strings as they are, numbers as their decimal text, "" for null,
// absent, objects, arrays and booleans, and for a nil Event.
func (e *Event) Field(name string) string {
	if e == nil {
		return ""
	}
	obj := e.sub.obj
	if !e.sub.from(e.Content) {
		obj = readSubject(e.Content, false).obj
	}
	return scalarText(member(obj, name))
}

// OrderID returns the merchant's order id ("order_id") of the order,
// transaction or mandate the event is about, or "" when it names none (a
// notification event, for example).
func (e *Event) OrderID() string {
	if e == nil {
		return ""
	}
	if e.sub.from(e.Content) {
		return e.sub.orderID
	}
	return readSubject(e.Content, false).orderID
}

// Status returns the "status" of the object the event is about, e.g.
// "CHARGED" for an order, "AUTHORIZATION_FAILED" for a transaction, "ACTIVE"
// for a mandate. The service does not list the statuses.
func (e *Event) Status() string {
	if e == nil {
		return ""
	}
	if e.sub.from(e.Content) {
		return e.sub.status
	}
	return readSubject(e.Content, false).status
}

// DecodeContent unmarshals the object the event is about (see Kind) into v,
// for example a struct with the fields the merchant needs. Declare fields
// that may arrive as "FILTERED" or as numbers-in-strings as json.RawMessage
// or string. It returns ErrMalformedBody when content holds no object
// (and for a nil Event).
func (e *Event) DecodeContent(v any) error {
	if e == nil {
		return wrap(ErrMalformedBody, "content holds no object")
	}
	sub := e.sub
	if !sub.from(e.Content) {
		sub = readSubject(e.Content, false)
	}
	if sub.kind == "" {
		return wrap(ErrMalformedBody, "content holds no object")
	}
	if err := json.Unmarshal(sub.obj, v); err != nil {
		return wrap(ErrMalformedBody, "content."+sub.kind+": "+err.Error())
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
