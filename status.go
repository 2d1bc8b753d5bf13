package checkout

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// OrderStatus is an order as [Client.GetOrder] and [Client.Refund] return
// it, and as the order webhooks carry it. Numbers and booleans the service
// sends as text read as values; a block (card, mandate, …) is a value that
// is zero when absent or redacted ("FILTERED"); Raw keeps the whole reply,
// including fields not typed here. An order paid by several transactions
// lists each, order-shaped, in TxnList.
//
// Before fulfilling an order, check both its status and its amount, as
// the service advises: [OrderStatus.CheckPaid] does.
type OrderStatus struct {
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// ID is the service's id of the order.
	ID string `json:"id,omitempty"`
	// Status is the order's status: the highest of its transactions'.
	Status Status `json:"status,omitempty"`
	// StatusID is the number of the status (21 for CHARGED, …).
	StatusID Int `json:"status_id,omitempty"`
	// Amount is the order's amount as created.
	Amount Amount `json:"amount,omitempty"`
	// EffectiveAmount is the amount after offers, add-ons and surcharges.
	EffectiveAmount Amount `json:"effective_amount,omitempty"`
	// Currency is the currency code ("INR").
	Currency string `json:"currency,omitempty"`
	// Refunded reports whether the whole order was refunded; it stays
	// false after a partial refund.
	Refunded Bool `json:"refunded"`
	// AmountRefunded is the sum refunded so far.
	AmountRefunded Amount `json:"amount_refunded,omitempty"`
	// MaxRefundable is the most that can still be refunded
	// (maximum_eligible_refund_amount), when the service says.
	MaxRefundable Amount `json:"maximum_eligible_refund_amount,omitempty"`
	// RefundableAmount is what can still be refunded (refundable_amount).
	RefundableAmount Amount `json:"refundable_amount,omitempty"`
	// CapturedAmount is what a pre-authorised order has captured.
	CapturedAmount Amount `json:"captured_amount,omitempty"`
	// AmountDebited is what the customer's account was debited.
	AmountDebited Amount `json:"amount_debited,omitempty"`
	// Refunds are the order's refunds, oldest first; refunds of an order
	// paid by several transactions may sit in TxnList instead: read
	// [OrderStatus.AllRefunds].
	Refunds []Refund `json:"refunds,omitempty"`
	// TxnID is your reference of the latest payment attempt
	// ("<merchant>-<order>-<n>"), which refunds by transaction take.
	TxnID string `json:"txn_id,omitempty"`
	// TxnUUID is the service's unique id of the latest transaction.
	TxnUUID string `json:"txn_uuid,omitempty"`
	// TxnDetail is the latest transaction; zero when there is none.
	TxnDetail Transaction `json:"txn_detail,omitzero"`
	// TxnList lists every transaction of an order paid by several
	// (txn_list), each order-shaped with its own TxnDetail, instrument,
	// status and Refunds: an order PARTIAL_CHARGED has one CHARGED and
	// one TO_BE_CHARGED. Empty for an order paid by one transaction.
	TxnList []OrderStatus `json:"txn_list,omitempty"`
	// TxnSubDetails are the steps of a pre-authorised payment
	// (txn_sub_details), each transaction-shaped: its TxnObjectType says
	// what it did ("PARTIAL_CAPTURE", …), its Status and
	// PaymentGatewayResponse how it went.
	TxnSubDetails []Transaction `json:"txn_sub_details,omitempty"`
	// PaymentGatewayResponse is what the gateway answered for the latest
	// transaction; zero when there is none.
	PaymentGatewayResponse GatewayResponse `json:"payment_gateway_response,omitzero"`
	// PaymentMethodType is how the customer paid ("CARD", "UPI", "NB",
	// "WALLET", …).
	PaymentMethodType string `json:"payment_method_type,omitempty"`
	// PaymentMethod is the method within its type ("VISA", "NB_HDFC",
	// "GOOGLEPAY", …).
	PaymentMethod string `json:"payment_method,omitempty"`
	// AuthType is how the payment was authenticated ("THREE_DS", "OTP").
	AuthType string `json:"auth_type,omitempty"`
	// Card is the card paid with; zero for other methods or when redacted.
	Card CardDetail `json:"card,omitzero"`
	// UPI is the UPI payment's detail; zero for other methods.
	UPI UPIDetail `json:"upi,omitzero"`
	// PayerVPA is the customer's UPI address (payer_vpa).
	PayerVPA string `json:"payer_vpa,omitempty"`
	// PayerAppName is the UPI app the customer paid with.
	PayerAppName string `json:"payer_app_name,omitempty"`
	// Wallet is the wallet payment's detail; zero for other methods.
	Wallet WalletDetail `json:"wallet,omitzero"`
	// Mandate is the mandate the order registered or paid with; zero when
	// none.
	Mandate MandateDetail `json:"mandate,omitzero"`
	// Notification is the pre-debit notice of the mandate debit the order
	// is (notification); zero when none.
	Notification Notification `json:"notification,omitzero"`
	// Offers are the offers applied to the payment.
	Offers []Offer `json:"offers,omitempty"`
	// EMIBank is the bank of an EMI payment's plan (emi_bank).
	EMIBank string `json:"emi_bank,omitempty"`
	// EMITenure is the number of monthly instalments of an EMI payment
	// (emi_tenure).
	EMITenure Int `json:"emi_tenure,omitempty"`
	// EMIType is the kind of EMI ("STANDARD_EMI", "NO_COST_EMI", …).
	EMIType string `json:"emi_type,omitempty"`
	// EMIDetails is the EMI plan; zero when absent or "FILTERED".
	EMIDetails EMIDetails `json:"emi_details,omitzero"`
	// BankPG is the gateway the bank's payment was routed to (bank_pg).
	BankPG string `json:"bank_pg,omitempty"`
	// SplitSettlement is how the payment was split between sub-accounts
	// (split_settlement_response); zero when not split.
	SplitSettlement SplitSettlement `json:"split_settlement_response,omitzero"`
	// Risk is the fraud check's verdict, when one ran.
	Risk RiskDetail `json:"risk,omitzero"`
	// RiskChecks are the verdicts of every fraud check that ran.
	RiskChecks []RiskDetail `json:"risk_checks,omitempty"`
	// BankErrorCode is the bank's or gateway's code for the latest
	// transaction (bank_error_code).
	BankErrorCode string `json:"bank_error_code,omitempty"`
	// BankErrorMessage is the bank's or gateway's message for it.
	BankErrorMessage string `json:"bank_error_message,omitempty"`
	// RespCode is the service's response code for the latest transaction.
	RespCode string `json:"resp_code,omitempty"`
	// RespMessage is the service's response message for it.
	RespMessage string `json:"resp_message,omitempty"`
	// RespCategory groups the response code ("TECHNICAL_ERROR", …).
	RespCategory string `json:"resp_category,omitempty"`
	// CustomerID is your id of the customer.
	CustomerID string `json:"customer_id,omitempty"`
	// CustomerEmail is the customer's email address.
	CustomerEmail string `json:"customer_email,omitempty"`
	// CustomerPhone is the customer's phone number.
	CustomerPhone string `json:"customer_phone,omitempty"`
	// MerchantID is your merchant id.
	MerchantID string `json:"merchant_id,omitempty"`
	// GatewayID is the number of the gateway that processed the payment.
	GatewayID Int `json:"gateway_id,omitempty"`
	// GatewayReferenceID is the gateway account reference the order used.
	GatewayReferenceID string `json:"gateway_reference_id,omitempty"`
	// Metadata holds the order's metadata, such as
	// "<GATEWAY>:gateway_reference_id" and "payment_page_client_id"; an
	// object value (payment_links) as its JSON text.
	Metadata TextMap `json:"metadata,omitempty"`
	// Basket is the basket you sent with the order, echoed back.
	Basket []BasketItem `json:"basket,omitempty"`
	// ReturnURL is where the customer lands after paying.
	ReturnURL string `json:"return_url,omitempty"`
	// ProductID is your id of what is sold.
	ProductID string `json:"product_id,omitempty"`
	// SourceObject names what the order was made for ("PAYMENT_LINK",
	// "MANDATE", …); empty for a plain order.
	SourceObject string `json:"source_object,omitempty"`
	// SourceObjectID is the id of that object.
	SourceObjectID string `json:"source_object_id,omitempty"`
	// NextAction lists what the service asks to be done next
	// (next_action), each as the service sent it: no published reply
	// shows one's keys.
	NextAction []json.RawMessage `json:"next_action,omitempty"`
	// UDFs are your own fields of the order, as you sent them.
	UDFs
	// PaymentLinks are the links to the hosted payment page.
	PaymentLinks PaymentLinks `json:"payment_links,omitzero"`
	// DateCreated is when the order was created; zero when absent or
	// unreadable.
	DateCreated Timestamp `json:"date_created,omitzero"`
	// LastUpdated is when the order last changed; zero when absent.
	LastUpdated Timestamp `json:"last_updated,omitzero"`
	// OrderExpiry is when the order stops taking payments.
	OrderExpiry Timestamp `json:"order_expiry,omitzero"`
	// Raw is the whole reply.
	Raw RawJSON `json:"-"`
}

// UnmarshalJSON decodes an order status leniently, as every reply is read:
// a value of the wrong JSON type for its field (a redacted block, say) is
// left out and the rest decoded; a value that is not an object leaves s
// unchanged. The request path sets Raw.
func (s *OrderStatus) UnmarshalJSON(data []byte) error {
	type plain OrderStatus
	var p plain
	if ok, err := readObject(data, &p, "order status"); !ok {
		return err
	}
	*s = OrderStatus(p)
	return nil
}

func (s *OrderStatus) decode(body []byte) error {
	*s = OrderStatus{} // nothing of an earlier reply (one refused, before a replay) stays
	return decodeObject(body, s, &s.Raw, s.shapeError)
}

func (s *OrderStatus) names() (string, Status) { return s.OrderID, s.Status }

func (s *OrderStatus) shapeError() error {
	if s.OrderID == "" && s.ID == "" && s.Status == "" {
		return notA("an order status", "order_id, id, status")
	}
	return nil
}

// LogValue is the order as JSON, its mandate token redacted.
func (s OrderStatus) LogValue() slog.Value { return logJSON(s) }

// Format prints the order under every verb as %v does (%+v and %#v keep
// their flags): fmt would print a nested mandate's token under %s or %d.
func (s OrderStatus) Format(f fmt.State, verb rune) {
	type plain OrderStatus
	formatPlain(f, verb, "checkout.OrderStatus", plain(s))
}

// AllRefunds returns every refund of the order, wherever the service put
// it (refunds, or the refunds of each transaction in TxnList), each once
// (by id, else unique_request_id), in the order they appear.
func (s *OrderStatus) AllRefunds() []Refund {
	if s == nil {
		return nil
	}
	var out []Refund
	seen := map[string]bool{}
	add := func(list []Refund) {
		for _, r := range list {
			key := cmp.Or(r.ID, r.UniqueRequestID)
			if key == "" || !seen[key] {
				seen[key] = key != ""
				out = append(out, r)
			}
		}
	}
	add(s.Refunds)
	for i := range s.TxnList {
		add(s.TxnList[i].AllRefunds())
	}
	return out
}

// IsPaid reports whether the order's status is CHARGED; AUTHORIZED (money
// held) and COD_INITIATED (cash to come) are not paid. Before fulfilling,
// also check the amount: see [OrderStatus.CheckPaid].
func (s *OrderStatus) IsPaid() bool {
	return s != nil && s.Status == StatusCharged
}

// IsFinal reports whether the order's status is terminal (see
// [Status.IsFinal]); a status whose name this package does not know counts
// as final when its status_id (number or text) is the service's own
// refusal (22). For an order paid by several transactions the order's own
// status decides: PARTIAL_CHARGED is not final, whatever TxnList holds.
func (s *OrderStatus) IsFinal() bool {
	if s == nil {
		return false
	}
	return s.Status.IsFinal() || (!s.Status.Known() && s.StatusID == statusIDServiceDeclined)
}

// ErrNotPaid is matched by the error of [OrderStatus.CheckPaid] when the
// order must not be fulfilled: it is not CHARGED, or its amount is not the
// one expected.
const ErrNotPaid = sentinel("checkout: order not paid as expected")

// CheckPaid is the check the service asks for before fulfilling an order:
// the order must be CHARGED and its amount equal expected, compared as
// decimals ("1" equals "1.00"). For an order paid by several transactions
// the order's own status and amount decide, not any one transaction's: a
// PARTIAL_CHARGED order is not paid. It returns nil when the order may be
// fulfilled, else an error matching [ErrNotPaid] that says what differs.
//
//	st, err := client.GetOrder(ctx, orderID)
//	if err != nil { … }
//	if err := st.CheckPaid(cart.Total); err != nil {
//		// do not ship
//	}
func (s *OrderStatus) CheckPaid(expected Amount) error {
	const op = "checkout: check paid: "
	if s == nil {
		return notPaid(op + "no order status")
	}
	if !s.IsPaid() {
		return notPaid(fmt.Sprintf("%sorder %q is %s, not CHARGED", op, s.OrderID, cmp.Or(string(s.Status), "without status")))
	}
	want, ok := decimal(string(expected))
	if !ok {
		// Still ErrNotPaid: a merchant who branches on it must not ship
		// because the expected total was empty or garbled.
		return notPaid(fmt.Sprintf("%sexpected amount %.24q is not a decimal number", op, string(expected)))
	}
	got, ok := decimal(string(s.Amount))
	if !ok {
		return notPaid(fmt.Sprintf("%sorder %q has no readable amount (%.24q)", op, s.OrderID, string(s.Amount)))
	}
	if got.Cmp(want) != 0 {
		return notPaid(fmt.Sprintf("%sorder %q amount is %s, expected %s", op, s.OrderID, s.Amount, expected))
	}
	return nil
}

// notPaid is an error of CheckPaid that matches ErrNotPaid.
type notPaid string

func (e notPaid) Error() string { return string(e) }

// Is matches ErrNotPaid.
func (notPaid) Is(target error) bool { return target == ErrNotPaid }

// ValidateOrderID reports whether orderID is one [Client.GetOrder] (and
// every call about an order) can read: not empty or blank, not "." or
// "..". The error is a *[ValidationError] naming order_id. Code that keeps
// order ids to read later (the reconcile package's Track) checks them
// here first.
func ValidateOrderID(orderID string) error {
	var v validation.Error
	switch {
	case strings.TrimSpace(orderID) == "":
		v.Add(keyOrderID, "is required")
	case orderID == "." || orderID == "..":
		v.Add(keyOrderID, `must not be "." or ".."`)
	}
	return v.Err()
}

// orderPath returns /orders/{order_id} with the id path-escaped, or the
// *ValidationError of ValidateOrderID.
func orderPath(orderID string) (string, error) {
	if err := ValidateOrderID(orderID); err != nil {
		return "", err
	}
	return "/orders/" + url.PathEscape(orderID), nil
}

// GetOrder reads the order's status, with the version header. The call is
// idempotent, so it is also retried after timeouts and 500, 502, 504. An
// order the service does not know is an [*APIError] matching [ErrNotFound]
// whose OrderID is orderID. A successful reply that is not this order's
// status (an encrypted envelope in Basic mode, a body without order_id, id
// or status, one naming another order or none) is an error, never an empty
// value.
func (c *Client) GetOrder(ctx context.Context, orderID string, opts ...RequestOption) (*OrderStatus, error) {
	cl, err := getOrderCall(orderID)
	if err != nil {
		return nil, invalid("get order", err)
	}
	st := new(OrderStatus)
	if err := c.do(ctx, cl, opts, st); err != nil {
		return nil, err
	}
	return st, nil
}

// getOrderCall is the call of GetOrder: in the JWE+JWS mode a POST of
// {"order_id"} to /v4/order-status.
func getOrderCall(orderID string) (*call, error) {
	path, err := orderPath(orderID)
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]string{keyOrderID: orderID}) // a map of strings always encodes
	return &call{op: "get order", name: "GetOrder", method: http.MethodGet, route: "/orders/{order_id}", path: path,
		versioned: true, orderID: orderID, v4: &v4Call{route: "/v4/order-status", path: "/v4/order-status", body: body}}, nil
}

// readOrder reads an order in a settle step: nil, and no error, when the
// service does not know it.
func readOrder(read readFunc, orderID string) (*OrderStatus, error) {
	cl, err := getOrderCall(orderID)
	if err != nil {
		return nil, err
	}
	st := new(OrderStatus)
	switch err := read(cl, st); {
	case errors.Is(err, ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return st, nil
}

// differs lists the keys where the order differs from what a request set:
// its amount, currency and customer, each when the request set it (left
// out, it is the service's choice). nil when they agree.
func (s *OrderStatus) differs(amount Amount, currency, customerID string) []string {
	var d []string
	if amount != "" && !amount.equal(s.Amount) {
		d = append(d, keyAmount)
	}
	if currency != "" && !strings.EqualFold(currency, s.Currency) {
		d = append(d, "currency")
	}
	if customerID != "" && customerID != s.CustomerID {
		d = append(d, keyCustomerID)
	}
	return d
}
