package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	checkout "github.com/payorch/checkout-go"
)

// Notification is the content of the notification events
// (NOTIFICATION_SUCCEEDED, NOTIFICATION_FAILED): a message the service
// sent the customer before a mandate debit, as the payment networks
// require. Its dates are Unix seconds as text; Raw keeps everything,
// including the redacted ("FILTERED") fields.
type Notification struct {
	// ID is the service's id of the notification.
	ID string `json:"id,omitempty"`
	// Object names the kind of object ("notification").
	Object string `json:"object,omitempty"`
	// ObjectReferenceID is your reference of the notification, as your
	// request gave it.
	ObjectReferenceID string `json:"object_reference_id,omitempty"`
	// Status is the notification's status: CREATED, PENDING, SUCCESS or
	// FAILURE.
	Status string `json:"status,omitempty"`
	// SourceObject names what the notification is about ("MANDATE").
	SourceObject string `json:"source_object,omitempty"`
	// SourceObjectID is the id of that object, when the service sends it.
	SourceObjectID string `json:"source_object_id,omitempty"`
	// Mandate names the mandate the notification is about.
	Mandate NotificationMandate `json:"mandate,omitzero"`
	// ProviderName is the gateway that sent it.
	ProviderName string `json:"provider_name,omitempty"`
	// NotificationType is how it was sent ("SMS", "EMAIL").
	NotificationType string `json:"notification_type,omitempty"`
	// Description is the reason for the debit your request gave.
	Description string `json:"description,omitempty"`
	// SourceInfo is the debit announced.
	SourceInfo NotificationSource `json:"source_info,omitzero"`
	// DateCreated is when the notification was created.
	DateCreated checkout.Timestamp `json:"date_created,omitzero"`
	// LastUpdated is when it last changed.
	LastUpdated checkout.Timestamp `json:"last_updated,omitzero"`
	// Raw is the notification as the service sent it.
	Raw checkout.RawJSON `json:"-"`
}

// NotificationMandate names the mandate of a [Notification].
type NotificationMandate struct {
	// MandateID is the service's id of the mandate.
	MandateID string `json:"mandate_id,omitempty"`
}

// NotificationSource is the debit a [Notification] announces.
type NotificationSource struct {
	// Amount is the amount to be debited.
	Amount checkout.Amount `json:"amount,omitempty"`
	// TxnDate is when the debit is due.
	TxnDate checkout.Timestamp `json:"txn_date,omitzero"`
}

// UnmarshalJSON decodes a notification leniently: a field of an
// unexpected JSON type (such as "FILTERED" where an object is expected) is
// left zero, and Raw keeps it. A value that is not an object leaves n
// unchanged.
func (n *Notification) UnmarshalJSON(data []byte) error {
	if n == nil {
		return fmt.Errorf("checkout: Notification.UnmarshalJSON on nil pointer")
	}
	if k := bytes.TrimSpace(data); len(k) == 0 || k[0] != '{' {
		return nil
	}
	type plain Notification
	var p plain
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal(data, &p); err != nil && !errors.As(err, &typeErr) {
		return fmt.Errorf("checkout: read webhook content: notification: %w", err)
	}
	p.Raw = bytes.Clone(data)
	*n = Notification(p)
	return nil
}
