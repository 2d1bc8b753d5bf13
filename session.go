package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
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

// Mandate asks the session to set up a mandate, a standing permission to
// debit the customer again later. Its fields travel as flat top-level keys
// of the session request.
type Mandate struct {
	// Option is sent as options.create_mandate. Without it the service
	// sets up no mandate and the other keys have no effect (Lint says so).
	Option MandateOption `json:"options.create_mandate,omitempty"`
	// MaxAmount is the most one debit may take, sent as mandate.max_amount;
	// required with Option. A body with the older spelling
	// mandate_max_amount decodes into it and encodes back the same way.
	MaxAmount Amount `json:"mandate.max_amount,omitempty" check:"amount" lint:"amount" alias:"mandate_max_amount"`
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
	OrderID string `json:"order_id,omitempty" lint:"id"`
	// Amount is the sum to pay (amount): required for PaymentPage and
	// QuickPay; PaymentManagement takes none. Any amount the service takes
	// ("1", "1.0", "10.00") is sent exactly as written.
	Amount Amount `json:"amount,omitempty" check:"amount" lint:"amount"`
	// CustomerID is your id of the customer (customer_id, required).
	CustomerID string `json:"customer_id,omitempty" check:"required"`
	// CustomerPhone is the customer's phone number (customer_phone):
	// required for PaymentPage and QuickPay.
	CustomerPhone string `json:"customer_phone,omitempty" lint:"phone"`
	// CustomerEmail is the customer's email address (customer_email):
	// required for PaymentPage and QuickPay.
	CustomerEmail string `json:"customer_email,omitempty" lint:"email"`
	// PaymentPageClientID names the checkout configuration to show
	// (payment_page_client_id, required).
	PaymentPageClientID string `json:"payment_page_client_id,omitempty" check:"required"`
	// Action is the screen to open (action, required).
	Action Action `json:"action,omitempty"`
	// ReturnURL is where the customer lands after paying (return_url).
	// Lint advises an absolute https URL.
	ReturnURL string `json:"return_url,omitempty" lint:"url"`
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
	// default), and decoded from that key in any namespace.
	GatewayReferenceID string `json:"metadata.SERVICE:gateway_reference_id,omitempty"`
	// WebhookURL sends this order's webhooks to this address instead of the
	// configured one (metadata.webhook_url). It must be https (http only on
	// a loopback address).
	WebhookURL string `json:"metadata.webhook_url,omitempty" check:"webhook"`
	// Extra carries keys this type does not model (udf1…udf10, currency,
	// mobile_country_code, the "service" of an enach action, …), sent as
	// top-level keys after the typed ones. A key a typed field owns (the
	// gateway reference key in any namespace included) is a validation
	// error, never a silent override.
	Extra map[string]any `json:"-"`

	// spelled is how a decoded body wrote typed fields whose spelling
	// MarshalJSON would otherwise change (session_json.go).
	spelled []spelling
}

// Validate reports what the service refuses, or what the body could not
// say as the request does, as a *ValidationError whose paths are the body's
// keys; nil when there is none. CreateSession calls it before sending
// anything. It refuses: a missing action, customer_id or
// payment_page_client_id; for PaymentPage and QuickPay a missing order_id,
// amount or customer_phone; an amount the service does not
// take (see [ParseAmount]); a mandate option without mandate.max_amount; a
// webhook URL that is not https; text that is not valid UTF-8; an Extra key
// a typed field owns or a value that cannot be encoded; and what the
// payment filter, EMI switch and product summary refuse. Everything else
// passes, unknown actions and enum values included; [SessionRequest.Lint]
// gives the advice. The work is linear in the size of the request.
func (r *SessionRequest) Validate() error {
	if r == nil {
		return &ValidationError{Problems: []Problem{{Message: "session request is nil"}}}
	}
	var c valid.Collector
	names := sessionNames()
	switch r.Action {
	case "":
		c.Add(names["Action"], "is required")
	case PaymentPage, QuickPay:
		// Every published body of these actions carries these three; some
		// of the service's own bodies leave customer_email out (Lint
		// advises it).
		if strings.TrimSpace(r.OrderID) == "" {
			c.Add(names["OrderID"], "is required for "+string(r.Action))
		}
		if r.Amount == "" {
			c.Add(names["Amount"], "is required for "+string(r.Action))
		}
		if strings.TrimSpace(r.CustomerPhone) == "" {
			c.Add(names["CustomerPhone"], "is required for "+string(r.Action))
		}
	}
	w := r.wire()
	checkFields(&c, "", reflect.ValueOf(&w).Elem(), sessionChecks())
	if r.PaymentFilter != nil {
		if err := r.PaymentFilter.Validate(); err != nil {
			mergeProblems(&c, names["PaymentFilter"], err)
		}
	}
	if r.EMI != "" {
		if err := r.EMI.Validate(); err != nil {
			mergeProblems(&c, names["EMI"], err)
		}
	}
	if w.ProductSummary != nil {
		if err := r.ProductSummary.Validate(); err != nil {
			mergeProblems(&c, names["ProductSummary"], err)
		}
	}
	if m := r.Mandate; m != nil && m.Option != "" && m.MaxAmount == "" {
		c.Add(names["MaxAmount"], "is required with "+names["Option"])
	}
	checkExtra(&c, r.Extra, sessionOwns, "SessionRequest")
	return c.Err()
}

// Lint returns advice on a request Validate lets through: what the
// service's documents recommend, or what is probably a mistake though the
// service takes it. It never repeats what Validate refuses, and the client
// never calls it; call it yourself (in a test, or before sending) to log
// the advice or fail on it. The advice: an action the SDK does not know;
// no customer_email for PaymentPage or QuickPay;
// order_id or amount set for PaymentManagement; amounts not written with
// two places; an order_id longer than 20 characters or with surrounding
// spaces; the shape of customer_phone and customer_email; a return_url
// that is not an absolute https URL; a mandate without its option, with an
// unknown option, a maximum below 1.00 (which the service refuses), or
// dates before 1970 or out of order; Extra keys that are empty or hold
// control characters. nil means no advice.
func (r *SessionRequest) Lint() []Problem {
	if r == nil {
		return nil
	}
	var c valid.Collector
	names := sessionNames()
	switch {
	case r.Action == PaymentManagement:
		if r.OrderID != "" {
			c.Add(names["OrderID"], "is set, but "+string(PaymentManagement)+" takes no order")
		}
		if r.Amount != "" {
			c.Add(names["Amount"], "is set, but "+string(PaymentManagement)+" takes no amount")
		}
	case (r.Action == PaymentPage || r.Action == QuickPay) && strings.TrimSpace(r.CustomerEmail) == "":
		c.Add(names["CustomerEmail"], "is not set: the service's field table lists it as required, though some of its own published bodies leave it out")
	case r.Action != "" && !r.Action.Known():
		c.Add(names["Action"], fmt.Sprintf("%q is not an action this SDK knows (%s, %s, %s): only what every action needs was checked",
			string(r.Action), PaymentPage, QuickPay, PaymentManagement))
	}
	w := r.wire()
	lintFields(&c, "", reflect.ValueOf(&w).Elem(), sessionChecks())
	if m := r.Mandate; m != nil {
		lintMandate(&c, m)
	}
	lintExtraKeys(&c, r.Extra)
	return problems(&c)
}

// lintMandate gives the advice on a mandate.
func lintMandate(c *valid.Collector, m *Mandate) {
	names := sessionNames()
	switch m.Option {
	case MandateRequired, MandateOptional:
	case "":
		c.Add(names["Option"], "is not set: without it the service sets up no mandate and the other mandate keys have no effect")
	default:
		c.Add(names["Option"], fmt.Sprintf("%q is neither %s nor %s", string(m.Option), MandateRequired, MandateOptional))
	}
	if minor, err := m.MaxAmount.Minor(); err == nil && minor < 100 {
		c.Add(names["MaxAmount"], "is below 1.00, which the service refuses for a mandate")
	}
	start, end := names["StartDate"], names["EndDate"]
	if !m.StartDate.IsZero() && m.StartDate.Unix() <= 0 {
		c.Add(start, "is not after 1970-01-01")
	}
	if !m.EndDate.IsZero() && m.EndDate.Unix() <= 0 {
		c.Add(end, "is not after 1970-01-01")
	}
	if !m.StartDate.IsZero() && !m.EndDate.IsZero() && !m.EndDate.After(m.StartDate) {
		c.Add(end, "is not after "+start)
	}
}

// Session is the reply to [Client.CreateSession]. With encoding/json it
// decodes as CreateSession does and encodes as the service's reply, Raw.
type Session struct {
	// Status is the order's status ("NEW").
	Status string `json:"status,omitempty"`
	// ID is the service's id of the order ("ordeh_…").
	ID string `json:"id,omitempty"`
	// OrderID is your id of the order.
	OrderID string `json:"order_id,omitempty"`
	// PaymentLinks are the links to the hosted payment page.
	PaymentLinks PaymentLinks `json:"payment_links,omitzero"`
	// SDKPayload is sdk_payload exactly as the service sent it, byte for
	// byte: hand it unchanged to the client SDK's process operation.
	SDKPayload json.RawMessage `json:"sdk_payload,omitempty"`
	// Raw is the whole reply.
	Raw json.RawMessage `json:"-"`
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
	Expiry time.Time `json:"expiry,omitzero"`
}

// decode reads a session reply, which must carry an sdk_payload object:
// without it there is nothing to hand to the client SDK.
func (s *Session) decode(body []byte) error {
	type plain Session
	return decodeResponse((*plain)(s), body, func(p *plain) error {
		if payload := bytes.TrimSpace(p.SDKPayload); len(payload) == 0 || payload[0] != '{' {
			return errors.New("no sdk_payload object")
		}
		return nil
	})
}

// UnmarshalJSON decodes a session reply as CreateSession does: Raw keeps
// the whole body and SDKPayload the exact bytes of sdk_payload. A body
// without an sdk_payload object is an error. JSON null leaves s unchanged.
func (s *Session) UnmarshalJSON(data []byte) error {
	return unmarshalReply(s, data, "session")
}

// MarshalJSON returns Raw when it is set, so a cached Session encodes as the
// service's own reply (Raw wins over edited fields: clear Raw to encode
// them). Without Raw it encodes the typed fields, leaving empty ones out.
func (s Session) MarshalJSON() ([]byte, error) {
	type plain Session
	return marshalReply(s.Raw, plain(s))
}

// CreateSession validates req, sends it and returns the session, whose
// SDKPayload goes unchanged to the client SDK. A *ValidationError means
// nothing was sent; an *APIError is the service's refusal. A successful
// reply without an sdk_payload object is an error too, since there is
// nothing to hand to the client SDK. The call is not retried after it may
// have reached the service (the service documents no idempotency for it):
// on a timeout, check the order with [Client.GetOrder] before trying again.
func (c *Client) CreateSession(ctx context.Context, req *SessionRequest, opts ...RequestOption) (*Session, error) {
	const op = "create session"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, valid.ForOp(op, err)
	}
	body, err := req.encodeIn(c.Namespace())
	if err != nil {
		return nil, valid.ForOp(op, err)
	}
	cl := &call{op: op, method: "POST", path: "/session", body: body, contentType: "application/json", jwePath: "/v4/session"}
	return send(ctx, c, cl, opts, decodeReply[Session])
}
