package checkout

import "log/slog"

// MandateDetail is a mandate as the service reports it: the mandate block
// of an order status, and the content of the mandate webhooks
// (MANDATE_CREATED, MANDATE_ACTIVATED, …). Its tokens print redacted; its
// blocks are zero when absent or redacted ("FILTERED"), and it decodes
// leniently, as an order status does.
type MandateDetail struct {
	// MandateID is the service's id of the mandate.
	MandateID string `json:"mandate_id,omitempty"`
	// MandateToken is the token that debits against the mandate take.
	MandateToken Secret `json:"mandate_token,omitempty"`
	// MandateDebitToken is the debit token (in a mandate webhook).
	MandateDebitToken Secret `json:"mandate_debit_token,omitempty"`
	// MandateStatus is the mandate's status in an order ("ACTIVE",
	// "PAUSED", "REVOKED", "FAILURE", "EXPIRED", …).
	MandateStatus string `json:"mandate_status,omitempty"`
	// Status is the mandate's status in a mandate webhook.
	Status string `json:"status,omitempty"`
	// MandateType is "EMANDATE" or "MANDATE".
	MandateType string `json:"mandate_type,omitempty"`
	// MaxAmount is the most one debit may take.
	MaxAmount Amount `json:"max_amount,omitempty"`
	// AmountRule is "FIXED" or "VARIABLE".
	AmountRule string `json:"amount_rule,omitempty"`
	// Frequency is how often it may debit ("MONTHLY", "ASPRESENTED", …).
	Frequency string `json:"frequency,omitempty"`
	// RuleType and RuleValue pin the debit day ("AFTER", 30).
	RuleType string `json:"rule_type,omitempty"`
	// RuleValue is the day number of RuleType.
	RuleValue Int `json:"rule_value,omitempty"`
	// StartDate is when the mandate starts, in Unix seconds as text
	// ("1598745600"), as the service sends it.
	StartDate string `json:"start_date,omitempty"`
	// EndDate is when the mandate ends, like StartDate.
	EndDate string `json:"end_date,omitempty"`
	// BlockFund reports whether the amount is blocked on the customer's
	// account (block_fund).
	BlockFund Bool `json:"block_fund"`
	// RevokableByCustomer reports whether the customer may revoke it.
	RevokableByCustomer Bool `json:"revokable_by_customer"`
	// OrderID is the order that registered the mandate (in a mandate
	// webhook).
	OrderID string `json:"order_id,omitempty"`
	// CustomerID is your id of the customer (in a mandate webhook).
	CustomerID string `json:"customer_id,omitempty"`
	// Currency is the currency code (in a mandate webhook).
	Currency string `json:"currency,omitempty"`
	// ActivatedAt is when the mandate became active.
	ActivatedAt Timestamp `json:"activated_at,omitzero"`
	// LastActivatedAt is when the mandate last became active (after a
	// pause).
	LastActivatedAt Timestamp `json:"last_activated_at,omitzero"`
	// LastUpdated is when the mandate last changed.
	LastUpdated Timestamp `json:"last_updated,omitzero"`
	// PaymentInfo is how the customer pays the mandate's debits
	// (payment_info).
	PaymentInfo MandatePaymentInfo `json:"payment_info,omitzero"`
	// BankDetails is the customer's bank account of an e-mandate
	// (bank_details).
	BankDetails BankDetails `json:"bank_details,omitzero"`
	// PGResponse is the gateway's answer to the mandate's registration
	// (pg_response).
	PGResponse MandatePGResponse `json:"pg_response,omitzero"`
}

// MandatePGResponse is the gateway's answer to a mandate's registration
// (a mandate's pg_response).
type MandatePGResponse struct {
	// ResponseCode is the gateway's code (response_code).
	ResponseCode string `json:"response_code,omitempty"`
	// ResponseMessage is the gateway's message (response_message).
	ResponseMessage string `json:"response_message,omitempty"`
}

// LogValue is the mandate as JSON, its tokens redacted.
func (m MandateDetail) LogValue() slog.Value { return logJSON(m) }

// MandatePaymentInfo is the instrument a mandate debits (a mandate's
// payment_info). Its shape differs by payment method; the fields below are
// those the methods share.
type MandatePaymentInfo struct {
	// PaymentMethodType is the kind of instrument ("UPI", "CARD", "NB").
	PaymentMethodType string `json:"payment_method_type,omitempty"`
	// PaymentMethod is the instrument within its kind ("VISA", "NB_HDFC",
	// or how a UPI mandate was set up: "COLLECT", "PAY", "INAPP").
	PaymentMethod string `json:"payment_method,omitempty"`
	// UPI is the customer's UPI side (its payer_vpa), for a UPI mandate.
	UPI UPIDetail `json:"upi,omitzero"`
	// Card is the card, for a card mandate.
	Card CardDetail `json:"card,omitzero"`
}

// BankDetails is the bank account an e-mandate debits.
type BankDetails struct {
	AccountNumber string `json:"account_number,omitempty"` // usually masked
	IFSC          string `json:"ifsc,omitempty"`           // the branch's code
	Name          string `json:"name,omitempty"`           // the account holder's
	BankName      string `json:"bank_name,omitempty"`
	AccountType   string `json:"account_type,omitempty"` // SAVINGS or CURRENT
	// BeneficiaryName is the name of the account's beneficiary
	// (beneficiary_name).
	BeneficiaryName string `json:"beneficiary_name,omitempty"`
}

// UnmarshalJSON decodes a mandate leniently, naming no key, as
// [Transaction.UnmarshalJSON] does.
func (m *MandateDetail) UnmarshalJSON(data []byte) error {
	type plain MandateDetail
	var p plain
	if ok, err := readObject(data, &p, "mandate"); !ok {
		return err
	}
	*m = MandateDetail(p)
	return nil
}
