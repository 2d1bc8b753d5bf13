package checkout

import (
	"encoding/json"
	"fmt"
)

// The payment details an order status carries: its latest transaction, the
// gateway's answer, the card, UPI, wallet, mandate, offers, EMI, split
// settlement and fraud checks. Each block is a value field tagged omitzero:
// a block the service redacts ("FILTERED") or leaves out reads as its zero
// value, with no decoder of its own, and is left out when encoded.

// Transaction is one payment attempt of an order: an order status's
// txn_detail, each step of a pre-authorised payment (txn_sub_details: a
// capture or a void), and the content of the transaction webhooks
// (TXN_CREATED, TXN_FAILED), which also fill StatusID, PaymentMethodType,
// PaymentMethod, PaymentGatewayResponse and Card. It decodes leniently,
// as an order status does: a redacted ("FILTERED") block is zero.
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
	StatusID Int `json:"status_id,omitempty"`
	// Gateway is the gateway that processed the attempt ("RAZORPAY").
	Gateway string `json:"gateway,omitempty"`
	// GatewayID is the gateway's number.
	GatewayID Int `json:"gateway_id,omitempty"`
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
	// OrderAmount is the order's amount (order_amount), in a step of a
	// pre-authorised payment.
	OrderAmount Amount `json:"order_amount,omitempty"`
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
	// webhook, and for each step of a pre-authorised payment).
	PaymentGatewayResponse GatewayResponse `json:"payment_gateway_response,omitzero"`
	// Card is the card paid with (in a transaction webhook).
	Card CardDetail `json:"card,omitzero"`
	// TxnFlowType is how the payment ran ("COLLECT", "REDIRECT",
	// "CASH_PAY", …).
	TxnFlowType string `json:"txn_flow_type,omitempty"`
	// TxnObjectType says what the attempt was for, such as
	// "EMANDATE_REGISTER" for a mandate registration, or
	// "PARTIAL_CAPTURE" for a step of a pre-authorised payment.
	TxnObjectType string `json:"txn_object_type,omitempty"`
	// SourceObject names what started the attempt ("MANDATE", or
	// "TXN_SUB_DETAIL" for a step of a pre-authorised payment).
	SourceObject string `json:"source_object,omitempty"`
	// SourceObjectID is the id of that object.
	SourceObjectID string `json:"source_object_id,omitempty"`
	// ExpressCheckout reports whether the attempt went through the
	// service's API rather than its hosted page.
	ExpressCheckout Bool `json:"express_checkout"`
	// Redirect reports whether the customer was redirected to
	// authenticate.
	Redirect Bool `json:"redirect"`
	// IsCVVLessTxn reports a card payment made without the CVV
	// (is_cvv_less_txn).
	IsCVVLessTxn Bool `json:"is_cvv_less_txn,omitempty"`
	// Metadata holds the attempt's metadata ("payment_channel").
	Metadata TextMap `json:"metadata,omitempty"`
	// Created is when the attempt began; zero when absent or unreadable.
	Created Timestamp `json:"created,omitzero"`
	// LastUpdated is when the attempt last changed.
	LastUpdated Timestamp `json:"last_updated,omitzero"`
}

// AmountBreakup lists how a transaction's amount is made up. The service
// sends it as a JSON array, or as text holding one; both decode.
type AmountBreakup []BreakupLine

// UnmarshalJSON reads the breakup as an array or as text holding one;
// anything else leaves b unchanged (the reply's Raw keeps it).
func (b *AmountBreakup) UnmarshalJSON(data []byte) error {
	if kindOf(data) == "string" {
		data = []byte(unquote(data))
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
	// Amount is the part's amount (amount).
	Amount Amount `json:"amount,omitempty"`
	// Value is the part's amount where the text form names it value.
	Value Amount `json:"value,omitempty"`
	// Method says whether the part adds to the total ("ADD") or takes
	// from it ("SUB").
	Method string `json:"method,omitempty"`
	// SNo orders the parts.
	SNo Int `json:"sno,omitempty"`
	// Description is your description of an add-on (desc).
	Description string `json:"desc,omitempty"`
}

// GatewayResponse is the gateway's answer for a transaction
// (payment_gateway_response).
type GatewayResponse struct {
	TxnID               string    `json:"txn_id,omitempty"`     // your reference of the transaction
	EPGTxnID            string    `json:"epg_txn_id,omitempty"` // the gateway's id of the transaction
	RespCode            string    `json:"resp_code,omitempty"`
	RespMessage         string    `json:"resp_message,omitempty"`
	RRN                 string    `json:"rrn,omitempty"`          // the bank's retrieval reference number
	AuthIDCode          string    `json:"auth_id_code,omitempty"` // the authorisation code
	AuthRefNum          string    `json:"auth_ref_num,omitempty"`
	ARN                 string    `json:"arn,omitempty"` // the acquirer reference number
	ECI                 string    `json:"eci,omitempty"` // the network's e-commerce indicator
	GatewayMerchantID   string    `json:"gateway_merchant_id,omitempty"`
	NetworkErrorCode    string    `json:"network_error_code,omitempty"`
	NetworkErrorMessage string    `json:"network_error_message,omitempty"`
	DebitAmount         Amount    `json:"debit_amount,omitempty"`
	DiscountAmount      Amount    `json:"discount_amount,omitempty"`
	Created             Timestamp `json:"created,omitzero"`
	// Full is the gateway's own reply as the service passes it on
	// (gateway_response), whose shape differs from gateway to gateway.
	Full json.RawMessage `json:"gateway_response,omitempty"`
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
	// BankCode is the issuing bank's code (card_issuer_bank_code).
	BankCode string `json:"card_issuer_bank_code,omitempty"`
	// ServiceBankCode is the service's own code of the issuing bank
	// (juspay_bank_code), such as "JP_HDFC".
	ServiceBankCode string `json:"juspay_bank_code,omitempty"`
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
	// PaymentAccountReference is the network's reference of the card
	// account, the same for the card and its tokens.
	PaymentAccountReference string `json:"payment_account_reference,omitempty"`
	// UsingSavedCard reports whether a stored card was used.
	UsingSavedCard Bool `json:"using_saved_card"`
	// SavedToLocker reports whether the card was stored by this payment.
	SavedToLocker Bool `json:"saved_to_locker"`
	// UsingToken reports whether a network token was used.
	UsingToken Bool `json:"using_token"`
	// TokenType is the kind of token paid with ("NETWORK_TOKEN", …).
	TokenType string `json:"token_type,omitempty"`
	// Token describes the token paid with, when UsingToken (token); zero
	// otherwise or when redacted.
	Token CardToken `json:"token,omitzero"`
	// Tokens lists the card's tokens; nil when absent or "FILTERED".
	Tokens []CardToken `json:"tokens,omitempty"`
	// TokenCreated says whether this payment tokenised the card, and how
	// (token_created: a boolean, or an object about the token).
	TokenCreated TokenCreated `json:"token_created,omitzero"`
	// TokenizationUserConsent reports whether the customer consented to
	// tokenising the card (tokenization_user_consent).
	TokenizationUserConsent Bool `json:"tokenization_user_consent,omitempty"`
	// IssuerCountry is the issuing bank's country ("INDIA")
	// (card_issuer_country).
	IssuerCountry string `json:"card_issuer_country,omitempty"`
	// ExtendedType is the card's type in more detail than Type, such as
	// "CREDIT" or "PREPAID" (extended_card_type).
	ExtendedType string `json:"extended_card_type,omitempty"`
}

// TokenCreated is a card's token_created, which the service sends as a
// boolean or as an object about the token created (then Created is true).
// It encodes as the object.
type TokenCreated struct {
	// Created reports whether the payment tokenised the card.
	Created bool `json:"-"`
	// Fingerprint is the token's card_fingerprint.
	Fingerprint string `json:"card_fingerprint,omitempty"`
	// Reference is the token's card_reference.
	Reference string `json:"card_reference,omitempty"`
	// TokenizationStatus is the tokenisation's status ("SUCCESS", …).
	TokenizationStatus string `json:"tokenization_status,omitempty"`
}

// UnmarshalJSON reads a boolean, text holding one, or an object; anything
// else leaves t unchanged.
func (t *TokenCreated) UnmarshalJSON(data []byte) error {
	if kindOf(data) != "object" {
		var b Bool
		_ = b.UnmarshalJSON(data) // never fails
		t.Created = t.Created || bool(b)
		return nil
	}
	type plain TokenCreated
	var p plain
	if err := decodeLenient(data, &p); err != nil {
		return nil
	}
	p.Created = true
	*t = TokenCreated(p)
	return nil
}

// CardToken is a token of a card (a card's token or tokens): the card's
// stand-in at the network or issuer.
type CardToken struct {
	Provider         string `json:"provider,omitempty"`          // VISA, MASTERCARD, a bank
	ProviderCategory string `json:"provider_category,omitempty"` // NETWORK_TOKEN, ISSUER_TOKEN
	PAR              string `json:"par,omitempty"`               // the payment account reference
	LastFourDigits   string `json:"last_four_digits,omitempty"`
	Reference        string `json:"card_reference,omitempty"`   // the service's reference of the token
	Fingerprint      string `json:"card_fingerprint,omitempty"` // the same for every payment with it
	ISIN             string `json:"card_isin,omitempty"`        // the token's first digits
	// TokenizationStatus is the token's status ("ACTIVE", …).
	TokenizationStatus string `json:"tokenization_status,omitempty"`
}

// UPIDetail is the UPI side of a payment (upi).
type UPIDetail struct {
	// PayerVPA is the customer's UPI address.
	PayerVPA string `json:"payer_vpa,omitempty"`
	// TxnFlowType is "COLLECT" or "INTENT".
	TxnFlowType string `json:"txn_flow_type,omitempty"`
	// PayerApp is the UPI app the customer paid with (payer_app).
	PayerApp string `json:"payer_app,omitempty"`
	// PaymentMethodSubDetail says more of how the UPI payment ran
	// (payment_method_sub_detail).
	PaymentMethodSubDetail UPIMethodSubDetail `json:"payment_method_sub_detail,omitzero"`
}

// UPIMethodSubDetail says more of how a UPI payment ran
// (payment_method_sub_detail).
type UPIMethodSubDetail struct {
	// Mode is the UPI mode of the payment (mode).
	Mode string `json:"mode,omitempty"`
}

// WalletDetail is the wallet side of a payment (wallet).
type WalletDetail struct {
	// TxnFlowType is how the wallet was charged ("REDIRECT",
	// "REDIRECT_DEBIT", …).
	TxnFlowType string `json:"txn_flow_type,omitempty"`
}

// Offer is an offer applied to an order's payment (an element of offers).
type Offer struct {
	// OfferID is the service's id of the offer.
	OfferID string `json:"offer_id,omitempty"`
	// OfferCode is the code the customer applied.
	OfferCode string `json:"offer_code,omitempty"`
	// Status is whether the offer was applied ("AVAILED", "FAILED", …).
	Status string `json:"status,omitempty"`
	// ErrorCode says why an offer did not apply.
	ErrorCode string `json:"error_code,omitempty"`
	// ErrorMessage is the service's message for ErrorCode.
	ErrorMessage string `json:"error_message,omitempty"`
	// Benefits are what the offer gave (benefits).
	Benefits []OfferBenefit `json:"benefits,omitempty"`
	// ProductDiscounts are the offer's discounts per product of the basket.
	ProductDiscounts []ProductDiscount `json:"product_discounts,omitempty"`
	// Metadata is the offer's metadata (an object, or text holding one).
	Metadata TextMap `json:"metadata,omitempty"`
}

// OfferBenefit is one benefit of an [Offer]: a discount or a cashback. The
// service sends its calculation flat or under calculation_info:
// [OfferBenefit.Calculation] reads either.
type OfferBenefit struct {
	// Type is the kind of benefit ("DISCOUNT", "CASHBACK").
	Type string `json:"type,omitempty"`
	// Amount is what the benefit is worth on this payment.
	Amount Amount `json:"amount,omitempty"`
	// OfferCalculation is the calculation sent flat.
	OfferCalculation
	// CalculationInfo is the calculation sent nested (calculation_info);
	// zero when sent flat.
	CalculationInfo OfferCalculation `json:"calculation_info,omitzero"`
}

// OfferCalculation is how a benefit is worked out.
type OfferCalculation struct {
	// CalculationRule says how Value applies ("ABSOLUTE", "PERCENTAGE").
	CalculationRule string `json:"calculation_rule,omitempty"`
	// Value is the offer's value: an amount, or a percentage.
	Value Amount `json:"value,omitempty"`
	// MaxAmount caps the benefit of a percentage.
	MaxAmount Amount `json:"max_amount,omitempty"`
}

// Calculation returns the benefit's calculation, nested or flat.
func (b *OfferBenefit) Calculation() OfferCalculation {
	if b.CalculationInfo != (OfferCalculation{}) {
		return b.CalculationInfo
	}
	return b.OfferCalculation
}

// ProductDiscount is an offer's discount on one product of the basket.
type ProductDiscount struct {
	ProductID string `json:"product_id,omitempty"` // the basket item's id
	SKU       string `json:"sku,omitempty"`
	Quantity  Int    `json:"quantity,omitempty"`        // units the discount covers
	Amount    Amount `json:"discount_amount,omitempty"` // the discount on the product
}

// SplitSettlement says how a payment was split between sub-accounts
// (split_settlement_response).
type SplitSettlement struct {
	SplitApplied Bool    `json:"split_applied"`
	SplitDetails []Split `json:"split_details,omitempty"` // one per sub-account
}

// Split is one sub-account's part of a split payment or refund
// (split_details, split_refund_details).
type Split struct {
	// SubVendorID is the sub-account's id (sub_vendor_id).
	SubVendorID string `json:"sub_vendor_id,omitempty"`
	// SubMID is the sub-account's id where a reply names it sub_mid.
	SubMID string `json:"sub_mid,omitempty"`
	// GatewaySubAccountID is the gateway's id of the sub-account
	// (gateway_sub_account_id).
	GatewaySubAccountID string `json:"gateway_sub_account_id,omitempty"`
	// Amount is the sub-account's part.
	Amount Amount `json:"amount,omitempty"`
	// MerchantCommission is your commission on the part.
	MerchantCommission Amount `json:"merchant_commission,omitempty"`
	// EPGTxnID is the gateway's id of the part's transfer (epg_txn_id).
	EPGTxnID string `json:"epg_txn_id,omitempty"`
	// Notes are the part's notes, which the service sends as JSON text
	// (notes); each member as text.
	Notes TextMap `json:"notes,omitempty"`
	// Status is the part's status: SUCCESS, FAILURE, PENDING.
	Status string `json:"status,omitempty"`
	// ErrorMessage says why a part failed.
	ErrorMessage string `json:"error_message,omitempty"`
}

// RiskDetail is the verdict of a fraud check on a payment (risk, and each
// of risk_checks).
type RiskDetail struct {
	Provider          string `json:"provider,omitempty"` // who ran the check
	Status            string `json:"status,omitempty"`   // COMPLETED, …
	Flagged           Bool   `json:"flagged"`            // the payment was flagged as risky
	RecommendedAction string `json:"recommended_action,omitempty"`
	Message           string `json:"message,omitempty"`
}

// BasketItem is one item of the basket you sent with the order, echoed
// back (basket).
type BasketItem struct {
	ID           string  `json:"id,omitempty"` // your id of the item
	SKU          string  `json:"sku,omitempty"`
	Quantity     Int     `json:"quantity,omitempty"`
	UnitPrice    Amount  `json:"unitPrice,omitempty"`
	Category     string  `json:"category,omitempty"`
	Description  string  `json:"description,omitempty"`
	ProductURL   string  `json:"productUrl,omitempty"`
	SellerType   string  `json:"sellerType,omitempty"`   // FIRST_PARTY or THIRD_PARTY
	CustomParams TextMap `json:"customParams,omitempty"` // your own fields of the item
}

// UnmarshalJSON decodes a transaction leniently, naming no key: a value
// of the wrong JSON type (a redacted block) is left out, as in an order
// status; a value that is not an object leaves x unchanged.
func (x *Transaction) UnmarshalJSON(data []byte) error {
	type plain Transaction
	var p plain
	if ok, err := readObject(data, &p, "transaction"); !ok {
		return err
	}
	*x = Transaction(p)
	return nil
}
