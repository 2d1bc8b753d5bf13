package webhook

import checkout "github.com/payorch/checkout-go"

// Notification is the content of the notification events
// (NOTIFICATION_SUCCEEDED, NOTIFICATION_FAILED): a message the service sent
// the customer before a mandate debit, as the payment networks require.
// The event's Raw keeps every field, the redacted ("FILTERED") ones
// included.
type Notification struct {
	ID                string              `json:"id,omitempty"`                  // the service's id of the notification
	Object            string              `json:"object,omitempty"`              // "notification"
	ObjectReferenceID string              `json:"object_reference_id,omitempty"` // your reference, as your request gave it
	Status            string              `json:"status,omitempty"`              // CREATED, PENDING, SUCCESS or FAILURE
	SourceObject      string              `json:"source_object,omitempty"`       // what it is about ("MANDATE")
	SourceObjectID    string              `json:"source_object_id,omitempty"`    // the id of that object, when sent
	Mandate           NotificationMandate `json:"mandate,omitzero"`
	ProviderName      string              `json:"provider_name,omitempty"`     // the gateway that sent it
	NotificationType  string              `json:"notification_type,omitempty"` // "SMS", "EMAIL"
	Description       string              `json:"description,omitempty"`       // the reason for the debit your request gave
	SourceInfo        NotificationSource  `json:"source_info,omitzero"`        // the debit announced
	DateCreated       checkout.Timestamp  `json:"date_created,omitzero"`
	LastUpdated       checkout.Timestamp  `json:"last_updated,omitzero"`
}

// NotificationMandate names the mandate of a [Notification].
type NotificationMandate struct {
	MandateID string `json:"mandate_id,omitempty"`
}

// NotificationSource is the debit a [Notification] announces.
type NotificationSource struct {
	Amount  checkout.Amount    `json:"amount,omitempty"`  // the amount to be debited
	TxnDate checkout.Timestamp `json:"txn_date,omitzero"` // when the debit is due
}
