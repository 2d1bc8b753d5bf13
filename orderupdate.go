package checkout

import (
	"context"
	"net/url"
	"reflect"
	"sync"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/tags"
	"github.com/payorch/checkout-go/internal/valid"
)

// UpdateOrderRequest changes an order that is not yet paid
// ([Client.UpdateOrder]), sent as a form: the service lets the amount, the
// addresses and the udf1…udf10 fields change. Empty fields are not sent.
type UpdateOrderRequest struct {
	// Amount is the order's new amount (amount), sent exactly as written.
	Amount Amount `url:"amount,omitempty" check:"amount" lint:"amount"`
	// BillingAddress replaces the billing address (billing_address_*).
	BillingAddress *Address `url:"billing_address,omitempty"`
	// ShippingAddress replaces the shipping address (shipping_address_*).
	ShippingAddress *Address `url:"shipping_address,omitempty"`
	// Extra carries the other form fields, such as udf1…udf10. A key a
	// typed field owns and text that is not valid UTF-8 are validation
	// errors.
	Extra map[string]string `url:"-"`
}

var (
	updateChecks = checksOf[UpdateOrderRequest]("url")
	updateNames  = namesOf[UpdateOrderRequest]("url")
	updateKeys   = formKeysOf[UpdateOrderRequest]()
)

// formKeysOf returns, once per process, the form keys the typed fields of
// T own, as go-querystring writes them.
func formKeysOf[T any]() func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		out := map[string]bool{}
		for _, f := range tags.Fields(reflect.TypeFor[T](), "url") {
			keys := []string{f.Key}
			if fk, ok := reflect.Zero(f.Type).Interface().(interface{ formKeys(string) []string }); ok {
				keys = fk.formKeys(f.Key)
			}
			for _, k := range keys {
				out[k] = true
			}
		}
		return out
	})
}

// Validate reports what the service refuses, or what the form could not
// say as the request does: an amount the service does not take, text that
// is not valid UTF-8, an Extra key a typed field owns. nil when there is
// none; [UpdateOrderRequest.Lint] gives the advice.
func (r *UpdateOrderRequest) Validate() error {
	return validateRequest(r, "update order request is nil", updateChecks, func(c *valid.Collector) {
		eachAddress(updateNames(), r.BillingAddress, r.ShippingAddress, func(prefix string, a *Address) {
			checkFields(c, prefix, reflect.ValueOf(a).Elem(), addressChecks())
		})
		checkExtra(c, r.Extra, func(k string) bool { return updateKeys()[k] }, "UpdateOrderRequest")
	})
}

// Lint returns advice on a request Validate lets through: an amount not
// written with two places, a request that changes nothing, Extra keys that
// are empty or hold control characters. nil means no advice.
func (r *UpdateOrderRequest) Lint() []Problem {
	if r == nil {
		return nil
	}
	var c valid.Collector
	if r.Amount == "" && r.BillingAddress == nil && r.ShippingAddress == nil && len(r.Extra) == 0 {
		c.Add("", "changes nothing: set the amount, an address or udf fields")
	}
	lintFields(&c, "", reflect.ValueOf(r).Elem(), updateChecks())
	lintExtraKeys(&c, r.Extra)
	return problems(&c)
}

// form returns the request's form values. It assumes Validate passed.
func (r *UpdateOrderRequest) form() (url.Values, error) {
	v, err := query.Values(r)
	if err != nil {
		return nil, err
	}
	for k, s := range r.Extra {
		v[k] = []string{s}
	}
	return v, nil
}

// UpdateOrder changes an order that is not yet paid (POST
// /orders/{order_id}, a form with the version header), for example its
// amount, and returns the order as the service then holds it. The service
// advises against changing an order once a payment has started. Like every
// write, it is not retried after it may have reached the service: on a
// timeout, read the order with [Client.GetOrder] before sending it again.
func (c *Client) UpdateOrder(ctx context.Context, orderID string, req *UpdateOrderRequest, opts ...RequestOption) (*OrderStatus, error) {
	const op = "update order"
	path, err := orderPath(orderID)
	form, err := c.formFor(op, err, req)
	if err != nil {
		return nil, err
	}
	return send(ctx, c, postForm(op, path, form), opts, decodeReply[OrderStatus])
}
