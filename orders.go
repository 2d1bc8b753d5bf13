package checkout

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/validation"
)

// OrderRequest creates an order ([Client.CreateOrder]), sent as a form.
// Empty fields are not sent. Values returns that form.
type OrderRequest struct {
	// OrderID is your unique id of the order (order_id, required).
	OrderID string `url:"order_id,omitempty"`
	// Amount is the sum to pay (amount, required), sent exactly as written
	// ("1", "1.0", "10.00": see [ParseAmount]).
	Amount Amount `url:"amount,omitempty"`
	// Currency is a currency code such as "INR" (currency).
	Currency string `url:"currency,omitempty"`
	// CustomerID is your id of the customer (customer_id).
	CustomerID string `url:"customer_id,omitempty"`
	// CustomerEmail is the customer's email address (customer_email).
	CustomerEmail string `url:"customer_email,omitempty"`
	// CustomerPhone is the customer's phone number (customer_phone).
	CustomerPhone string `url:"customer_phone,omitempty"`
	// ProductID is your id of what is sold (product_id).
	ProductID string `url:"product_id,omitempty"`
	// ReturnURL is where the customer lands after paying (return_url).
	// lint.Check advises an absolute https URL.
	ReturnURL string `url:"return_url,omitempty"`
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
	SubventionAmount Amount `url:"metadata.subvention_amount,omitempty"`
	// GatewayReferenceID picks the gateway account configured under this
	// reference, case sensitive. It is sent as
	// metadata.<namespace>:gateway_reference_id, in the namespace of the
	// client ([WithNamespace]; metadata.SERVICE:gateway_reference_id by
	// default).
	GatewayReferenceID string `url:"metadata.SERVICE:gateway_reference_id,omitempty"`
	// WebhookURL sends this order's webhooks to this address instead of the
	// configured one (metadata.webhook_url). It must be https (http only on
	// a loopback address).
	WebhookURL string `url:"metadata.webhook_url,omitempty"`
	// ClientAuthToken asks for a client auth token in the reply
	// ([Order.ClientAuthToken]) by sending options.get_client_auth_token.
	ClientAuthToken bool `url:"options.get_client_auth_token,omitempty"`
	// CollectionLinks asks for UPI payment collection links; nil asks for
	// none.
	CollectionLinks *CollectionLinks `url:"payment_collection_link_details,omitempty"`
	// UDFs are your own fields of the order (udf1…udf10), kept by the
	// service and returned in the order status and webhooks.
	UDFs
	// Extra carries form fields this type does not model. A key a typed
	// field writes and text that is not valid UTF-8 are validation errors;
	// lint.Check reports empty keys and keys holding control characters.
	Extra map[string]string `url:"-"`
}

// Validate reports, as a *ValidationError keyed by the form's keys, what
// the service refuses or what the form could not say as the request does;
// nil when there is none. The rules are the code of its validate method,
// beside the type, with those every request shares in rules.go; advice on
// what the service takes is [github.com/payorch/checkout-go/lint.Check]'s.
// It checks the gateway reference key in [DefaultNamespace]; CreateOrder
// checks it in the client's namespace.
func (r *OrderRequest) Validate() error { return r.validate(DefaultNamespace) }

// nilRequest is the Validate error of a nil request.
func nilRequest(msg string) error {
	var v validation.Error
	v.Add("", msg)
	return v.Err()
}

// validForm returns the form of r, a request whose checks gave problems
// (nil when there are none), or the operation's validation error.
func validForm(op string, r any, problems error) (url.Values, error) {
	if problems != nil {
		return nil, invalid(op, problems)
	}
	form, err := query.Values(r)
	if err != nil {
		return nil, invalid(op, err)
	}
	return form, nil
}

// checkForm records a request whose form cannot be encoded or holds text
// that is not valid UTF-8, and returns the form.
func checkForm(v *validation.Error, r any) url.Values {
	form, err := query.Values(r)
	checkFormText(v, form, err)
	return form
}

func (r *OrderRequest) validate(ns string) error {
	if r == nil {
		return nilRequest("order request is nil")
	}
	var v validation.Error
	checkRequired(&v, keyOrderID, r.OrderID)
	checkRequired(&v, keyAmount, string(r.Amount))
	checkAmount(&v, keyAmount, r.Amount)
	checkAmount(&v, "metadata.subvention_amount", r.SubventionAmount)
	checkWebhookURL(&v, "metadata.webhook_url", r.WebhookURL)
	typed, err := r.typedForm(ns)
	checkFormText(&v, typed, err)
	seen := r.GatewayMetadata.check(&v, typed.Has, "OrderRequest")
	if r.CollectionLinks != nil {
		r.CollectionLinks.check(&v, "payment_collection_link_details")
	}
	checkExtra(&v, r.Extra, func(k string) bool { return typed.Has(k) || seen[k] }, "OrderRequest")
	return v.Err()
}

// Values validates the request and returns the form CreateOrder sends: one
// value per key, the gateway reference under [DefaultNamespace]. A
// *ValidationError lists every problem, as from Validate.
func (r *OrderRequest) Values() (url.Values, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r.form(DefaultNamespace)
}

// form returns the request's form, the gateway reference written in
// namespace ns. It assumes Validate passed.
func (r *OrderRequest) form(ns string) (url.Values, error) {
	v, err := r.typedForm(ns)
	_ = r.GatewayMetadata.EncodeValues("metadata", &v)
	for k, s := range r.Extra {
		v[k] = []string{s}
	}
	return v, err
}

// typedForm returns the form of the typed fields, gateway entries and
// Extra aside, the gateway reference written in namespace ns.
func (r *OrderRequest) typedForm(ns string) (url.Values, error) {
	c := *r
	c.GatewayMetadata, c.GatewayReferenceID = nil, ""
	v, err := query.Values(&c)
	if r.GatewayReferenceID != "" {
		v.Set(gatewayReferenceKey(ns), r.GatewayReferenceID)
	}
	return v, err
}

// Address is a billing or shipping address of an order. Each field is sent
// under the address's key and its own, joined by an underscore:
// billing_address_city.
type Address struct {
	// FirstName is the first name (first_name).
	FirstName string `url:"first_name,omitempty"`
	// LastName is the last name (last_name).
	LastName string `url:"last_name,omitempty"`
	// Line1 is the first address line (line1).
	Line1 string `url:"line1,omitempty"`
	// Line2 is the second address line (line2).
	Line2 string `url:"line2,omitempty"`
	// Line3 is the third address line (line3).
	Line3 string `url:"line3,omitempty"`
	// City is the city (city).
	City string `url:"city,omitempty"`
	// State is the state or region (state).
	State string `url:"state,omitempty"`
	// Country is the country's name (country).
	Country string `url:"country,omitempty"`
	// PostalCode is the postal code (postal_code).
	PostalCode string `url:"postal_code,omitempty"`
	// Phone is a phone number for this address (phone).
	Phone string `url:"phone,omitempty"`
	// CountryCodeISO is the ISO 3166 country code, e.g. "IND"
	// (country_code_iso).
	CountryCodeISO string `url:"country_code_iso,omitempty"`
}

// EncodeValues adds the address's fields to v under key_<field key>; it
// lets go-querystring encode a request holding an address.
func (a *Address) EncodeValues(key string, v *url.Values) error {
	fields, err := query.Values(a)
	for k, vs := range fields {
		(*v)[key+"_"+k] = vs
	}
	return err
}

// Order is the reply to [Client.CreateOrder]; Raw keeps it whole. Its
// client auth token prints redacted.
//
// Do not rely on its status being CREATED (status id 1): the service's
// published replies to orders with collection links say NEW (10), and other
// options may give other statuses. The fake in checkouttest answers CREATED.
type Order struct {
	// Status is the order's status ([StatusCreated], [StatusNew], …).
	Status Status `json:"status,omitempty"`
	// StatusID is the number of the status (1 for CREATED, 10 for NEW, …).
	StatusID Int `json:"status_id,omitempty"`
	// ID is the service's id of the order.
	ID string `json:"id,omitempty"`
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// PaymentLinks are the links to the hosted payment page.
	PaymentLinks PaymentLinks `json:"payment_links,omitzero"`
	// MerchantID is your merchant id.
	MerchantID string `json:"merchant_id,omitempty"`
	// Amount is the order's amount.
	Amount Amount `json:"amount,omitempty"`
	// AmountRefunded is the sum refunded so far (0 for a new order).
	AmountRefunded Amount `json:"amount_refunded,omitempty"`
	// Refunded reports whether the whole order was refunded.
	Refunded Bool `json:"refunded,omitempty"`
	// Currency is the currency code ("INR").
	Currency string `json:"currency,omitempty"`
	// CustomerID is your id of the customer (or the service's, cth_…).
	CustomerID string `json:"customer_id,omitempty"`
	// CustomerEmail is the customer's email address.
	CustomerEmail string `json:"customer_email,omitempty"`
	// CustomerPhone is the customer's phone number.
	CustomerPhone string `json:"customer_phone,omitempty"`
	// ProductID is your id of what is sold.
	ProductID string `json:"product_id,omitempty"`
	// ReturnURL is where the customer lands after paying.
	ReturnURL string `json:"return_url,omitempty"`
	// DateCreated is when the order was created; zero when absent.
	DateCreated Timestamp `json:"date_created,omitzero"`
	// OrderExpiry is when the order stops taking payments (order_expiry);
	// zero when absent.
	OrderExpiry Timestamp `json:"order_expiry,omitzero"`
	// DeepLink is the UPI deep link (upi://pay?…) of an order created with
	// a UPI transaction (deep_link): open it to pay in a UPI app.
	DeepLink string `json:"deep_link,omitempty"`
	// Base64EncodedQR is the UPI QR code of such an order as a
	// base64-encoded image (base64_encoded_qr): show it to be scanned.
	Base64EncodedQR string `json:"base64_encoded_qr,omitempty"`
	// SourceObject names what the order was made for ("PAYMENT_LINK",
	// "MANDATE"…); empty for a plain order.
	SourceObject string `json:"source_object,omitempty"`
	// SourceObjectID is the id of that object.
	SourceObjectID string `json:"source_object_id,omitempty"`
	// UDFs are your own fields of the order, as you sent them.
	UDFs
	// OrderLinks holds CollectionLinks, present when the request asked
	// for them (links.payment_collection_links).
	OrderLinks `json:"links,omitzero"`
	// ClientAuth holds ClientAuthToken, present when the request set
	// ClientAuthToken: the service's block (juspay), else a gateway's own
	// block of the same shape ("hyperpg": {client_auth_token, …}).
	ClientAuth `json:"juspay,omitzero"`
	// Raw is the whole reply.
	Raw RawJSON `json:"-"`
	// Replayed reports an order found by a replay (see [ConflictError]);
	// Raw is then the order status read, which carries no client auth
	// token and no collection links.
	Replayed bool `json:"-"`
}

// CollectionLinkURLs are the payment collection links of an order.
type CollectionLinkURLs struct {
	// QR is a page showing a UPI QR code (QR).
	QR string `json:"QR,omitempty"`
	// Intent is the UPI intent link, requested as PAY (INTENT).
	Intent string `json:"INTENT,omitempty"`
}

// OrderLinks are the links block of an order (links).
type OrderLinks struct {
	// CollectionLinks are the payment collection links
	// (payment_collection_links).
	CollectionLinks CollectionLinkURLs `json:"payment_collection_links,omitzero"`
}

// ClientAuth is the block in which an order or a customer reply carries a
// client auth token (juspay). The token prints redacted.
type ClientAuth struct {
	// ClientAuthToken is the token (client_auth_token).
	ClientAuthToken Secret `json:"client_auth_token,omitempty"`
	// ClientAuthTokenExpiry is when it stops working
	// (client_auth_token_expiry); zero when absent or unreadable.
	ClientAuthTokenExpiry Timestamp `json:"client_auth_token_expiry,omitzero"`
}

func (o *Order) decode(body []byte) error {
	*o = Order{} // nothing of an earlier reply (one refused, before a replay) stays
	return decodeObject(body, o, &o.Raw, o.shapeError)
}

func (o *Order) names() (string, Status) { return o.OrderID, o.Status }

func (o *Order) shapeError() error {
	if o.Status == "" && o.StatusID == 0 && o.ID == "" && o.OrderID == "" && o.PaymentLinks == (PaymentLinks{}) {
		return notA("an order", "status, status_id, id, order_id, payment_links")
	}
	return nil
}

// LogValue is the order as JSON, its token redacted.
func (o Order) LogValue() slog.Value { return logJSON(o) }

// CreateOrder validates req and sends it as a form with the version
// header. A *ValidationError means nothing was sent. When the outcome is
// unknown, the client reads the order before sending again and returns it
// Replayed, or a *ConflictError (see [ConflictError]).
func (c *Client) CreateOrder(ctx context.Context, req *OrderRequest, opts ...RequestOption) (*Order, error) {
	const op = "create order"
	ns := c.Namespace()
	if err := req.validate(ns); err != nil {
		return nil, invalid(op, err)
	}
	form, err := req.form(ns)
	if err != nil {
		return nil, invalid(op, err)
	}
	o := new(Order)
	cl := &call{op: op, name: "CreateOrder", method: http.MethodPost, route: "/orders", path: "/orders",
		body: []byte(form.Encode()), form: true, versioned: true, write: true, orderID: req.OrderID,
		settle: settleOrder(op, req.OrderID, req.Amount, req.Currency, req.CustomerID, func(st *OrderStatus) settled {
			*o = orderOf(st)
			return replayed
		}),
	}
	if err := c.do(ctx, cl, opts, o); err != nil {
		return nil, err
	}
	return o, nil
}

// orderForm is a POST of a form to one of the /orders endpoints, which
// take the version header; a write.
func orderForm(op, name, route, path, orderID string, form url.Values) *call {
	return &call{op: op, name: name, method: http.MethodPost, route: route, path: path, body: []byte(form.Encode()),
		form: true, versioned: true, write: true, orderID: orderID}
}

// orderOf is the Order a replayed CreateOrder returns: the order status
// has no client auth token and no collection links, so it is without them
// (CreateSession gives a token).
func orderOf(st *OrderStatus) Order {
	return Order{
		Status: st.Status, StatusID: st.StatusID, ID: st.ID, OrderID: st.OrderID, PaymentLinks: st.PaymentLinks, MerchantID: st.MerchantID,
		Amount: st.Amount, Currency: st.Currency, CustomerID: st.CustomerID, CustomerEmail: st.CustomerEmail,
		CustomerPhone: st.CustomerPhone, ProductID: st.ProductID, ReturnURL: st.ReturnURL, Raw: st.Raw, Replayed: true,
	}
}
