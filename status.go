package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/valid"
)

// OrderStatus is an order as [Client.GetOrder] and [Client.Refund] return
// it. Numbers the service sends as strings, and redacted fields
// ("FILTERED"), are read leniently; Raw keeps everything, including the many
// fields not typed here. With encoding/json it decodes as GetOrder does and
// encodes as Raw.
type OrderStatus struct {
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// ID is the service's id of the order.
	ID string `json:"id,omitempty"`
	// Status is the order's status ("NEW", "CHARGED", "PENDING_VBV", …).
	Status string `json:"status,omitempty"`
	// StatusID is the number of the status (21 for CHARGED, …).
	StatusID int `json:"status_id,omitempty"`
	// Amount is the order's amount.
	Amount Amount `json:"amount,omitempty"`
	// EffectiveAmount is the amount after offers and discounts.
	EffectiveAmount Amount `json:"effective_amount,omitempty"`
	// Currency is the currency code ("INR").
	Currency string `json:"currency,omitempty"`
	// Refunded reports whether the order was refunded, in part or in full.
	Refunded bool `json:"refunded"`
	// AmountRefunded is the sum refunded so far.
	AmountRefunded Amount `json:"amount_refunded,omitempty"`
	// Refunds are the order's refunds, oldest first.
	Refunds []Refund `json:"refunds,omitempty"`
	// TxnID is the id of the latest transaction.
	TxnID string `json:"txn_id,omitempty"`
	// TxnUUID is the service's unique id of the latest transaction.
	TxnUUID string `json:"txn_uuid,omitempty"`
	// PaymentMethodType is how the customer paid ("CARD", "UPI", …).
	PaymentMethodType string `json:"payment_method_type,omitempty"`
	// PaymentMethod is the method within its type ("VISA", "NB_HDFC", …).
	PaymentMethod string `json:"payment_method,omitempty"`
	// CustomerID is your id of the customer.
	CustomerID string `json:"customer_id,omitempty"`
	// CustomerEmail is the customer's email address.
	CustomerEmail string `json:"customer_email,omitempty"`
	// CustomerPhone is the customer's phone number.
	CustomerPhone string `json:"customer_phone,omitempty"`
	// MerchantID is your merchant id.
	MerchantID string `json:"merchant_id,omitempty"`
	// GatewayID is the number of the gateway that processed the payment.
	GatewayID int `json:"gateway_id,omitempty"`
	// GatewayReferenceID is the gateway account reference the order used.
	GatewayReferenceID string `json:"gateway_reference_id,omitempty"`
	// ReturnURL is where the customer lands after paying.
	ReturnURL string `json:"return_url,omitempty"`
	// ProductID is your id of what is sold.
	ProductID string `json:"product_id,omitempty"`
	// PaymentLinks are the links to the hosted payment page.
	PaymentLinks PaymentLinks `json:"payment_links,omitzero"`
	// DateCreated is when the order was created; zero when absent or
	// unreadable.
	DateCreated time.Time `json:"date_created,omitzero"`
	// Raw is the whole reply.
	Raw json.RawMessage `json:"-"`
}

func (s *OrderStatus) decode(body []byte) error {
	type plain OrderStatus
	var p plain
	if err := lenient.Unmarshal(body, &p); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	p.Raw = body
	*s = OrderStatus(p)
	return nil
}

// UnmarshalJSON decodes an order status reply as GetOrder does; Raw keeps
// the whole body. JSON null leaves s unchanged.
func (s *OrderStatus) UnmarshalJSON(data []byte) error {
	if s == nil {
		return errNilTarget("OrderStatus")
	}
	if kindOf(data) == "null" {
		return nil
	}
	if err := s.decode(bytes.Clone(data)); err != nil {
		return fmt.Errorf("checkout: order status: %w", err)
	}
	return nil
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields, leaving empty ones out (refunded
// is always written).
func (s OrderStatus) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	type plain OrderStatus
	return json.Marshal(plain(s))
}

// orderPath returns /orders/{order_id} with the id path-escaped, or a
// validation error.
func orderPath(orderID string) (string, error) {
	var c valid.Collector
	switch {
	case strings.TrimSpace(orderID) == "":
		c.Add(orderIDKey(), "is required")
	case orderID == "." || orderID == "..":
		c.Add(orderIDKey(), `must not be "." or ".."`)
	}
	if err := c.Err(); err != nil {
		return "", err
	}
	return "/orders/" + url.PathEscape(orderID), nil
}

// orderIDKey names the order id in the problems of a call that takes it.
func orderIDKey() string { return orderNames()["OrderID"] }

// GetOrder reads the order's status, with the version header. The call is
// idempotent, so it is also retried after timeouts and 500, 502, 504.
func (c *Client) GetOrder(ctx context.Context, orderID string, opts ...RequestOption) (*OrderStatus, error) {
	const op = "get order"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	path, err := orderPath(orderID)
	if err != nil {
		return nil, valid.ForOp(op, err)
	}
	cl := &call{op: op, method: "GET", path: path, versioned: true, idempotent: true, jwePath: "/v4/order-status", jweBody: &orderStatusQuery{OrderID: orderID}}
	return send(ctx, c, cl, opts, decodeReply[OrderStatus])
}
