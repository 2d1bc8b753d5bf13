package checkout

import "bytes"

// MandateDetail is a mandate as the service reports it: the mandate block
// of an order status, and the content of the mandate webhooks
// (MANDATE_CREATED, MANDATE_ACTIVATED, …).
type MandateDetail struct {
	// MandateID is the service's id of the mandate.
	MandateID string `json:"mandate_id,omitempty"`
	// MandateToken is the token that debits against the mandate take.
	MandateToken string `json:"mandate_token,omitempty"`
	// MandateDebitToken is the debit token (in a mandate webhook).
	MandateDebitToken string `json:"mandate_debit_token,omitempty"`
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
	RuleValue int `json:"rule_value,omitempty"`
	// StartDate is when the mandate starts, in Unix seconds as text
	// ("1598745600"), as the service sends it.
	StartDate string `json:"start_date,omitempty"`
	// EndDate is when the mandate ends, like StartDate.
	EndDate string `json:"end_date,omitempty"`
	// BlockFund reports whether the amount is blocked on the customer's
	// account (block_fund).
	BlockFund bool `json:"block_fund"`
	// RevokableByCustomer reports whether the customer may revoke it.
	RevokableByCustomer bool `json:"revokable_by_customer"`
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
	// (payment_info); nil when absent or redacted ("FILTERED", as the
	// service's webhooks send it).
	PaymentInfo *MandatePaymentInfo `json:"payment_info,omitempty"`
	// Raw is the mandate as the service sent it.
	Raw RawJSON `json:"-"`
}

// UnmarshalJSON decodes a mandate leniently, as [OrderStatus] does (its
// booleans may come as the text "true"); Raw
// keeps it whole. JSON null, and a value that is not an object (the
// service's "FILTERED"), leave m unchanged.
func (m *MandateDetail) UnmarshalJSON(data []byte) error {
	if m == nil {
		return errNilTarget("MandateDetail")
	}
	type plain MandateDetail
	var w struct {
		plain
		BlockFund           textBool                   `json:"block_fund"`
		RevokableByCustomer textBool                   `json:"revokable_by_customer"`
		PaymentInfo         object[MandatePaymentInfo] `json:"payment_info"`
	}
	if ok, err := readObject(data, &w, "mandate"); !ok {
		return err
	}
	p := w.plain
	p.BlockFund, p.RevokableByCustomer, p.PaymentInfo = bool(w.BlockFund), bool(w.RevokableByCustomer), w.PaymentInfo.v
	p.Raw = bytes.Clone(data)
	*m = MandateDetail(p)
	return nil
}

// MarshalJSON returns Raw when it is set, else the typed fields.
func (m MandateDetail) MarshalJSON() ([]byte, error) {
	type plain MandateDetail
	return marshalRaw(m.Raw, plain(m))
}

// MandatePaymentInfo is the instrument a mandate debits (a mandate's
// payment_info). Its shape differs by payment method; the fields below are
// those the methods share, and Raw keeps the rest.
type MandatePaymentInfo struct {
	// PaymentMethodType is the kind of instrument ("UPI", "CARD", "NB").
	PaymentMethodType string `json:"payment_method_type,omitempty"`
	// PaymentMethod is the instrument within its kind ("VISA", "NB_HDFC",
	// or how a UPI mandate was set up: "COLLECT", "PAY", "INAPP").
	PaymentMethod string `json:"payment_method,omitempty"`
	// UPI is the customer's UPI side (its payer_vpa), for a UPI mandate.
	UPI *UPIDetail `json:"upi,omitempty"`
	// Card is the card, for a card mandate.
	Card *CardDetail `json:"card,omitempty"`
	// Raw is the payment info as the service sent it.
	Raw RawJSON `json:"-"`
}

// UnmarshalJSON decodes a mandate's payment info leniently; Raw keeps it
// whole. A value that is not an object leaves p unchanged.
func (p *MandatePaymentInfo) UnmarshalJSON(data []byte) error {
	if p == nil {
		return errNilTarget("MandatePaymentInfo")
	}
	type plain MandatePaymentInfo
	var w struct {
		plain
		UPI  object[UPIDetail]  `json:"upi"`
		Card object[CardDetail] `json:"card"`
	}
	if ok, err := readObject(data, &w, "mandate payment info"); !ok {
		return err
	}
	w.plain.UPI, w.plain.Card, w.Raw = w.UPI.v, w.Card.v, bytes.Clone(data)
	*p = MandatePaymentInfo(w.plain)
	return nil
}

// MarshalJSON returns Raw when it is set, else the typed fields.
func (p MandatePaymentInfo) MarshalJSON() ([]byte, error) {
	type plain MandatePaymentInfo
	return marshalRaw(p.Raw, plain(p))
}
