package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

// Action selects the checkout screen a session opens: the request's action.
type Action string

// The actions this SDK knows, spelled as the service expects. The service
// takes others too (such as "enach", with a "service" key in
// [SessionRequest.Extra]); Validate lets any action through and checks an
// unknown one only for what every action needs.
const (
	// PaymentPage opens the checkout screen for a payment.
	PaymentPage Action = "paymentPage"
	// QuickPay opens the quick-pay screen (in the app only).
	QuickPay Action = "quickPay"
	// PaymentManagement opens the screen where the customer deletes stored
	// payment methods. It takes no order id and no amount.
	PaymentManagement Action = "paymentManagement"
)

// Known reports whether a is one of PaymentPage, QuickPay,
// PaymentManagement. Other actions are sent as given.
func (a Action) Known() bool {
	return a == PaymentPage || a == QuickPay || a == PaymentManagement
}

// MandateOption says whether the checkout screen sets up a mandate: the
// session request's options.create_mandate. Values other than the constants
// are sent as given; Lint reports them.
type MandateOption string

// The values of MandateOption.
const (
	// MandateRequired shows only mandate-enabled payment options.
	MandateRequired MandateOption = "REQUIRED"
	// MandateOptional lets the customer choose a one-time or a mandate
	// payment.
	MandateOptional MandateOption = "OPTIONAL"
)

// The wire keys of a session request that its rules name.
const (
	keyAction          = "action"
	keyClientID        = "payment_page_client_id"
	keyPaymentFilter   = "payment_filter"
	keySDKUDF          = "sdk_udf"
	keyProductSummary  = "product_summary"
	keyMandateOption   = "options.create_mandate"
	keyMandateMax      = "mandate.max_amount"
	keyMandateMaxOld   = "mandate_max_amount"
	keyMandateStart    = "mandate.start_date"
	keyMandateEnd      = "mandate.end_date"
	keyDefaultGWRefKey = "metadata." + DefaultNamespace + ":" + gatewayReferenceName
	keyUPIDeepLinks    = "options.get_upi_deep_links"
)

// Mandate asks the session to set up a mandate, a standing permission to
// debit the customer again later. Its fields travel as flat top-level keys
// of the session request.
type Mandate struct {
	// Option is sent as options.create_mandate. Without it the service
	// sets up no mandate and the other keys have no effect (Lint says so).
	Option MandateOption `json:"options.create_mandate,omitempty"`
	// MaxAmount is the most one debit may take, sent as mandate.max_amount;
	// required with Option. A body with the older spelling
	// mandate_max_amount decodes into it.
	MaxAmount Amount `json:"mandate.max_amount,omitempty"`
	// StartDate is when the mandate starts, sent as mandate.start_date in
	// Unix seconds as text ("1644420442"). The zero time is not sent.
	StartDate time.Time `json:"-"`
	// EndDate is when the mandate ends, sent as mandate.end_date like
	// StartDate; Lint advises it to be after StartDate.
	EndDate time.Time `json:"-"`
}

// SessionRequest opens a checkout session ([Client.CreateSession]): who
// pays, how much, and how the checkout screen looks. Empty fields are not
// sent. json.Marshal gives the body the client sends and json.Unmarshal
// reads such a body back.
type SessionRequest struct {
	// OrderID is your unique id of the order (order_id): required for
	// PaymentPage and QuickPay; PaymentManagement takes none (Lint says so
	// when it is set).
	OrderID string `json:"order_id,omitempty"`
	// Amount is the sum to pay (amount): required for PaymentPage and
	// QuickPay; PaymentManagement takes none. Any amount the service takes
	// ("1", "1.0", "10.00") is sent exactly as written.
	Amount Amount `json:"amount,omitempty"`
	// CustomerID is your id of the customer (customer_id, required).
	CustomerID string `json:"customer_id,omitempty"`
	// CustomerPhone is the customer's phone number (customer_phone):
	// required for PaymentPage and QuickPay.
	CustomerPhone string `json:"customer_phone,omitempty"`
	// CustomerEmail is the customer's email address (customer_email). The
	// service's field table lists it as required for PaymentPage and
	// QuickPay, but takes bodies without it; Lint advises it.
	CustomerEmail string `json:"customer_email,omitempty"`
	// PaymentPageClientID names the checkout configuration to show
	// (payment_page_client_id, required).
	PaymentPageClientID string `json:"payment_page_client_id,omitempty"`
	// Action is the screen to open (action, required).
	Action Action `json:"action,omitempty"`
	// ReturnURL is where the customer lands after paying (return_url).
	// Lint advises an absolute https URL.
	ReturnURL string `json:"return_url,omitempty"`
	// Currency is a currency code such as "INR" (currency); the service's
	// default applies when it is empty.
	Currency string `json:"currency,omitempty"`
	// Description is shown with the payment (description).
	Description string `json:"description,omitempty"`
	// FirstName is the customer's first name (first_name).
	FirstName string `json:"first_name,omitempty"`
	// LastName is the customer's last name (last_name).
	LastName string `json:"last_name,omitempty"`
	// PaymentFilter chooses which payment methods the screen offers
	// (payment_filter); nil offers the configured defaults.
	PaymentFilter *paymentfilter.Filter `json:"payment_filter,omitempty"`
	// EMI shows or hides the EMI (pay in instalments) options (sdk_udf).
	EMI emi.Visibility `json:"sdk_udf,omitempty"`
	// ProductSummary is the order summary shown on the screen, sent as
	// product_summary, a JSON string holding the summary's array. Nil or
	// empty sends none.
	ProductSummary *productsummary.Summary `json:"-"`
	// Mandate sets up a mandate; nil sends none of its keys. Its keys
	// (options.create_mandate, mandate.*) are top-level keys of the body.
	Mandate *Mandate `json:"-"`
	// GatewayReferenceID picks the gateway account configured under this
	// reference; it must match the reference exactly. It is sent as
	// metadata.<namespace>:gateway_reference_id, in the namespace of the
	// client ([WithNamespace]; metadata.SERVICE:gateway_reference_id by
	// default). Decoding reads it from the key in [DefaultNamespace]; a
	// metadata.<GATEWAY>:<key> key of any other gateway is that gateway's
	// own entry, kept in Extra and sent exactly as given.
	GatewayReferenceID string `json:"metadata.SERVICE:gateway_reference_id,omitempty"`
	// WebhookURL sends this order's webhooks to this address instead of the
	// configured one (metadata.webhook_url). It must be https (http only on
	// a loopback address).
	WebhookURL string `json:"metadata.webhook_url,omitempty"`
	// GatewayMetadata passes values to particular gateways, sent as
	// metadata.<GATEWAY>:<key> exactly as given, in order, as an order
	// request sends them (metadata.AMAZONPAY:gateway_reference_id is
	// AMAZONPAY's own entry: only the client's namespace is
	// GatewayReferenceID's).
	GatewayMetadata GatewayMetadataList `json:"-"`
	// UPIDeepLinks asks for the UPI deep link of the payment in the reply
	// ([PaymentLinks.DeepLink]), sent as options.get_upi_deep_links "true".
	UPIDeepLinks bool `json:"-"`
	// UDFs are your own fields of the order (udf1…udf10), kept by the
	// service and returned in the order status and webhooks.
	UDFs
	// Extra carries keys this type does not model (mobile_country_code,
	// the "service" of an enach action, …), sent as top-level keys after
	// the typed ones. A key a typed field owns is a validation error, never
	// a silent override.
	Extra map[string]any `json:"-"`
}

// Validate reports what the service refuses, or what the body could not
// say as the request does, as a *ValidationError whose paths are the body's
// keys; nil when there is none. CreateSession calls it before sending
// anything. It refuses: a missing action, customer_id or
// payment_page_client_id; for PaymentPage and QuickPay a missing order_id,
// amount or customer_phone; an amount the service does not take (see
// [ParseAmount]); a mandate option without mandate.max_amount; a webhook
// URL that is not https; text that is not valid UTF-8; an Extra key a typed
// field owns or a value that cannot be encoded; and what the payment
// filter, EMI switch and product summary refuse. Everything else passes,
// unknown actions and enum values included; [SessionRequest.Lint] gives the
// advice. It checks the gateway reference key in [DefaultNamespace];
// CreateSession checks it in the client's namespace. The work is linear in
// the size of the request.
func (r *SessionRequest) Validate() error { return r.validate(DefaultNamespace) }

func (r *SessionRequest) validate(ns string) error {
	var v validation.Error
	if r == nil {
		v.Add("", "session request is nil")
		return v.Err()
	}
	switch r.Action {
	case "":
		v.Add(keyAction, "is required")
	case PaymentPage, QuickPay:
		// Every published body of these actions carries these three; some
		// of the service's own bodies leave customer_email out (Lint
		// advises it).
		if strings.TrimSpace(r.OrderID) == "" {
			v.Add(keyOrderID, "is required for "+string(r.Action))
		}
		if r.Amount == "" {
			v.Add(keyAmount, "is required for "+string(r.Action))
		}
		if strings.TrimSpace(r.CustomerPhone) == "" {
			v.Add(keyCustomerPhone, "is required for "+string(r.Action))
		}
	}
	checkAmount(&v, keyAmount, r.Amount)
	checkRequired(&v, keyCustomerID, r.CustomerID)
	checkRequired(&v, keyClientID, r.PaymentPageClientID)
	checkWebhookURL(&v, keyWebhookURL, r.WebhookURL)
	if r.PaymentFilter != nil {
		mergeAt(&v, keyPaymentFilter, r.PaymentFilter.Validate())
	}
	if r.EMI != "" {
		mergeAt(&v, keySDKUDF, r.EMI.Validate())
	}
	if r.ProductSummary != nil && len(*r.ProductSummary) > 0 {
		mergeAt(&v, keyProductSummary, r.ProductSummary.Validate())
	}
	if m := r.Mandate; m != nil {
		checkAmount(&v, keyMandateMax, m.MaxAmount)
		if m.Option != "" && m.MaxAmount == "" {
			v.Add(keyMandateMax, "is required with "+keyMandateOption)
		}
	}
	r.checkBody(&v, ns)
	return v.Err()
}

// checkBody records what would make the body say something other than
// the request (Validate and MarshalJSON both refuse it): text that is not
// valid UTF-8, and a gateway entry or Extra key that is ambiguous, given
// twice or belongs to a typed field.
func (r *SessionRequest) checkBody(v *validation.Error, ns string) {
	r.checkUTF8(v, ns)
	seen := r.GatewayMetadata.check(v, func(k string) bool { return ownsSessionKey(k, ns) }, "SessionRequest")
	checkExtra(v, r.Extra, func(k string) bool { return r.writesKey(k, ns) || seen[k] }, "SessionRequest")
}

// writesKey reports whether a typed field writes the key k in namespace
// ns, so that Extra may not: always for the keys the SDK always typed,
// only when the field is set for currency and udf1…udf10, which Extra
// carried before they were typed and may still carry while their field
// is empty.
func (r *SessionRequest) writesKey(k, ns string) bool {
	switch {
	case k == keyCurrency:
		return r.Currency != ""
	case isUDFKey(k):
		return r.UDFs.list()[udfIndex(k)] != ""
	}
	return ownsSessionKey(k, ns)
}

// checkUTF8 records the text fields that are not valid UTF-8, under the
// keys they are sent as in namespace ns.
func (r *SessionRequest) checkUTF8(v *validation.Error, ns string) {
	checkText(v, keyOrderID, r.OrderID)
	checkText(v, keyAmount, string(r.Amount))
	checkText(v, keyCustomerID, r.CustomerID)
	checkText(v, keyCustomerPhone, r.CustomerPhone)
	checkText(v, keyCustomerEmail, r.CustomerEmail)
	checkText(v, keyClientID, r.PaymentPageClientID)
	checkText(v, keyAction, string(r.Action))
	checkText(v, keyReturnURL, r.ReturnURL)
	checkText(v, keyCurrency, r.Currency)
	checkText(v, "description", r.Description)
	checkText(v, "first_name", r.FirstName)
	checkText(v, "last_name", r.LastName)
	checkText(v, keySDKUDF, string(r.EMI))
	if !utf8.ValidString(r.GatewayReferenceID) {
		checkText(v, gatewayReferenceKey(ns), r.GatewayReferenceID)
	}
	checkText(v, keyWebhookURL, r.WebhookURL)
	if m := r.Mandate; m != nil {
		checkText(v, keyMandateOption, string(m.Option))
		checkText(v, keyMandateMax, string(m.MaxAmount))
	}
	checkUDFs(v, r.UDFs.list())
}

// Lint returns advice on a request Validate lets through: what the
// service's documents recommend, or what is probably a mistake though the
// service takes it. It never repeats what Validate refuses, and the client
// never calls it; call it yourself (in a test, or before sending) to log
// the advice or fail on it. The advice: an action the SDK does not know; no
// customer_email for PaymentPage or QuickPay; order_id or amount set for
// PaymentManagement; amounts not written with two places; an order_id
// longer than 20 characters or with surrounding spaces; the shape of
// customer_phone and customer_email; a return_url that is not an absolute
// https URL; a mandate without its option, with an unknown option, a
// maximum below 1.00 (which the service refuses), or dates before 1970 or
// out of order; Extra keys that are empty or hold control characters. nil
// means no advice.
func (r *SessionRequest) Lint() []Problem {
	if r == nil {
		return nil
	}
	var v validation.Error
	switch {
	case r.Action == PaymentManagement:
		if r.OrderID != "" {
			v.Add(keyOrderID, "is set, but "+string(PaymentManagement)+" takes no order")
		}
		if r.Amount != "" {
			v.Add(keyAmount, "is set, but "+string(PaymentManagement)+" takes no amount")
		}
	case (r.Action == PaymentPage || r.Action == QuickPay) && strings.TrimSpace(r.CustomerEmail) == "":
		v.Add(keyCustomerEmail, "is not set: the service's field table lists it as required, though some of its own published bodies leave it out")
	case r.Action != "" && !r.Action.Known():
		v.Add(keyAction, fmt.Sprintf("%q is not an action this SDK knows (%s, %s, %s): only what every action needs was checked",
			string(r.Action), PaymentPage, QuickPay, PaymentManagement))
	}
	lintOrderID(&v, keyOrderID, r.OrderID)
	lintAmount(&v, keyAmount, r.Amount)
	lintPhone(&v, keyCustomerPhone, r.CustomerPhone)
	lintEmail(&v, keyCustomerEmail, r.CustomerEmail)
	lintURL(&v, keyReturnURL, r.ReturnURL)
	if m := r.Mandate; m != nil {
		m.lint(&v)
	}
	lintExtraKeys(&v, r.Extra)
	return problems(&v)
}

// lint gives the advice on a mandate.
func (m *Mandate) lint(v *validation.Error) {
	lintAmount(v, keyMandateMax, m.MaxAmount)
	switch m.Option {
	case MandateRequired, MandateOptional:
	case "":
		v.Add(keyMandateOption, "is not set: without it the service sets up no mandate and the other mandate keys have no effect")
	default:
		v.Add(keyMandateOption, fmt.Sprintf("%q is neither %s nor %s", string(m.Option), MandateRequired, MandateOptional))
	}
	if minor, err := m.MaxAmount.Minor(); err == nil && minor < 100 {
		v.Add(keyMandateMax, "is below 1.00, which the service refuses for a mandate")
	}
	if !m.StartDate.IsZero() && m.StartDate.Unix() <= 0 {
		v.Add(keyMandateStart, "is not after 1970-01-01")
	}
	if !m.EndDate.IsZero() && m.EndDate.Unix() <= 0 {
		v.Add(keyMandateEnd, "is not after 1970-01-01")
	}
	if !m.StartDate.IsZero() && !m.EndDate.IsZero() && !m.EndDate.After(m.StartDate) {
		v.Add(keyMandateEnd, "is not after "+keyMandateStart)
	}
}

// Session is the reply to [Client.CreateSession]; Raw keeps it whole.
type Session struct {
	// Status is the order's status ("NEW").
	Status string `json:"status,omitempty"`
	// ID is the service's id of the order ("ordeh_…").
	ID string `json:"id,omitempty"`
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// PaymentLinks are the links to the hosted payment page.
	PaymentLinks PaymentLinks `json:"payment_links,omitzero"`
	// OrderExpiry is when the order stops taking payments (order_expiry);
	// zero when absent.
	OrderExpiry Timestamp `json:"order_expiry,omitzero"`
	// SDKPayload is sdk_payload exactly as the service sent it, byte for
	// byte: hand it unchanged to the client SDK's process operation.
	SDKPayload json.RawMessage `json:"sdk_payload,omitempty"`
	// Raw is the whole reply.
	Raw RawJSON `json:"-"`
}

// PaymentLinks are the links to the hosted payment page of a session or an
// order (payment_links).
type PaymentLinks struct {
	// Web is the page for a browser (web).
	Web string `json:"web,omitempty"`
	// Mobile is the page for a mobile browser (mobile).
	Mobile string `json:"mobile,omitempty"`
	// IFrame is the page to embed in an iframe (iframe).
	IFrame string `json:"iframe,omitempty"`
	// Expiry is when the links stop working (expiry); zero when absent or
	// unreadable.
	Expiry Timestamp `json:"expiry,omitzero"`
	// DeepLink is the UPI deep link of the payment (deep_link: upi://pay?…),
	// which opens the customer's UPI app; a session asks for it with
	// [SessionRequest.UPIDeepLinks].
	DeepLink string `json:"deep_link,omitempty"`
}

func (s *Session) setRaw(body []byte) { s.Raw = body }

// shapeError refuses a body without an sdk_payload object: there would be
// nothing to hand to the client SDK.
func (s *Session) shapeError() error {
	if payload := bytes.TrimSpace(s.SDKPayload); len(payload) == 0 || payload[0] != '{' {
		return errors.New("the reply has no sdk_payload object")
	}
	return nil
}

// LogValue is the session as JSON, its tokens redacted.
func (s Session) LogValue() slog.Value { return logJSON(s) }

// CreateSession validates req, sends it and returns the session, whose
// SDKPayload goes unchanged to the client SDK. A *ValidationError means
// nothing was sent; an *APIError is the service's refusal. A successful
// reply without an sdk_payload object is an error too, since there is
// nothing to hand to the client SDK. The call is not retried after it may
// have reached the service (the service documents no idempotency for it):
// on a timeout, check the order with [Client.GetOrder] before trying again.
func (c *Client) CreateSession(ctx context.Context, req *SessionRequest, opts ...RequestOption) (*Session, error) {
	const op = "create session"
	ns := c.Namespace()
	if err := req.validate(ns); err != nil {
		return nil, invalid(op, err)
	}
	body, err := req.encode(ns)
	if err != nil {
		return nil, invalid(op, err)
	}
	s := new(Session)
	cl := &call{op: op, method: http.MethodPost, path: "/session", body: body, contentType: contentJSON, jwePath: "/v4/session"}
	if err := c.send(ctx, cl, opts, s); err != nil {
		return nil, err
	}
	return replyAbout(s, op, req.OrderID, s.OrderID)
}
