package checkout

import (
	"context"

	"github.com/payorch/checkout-go/validation"
)

// UpdateOrderRequest changes an order that is not yet paid
// ([Client.UpdateOrder]), sent as a form: the service lets the amount, the
// addresses and the udf1…udf10 fields change. Empty fields are not sent.
type UpdateOrderRequest struct {
	// Amount is the order's new amount (amount), sent exactly as written.
	Amount Amount `url:"amount,omitempty"`
	// BillingAddress replaces the billing address (billing_address_*).
	BillingAddress *Address `url:"billing_address,omitempty"`
	// ShippingAddress replaces the shipping address (shipping_address_*).
	ShippingAddress *Address `url:"shipping_address,omitempty"`
	// Extra carries the other form fields, such as udf1…udf10. A key a
	// typed field writes and text that is not valid UTF-8 are validation
	// errors.
	Extra map[string]string `url:"-"`
}

// Validate reports, as a *ValidationError keyed by the form's keys, what
// the service refuses or what the form could not say as the request does;
// nil when there is none. The rules are the code of this method; advice is
// [github.com/payorch/checkout-go/lint.Check]'s.
func (r *UpdateOrderRequest) Validate() error {
	if r == nil {
		return nilRequest("update order request is nil")
	}
	var v validation.Error
	checkAmount(&v, keyAmount, r.Amount)
	typed := checkForm(&v, r)
	checkExtra(&v, r.Extra, typed.Has, "UpdateOrderRequest")
	return v.Err()
}

// UpdateOrder changes an order that is not yet paid (POST
// /orders/{order_id}, a form with the version header), for example its
// amount, and returns the order as the service then holds it. The service
// advises against changing an order once a payment has started. It is
// not retried or replayed after it may have reached the service: on a
// timeout, read the order with [Client.GetOrder] before sending it again.
func (c *Client) UpdateOrder(ctx context.Context, orderID string, req *UpdateOrderRequest, opts ...RequestOption) (*OrderStatus, error) {
	const op = "update order"
	path, err := orderPath(orderID)
	form, err := validForm(op, req, checkAll(err, req.Validate()))
	if err != nil {
		return nil, err
	}
	for k, s := range req.Extra {
		form[k] = []string{s}
	}
	st := new(OrderStatus)
	if err := c.do(ctx, orderForm(op, "UpdateOrder", "/orders/{order_id}", path, orderID, form), opts, st); err != nil {
		return nil, err
	}
	return st, nil
}
