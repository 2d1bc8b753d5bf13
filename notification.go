package checkout

// Notification is a message the service sent the customer before a
// mandate debit, as the payment networks require: the content of the
// notification webhooks (NOTIFICATION_SUCCEEDED, NOTIFICATION_FAILED, read
// with webhook's Event.Notification) and the notification block of a
// mandate debit's order status ([OrderStatus.Notification]). A redacted
// ("FILTERED") text stays as sent; a redacted block is zero.
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
	// ProviderResponse is the gateway's answer (provider_response), each
	// member as text ("provider_ref_id").
	ProviderResponse TextMap   `json:"provider_response,omitempty"`
	DateCreated      Timestamp `json:"date_created,omitzero"`
	LastUpdated      Timestamp `json:"last_updated,omitzero"`
}

// NotificationMandate names the mandate of a [Notification].
type NotificationMandate struct {
	MandateID string `json:"mandate_id,omitempty"`
}

// NotificationSource is the debit a [Notification] announces.
type NotificationSource struct {
	Amount  Amount    `json:"amount,omitempty"`  // the amount to be debited
	TxnDate Timestamp `json:"txn_date,omitzero"` // when the debit is due
	// DisplayInvoiceNumber is the invoice number shown to the customer
	// (mandate.display_invoice_number).
	DisplayInvoiceNumber string `json:"mandate.display_invoice_number,omitempty"`
}
