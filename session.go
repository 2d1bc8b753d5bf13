package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
)

// Action selects the checkout screen a session opens: the session request's
// "action" (spec §1, §2.1).
type Action string

// The actions of spec §1, spelled as the service expects.
const (
	// PaymentPage opens the checkout screen for a payment.
	PaymentPage Action = "paymentPage"
	// QuickPay opens the quick-pay screen (in the app only).
	QuickPay Action = "quickPay"
	// PaymentManagement opens the screen where the customer deletes stored
	// payment methods. It takes no order_id and no amount.
	PaymentManagement Action = "paymentManagement"
)

// Valid reports whether a is one of PaymentPage, QuickPay, PaymentManagement.
func (a Action) Valid() bool {
	return a == PaymentPage || a == QuickPay || a == PaymentManagement
}

// MandateOption is the session request's "options.create_mandate" (spec §2.1).
type MandateOption string

// The values of options.create_mandate.
const (
	// MandateRequired shows only mandate-enabled payment options.
	MandateRequired MandateOption = "REQUIRED"
	// MandateOptional lets the customer choose a one-time or a mandate
	// payment.
	MandateOptional MandateOption = "OPTIONAL"
)

// Mandate asks the session to set up a mandate (spec §2.1): the flat keys
// "options.create_mandate", "mandate.max_amount", "mandate.start_date" and
// "mandate.end_date".
type Mandate struct {
	// Option is options.create_mandate (required).
	Option MandateOption
	// MaxAmount is mandate.max_amount (required), the most one debit may take.
	MaxAmount Amount
	// StartDate is mandate.start_date, sent as Unix seconds in text
	// ("1644420442"). The zero time is not sent.
	StartDate time.Time
	// EndDate is mandate.end_date, sent like StartDate; it must be after
	// StartDate when both are set.
	EndDate time.Time
}

// SessionRequest is the JSON body of POST /session (spec §2.1, §4.1). Fields
// are sent under the spec's keys; empty optional fields are left out.
// json.Marshal gives that body (MarshalJSON) and json.Unmarshal reads it
// back (UnmarshalJSON).
type SessionRequest struct {
	// OrderID is order_id: required for PaymentPage and QuickPay, must be
	// empty for PaymentManagement.
	OrderID string
	// Amount is amount, decimal text with two places: required for
	// PaymentPage and QuickPay, must be empty for PaymentManagement.
	Amount Amount
	// CustomerID is customer_id (required).
	CustomerID string
	// CustomerPhone is customer_phone (required).
	CustomerPhone string
	// CustomerEmail is customer_email (required).
	CustomerEmail string
	// PaymentPageClientID is payment_page_client_id (required), the client
	// id of the checkout configuration.
	PaymentPageClientID string
	// Action is action (required).
	Action Action
	// ReturnURL is return_url: where the customer lands after paying.
	ReturnURL string
	// Description is description, shown for the payment.
	Description string
	// FirstName is first_name.
	FirstName string
	// LastName is last_name.
	LastName string
	// PaymentFilter is payment_filter (spec §2.2–2.5), sent as an object.
	PaymentFilter *paymentfilter.Filter
	// EMI is sdk_udf (spec §2.5), the EMI visibility switch.
	EMI emi.Visibility
	// ProductSummary is product_summary (spec §2.6), sent as a JSON string
	// holding the array. An empty summary is not sent.
	ProductSummary productsummary.Summary
	// Mandate sets the mandate keys; nil sends none.
	Mandate *Mandate
	// GatewayReferenceID is "metadata.SERVICE:gateway_reference_id" (spec
	// §2.8): it must equal the reference configured for the gateway.
	GatewayReferenceID string
	// WebhookURL is "metadata.webhook_url" (spec §6.1.6): this order's
	// webhooks go there. It must be https (http only on a loopback address).
	WebhookURL string
	// Extra carries fields the spec does not list (udf1…udf10, currency,
	// mobile_country_code, …), sent as top-level keys after the typed ones.
	// A key the typed fields own is a validation error, never a silent
	// override.
	Extra map[string]any
}

// Wire keys of the session request.
const (
	keyCreateMandate      = "options.create_mandate"
	keyMandateMaxAmount   = "mandate.max_amount"
	keyMandateStartDate   = "mandate.start_date"
	keyMandateEndDate     = "mandate.end_date"
	keyGatewayReferenceID = "metadata.SERVICE:gateway_reference_id"
	keyWebhookURL         = "metadata.webhook_url"
)

// sessionKey reports the keys owned by SessionRequest's typed fields.
func sessionKey(k string) bool {
	switch k {
	case "order_id", "amount", "customer_id", "customer_phone", "customer_email",
		"payment_page_client_id", "action", "return_url", "description",
		"first_name", "last_name", "payment_filter", "sdk_udf", "product_summary",
		keyCreateMandate, keyMandateMaxAmount, keyMandateStartDate, keyMandateEndDate,
		keyGatewayReferenceID, keyWebhookURL:
		return true
	}
	return false
}

// Validate checks the request against the spec and returns a
// *ValidationError listing every problem (with the JSON path of each), or
// nil. CreateSession calls it before sending anything.
func (r *SessionRequest) Validate() error {
	if r == nil {
		return &ValidationError{Problems: []Problem{{Message: "session request is nil"}}}
	}
	var c valid.Collector
	switch {
	case r.Action == "":
		c.Add("action", "is required")
	case !r.Action.Valid():
		c.Add("action", fmt.Sprintf("must be %s, %s or %s", PaymentPage, QuickPay, PaymentManagement))
	case r.Action == PaymentManagement:
		if r.OrderID != "" {
			c.Add("order_id", "must be empty for paymentManagement")
		}
		if r.Amount != "" {
			c.Add("amount", "must be empty for paymentManagement")
		}
	default:
		if strings.TrimSpace(r.OrderID) == "" {
			c.Add("order_id", "is required for "+string(r.Action))
		}
		if r.Amount == "" {
			c.Add("amount", "is required for "+string(r.Action))
		}
	}
	if r.Amount != "" {
		checkAmount(&c, "amount", r.Amount)
	}
	required(&c, "customer_id", r.CustomerID)
	required(&c, "customer_phone", r.CustomerPhone)
	required(&c, "customer_email", r.CustomerEmail)
	required(&c, "payment_page_client_id", r.PaymentPageClientID)
	if r.ReturnURL != "" {
		checkURL(&c, "return_url", r.ReturnURL, false)
	}
	if r.WebhookURL != "" {
		checkURL(&c, keyWebhookURL, r.WebhookURL, true)
	}
	r.checkEncodable(&c)
	if r.PaymentFilter != nil {
		mergeProblems(&c, "payment_filter", r.PaymentFilter.Validate())
	}
	if r.EMI != "" {
		mergeProblems(&c, "sdk_udf", r.EMI.Validate())
	}
	if len(r.ProductSummary) > 0 {
		mergeProblems(&c, "product_summary", r.ProductSummary.Validate())
	}
	if m := r.Mandate; m != nil {
		switch m.Option {
		case "":
			c.Add(keyCreateMandate, "is required with a mandate")
		case MandateRequired, MandateOptional:
		default:
			c.Add(keyCreateMandate, fmt.Sprintf("must be %s or %s", MandateRequired, MandateOptional))
		}
		if m.MaxAmount == "" {
			c.Add(keyMandateMaxAmount, "is required with a mandate")
		} else {
			checkAmount(&c, keyMandateMaxAmount, m.MaxAmount)
		}
		if !m.StartDate.IsZero() && m.StartDate.Unix() <= 0 {
			c.Add(keyMandateStartDate, "must be after 1970-01-01")
		}
		if !m.EndDate.IsZero() && m.EndDate.Unix() <= 0 {
			c.Add(keyMandateEndDate, "must be after 1970-01-01")
		}
		if !m.StartDate.IsZero() && !m.EndDate.IsZero() && !m.EndDate.After(m.StartDate) {
			c.Add(keyMandateEndDate, "must be after mandate.start_date")
		}
	}
	return c.Err()
}

// checkEncodable records the problems that would make the encoded body
// differ from the request: text that is not valid UTF-8 (encoding would
// replace it with U+FFFD), Extra keys that are empty, hold control
// characters or belong to a typed field, and Extra values holding invalid
// UTF-8 anywhere inside. Validate and MarshalJSON both run it.
func (r *SessionRequest) checkEncodable(c *valid.Collector) {
	checkText(c,
		[2]string{"order_id", r.OrderID}, [2]string{"customer_id", r.CustomerID},
		[2]string{"customer_phone", r.CustomerPhone}, [2]string{"customer_email", r.CustomerEmail},
		[2]string{"payment_page_client_id", r.PaymentPageClientID}, [2]string{"return_url", r.ReturnURL},
		[2]string{"description", r.Description}, [2]string{"first_name", r.FirstName},
		[2]string{"last_name", r.LastName}, [2]string{keyGatewayReferenceID, r.GatewayReferenceID},
		[2]string{keyWebhookURL, r.WebhookURL}, [2]string{"amount", string(r.Amount)},
		[2]string{"action", string(r.Action)}, [2]string{"sdk_udf", string(r.EMI)})
	if m := r.Mandate; m != nil {
		checkText(c, [2]string{keyCreateMandate, string(m.Option)}, [2]string{keyMandateMaxAmount, string(m.MaxAmount)})
	}
	for _, k := range sortedKeys(r.Extra) {
		if !checkExtraKey(c, k) {
			continue
		}
		if sessionKey(k) {
			c.Add(k, "is a typed field of SessionRequest; set it there, not in Extra")
			continue
		}
		checkExtraValue(c, k, r.Extra[k])
	}
}

// required records a problem when a required text field is blank.
func required(c *valid.Collector, path, v string) {
	if strings.TrimSpace(v) == "" {
		c.Add(path, "is required")
	}
}

// checkText records a problem for each {path, text} pair whose text is not
// valid UTF-8: encoding would silently replace the bad bytes.
func checkText(c *valid.Collector, fields ...[2]string) {
	for _, f := range fields {
		if !utf8.ValidString(f[1]) {
			c.Add(f[0], "is not valid UTF-8")
		}
	}
}

// checkAmount records a problem when a is not decimal text with two places.
func checkAmount(c *valid.Collector, path string, a Amount) {
	if _, err := a.Minor(); err != nil {
		c.Add(path, errAmountSyntax.Error())
	}
}

// checkURL records a problem when s is not an absolute http(s) URL; with
// secure, plain http is accepted only on a loopback host.
func checkURL(c *valid.Collector, path, s string, secure bool) {
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		c.Add(path, "must be an absolute http(s) URL")
	case u.User != nil:
		c.Add(path, "must not carry user information")
	case secure && u.Scheme != "https" && !isLoopback(u.Hostname()):
		c.Add(path, "must be https (http only on a loopback address)")
	}
}

// mergeProblems adds the problems of a sub-package's Validate, whose paths
// are already complete; any other error becomes one problem at path.
func mergeProblems(c *valid.Collector, path string, err error) {
	if err == nil {
		return
	}
	if ve, ok := err.(*valid.Error); ok {
		for _, p := range ve.Problems {
			c.Add(p.Path, p.Message)
		}
		return
	}
	c.Add(path, err.Error())
}

func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// encode returns the JSON body: the typed keys in the order of the spec's
// table, each when set (Validate makes sure the required ones are), then the
// Extra keys sorted. CreateSession runs Validate first; MarshalJSON runs
// checkEncodable only, so an incomplete request encodes without its empty
// keys.
func (r *SessionRequest) encode() ([]byte, error) {
	o := jsonObject{b: make([]byte, 0, 512)}
	o.str("order_id", r.OrderID, false)
	o.str("amount", string(r.Amount), false)
	o.str("customer_id", r.CustomerID, false)
	o.str("customer_phone", r.CustomerPhone, false)
	o.str("customer_email", r.CustomerEmail, false)
	o.str("payment_page_client_id", r.PaymentPageClientID, false)
	o.str("action", string(r.Action), false)
	o.str("return_url", r.ReturnURL, false)
	o.str("description", r.Description, false)
	o.str("first_name", r.FirstName, false)
	o.str("last_name", r.LastName, false)
	if r.PaymentFilter != nil {
		// MarshalJSON directly: json.Marshal would re-scan its output.
		o.key("payment_filter")
		b, err := r.PaymentFilter.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("encode payment_filter: %w", err)
		}
		o.b = append(o.b, b...)
	}
	o.str("sdk_udf", string(r.EMI), false)
	if len(r.ProductSummary) > 0 {
		text, err := r.ProductSummary.MarshalText()
		if err != nil {
			return nil, fmt.Errorf("encode product_summary: %w", err)
		}
		o.str("product_summary", string(text), true)
	}
	if m := r.Mandate; m != nil {
		o.str(keyCreateMandate, string(m.Option), false)
		o.str(keyMandateMaxAmount, string(m.MaxAmount), false)
		if !m.StartDate.IsZero() {
			o.str(keyMandateStartDate, strconv.FormatInt(m.StartDate.Unix(), 10), true)
		}
		if !m.EndDate.IsZero() {
			o.str(keyMandateEndDate, strconv.FormatInt(m.EndDate.Unix(), 10), true)
		}
	}
	o.str(keyGatewayReferenceID, r.GatewayReferenceID, false)
	o.str(keyWebhookURL, r.WebhookURL, false)
	var c valid.Collector
	for _, k := range sortedKeys(r.Extra) {
		v, err := marshalNoEscape(r.Extra[k])
		if err != nil {
			c.Add(k, "value cannot be encoded as JSON: "+err.Error())
			continue
		}
		o.raw(k, v)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return o.close(), nil
}

// Session is the reply to POST /session (spec §2.1, §4.1). With
// encoding/json it decodes as CreateSession does (UnmarshalJSON) and encodes
// as the service's reply, Raw (MarshalJSON).
type Session struct {
	// Status is the order's status ("NEW").
	Status string
	// ID is the service's order id ("ordeh_…").
	ID string
	// OrderID is the merchant's order id.
	OrderID string
	// PaymentLinks are the hosted payment page's links.
	PaymentLinks PaymentLinks
	// SDKPayload is "sdk_payload" exactly as the service sent it, byte for
	// byte: hand it unchanged to the client SDK's process operation.
	SDKPayload json.RawMessage
	// Raw is the whole response body.
	Raw json.RawMessage
}

// PaymentLinks is the "payment_links" object of a session or order.
type PaymentLinks struct {
	// Web is payment_links.web.
	Web string
	// Mobile is payment_links.mobile.
	Mobile string
	// IFrame is payment_links.iframe.
	IFrame string
	// Expiry is payment_links.expiry, zero when absent or unreadable.
	Expiry time.Time
}

type paymentLinksWire struct {
	Web    lenient.String `json:"web"`
	Mobile lenient.String `json:"mobile"`
	IFrame lenient.String `json:"iframe"`
	Expiry lenient.String `json:"expiry"`
}

func (w paymentLinksWire) links() PaymentLinks {
	return PaymentLinks{
		Web:    string(w.Web),
		Mobile: string(w.Mobile),
		IFrame: string(w.IFrame),
		Expiry: parseTime(string(w.Expiry)),
	}
}

// parseTime reads an RFC 3339 time with or without fractional seconds; the
// zero time when s is empty or unreadable (the raw text stays in Raw).
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

type sessionWire struct {
	Status       lenient.String   `json:"status"`
	ID           lenient.String   `json:"id"`
	OrderID      lenient.String   `json:"order_id"`
	PaymentLinks paymentLinksWire `json:"payment_links"`
	SDKPayload   json.RawMessage  `json:"sdk_payload"`
}

// decodeObject decodes a reply that must be a JSON object into a wire struct
// whose scalars are lenient types. A nested object given as something else
// ("FILTERED", null, a number) is left zero: encoding/json skips such a
// field, finishes the rest and reports an *json.UnmarshalTypeError, which is
// ignored here. Syntax errors are returned.
func decodeObject(body []byte, v any) error {
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return errors.New("decode response: not a JSON object")
	}
	err := json.Unmarshal(body, v)
	var te *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &te) {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// decodeSession reads a session reply. It fails only when the body is not a
// JSON object or carries no sdk_payload object, which the caller could not
// use.
func decodeSession(body []byte) (*Session, error) {
	var w sessionWire
	if err := decodeObject(body, &w); err != nil {
		return nil, err
	}
	p := bytes.TrimSpace(w.SDKPayload)
	if len(p) == 0 || p[0] != '{' {
		return nil, fmt.Errorf("decode response: no sdk_payload object")
	}
	return &Session{
		Status:       string(w.Status),
		ID:           string(w.ID),
		OrderID:      string(w.OrderID),
		PaymentLinks: w.PaymentLinks.links(),
		SDKPayload:   w.SDKPayload,
		Raw:          body,
	}, nil
}

// CreateSession validates req, sends it as POST /session (JSON) and returns
// the session, whose SDKPayload goes unchanged to the client SDK. A
// *ValidationError means nothing was sent; an *APIError is the service's
// refusal. A 2xx reply without an sdk_payload object is an error too, since
// there is nothing to hand to the client SDK. The call is not retried after it
// may have reached the service (the service documents no idempotency for it):
// on a timeout, check the order with GetOrder before trying again.
func (c *Client) CreateSession(ctx context.Context, req *SessionRequest, opts ...RequestOption) (*Session, error) {
	const op = "create session"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	body, err := req.encode()
	if err != nil {
		if _, ok := err.(*valid.Error); ok {
			return nil, err
		}
		return nil, fmt.Errorf("checkout: %s: %w", op, err)
	}
	cl := &call{op: op, method: "POST", path: "/session", body: body, contentType: "application/json"}
	return send(ctx, c, cl, opts, decodeSession)
}
