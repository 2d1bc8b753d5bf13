package webhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	checkout "github.com/payorch/checkout-go"
)

// Event is one webhook notification: its envelope (id, event_name,
// date_created) and its content, the object the event is about nested
// under a key naming its kind ("order", "txn", "mandate", "notification").
// Read the content typed with [Event.Order], [Event.Transaction],
// [Event.Mandate], [Event.Refund] and [Event.Notification]; Kind, OrderID
// and Status come from the same decoding. json.Marshal writes the
// service's envelope, which ParseEvent reads back. An Event may be copied,
// and its methods called from several goroutines.
type Event struct {
	// ID is "id", e.g. "evt_V2_b737…"; a number is kept as its decimal
	// text. It may be empty.
	ID string `json:"id,omitempty"`
	// Name is "event_name", e.g. "ORDER_SUCCEEDED", "TXN_FAILED".
	Name string `json:"event_name"`
	// DateCreated is "date_created", read and written as
	// [checkout.Timestamp] does; zero when absent or in another form.
	DateCreated checkout.Timestamp `json:"date_created,omitzero"`
	// Content is "content" exactly as sent; nil when absent.
	Content json.RawMessage `json:"content,omitempty"`
	// Raw is the whole event JSON; for an encrypted delivery, the
	// decrypted and verified payload, not the envelope. It prints with its
	// bearer tokens redacted, as Content does in the Event's own printing.
	Raw checkout.RawJSON `json:"-"`
	// Encrypted reports that the event arrived in a JWT envelope.
	Encrypted bool `json:"-"`

	// decoded caches what the helpers read from Content, while Content is
	// still the slice it was parsed into (see decodedContent.holds).
	decoded *decodedContent
}

// Format prints the event with every bearer token of its content
// (mandate_token, client_auth_token) redacted, under every verb; json.Marshal
// and Raw keep them, for the code that needs them.
func (e Event) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "{ID:%s Name:%s DateCreated:%v Content:%v Encrypted:%t}",
		e.ID, e.Name, e.DateCreated.Time, checkout.RawJSON(e.Content), e.Encrypted)
}

// LogValue is the event for slog, its content's tokens redacted.
func (e Event) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", e.ID), slog.String("event_name", e.Name),
		slog.Time("date_created", e.DateCreated.Time), slog.String("content", fmt.Sprint(checkout.RawJSON(e.Content))))
}

// Event names the service documents. Event.Name holds whatever the service
// sent: an event without a constant is handled like any other.
const (
	OrderSucceeded           = "ORDER_SUCCEEDED"             // paid: check Order().CheckPaid before fulfilling
	OrderFailed              = "ORDER_FAILED"                // the payment failed; Order says how
	OrderPartialCharged      = "ORDER_PARTIAL_CHARGED"       // paid in part (PARTIAL_CHARGED): do not fulfil
	OrderRefunded            = "ORDER_REFUNDED"              // a refund succeeded; see Refund
	OrderRefundFailed        = "ORDER_REFUND_FAILED"         // a refund failed
	RefundManualReviewNeeded = "REFUND_MANUAL_REVIEW_NEEDED" // a refund's outcome is unclear: reconcile it yourself
	RefundInitiated          = "REFUND_INITIATED"            // a refund was started and is pending
	AutoRefundInitiated      = "AUTO_REFUND_INITIATED"       // the service started refunding a payment on its own
	AutoRefundSucceeded      = "AUTO_REFUND_SUCCEEDED"       // such a refund succeeded
	AutoRefundFailed         = "AUTO_REFUND_FAILED"          // such a refund failed
	TxnCreated               = "TXN_CREATED"                 // a payment attempt was created (carries the order)
	TxnCharged               = "TXN_CHARGED"                 // a payment attempt was charged
	TxnFailed                = "TXN_FAILED"                  // a payment attempt failed (carries the transaction only)
	MandateCreated           = "MANDATE_CREATED"             // a mandate was created; see Mandate
	MandateActivated         = "MANDATE_ACTIVATED"           // a mandate can be debited
	MandateFailed            = "MANDATE_FAILED"              // a mandate's registration failed
	MandatePaused            = "MANDATE_PAUSED"              // a mandate was paused
	MandateRevoked           = "MANDATE_REVOKED"             // a mandate was cancelled and can no longer be debited
	MandateExpired           = "MANDATE_EXPIRED"             // a mandate reached its end date
	NotificationSucceeded    = "NOTIFICATION_SUCCEEDED"      // a pre-debit notice reached the customer; see Notification
	NotificationFailed       = "NOTIFICATION_FAILED"         // such a notice could not be delivered
)

// wireBody is every top-level key a webhook body may have: the plain event,
// the {"JWT": "..."} envelope, and the JSON-serialised JWE the service uses
// on its encrypted API responses.
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

// ParseEvent decodes a plain (not encrypted) webhook body: any JSON object
// with a non-empty event_name. An encrypted envelope is ErrEncrypted (use
// Verifier.Verify); anything else wrong is ErrMalformedBody. body is kept
// as Event.Raw: do not modify it afterwards.
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
	ev := &Event{ID: scalarText(w.ID), Name: scalarText(w.EventName), Raw: body}
	if ev.Name == "" {
		return nil, wrap(ErrMalformedBody, "no event_name")
	}
	_ = ev.DateCreated.UnmarshalJSON(w.DateCreated) // what is not a time is the zero time
	if c := bytes.TrimSpace(w.Content); len(c) > 0 && string(c) != "null" {
		ev.Content = c
		ev.decoded = &decodedContent{content: c}
	}
	return ev, nil
}

// scalarText reads a JSON string or number as text; anything else is "".
// raw has already been validated by json.Unmarshal.
func scalarText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return s
	case c == '-' || (c >= '0' && c <= '9'):
		return string(raw)
	}
	return ""
}

// DedupKey is the key the webhook handler claims the event by in its
// claim store (Config.Claims), and marks it done under:
// "id:<name>:<id>", or a SHA-256 of name and id ("idsha256:…") when they
// are long, hold ':' or unprintable bytes, or "sha256:" and the SHA-256 of
// Raw when there is no id. Keys are printable ASCII of at most 128 bytes;
// the name is part of the key because the service's samples reuse an id
// across events. A nil Event has the key "".
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

// maxPlainKeyText bounds the name and id DedupKey writes out as they are.
const maxPlainKeyText = 124

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
