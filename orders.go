package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/valid"
)

// OrderRequest is the form body of POST /orders (spec §2.7, §4.2). Fields are
// sent under the spec's keys; empty fields are left out. Values returns that
// form; json.Marshal gives it as a flat JSON object of strings.
type OrderRequest struct {
	// OrderID is order_id (required), the merchant's unique order id.
	OrderID string
	// Amount is amount (required), decimal text with two places.
	Amount Amount
	// Currency is currency, a currency code such as "INR".
	Currency string
	// CustomerID is customer_id.
	CustomerID string
	// CustomerEmail is customer_email.
	CustomerEmail string
	// CustomerPhone is customer_phone.
	CustomerPhone string
	// ProductID is product_id.
	ProductID string
	// ReturnURL is return_url.
	ReturnURL string
	// Description is description.
	Description string
	// BillingAddress sets the billing_address_* keys.
	BillingAddress *Address
	// ShippingAddress sets the shipping_address_* keys.
	ShippingAddress *Address
	// GatewayMetadata sets the metadata.<GATEWAY>:<key> keys, in order.
	GatewayMetadata []GatewayMetadata
	// SubventionAmount is metadata.subvention_amount.
	SubventionAmount Amount
	// GatewayReferenceID is "metadata.SERVICE:gateway_reference_id" (spec
	// §2.8), case sensitive.
	GatewayReferenceID string
	// WebhookURL is metadata.webhook_url (spec §6.1.6). It must be https
	// (http only on a loopback address).
	WebhookURL string
	// ClientAuthToken sends options.get_client_auth_token=true: the reply
	// then carries a client auth token (Order.ClientAuthToken).
	ClientAuthToken bool
	// CollectionLinks asks for UPI payment collection links (spec §2.7,
	// §2.8); nil asks for none.
	CollectionLinks *CollectionLinks
	// Extra carries form fields the spec does not list (udf1…udf10, …). A
	// key the typed fields own, an empty key, a key holding control
	// characters and text that is not valid UTF-8 are validation errors.
	Extra map[string]string
}

// Address is a billing or shipping address of an order (spec §2.7): its
// fields are sent as <prefix>_<suffix>, where the prefix is
// billing_address or shipping_address.
type Address struct {
	// FirstName is <prefix>_first_name: the first name.
	FirstName string

	// LastName is <prefix>_last_name: the last name.
	LastName string

	// Line1 is <prefix>_line1: the first address line.
	Line1 string

	// Line2 is <prefix>_line2: the second address line.
	Line2 string

	// Line3 is <prefix>_line3: the third address line.
	Line3 string

	// City is <prefix>_city: the city.
	City string

	// State is <prefix>_state: the state or region.
	State string

	// Country is <prefix>_country: the country name.
	Country string

	// PostalCode is <prefix>_postal_code: the postal code.
	PostalCode string

	// Phone is <prefix>_phone: a phone number for this address.
	Phone string

	// CountryCodeISO is <prefix>_country_code_iso: the ISO 3166 country code, e.g. "IND".
	CountryCodeISO string
}

// GatewayMetadata is one metadata.<GATEWAY>:<key> entry of an order (spec
// §2.7), for example {Gateway: "PAYU", Key: "offer_key", Value: "…"}.
type GatewayMetadata struct {
	// Gateway is the gateway's code, e.g. "PAYU"; no ":" or ".".
	Gateway string
	// Key is the gateway-specific key; no ":".
	Key string
	// Value is sent as given.
	Value string
}

// CollectionMethod names a payment collection link in a request (spec §2.7).
type CollectionMethod string

// The collection link methods. The reply names the PAY link INTENT.
const (
	// CollectionPay asks for the UPI intent link (Order.CollectionLinks.Intent).
	CollectionPay CollectionMethod = "PAY"
	// CollectionQR asks for the UPI QR link (Order.CollectionLinks.QR).
	CollectionQR CollectionMethod = "QR"
)

// CollectionLinks asks for payment collection links: it sends
// options.get_payment_collection_link=1 and payment_collection_link_details,
// JSON text like
// {"supported_payment_methods":["PAY","QR"],"expiry_details":[{"payment_method":"PAY","expiry_in_mins":"30"}]}.
type CollectionLinks struct {
	// Links lists the methods wanted, each at most once, in the order sent.
	Links []CollectionLink
}

// CollectionLink is one method of CollectionLinks.
type CollectionLink struct {
	// Method is CollectionPay or CollectionQR.
	Method CollectionMethod
	// Expiry is the link's lifetime from its creation, a whole number of
	// minutes (sent as expiry_in_mins, text). Zero sends no expiry for this
	// method and the service's default applies.
	Expiry time.Duration
}

type collectionDetails struct {
	SupportedPaymentMethods []CollectionMethod `json:"supported_payment_methods"`
	ExpiryDetails           []expiryDetail     `json:"expiry_details,omitempty"`
}

type expiryDetail struct {
	PaymentMethod CollectionMethod `json:"payment_method"`
	ExpiryInMins  string           `json:"expiry_in_mins"`
}

// Form keys of the order request.
const (
	keyCollectionFlag    = "options.get_payment_collection_link"
	keyCollectionDetails = "payment_collection_link_details"
	keyClientAuthToken   = "options.get_client_auth_token"
	keySubvention        = "metadata.subvention_amount"
)

// addressKeys pairs each address suffix with its field.
func addressFields(a *Address) [11][2]string {
	return [11][2]string{
		{"first_name", a.FirstName}, {"last_name", a.LastName},
		{"line1", a.Line1}, {"line2", a.Line2}, {"line3", a.Line3},
		{"city", a.City}, {"state", a.State}, {"country", a.Country},
		{"postal_code", a.PostalCode}, {"phone", a.Phone},
		{"country_code_iso", a.CountryCodeISO},
	}
}

// orderKey reports the keys owned by OrderRequest's typed fields.
func orderKey(k string) bool {
	switch k {
	case "order_id", "amount", "currency", "customer_id", "customer_email",
		"customer_phone", "product_id", "return_url", "description",
		keySubvention, keyGatewayReferenceID, keyWebhookURL, keyClientAuthToken,
		keyCollectionFlag, keyCollectionDetails:
		return true
	}
	for _, p := range []string{"billing_address_", "shipping_address_"} {
		if suffix, ok := strings.CutPrefix(k, p); ok {
			for _, f := range addressFields(&Address{}) {
				if f[0] == suffix {
					return true
				}
			}
		}
	}
	return false
}

// Validate checks the request and returns a *ValidationError listing every
// problem (paths are the form keys), or nil. CreateOrder calls it before
// sending anything.
func (r *OrderRequest) Validate() error {
	if r == nil {
		return &ValidationError{Problems: []Problem{{Message: "order request is nil"}}}
	}
	var c valid.Collector
	required(&c, "order_id", r.OrderID)
	if r.Amount == "" {
		c.Add("amount", "is required")
	} else {
		checkAmount(&c, "amount", r.Amount)
	}
	if r.SubventionAmount != "" {
		checkAmount(&c, keySubvention, r.SubventionAmount)
	}
	if r.ReturnURL != "" {
		checkURL(&c, "return_url", r.ReturnURL, false)
	}
	if r.WebhookURL != "" {
		checkURL(&c, keyWebhookURL, r.WebhookURL, true)
	}
	checkText(&c,
		[2]string{"order_id", r.OrderID}, [2]string{"currency", r.Currency},
		[2]string{"customer_id", r.CustomerID}, [2]string{"customer_email", r.CustomerEmail},
		[2]string{"customer_phone", r.CustomerPhone}, [2]string{"product_id", r.ProductID},
		[2]string{"return_url", r.ReturnURL}, [2]string{"description", r.Description},
		[2]string{keyGatewayReferenceID, r.GatewayReferenceID}, [2]string{keyWebhookURL, r.WebhookURL})
	for _, a := range []struct {
		prefix string
		addr   *Address
	}{{"billing_address_", r.BillingAddress}, {"shipping_address_", r.ShippingAddress}} {
		if a.addr != nil {
			for _, f := range addressFields(a.addr) {
				checkText(&c, [2]string{a.prefix + f[0], f[1]})
			}
		}
	}
	for i, m := range r.GatewayMetadata {
		checkText(&c, [2]string{valid.Index("metadata", i), m.Gateway + m.Key + m.Value})
	}
	seen := map[string]bool{}
	for i, m := range r.GatewayMetadata {
		p := valid.Index("metadata", i)
		switch {
		case m.Gateway == "" || strings.ContainsAny(m.Gateway, ":.") || strings.TrimSpace(m.Gateway) != m.Gateway:
			c.Add(p+".Gateway", `must be a gateway code without ":", "." or spaces`)
		case m.Key == "" || strings.Contains(m.Key, ":") || strings.TrimSpace(m.Key) != m.Key:
			c.Add(p+".Key", `must be a key without ":" or surrounding spaces`)
		default:
			k := m.key()
			if orderKey(k) {
				c.Add(k, "is a typed field of OrderRequest; set it there")
			} else if seen[k] {
				c.Add(k, "is given twice")
			}
			seen[k] = true
		}
	}
	if cl := r.CollectionLinks; cl != nil {
		if len(cl.Links) == 0 {
			c.Add(keyCollectionDetails+".supported_payment_methods", "needs at least one of PAY, QR")
		}
		methods := map[CollectionMethod]bool{}
		expiries := 0 // index of this link's entry in expiry_details
		for i, l := range cl.Links {
			p := valid.Index(keyCollectionDetails+".supported_payment_methods", i)
			switch l.Method {
			case CollectionPay, CollectionQR:
				if methods[l.Method] {
					c.Add(p, string(l.Method)+" is given twice")
				}
				methods[l.Method] = true
			default:
				c.Add(p, "must be PAY or QR")
			}
			if l.Expiry < 0 || l.Expiry%time.Minute != 0 {
				c.Add(valid.Index(keyCollectionDetails+".expiry_details", expiries)+".expiry_in_mins",
					"must be a whole number of minutes, more than 0 (or 0 for the service's default)")
			}
			if l.Expiry != 0 {
				expiries++
			}
		}
	}
	for _, k := range sortedKeys(r.Extra) {
		switch {
		case !checkExtraKey(&c, k):
		case orderKey(k) || seen[k]:
			c.Add(k, "is a typed field of OrderRequest; set it there, not in Extra")
		default:
			checkText(&c, [2]string{k, r.Extra[k]})
		}
	}
	return c.Err()
}

func (m GatewayMetadata) key() string { return "metadata." + m.Gateway + ":" + m.Key }

// form returns the request's form values. It assumes Validate passed.
func (r *OrderRequest) form() (url.Values, error) {
	v := make(url.Values, 24)
	set := func(k, s string) {
		if s != "" {
			v[k] = []string{s}
		}
	}
	set("order_id", r.OrderID)
	set("amount", string(r.Amount))
	set("currency", r.Currency)
	set("customer_id", r.CustomerID)
	set("customer_email", r.CustomerEmail)
	set("customer_phone", r.CustomerPhone)
	set("product_id", r.ProductID)
	set("return_url", r.ReturnURL)
	set("description", r.Description)
	for _, a := range []struct {
		prefix string
		addr   *Address
	}{{"billing_address_", r.BillingAddress}, {"shipping_address_", r.ShippingAddress}} {
		if a.addr == nil {
			continue
		}
		for _, f := range addressFields(a.addr) {
			set(a.prefix+f[0], f[1])
		}
	}
	for _, m := range r.GatewayMetadata {
		v[m.key()] = []string{m.Value}
	}
	set(keySubvention, string(r.SubventionAmount))
	set(keyGatewayReferenceID, r.GatewayReferenceID)
	set(keyWebhookURL, r.WebhookURL)
	if r.ClientAuthToken {
		v[keyClientAuthToken] = []string{"true"}
	}
	if cl := r.CollectionLinks; cl != nil {
		d := collectionDetails{SupportedPaymentMethods: make([]CollectionMethod, 0, len(cl.Links))}
		for _, l := range cl.Links {
			d.SupportedPaymentMethods = append(d.SupportedPaymentMethods, l.Method)
			if l.Expiry > 0 {
				d.ExpiryDetails = append(d.ExpiryDetails, expiryDetail{
					PaymentMethod: l.Method,
					ExpiryInMins:  strconv.FormatInt(int64(l.Expiry/time.Minute), 10),
				})
			}
		}
		text, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", keyCollectionDetails, err)
		}
		v[keyCollectionFlag] = []string{"1"}
		v[keyCollectionDetails] = []string{string(text)}
	}
	for k, s := range r.Extra {
		v[k] = []string{s}
	}
	return v, nil
}

// Order is the reply to POST /orders (spec §2.8). With encoding/json it
// decodes as CreateOrder does and encodes as the service's reply, Raw.
//
// Do not rely on its status being CREATED (status_id 1), the spec's value for
// a new order: the service's published replies to orders with collection
// links say NEW (status_id 10), and other options may give other statuses.
// The fake in checkouttest answers CREATED, as the spec's table says.
type Order struct {
	// Status is status ("CREATED", "NEW", …).
	Status string
	// StatusID is status_id (1 for CREATED, 10 for NEW, …).
	StatusID int
	// ID is id, the service's order id.
	ID string
	// OrderID is order_id, the merchant's order id.
	OrderID string
	// PaymentLinks is payment_links.
	PaymentLinks PaymentLinks
	// CollectionLinks holds links.payment_collection_links, present when
	// the request asked for them.
	CollectionLinks CollectionLinkURLs
	// ClientAuthToken is the client auth token the reply carries when the
	// request set ClientAuthToken (the published samples put it at
	// juspay.client_auth_token); empty otherwise.
	ClientAuthToken string
	// Raw is the whole response body.
	Raw json.RawMessage
}

// CollectionLinkURLs are the payment collection links of an order reply.
type CollectionLinkURLs struct {
	// QR is links.payment_collection_links.QR: a page showing a UPI QR code.
	QR string
	// Intent is links.payment_collection_links.INTENT: the UPI intent link
	// (requested as PAY).
	Intent string
}

type orderWire struct {
	Status       lenient.String                   `json:"status"`
	StatusID     lenient.Int                      `json:"status_id"`
	ID           lenient.String                   `json:"id"`
	OrderID      lenient.String                   `json:"order_id"`
	PaymentLinks lenient.Object[paymentLinksWire] `json:"payment_links"`
	Links        lenient.Object[struct {
		Collection lenient.Object[struct {
			QR     lenient.String `json:"QR"`
			Intent lenient.String `json:"INTENT"`
		}] `json:"payment_collection_links"`
	}] `json:"links"`
	Token lenient.Object[struct {
		ClientAuthToken lenient.String `json:"client_auth_token"`
	}] `json:"juspay"`
}

func decodeOrder(body []byte) (*Order, error) {
	var w orderWire
	if err := decodeObject(body, &w); err != nil {
		return nil, err
	}
	cl := w.Links.V.Collection.V
	return &Order{
		Status:          string(w.Status),
		StatusID:        int(w.StatusID),
		ID:              string(w.ID),
		OrderID:         string(w.OrderID),
		PaymentLinks:    w.PaymentLinks.V.links(),
		CollectionLinks: CollectionLinkURLs{QR: string(cl.QR), Intent: string(cl.Intent)},
		ClientAuthToken: string(w.Token.V.ClientAuthToken),
		Raw:             body,
	}, nil
}

// CreateOrder validates req and sends it as POST /orders
// (application/x-www-form-urlencoded) with the `version` header. A
// *ValidationError means nothing was sent. The call is not retried after it
// may have reached the service: after a [*TransportError] whose
// MaybeDelivered is true, look the order up with [Client.GetOrder] before
// creating it again (see [Client]).
func (c *Client) CreateOrder(ctx context.Context, req *OrderRequest, opts ...RequestOption) (*Order, error) {
	const op = "create order"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, valid.ForOp(op, err)
	}
	form, err := req.form()
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: %w", op, err)
	}
	return send(ctx, c, postForm(op, "/orders", form), opts, decodeOrder)
}

// OrderStatus is an order as GET /orders/{order_id} and the refund call
// return it (see the published order-status samples). Numbers the service
// sends as strings, and redacted fields ("FILTERED"), are read leniently; Raw
// keeps everything, including the many fields not typed here. With
// encoding/json it decodes as GetOrder does and encodes as Raw.
type OrderStatus struct {
	// OrderID is order_id, the merchant's order id.
	OrderID string
	// ID is id, the service's order id.
	ID string
	// Status is status ("NEW", "CHARGED", "PENDING_VBV", …).
	Status string
	// StatusID is status_id (21 for CHARGED, …).
	StatusID int
	// Amount is amount.
	Amount Amount
	// EffectiveAmount is effective_amount.
	EffectiveAmount Amount
	// Currency is currency.
	Currency string
	// Refunded is refunded.
	Refunded bool
	// AmountRefunded is amount_refunded.
	AmountRefunded Amount
	// Refunds is refunds[].
	Refunds []Refund
	// TxnID is txn_id, the latest transaction.
	TxnID string
	// TxnUUID is txn_uuid.
	TxnUUID string
	// PaymentMethodType is payment_method_type ("CARD", "UPI", …).
	PaymentMethodType string
	// PaymentMethod is payment_method ("VISA", "NB_HDFC", …).
	PaymentMethod string
	// CustomerID is customer_id.
	CustomerID string
	// CustomerEmail is customer_email.
	CustomerEmail string
	// CustomerPhone is customer_phone.
	CustomerPhone string
	// MerchantID is merchant_id.
	MerchantID string
	// GatewayID is gateway_id.
	GatewayID int
	// GatewayReferenceID is gateway_reference_id.
	GatewayReferenceID string
	// ReturnURL is return_url.
	ReturnURL string
	// ProductID is product_id.
	ProductID string
	// PaymentLinks is payment_links.
	PaymentLinks PaymentLinks
	// DateCreated is date_created, zero when absent or unreadable.
	DateCreated time.Time
	// Raw is the whole response body.
	Raw json.RawMessage
}

// Refund is one element of an order's refunds[].
type Refund struct {
	// ID is id.
	ID string
	// UniqueRequestID is unique_request_id, the merchant's refund id.
	UniqueRequestID string
	// Ref is ref, the gateway's reference.
	Ref string
	// Status is status ("PENDING", "SUCCESS", …).
	Status string
	// Amount is amount.
	Amount Amount
	// Created is created, zero when absent or unreadable.
	Created time.Time
	// SentToGateway is sent_to_gateway.
	SentToGateway bool
	// InitiatedBy is initiated_by.
	InitiatedBy string
	// RefundType is refund_type ("STANDARD", "INSTANT").
	RefundType string
	// RefundSource is refund_source.
	RefundSource string
	// ErrorCode is error_code.
	ErrorCode string
	// ErrorMessage is error_message.
	ErrorMessage string
}

type refundWire struct {
	ID              lenient.String `json:"id"`
	UniqueRequestID lenient.String `json:"unique_request_id"`
	Ref             lenient.String `json:"ref"`
	Status          lenient.String `json:"status"`
	Amount          lenient.Number `json:"amount"`
	Created         lenient.String `json:"created"`
	SentToGateway   lenient.Bool   `json:"sent_to_gateway"`
	InitiatedBy     lenient.String `json:"initiated_by"`
	RefundType      lenient.String `json:"refund_type"`
	RefundSource    lenient.String `json:"refund_source"`
	ErrorCode       lenient.String `json:"error_code"`
	ErrorMessage    lenient.String `json:"error_message"`
}

func (r refundWire) refund() Refund {
	return Refund{
		ID:              string(r.ID),
		UniqueRequestID: string(r.UniqueRequestID),
		Ref:             string(r.Ref),
		Status:          string(r.Status),
		Amount:          amountFromWire(string(r.Amount)),
		Created:         parseTime(string(r.Created)),
		SentToGateway:   bool(r.SentToGateway),
		InitiatedBy:     string(r.InitiatedBy),
		RefundType:      string(r.RefundType),
		RefundSource:    string(r.RefundSource),
		ErrorCode:       string(r.ErrorCode),
		ErrorMessage:    string(r.ErrorMessage),
	}
}

type orderStatusWire struct {
	OrderID            lenient.String                   `json:"order_id"`
	ID                 lenient.String                   `json:"id"`
	Status             lenient.String                   `json:"status"`
	StatusID           lenient.Int                      `json:"status_id"`
	Amount             lenient.Number                   `json:"amount"`
	EffectiveAmount    lenient.Number                   `json:"effective_amount"`
	Currency           lenient.String                   `json:"currency"`
	Refunded           lenient.Bool                     `json:"refunded"`
	AmountRefunded     lenient.Number                   `json:"amount_refunded"`
	Refunds            lenient.Array[refundWire]        `json:"refunds"`
	TxnID              lenient.String                   `json:"txn_id"`
	TxnUUID            lenient.String                   `json:"txn_uuid"`
	PaymentMethodType  lenient.String                   `json:"payment_method_type"`
	PaymentMethod      lenient.String                   `json:"payment_method"`
	CustomerID         lenient.String                   `json:"customer_id"`
	CustomerEmail      lenient.String                   `json:"customer_email"`
	CustomerPhone      lenient.String                   `json:"customer_phone"`
	MerchantID         lenient.String                   `json:"merchant_id"`
	GatewayID          lenient.Int                      `json:"gateway_id"`
	GatewayReferenceID lenient.String                   `json:"gateway_reference_id"`
	ReturnURL          lenient.String                   `json:"return_url"`
	ProductID          lenient.String                   `json:"product_id"`
	PaymentLinks       lenient.Object[paymentLinksWire] `json:"payment_links"`
	DateCreated        lenient.String                   `json:"date_created"`
}

func decodeOrderStatus(body []byte) (*OrderStatus, error) {
	var w orderStatusWire
	if err := decodeObject(body, &w); err != nil {
		return nil, err
	}
	s := &OrderStatus{
		OrderID:            string(w.OrderID),
		ID:                 string(w.ID),
		Status:             string(w.Status),
		StatusID:           int(w.StatusID),
		Amount:             amountFromWire(string(w.Amount)),
		EffectiveAmount:    amountFromWire(string(w.EffectiveAmount)),
		Currency:           string(w.Currency),
		Refunded:           bool(w.Refunded),
		AmountRefunded:     amountFromWire(string(w.AmountRefunded)),
		TxnID:              string(w.TxnID),
		TxnUUID:            string(w.TxnUUID),
		PaymentMethodType:  string(w.PaymentMethodType),
		PaymentMethod:      string(w.PaymentMethod),
		CustomerID:         string(w.CustomerID),
		CustomerEmail:      string(w.CustomerEmail),
		CustomerPhone:      string(w.CustomerPhone),
		MerchantID:         string(w.MerchantID),
		GatewayID:          int(w.GatewayID),
		GatewayReferenceID: string(w.GatewayReferenceID),
		ReturnURL:          string(w.ReturnURL),
		ProductID:          string(w.ProductID),
		PaymentLinks:       w.PaymentLinks.V.links(),
		DateCreated:        parseTime(string(w.DateCreated)),
		Raw:                body,
	}
	for _, r := range w.Refunds {
		s.Refunds = append(s.Refunds, r.refund())
	}
	return s, nil
}

// orderPath returns /orders/{order_id} with the id path-escaped, or a
// validation error.
func orderPath(orderID string) (string, error) {
	var c valid.Collector
	switch {
	case strings.TrimSpace(orderID) == "":
		c.Add("order_id", "is required")
	case orderID == "." || orderID == "..":
		c.Add("order_id", `must not be "." or ".."`)
	}
	if err := c.Err(); err != nil {
		return "", err
	}
	return "/orders/" + url.PathEscape(orderID), nil
}

// GetOrder reads the order's status with GET /orders/{order_id} (the id is
// path-escaped) and the `version` header. The call is idempotent, so it is
// also retried after timeouts and 500, 502, 504.
func (c *Client) GetOrder(ctx context.Context, orderID string, opts ...RequestOption) (*OrderStatus, error) {
	const op = "get order"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	path, err := orderPath(orderID)
	if err != nil {
		return nil, valid.ForOp(op, err)
	}
	cl := &call{op: op, method: "GET", path: path, versioned: true, idempotent: true}
	return send(ctx, c, cl, opts, decodeOrderStatus)
}

// RefundRequest is the form body of POST /orders/{order_id}/refunds.
type RefundRequest struct {
	// UniqueRequestID is unique_request_id (required): the merchant's id
	// of this refund. Reuse it when retrying the same refund.
	UniqueRequestID string
	// Amount is amount (required), decimal text with two places, more than 0.
	Amount Amount
}

// Validate checks the request and returns a *ValidationError or nil.
func (r *RefundRequest) Validate() error {
	if r == nil {
		return &ValidationError{Problems: []Problem{{Message: "refund request is nil"}}}
	}
	var c valid.Collector
	required(&c, "unique_request_id", r.UniqueRequestID)
	if r.Amount == "" {
		c.Add("amount", "is required")
	} else if m, err := r.Amount.Minor(); err != nil {
		c.Add("amount", errAmountSyntax.Error())
	} else if m == 0 {
		c.Add("amount", "must be more than 0.00")
	}
	return c.Err()
}

// Refund refunds part or all of an order with POST
// /orders/{order_id}/refunds (form: unique_request_id, amount) and returns
// the order with its refunds[]. Like every write, it is not retried after it
// may have reached the service; after a [*TransportError] whose
// MaybeDelivered is true, check [Client.GetOrder] and retry it yourself with
// the same UniqueRequestID (see [Client]).
func (c *Client) Refund(ctx context.Context, orderID string, req *RefundRequest, opts ...RequestOption) (*OrderStatus, error) {
	const op = "refund"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	var c1 valid.Collector
	path, err := orderPath(orderID)
	mergeProblems(&c1, "order_id", err)
	mergeProblems(&c1, "", req.Validate())
	if err := c1.Err(); err != nil {
		return nil, valid.ForOp(op, err)
	}
	form := url.Values{
		"unique_request_id": {req.UniqueRequestID},
		"amount":            {string(req.Amount)},
	}
	return send(ctx, c, postForm(op, path+"/refunds", form), opts, decodeOrderStatus)
}
