package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/valid"
)

// OrderRequest creates an order ([Client.CreateOrder]), sent as a form.
// Empty fields are not sent. Values returns that form; json.Marshal gives it
// as a flat JSON object of strings.
type OrderRequest struct {
	// OrderID is your unique id of the order (order_id, required).
	OrderID string `url:"order_id,omitempty" check:"required" lint:"id"`
	// Amount is the sum to pay (amount, required), sent exactly as written
	// ("1", "1.0", "10.00": see [ParseAmount]).
	Amount Amount `url:"amount,omitempty" check:"required,amount" lint:"amount"`
	// Currency is a currency code such as "INR" (currency).
	Currency string `url:"currency,omitempty"`
	// CustomerID is your id of the customer (customer_id).
	CustomerID string `url:"customer_id,omitempty"`
	// CustomerEmail is the customer's email address (customer_email).
	CustomerEmail string `url:"customer_email,omitempty" lint:"email"`
	// CustomerPhone is the customer's phone number (customer_phone).
	CustomerPhone string `url:"customer_phone,omitempty" lint:"phone"`
	// ProductID is your id of what is sold (product_id).
	ProductID string `url:"product_id,omitempty"`
	// ReturnURL is where the customer lands after paying (return_url).
	// Lint advises an absolute https URL.
	ReturnURL string `url:"return_url,omitempty" lint:"url"`
	// Description is shown with the payment (description).
	Description string `url:"description,omitempty"`
	// BillingAddress is the billing address, sent as the billing_address_*
	// keys.
	BillingAddress *Address `url:"billing_address,omitempty"`
	// ShippingAddress is the shipping address, sent as the
	// shipping_address_* keys.
	ShippingAddress *Address `url:"shipping_address,omitempty"`
	// GatewayMetadata passes values to particular gateways, sent as
	// metadata.<GATEWAY>:<key>, in order.
	GatewayMetadata GatewayMetadataList `url:"metadata,omitempty"`
	// SubventionAmount is the part of the amount the merchant bears on an
	// EMI (metadata.subvention_amount).
	SubventionAmount Amount `url:"metadata.subvention_amount,omitempty" check:"amount" lint:"amount"`
	// GatewayReferenceID picks the gateway account configured under this
	// reference, case sensitive. It is sent as
	// metadata.<namespace>:gateway_reference_id, in the namespace of the
	// client ([WithNamespace]; metadata.SERVICE:gateway_reference_id by
	// default).
	GatewayReferenceID string `url:"metadata.SERVICE:gateway_reference_id,omitempty"`
	// WebhookURL sends this order's webhooks to this address instead of the
	// configured one (metadata.webhook_url). It must be https (http only on
	// a loopback address).
	WebhookURL string `url:"metadata.webhook_url,omitempty" check:"webhook"`
	// ClientAuthToken asks for a client auth token in the reply
	// ([Order.ClientAuthToken]) by sending options.get_client_auth_token.
	ClientAuthToken bool `url:"options.get_client_auth_token,omitempty"`
	// CollectionLinks asks for UPI payment collection links; nil asks for
	// none.
	CollectionLinks *CollectionLinks `url:"payment_collection_link_details,omitempty"`
	// Extra carries form fields this type does not model (udf1…udf10, …).
	// A key a typed field owns and text that is not valid UTF-8 are
	// validation errors; Lint reports empty keys and keys holding control
	// characters.
	Extra map[string]string `url:"-"`
}

var (
	orderChecks = checksOf[OrderRequest]("url")
	orderNames  = namesOf[OrderRequest]("url")
	// orderKeys are the form keys the typed fields of an order request own.
	orderKeys = formKeysOf[OrderRequest]()
)

// ownsKey reports whether a typed field owns form key k when namespaced
// keys are written in namespace ns.
func ownsKey(keys map[string]bool, k, ns string) bool {
	if isNamespaced(k) {
		return ns == DefaultNamespace && keys[k]
	}
	if keys[k] {
		return true
	}
	kns, ok := namespaceOf(k)
	return ok && kns == ns && keys[inNamespace(k, DefaultNamespace)]
}

// Validate reports what the service refuses, or what the form could not
// say as the request does, as a *ValidationError whose paths are the form
// keys; nil when there is none. It refuses: a missing order_id or amount,
// an amount the service does not take (see [ParseAmount]), a webhook URL
// that is not https, text that is not valid UTF-8, a gateway metadata entry
// whose gateway or key is empty or would make the key ambiguous (a ":" or,
// in the gateway, a "."), two entries or an Extra key writing one form key
// twice or a key a typed field owns, and a collection link lifetime that is
// not whole minutes. Everything else passes; [OrderRequest.Lint] gives the
// advice. It checks the gateway reference key in [DefaultNamespace];
// CreateOrder checks it in the client's namespace. The work is linear in
// the size of the request.
func (r *OrderRequest) Validate() error { return r.validate(DefaultNamespace) }

func (r *OrderRequest) validate(ns string) error {
	return validateRequest(r, "order request is nil", orderChecks, func(c *valid.Collector) {
		r.eachAddress(func(prefix string, a *Address) {
			checkFields(c, prefix, reflect.ValueOf(a).Elem(), addressChecks())
		})
		seen := map[string]bool{}
		for i, m := range r.GatewayMetadata {
			prefix := orderNames()["GatewayMetadata"]
			p := valid.Index(prefix, i)
			switch {
			case !utf8.ValidString(m.Gateway + m.Key + m.Value):
				c.Add(p, "is not valid UTF-8")
			case m.Gateway == "" || strings.ContainsAny(m.Gateway, ":."):
				c.Add(p+".Gateway", `must be a gateway code, not empty and without ":" or "."`)
			case m.Key == "" || strings.Contains(m.Key, ":"):
				c.Add(p+".Key", `must be a key, not empty and without ":"`)
			default:
				k := m.key(prefix)
				if ownsKey(orderKeys(), k, ns) {
					c.Add(k, "is a typed field of OrderRequest; set it there")
				} else if seen[k] {
					c.Add(k, "is given twice")
				}
				seen[k] = true
			}
		}
		if r.CollectionLinks != nil {
			r.CollectionLinks.check(c, orderNames()["CollectionLinks"])
		}
		checkExtra(c, r.Extra, func(k string) bool { return ownsKey(orderKeys(), k, ns) || seen[k] }, "OrderRequest")
	})
}

// eachAddress calls f with the key prefix and value of each address set.
func (r *OrderRequest) eachAddress(f func(prefix string, a *Address)) {
	eachAddress(orderNames(), r.BillingAddress, r.ShippingAddress, f)
}

// eachAddress calls f with the key prefix (from names, the wire keys of the
// request type's fields) and value of the billing and shipping address,
// when set.
func eachAddress(names map[string]string, billing, shipping *Address, f func(prefix string, a *Address)) {
	if billing != nil {
		f(names["BillingAddress"]+addressJoin, billing)
	}
	if shipping != nil {
		f(names["ShippingAddress"]+addressJoin, shipping)
	}
}

// Lint returns advice on a request Validate lets through, never repeating
// what Validate refuses; the client never calls it. The advice: amounts not
// written with two places; an order_id longer than 20 characters or with
// surrounding spaces; the shape of customer_phone and customer_email; a
// return_url that is not an absolute https URL; gateway metadata codes or
// keys with surrounding spaces; collection links with no method, an
// unknown or repeated one, or a negative lifetime; Extra keys that are
// empty or hold control characters. nil means no advice.
func (r *OrderRequest) Lint() []Problem {
	if r == nil {
		return nil
	}
	var c valid.Collector
	lintFields(&c, "", reflect.ValueOf(r).Elem(), orderChecks())
	for i, m := range r.GatewayMetadata {
		if strings.TrimSpace(m.Gateway) != m.Gateway || strings.TrimSpace(m.Key) != m.Key {
			c.Add(valid.Index(orderNames()["GatewayMetadata"], i), "has a gateway or key with surrounding spaces, which are sent as part of the key")
		}
	}
	if r.CollectionLinks != nil {
		r.CollectionLinks.lint(&c, orderNames()["CollectionLinks"])
	}
	lintExtraKeys(&c, r.Extra)
	return problems(&c)
}

// Values validates the request and returns the form CreateOrder sends: one
// value per key, the gateway reference under [DefaultNamespace]. A
// *ValidationError lists every problem, as from Validate.
func (r *OrderRequest) Values() (url.Values, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r.form()
}

// form returns the request's form values as Values does, without checking.
func (r *OrderRequest) form() (url.Values, error) { return r.formIn(DefaultNamespace) }

// formIn returns the request's form values, namespaced keys written in ns.
// It assumes Validate passed.
func (r *OrderRequest) formIn(ns string) (url.Values, error) {
	v, err := query.Values(r)
	if err != nil {
		return nil, err
	}
	renameNamespaced(v, ns)
	for k, s := range r.Extra {
		v[k] = []string{s}
	}
	return v, nil
}

// renameNamespaced moves the namespaced keys of v to namespace ns: the one
// place a form key is written other than as its tag says.
func renameNamespaced(v url.Values, ns string) {
	if ns == DefaultNamespace || ns == "" {
		return
	}
	for k, vs := range v {
		if isNamespaced(k) {
			delete(v, k)
			v[inNamespace(k, ns)] = vs
		}
	}
}

// MarshalJSON returns the form of Values as a flat JSON object of strings
// ({"order_id": "o-1", "amount": "10.00", "metadata.webhook_url": …}), keys
// sorted, so that logging or storing a request shows what would be sent. It
// fails as Values does on an invalid request. There is no UnmarshalJSON:
// the form is the wire format of an order request, not JSON.
func (r OrderRequest) MarshalJSON() ([]byte, error) {
	v, err := r.Values()
	if err != nil {
		return nil, err
	}
	flat := make(map[string]string, len(v))
	for k, vs := range v {
		if len(vs) > 0 {
			flat[k] = vs[0]
		}
	}
	return marshalNoEscape(flat)
}

// Order is the reply to [Client.CreateOrder]. With encoding/json it decodes
// as CreateOrder does and encodes as the service's reply, Raw.
//
// Do not rely on its status being CREATED (status id 1): the service's
// published replies to orders with collection links say NEW (10), and other
// options may give other statuses. The fake in checkouttest answers CREATED.
type Order struct {
	// Status is the order's status ("CREATED", "NEW", …).
	Status string `json:"status,omitempty"`
	// StatusID is the number of the status (1 for CREATED, 10 for NEW, …).
	StatusID int `json:"status_id,omitempty"`
	// ID is the service's id of the order.
	ID string `json:"id,omitempty"`
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// PaymentLinks are the links to the hosted payment page.
	PaymentLinks PaymentLinks `json:"payment_links,omitzero"`
	// CollectionLinks are the payment collection links, present when the
	// request asked for them (links.payment_collection_links).
	CollectionLinks CollectionLinkURLs `json:"-"`
	// ClientAuthToken is the client auth token the reply carries when the
	// request set ClientAuthToken (juspay.client_auth_token); empty
	// otherwise.
	ClientAuthToken string `json:"-"`
	// ClientAuthTokenExpiry is when ClientAuthToken stops working
	// (juspay.client_auth_token_expiry); zero when absent or unreadable.
	ClientAuthTokenExpiry time.Time `json:"-"`
	// Raw is the whole reply.
	Raw json.RawMessage `json:"-"`
}

// CollectionLinkURLs are the payment collection links of an order.
type CollectionLinkURLs struct {
	// QR is a page showing a UPI QR code (QR).
	QR string `json:"QR,omitempty"`
	// Intent is the UPI intent link, requested as PAY (INTENT).
	Intent string `json:"INTENT,omitempty"`
}

// orderFields is Order without its methods.
type orderFields Order

// orderJSON is an Order as the service nests it: the collection links under
// links.payment_collection_links and the token under juspay. Both
// directions go through it.
type orderJSON struct {
	orderFields             // a value, so that the lenient second decode can reset it
	Links       *orderLinks `json:"links,omitempty"`
	tokenHolder
}

type orderLinks struct {
	Collection *CollectionLinkURLs `json:"payment_collection_links,omitempty"`
}

// tokenHolder is the object in which a reply carries a client auth token
// (orders and customers). It is embedded, so its key is a key of the reply.
type tokenHolder struct {
	Token *authToken `json:"juspay,omitempty"`
}

type authToken struct {
	ClientAuthToken string    `json:"client_auth_token,omitempty"`
	Expiry          time.Time `json:"client_auth_token_expiry,omitzero"`
}

// token returns the token and its expiry, zero when the reply has none.
func (h tokenHolder) token() (string, time.Time) {
	if h.Token == nil {
		return "", time.Time{}
	}
	return h.Token.ClientAuthToken, h.Token.Expiry
}

// holding returns a holder of the token, empty when there is none.
func holding(token string, expiry time.Time) tokenHolder {
	if token == "" && expiry.IsZero() {
		return tokenHolder{}
	}
	return tokenHolder{&authToken{token, expiry}}
}

func (o *Order) decode(body []byte) error {
	var w orderJSON
	if err := decodeResponse(&w, body, nil); err != nil {
		return err
	}
	*o = Order(w.orderFields)
	if w.Links != nil && w.Links.Collection != nil {
		o.CollectionLinks = *w.Links.Collection
	}
	o.ClientAuthToken, o.ClientAuthTokenExpiry = w.token()
	return nil
}

// UnmarshalJSON decodes an order reply as CreateOrder does; Raw keeps the
// whole body. JSON null leaves o unchanged.
func (o *Order) UnmarshalJSON(data []byte) error {
	return unmarshalReply(o, data, "order")
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields as the service nests them,
// leaving empty ones out.
func (o Order) MarshalJSON() ([]byte, error) {
	w := orderJSON{orderFields: orderFields(o), tokenHolder: holding(o.ClientAuthToken, o.ClientAuthTokenExpiry)}
	if o.CollectionLinks != (CollectionLinkURLs{}) {
		w.Links = &orderLinks{&o.CollectionLinks}
	}
	return marshalReply(o.Raw, w)
}

// CreateOrder validates req and sends it as a form with the version
// header. A *ValidationError means nothing was sent. The call is not retried
// after it may have reached the service: on a timeout, look the order up
// with [Client.GetOrder] before creating it again.
func (c *Client) CreateOrder(ctx context.Context, req *OrderRequest, opts ...RequestOption) (*Order, error) {
	const op = "create order"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	if err := req.validate(c.Namespace()); err != nil {
		return nil, valid.ForOp(op, err)
	}
	form, err := req.formIn(c.Namespace())
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: %w", op, err)
	}
	return send(ctx, c, postForm(op, "/orders", form), opts, decodeReply[Order])
}
