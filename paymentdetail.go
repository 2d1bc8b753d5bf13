package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The payment details an order status carries: its latest transaction, the
// gateway's answer, the card, UPI, wallet, mandate, offers and fraud check.
// They decode leniently with the order ([OrderStatus]); a block the service
// redacts ("FILTERED") or leaves out is nil.

// Transaction is one payment attempt of an order: an order status's
// txn_detail, and the content of the transaction webhooks (TXN_CREATED,
// TXN_FAILED), which also fill StatusID, PaymentMethodType, PaymentMethod,
// PaymentGatewayResponse and Card.
type Transaction struct {
	// TxnID is your reference of the attempt ("<merchant>-<order>-<n>"),
	// which a refund by transaction takes.
	TxnID string `json:"txn_id,omitempty"`
	// TxnUUID is the service's unique id of the attempt.
	TxnUUID string `json:"txn_uuid,omitempty"`
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// Status is the attempt's status.
	Status Status `json:"status,omitempty"`
	// StatusID is the number of the status (in a transaction webhook).
	StatusID int `json:"status_id,omitempty"`
	// Gateway is the gateway that processed the attempt ("RAZORPAY").
	Gateway string `json:"gateway,omitempty"`
	// GatewayID is the gateway's number.
	GatewayID int `json:"gateway_id,omitempty"`
	// Currency is the currency code.
	Currency string `json:"currency,omitempty"`
	// TxnAmount is the amount of the attempt, add-ons and surcharge
	// included.
	TxnAmount Amount `json:"txn_amount,omitempty"`
	// NetAmount is the amount before surcharge and tax.
	NetAmount Amount `json:"net_amount,omitempty"`
	// SurchargeAmount is the surcharge added, if any.
	SurchargeAmount Amount `json:"surcharge_amount,omitempty"`
	// TaxAmount is the tax on the surcharge, if any.
	TaxAmount Amount `json:"tax_amount,omitempty"`
	// OfferDeductionAmount is what offers took off, if any.
	OfferDeductionAmount Amount `json:"offer_deduction_amount,omitempty"`
	// AmountBreakup lists how TxnAmount is made up (base, add-ons,
	// offers).
	AmountBreakup AmountBreakup `json:"txn_amount_breakup,omitempty"`
	// ErrorCode is the gateway's error code when the attempt failed.
	ErrorCode string `json:"error_code,omitempty"`
	// ErrorMessage is the gateway's error message.
	ErrorMessage string `json:"error_message,omitempty"`
	// ResponseCode is the service's code for the outcome
	// ("TECHNICAL_ERROR").
	ResponseCode string `json:"response_code,omitempty"`
	// ResponseMessage is the service's message for the outcome.
	ResponseMessage string `json:"response_message,omitempty"`
	// PaymentMethodType is how the customer paid (in a transaction
	// webhook).
	PaymentMethodType string `json:"payment_method_type,omitempty"`
	// PaymentMethod is the method within its type (in a transaction
	// webhook).
	PaymentMethod string `json:"payment_method,omitempty"`
	// PaymentGatewayResponse is the gateway's answer (in a transaction
	// webhook).
	PaymentGatewayResponse *GatewayResponse `json:"payment_gateway_response,omitempty"`
	// Card is the card paid with (in a transaction webhook).
	Card *CardDetail `json:"card,omitempty"`
	// TxnFlowType is how the payment ran ("COLLECT", "REDIRECT",
	// "CASH_PAY", …).
	TxnFlowType string `json:"txn_flow_type,omitempty"`
	// TxnObjectType says what the attempt was for, such as
	// "EMANDATE_REGISTER" for a mandate registration.
	TxnObjectType string `json:"txn_object_type,omitempty"`
	// SourceObject names what started the attempt ("MANDATE").
	SourceObject string `json:"source_object,omitempty"`
	// SourceObjectID is the id of that object.
	SourceObjectID string `json:"source_object_id,omitempty"`
	// ExpressCheckout reports whether the attempt went through the
	// service's API rather than its hosted page.
	ExpressCheckout bool `json:"express_checkout"`
	// Redirect reports whether the customer was redirected to
	// authenticate.
	Redirect bool `json:"redirect"`
	// Metadata holds the attempt's text metadata ("payment_channel").
	Metadata map[string]string `json:"metadata,omitempty"`
	// Created is when the attempt began; zero when absent or unreadable.
	Created Timestamp `json:"created,omitzero"`
	// LastUpdated is when the attempt last changed.
	LastUpdated Timestamp `json:"last_updated,omitzero"`
	// Raw is the transaction as the service sent it.
	Raw RawJSON `json:"-"`
}

// UnmarshalJSON decodes a transaction leniently, as [OrderStatus] does; Raw
// keeps it whole. JSON null, and a value that is not an object (the
// service's "FILTERED"), leave x unchanged.
func (x *Transaction) UnmarshalJSON(data []byte) error {
	if x == nil {
		return errNilTarget("Transaction")
	}
	type plain Transaction
	var w struct {
		plain
		PaymentGatewayResponse object[GatewayResponse] `json:"payment_gateway_response"`
		Card                   object[CardDetail]      `json:"card"`
		Metadata               textValues              `json:"metadata"`
	}
	if ok, err := readObject(data, &w, "transaction"); !ok {
		return err
	}
	p := w.plain
	p.PaymentGatewayResponse, p.Card, p.Metadata = w.PaymentGatewayResponse.v, w.Card.v, w.Metadata
	p.Raw = bytes.Clone(data)
	*x = Transaction(p)
	return nil
}

// MarshalJSON returns Raw when it is set, else the typed fields.
func (x Transaction) MarshalJSON() ([]byte, error) {
	type plain Transaction
	return marshalRaw(x.Raw, plain(x))
}

// AmountBreakup lists how a transaction's amount is made up. The service
// sends it as a JSON array, or as text holding one; both decode.
type AmountBreakup []BreakupLine

// UnmarshalJSON reads the breakup as an array or as text holding one; null,
// an empty text and any other value (the service's "FILTERED") leave b
// unchanged.
func (b *AmountBreakup) UnmarshalJSON(data []byte) error {
	if b == nil {
		return errNilTarget("AmountBreakup")
	}
	data = bytes.TrimSpace(data)
	if kindOf(data) == "string" {
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return err
		}
		if text == "" {
			return nil
		}
		data = []byte(text)
	}
	if kindOf(data) != "array" {
		return nil // null, or the service's "FILTERED"
	}
	var lines []BreakupLine
	if err := decodeLenient(data, &lines); err != nil {
		return fmt.Errorf("checkout: amount breakup: %w", err)
	}
	*b = lines
	return nil
}

// BreakupLine is one part of an [AmountBreakup].
type BreakupLine struct {
	// Name says what the part is ("BASE", "ADD_ON", "OFFER").
	Name string `json:"name,omitempty"`
	// Amount is the part's amount (amount; value in the text form).
	Amount Amount `json:"amount,omitempty"`
	// Method says whether the part adds to the total ("ADD") or takes
	// from it ("SUB").
	Method string `json:"method,omitempty"`
	// SNo orders the parts.
	SNo int `json:"sno,omitempty"`
	// Description is your description of an add-on (desc).
	Description string `json:"desc,omitempty"`
}

// UnmarshalJSON reads a breakup line leniently; the amount may be named
// amount or value.
func (l *BreakupLine) UnmarshalJSON(data []byte) error {
	if l == nil {
		return errNilTarget("BreakupLine")
	}
	type plain BreakupLine
	var w struct {
		plain
		Value Amount `json:"value"`
	}
	if ok, err := readObject(data, &w, "amount breakup"); !ok {
		return err
	}
	if w.Amount == "" {
		w.Amount = w.Value
	}
	*l = BreakupLine(w.plain)
	return nil
}

// GatewayResponse is the gateway's answer for a transaction
// (payment_gateway_response).
type GatewayResponse struct {
	// TxnID is your reference of the transaction.
	TxnID string `json:"txn_id,omitempty"`
	// EPGTxnID is the gateway's id of the transaction (epg_txn_id).
	EPGTxnID string `json:"epg_txn_id,omitempty"`
	// RespCode is the gateway's response code.
	RespCode string `json:"resp_code,omitempty"`
	// RespMessage is the gateway's response message.
	RespMessage string `json:"resp_message,omitempty"`
	// RRN is the bank's retrieval reference number.
	RRN string `json:"rrn,omitempty"`
	// AuthIDCode is the authorisation code (auth_id_code).
	AuthIDCode string `json:"auth_id_code,omitempty"`
	// AuthRefNum is the authorisation reference number.
	AuthRefNum string `json:"auth_ref_num,omitempty"`
	// ARN is the acquirer reference number.
	ARN string `json:"arn,omitempty"`
	// ECI is the card network's electronic commerce indicator.
	ECI string `json:"eci,omitempty"`
	// GatewayMerchantID is your merchant id at the gateway.
	GatewayMerchantID string `json:"gateway_merchant_id,omitempty"`
	// NetworkErrorCode is the card network's error code.
	NetworkErrorCode string `json:"network_error_code,omitempty"`
	// NetworkErrorMessage is the card network's error message.
	NetworkErrorMessage string `json:"network_error_message,omitempty"`
	// DebitAmount is the amount the gateway debited.
	DebitAmount Amount `json:"debit_amount,omitempty"`
	// DiscountAmount is the discount the gateway applied.
	DiscountAmount Amount `json:"discount_amount,omitempty"`
	// Created is when the gateway answered.
	Created Timestamp `json:"created,omitzero"`
	// Full is the gateway's own reply as the service passes it on
	// (gateway_response), whose shape differs from gateway to gateway.
	Full RawJSON `json:"gateway_response,omitempty"`
}

// CardDetail is the card an order was paid with (card). The number itself
// is never sent: only its first six digits (ISIN) and last four.
type CardDetail struct {
	// Brand is the card network ("VISA", "MASTERCARD").
	Brand string `json:"card_brand,omitempty"`
	// Type is "CREDIT" or "DEBIT".
	Type string `json:"card_type,omitempty"`
	// Issuer is the issuing bank's name.
	Issuer string `json:"card_issuer,omitempty"`
	// ISIN is the card's first six digits (card_isin).
	ISIN string `json:"card_isin,omitempty"`
	// LastFourDigits are the card's last four digits.
	LastFourDigits string `json:"last_four_digits,omitempty"`
	// NameOnCard is the cardholder's name.
	NameOnCard string `json:"name_on_card,omitempty"`
	// ExpiryMonth is the expiry month ("12").
	ExpiryMonth string `json:"expiry_month,omitempty"`
	// ExpiryYear is the expiry year ("2024").
	ExpiryYear string `json:"expiry_year,omitempty"`
	// Reference is the service's reference of the stored card.
	Reference string `json:"card_reference,omitempty"`
	// Fingerprint is the same for every payment with the same card.
	Fingerprint string `json:"card_fingerprint,omitempty"`
	// UsingSavedCard reports whether a stored card was used.
	UsingSavedCard bool `json:"using_saved_card"`
	// SavedToLocker reports whether the card was stored by this payment.
	SavedToLocker bool `json:"saved_to_locker"`
	// UsingToken reports whether a network token was used.
	UsingToken bool `json:"using_token"`
}

// UPIDetail is the UPI side of a payment (upi).
type UPIDetail struct {
	// PayerVPA is the customer's UPI address.
	PayerVPA string `json:"payer_vpa,omitempty"`
	// TxnFlowType is "COLLECT" or "INTENT".
	TxnFlowType string `json:"txn_flow_type,omitempty"`
}

// WalletDetail is the wallet side of a payment (wallet).
type WalletDetail struct {
	// TxnFlowType is how the wallet was charged ("REDIRECT",
	// "REDIRECT_DEBIT", …).
	TxnFlowType string `json:"txn_flow_type,omitempty"`
}

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
		BlockFund           textBool `json:"block_fund"`
		RevokableByCustomer textBool `json:"revokable_by_customer"`
	}
	if ok, err := readObject(data, &w, "mandate"); !ok {
		return err
	}
	p := w.plain
	p.BlockFund, p.RevokableByCustomer = bool(w.BlockFund), bool(w.RevokableByCustomer)
	p.Raw = bytes.Clone(data)
	*m = MandateDetail(p)
	return nil
}

// MarshalJSON returns Raw when it is set, else the typed fields.
func (m MandateDetail) MarshalJSON() ([]byte, error) {
	type plain MandateDetail
	return marshalRaw(m.Raw, plain(m))
}

// Offer is an offer applied to an order's payment (an element of offers).
// Raw keeps the whole offer, benefits included.
type Offer struct {
	// OfferID is the service's id of the offer.
	OfferID string `json:"offer_id,omitempty"`
	// OfferCode is the code the customer applied.
	OfferCode string `json:"offer_code,omitempty"`
	// Status is whether the offer was applied ("AVAILED", …).
	Status string `json:"status,omitempty"`
	// Raw is the offer as the service sent it.
	Raw RawJSON `json:"-"`
}

// UnmarshalJSON decodes an offer leniently, as [OrderStatus] does; Raw
// keeps it whole. JSON null, and a value that is not an object (the
// service's "FILTERED"), leave o unchanged.
func (o *Offer) UnmarshalJSON(data []byte) error {
	if o == nil {
		return errNilTarget("Offer")
	}
	type plain Offer
	var p plain
	if ok, err := readObject(data, &p, "offer"); !ok {
		return err
	}
	p.Raw = bytes.Clone(data)
	*o = Offer(p)
	return nil
}

// MarshalJSON returns Raw when it is set, else the typed fields.
func (o Offer) MarshalJSON() ([]byte, error) {
	type plain Offer
	return marshalRaw(o.Raw, plain(o))
}

// RiskDetail is the verdict of the fraud check on a payment (risk).
type RiskDetail struct {
	// Provider is who ran the check.
	Provider string `json:"provider,omitempty"`
	// Status is the check's status ("COMPLETED").
	Status string `json:"status,omitempty"`
	// Flagged reports whether the payment was flagged as risky.
	Flagged bool `json:"flagged"`
	// RecommendedAction is what the provider advises.
	RecommendedAction string `json:"recommended_action,omitempty"`
}
