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
// an empty text, text that does not hold a JSON array, and any other value
// (the service's "FILTERED") leave b unchanged, and the reply's Raw keeps
// what was sent.
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
	if kindOf(data) != "array" || !json.Valid(data) {
		return nil // null, the service's "FILTERED", or garbled text
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
	// Token describes the network or issuer token paid with, when
	// UsingToken (token); nil otherwise.
	Token *CardToken `json:"token,omitempty"`
	// TokenCreated reports whether this payment tokenised the card
	// (token_created).
	TokenCreated bool `json:"token_created,omitempty"`
	// TokenizationUserConsent reports whether the customer consented to
	// tokenising the card (tokenization_user_consent).
	TokenizationUserConsent bool `json:"tokenization_user_consent,omitempty"`
	// IssuerCountry is the issuing bank's country ("INDIA")
	// (card_issuer_country).
	IssuerCountry string `json:"card_issuer_country,omitempty"`
	// ExtendedType is the card's type in more detail than Type, such as
	// "CREDIT" or "PREPAID" (extended_card_type).
	ExtendedType string `json:"extended_card_type,omitempty"`
}

// CardToken is the token a card payment used (a card's token): the card's
// stand-in at the network or issuer. Raw keeps the fields not typed here.
type CardToken struct {
	// Provider is who issued the token ("VISA", "MASTERCARD", a bank).
	Provider string `json:"provider,omitempty"`
	// ProviderCategory is the kind of token ("NETWORK_TOKEN",
	// "ISSUER_TOKEN").
	ProviderCategory string `json:"provider_category,omitempty"`
	// PAR is the payment account reference, the same for every token of
	// one card.
	PAR string `json:"par,omitempty"`
	// LastFourDigits are the token's last four digits.
	LastFourDigits string `json:"last_four_digits,omitempty"`
	// Reference is the service's reference of the token (card_reference).
	Reference string `json:"card_reference,omitempty"`
	// Fingerprint is the same for every payment with the same token
	// (card_fingerprint).
	Fingerprint string `json:"card_fingerprint,omitempty"`
	// ISIN is the token's first digits (card_isin).
	ISIN string `json:"card_isin,omitempty"`
	// Raw is the token block as the service sent it.
	Raw RawJSON `json:"-"`
}

// UnmarshalJSON decodes a card leniently, as [OrderStatus] does; a token
// block the service redacts ("FILTERED") leaves Token nil.
func (c *CardDetail) UnmarshalJSON(data []byte) error {
	if c == nil {
		return errNilTarget("CardDetail")
	}
	type plain CardDetail
	var w struct {
		plain
		Token object[CardToken] `json:"token"`
	}
	if ok, err := readObject(data, &w, "card"); !ok {
		return err
	}
	p := w.plain
	p.Token = w.Token.v
	*c = CardDetail(p)
	return nil
}

// UnmarshalJSON decodes a card token leniently; Raw keeps it whole. A
// value that is not an object leaves t unchanged.
func (t *CardToken) UnmarshalJSON(data []byte) error {
	if t == nil {
		return errNilTarget("CardToken")
	}
	type plain CardToken
	var p plain
	if ok, err := readObject(data, &p, "card token"); !ok {
		return err
	}
	p.Raw = bytes.Clone(data)
	*t = CardToken(p)
	return nil
}

// MarshalJSON returns Raw when it is set, else the typed fields.
func (t CardToken) MarshalJSON() ([]byte, error) {
	type plain CardToken
	return marshalRaw(t.Raw, plain(t))
}

// UPIDetail is the UPI side of a payment (upi).
type UPIDetail struct {
	// PayerVPA is the customer's UPI address.
	PayerVPA string `json:"payer_vpa,omitempty"`
	// TxnFlowType is "COLLECT" or "INTENT".
	TxnFlowType string `json:"txn_flow_type,omitempty"`
	// PayerApp is the UPI app the customer paid with (payer_app).
	PayerApp string `json:"payer_app,omitempty"`
}

// WalletDetail is the wallet side of a payment (wallet).
type WalletDetail struct {
	// TxnFlowType is how the wallet was charged ("REDIRECT",
	// "REDIRECT_DEBIT", …).
	TxnFlowType string `json:"txn_flow_type,omitempty"`
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
	// Benefits are what the offer gave (benefits).
	Benefits []OfferBenefit `json:"benefits,omitempty"`
	// Raw is the offer as the service sent it.
	Raw RawJSON `json:"-"`
}

// OfferBenefit is one benefit of an [Offer]: a discount or a cashback.
type OfferBenefit struct {
	// Type is the kind of benefit ("DISCOUNT", "CASHBACK").
	Type string `json:"type,omitempty"`
	// Amount is what the benefit is worth on this payment.
	Amount Amount `json:"amount,omitempty"`
	// CalculationRule says how Value applies ("ABSOLUTE", "PERCENTAGE").
	CalculationRule string `json:"calculation_rule,omitempty"`
	// Value is the offer's value: an amount, or a percentage.
	Value Amount `json:"value,omitempty"`
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
