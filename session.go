package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
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

// The wire keys of a session request that its rules name.
const (
	keyAction         = "action"
	keyClientID       = "payment_page_client_id"
	keyPaymentFilter  = "payment_filter"
	keySDKUDF         = "sdk_udf"
	keyProductSummary = "product_summary"
	keyMandateOption  = "options.create_mandate"
	keyMandateMax     = "mandate.max_amount"
	keyMandateMaxOld  = "mandate_max_amount"
	keyMandateStart   = "mandate.start_date"
	keyMandateEnd     = "mandate.end_date"
	keyUPIDeepLinks   = "options.get_upi_deep_links"
)

// SessionRequest opens a checkout session ([Client.CreateSession]): who
// pays, how much, and how the checkout screen looks. Empty fields are not
// sent. json.Marshal gives the body the client sends; the type is written,
// not read back (json.Unmarshal fills only its tagged fields, not the
// mandate, the gateway entries or Extra).
type SessionRequest struct {
	// OrderID is your unique id of the order (order_id): required for
	// PaymentPage and QuickPay; PaymentManagement takes none.
	OrderID string `json:"order_id,omitempty"`
	// Amount is the sum to pay (amount): required for PaymentPage and
	// QuickPay; PaymentManagement takes none. It is sent exactly as
	// written ("1", "1.0", "10.00").
	Amount Amount `json:"amount,omitempty"`
	// CustomerID is your id of the customer (customer_id, required).
	CustomerID string `json:"customer_id,omitempty"`
	// CustomerPhone is the customer's phone number (customer_phone):
	// required for PaymentPage and QuickPay.
	CustomerPhone string `json:"customer_phone,omitempty"`
	// CustomerEmail is the customer's email address (customer_email). The
	// service takes bodies without it; Lint advises it for PaymentPage and
	// QuickPay.
	CustomerEmail string `json:"customer_email,omitempty"`
	// PaymentPageClientID names the checkout configuration to show
	// (payment_page_client_id, required).
	PaymentPageClientID string `json:"payment_page_client_id,omitempty"`
	// Action is the screen to open (action, required).
	Action Action `json:"action,omitempty"`
	// ReturnURL is where the customer lands after paying (return_url).
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
	// product_summary: a JSON string holding the summary's array. Nil or
	// empty sends none.
	ProductSummary *productsummary.Summary `json:"product_summary,omitempty"`
	// GatewayReferenceID picks the gateway account configured under this
	// reference, matched exactly. It is sent as
	// metadata.<namespace>:gateway_reference_id in the client's namespace
	// ([WithNamespace]; metadata.SERVICE:gateway_reference_id by default).
	GatewayReferenceID string `json:"metadata.SERVICE:gateway_reference_id,omitempty"`
	// WebhookURL sends this order's webhooks to this address instead of the
	// configured one (metadata.webhook_url). It must be https (http only on
	// a loopback address).
	WebhookURL string `json:"metadata.webhook_url,omitempty"`
	// GatewayMetadata passes values to particular gateways, sent as
	// metadata.<GATEWAY>:<key> exactly as given, in order.
	GatewayMetadata GatewayMetadataList `json:"-"`
	// UDFs are your own fields of the order (udf1…udf10), kept by the
	// service and returned in the order status and webhooks.
	UDFs
	// Mandate sets up a mandate; nil sends none of its keys, which are
	// top-level keys of the body (options.create_mandate,
	// mandate.max_amount, mandate.start_date, mandate.end_date).
	Mandate *Mandate `json:"-"`
	// UPIDeepLinks asks for the UPI deep link of the payment in the reply
	// ([PaymentLinks.DeepLink]), sent as options.get_upi_deep_links "true".
	UPIDeepLinks bool `json:"options.get_upi_deep_links,string,omitempty"`
	// Extra carries keys this type does not model (mobile_country_code,
	// the "service" of an enach action, …), sent as top-level keys after
	// the typed ones. A key a typed field writes is refused, never a
	// silent override.
	Extra map[string]any `json:"-"`
}

// ownsSessionKey reports whether a typed field of SessionRequest writes the
// key k when the gateway reference is written in namespace ns.
func ownsSessionKey(k, ns string) bool {
	switch k {
	case keyOrderID, keyAmount, keyCustomerID, keyCustomerPhone, keyCustomerEmail, keyClientID, keyAction,
		keyReturnURL, keyCurrency, "description", "first_name", "last_name", keyPaymentFilter, keySDKUDF,
		keyProductSummary, keyMandateOption, keyMandateMax, keyMandateStart, keyMandateEnd, keyWebhookURL,
		keyUPIDeepLinks:
		return true
	}
	return isGatewayReferenceKey(k, ns) || isUDFKey(k)
}

// Validate reports what the service refuses, or what the body could not
// say as the request does, as a *ValidationError whose paths are the body's
// keys; nil when there is none. CreateSession calls it before sending. It
// refuses a missing action, customer_id or payment_page_client_id; for
// PaymentPage and QuickPay a missing order_id, amount or customer_phone;
// amounts the service does not take ([ParseAmount]); a mandate option
// without mandate.max_amount; a webhook URL that is not https; invalid
// UTF-8; an Extra key a typed field writes; and what the payment filter,
// EMI switch and product summary refuse. [SessionRequest.Lint] gives the
// advice.
func (r *SessionRequest) Validate() error { return r.validate(DefaultNamespace) }

// validate is Validate with the gateway reference key in namespace ns.
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
		required := "is required for " + string(r.Action)
		if strings.TrimSpace(r.OrderID) == "" {
			v.Add(keyOrderID, required)
		}
		if r.Amount == "" {
			v.Add(keyAmount, required)
		}
		if strings.TrimSpace(r.CustomerPhone) == "" {
			v.Add(keyCustomerPhone, required)
		}
	}
	checkAmount(&v, keyAmount, r.Amount)
	checkRequired(&v, keyCustomerID, r.CustomerID)
	checkRequired(&v, keyClientID, r.PaymentPageClientID)
	checkWebhookURL(&v, keyWebhookURL, r.WebhookURL)
	if m := r.Mandate; m != nil {
		checkAmount(&v, keyMandateMax, m.MaxAmount)
		if m.Option != "" && m.MaxAmount == "" {
			v.Add(keyMandateMax, "is required with "+keyMandateOption)
		}
	}
	v.Merge("", r.PaymentFilter.Validate()) // their paths start at their keys
	v.Merge("", r.EMI.Validate())
	v.Merge("", r.ProductSummary.Validate())
	r.checkBody(&v, ns)
	return v.Err()
}

// checkBody records what would make the body say something other than the
// request (Validate and MarshalJSON both refuse it): invalid UTF-8, and a
// gateway entry or Extra key that is ambiguous, given twice or typed.
func (r *SessionRequest) checkBody(v *validation.Error, ns string) {
	r.checkUTF8(v, ns)
	seen := r.GatewayMetadata.check(v, func(k string) bool { return ownsSessionKey(k, ns) }, "SessionRequest")
	checkExtra(v, r.Extra, func(k string) bool { return r.writesKey(k, ns) || seen[k] }, "SessionRequest")
}

// writesKey reports whether a typed field writes the key k, so that Extra
// may not: currency and udf1…udf10 only when set (Extra carried them
// before they were typed), every other typed key always.
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
// service takes it; nil means none. It never repeats what Validate refuses
// and the client never calls it. It covers the action, customer_email,
// order_id and amount for the action, the shape of amounts, order_id,
// phone, email and return_url, the mandate, Extra keys, and the advice of
// the payment filter (with its EMI options) and of the EMI switch, each at
// its full path ("payment_filter.options[0].cardFilters[0].cardTypes[0]").
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
	addAt(&v, keyPaymentFilter, r.PaymentFilter.Lint())
	addAt(&v, keySDKUDF, r.EMI.Lint())
	lintExtraKeys(&v, r.Extra)
	return problems(&v)
}

// MarshalJSON returns the body CreateSession sends, the gateway reference
// in [DefaultNamespace]: the typed keys, product_summary as a JSON string,
// mandate dates as Unix seconds in text, then the gateway entries and the
// Extra keys, sorted. It does not run Validate, but refuses as Validate
// does what the body could not say: invalid UTF-8, a gateway entry or an
// Extra key that clashes, an Extra value that cannot be encoded.
func (r SessionRequest) MarshalJSON() ([]byte, error) {
	var v validation.Error
	r.checkBody(&v, DefaultNamespace)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return r.encode(DefaultNamespace)
}

// encode returns the body with the gateway reference in namespace ns,
// without checking it (CreateSession has run Validate).
func (r *SessionRequest) encode(ns string) ([]byte, error) {
	type plain SessionRequest
	w := struct {
		*plain
		ProductSummary string        `json:"product_summary,omitempty"`
		MandateOption  MandateOption `json:"options.create_mandate,omitempty"`
		MaxAmount      Amount        `json:"mandate.max_amount,omitempty"`
		StartDate      string        `json:"mandate.start_date,omitempty"`
		EndDate        string        `json:"mandate.end_date,omitempty"`
	}{plain: (*plain)(r)}
	if ns != DefaultNamespace && r.GatewayReferenceID != "" {
		c := plain(*r)
		c.GatewayReferenceID = "" // appended below under the client's namespace
		w.plain = &c
	}
	if r.ProductSummary != nil && len(*r.ProductSummary) > 0 {
		text, err := r.ProductSummary.MarshalJSON()
		if err != nil {
			return nil, err
		}
		w.ProductSummary = string(text)
	}
	if m := r.Mandate; m != nil {
		w.MandateOption, w.MaxAmount = m.Option, m.MaxAmount
		w.StartDate, w.EndDate = unixText(m.StartDate), unixText(m.EndDate)
	}
	body, err := marshalNoEscape(w)
	if err != nil {
		return nil, err
	}
	if ns != DefaultNamespace && r.GatewayReferenceID != "" {
		body, _ = appendMember(body, gatewayReferenceKey(ns), r.GatewayReferenceID)
	}
	for _, m := range r.GatewayMetadata {
		body, _ = appendMember(body, m.key(), m.Value)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Extra)) { // Validate has checked that each value encodes
		if body, err = appendMember(body, k, r.Extra[k]); err != nil {
			return nil, err
		}
	}
	return body, nil
}

// unixText is a mandate date as sent: Unix seconds in decimal text, or ""
// (not sent) for the zero time.
func unixText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.Unix(), 10)
}

// Session is the reply to [Client.CreateSession]; Raw keeps it whole, and
// json.Marshal writes only its typed fields. It prints with the bearer
// tokens of its sdk_payload and Raw redacted.
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
	// Replayed reports a session of an order found by a replay (see [ConflictError]).
	Replayed bool `json:"-"`
}

func (s *Session) decode(body []byte) error { return decodeObject(body, s, &s.Raw, s.shapeError) }

func (s *Session) names() (string, Status) { return s.OrderID, "" }

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

// Format prints the session under every verb as %v does (%+v and %#v keep
// their flags), with the client auth token of its sdk_payload redacted;
// SDKPayload itself keeps the exact bytes.
func (s Session) Format(f fmt.State, verb rune) {
	type plain Session
	p := plain(s)
	p.SDKPayload = scrubbed(s.SDKPayload)
	formatPlain(f, verb, "checkout.Session", p)
}

// CreateSession validates req, sends it and returns the session, whose
// SDKPayload goes unchanged to the client SDK. A *ValidationError means
// nothing was sent; an *APIError is the service's refusal. A successful
// reply without an sdk_payload object is an error too, since there is
// nothing to hand to the client SDK. When the outcome is unknown, the
// client reads the order before asking again, and returns a new session
// of the same order marked Replayed, or a *ConflictError ([ConflictError]).
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
	var found bool
	s := new(Session)
	err = c.do(ctx, &call{op: op, name: "CreateSession", method: http.MethodPost, route: "/session", path: "/session",
		body: body, write: true, orderID: req.OrderID, v4: &v4Call{route: "/v4/session", path: "/v4/session"},
		settle: settleOrder(op, req.OrderID, req.Amount, req.Currency, req.CustomerID, func(*OrderStatus) settled {
			found = true // a session of the order is asked for again
			return replayAgain
		}),
	}, opts, s)
	if err != nil {
		return nil, err
	}
	s.Replayed = found
	return s, nil
}
