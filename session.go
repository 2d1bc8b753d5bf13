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

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/spelling"
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

// Valid reports whether a is one of PaymentPage, QuickPay,
// PaymentManagement. Other actions are sent as given.
func (a Action) Valid() bool {
	return a == PaymentPage || a == QuickPay || a == PaymentManagement
}

// SessionRequest opens a checkout session ([Client.CreateSession]): who
// pays, how much, and how the checkout screen looks. Empty fields are not
// sent. json.Marshal gives the body the client sends, and json.Unmarshal
// reads such a body back (a stored body, `checkout lint --type session`).
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
	// service takes bodies without it; lint.Check advises it for
	// PaymentPage and QuickPay.
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
	// the typed ones, as given. A key a typed field writes is refused,
	// never a silent override; lint.Check advises setting a typed field
	// rather than its key in Extra.
	Extra map[string]any `json:"-"`
}

// Validate reports, as a *ValidationError keyed by the body's keys, what
// the service refuses or what the body could not say as the request does;
// nil when there is none. The rules are the code of this method in
// session.go, with those every request shares in rules.go; advice on what
// the service takes is [github.com/payorch/checkout-go/lint.Check]'s.
// CreateSession calls it.
func (r *SessionRequest) Validate() error { return r.validate(DefaultNamespace) }

// validate is Validate with the gateway reference key in namespace ns.
func (r *SessionRequest) validate(ns string) error {
	_, err := r.checked(ns)
	return err
}

// checked is validate, returning the typed fields' encoding it checked
// (nil when it could not encode them), so that CreateSession encodes once.
func (r *SessionRequest) checked(ns string) ([]byte, error) {
	var v validation.Error
	if r == nil {
		v.Add("", "session request is nil")
		return nil, v.Err()
	}
	switch r.Action {
	case "":
		v.Add("action", "is required")
	case PaymentPage, QuickPay:
		required := "is required for " + string(r.Action)
		if strings.TrimSpace(r.OrderID) == "" {
			v.Add(keyOrderID, required)
		}
		if r.Amount == "" {
			v.Add(keyAmount, required)
		}
		if strings.TrimSpace(r.CustomerPhone) == "" {
			v.Add("customer_phone", required)
		}
	}
	checkAmount(&v, keyAmount, r.Amount)
	checkRequired(&v, keyCustomerID, r.CustomerID)
	checkRequired(&v, "payment_page_client_id", r.PaymentPageClientID)
	checkWebhookURL(&v, "metadata.webhook_url", r.WebhookURL)
	if m := r.Mandate; m != nil {
		checkAmount(&v, "mandate.max_amount", m.MaxAmount)
		if m.Option != "" && m.MaxAmount == "" {
			v.Add("mandate.max_amount", "is required with options.create_mandate")
		}
	}
	v.Merge("", r.PaymentFilter.Validate()) // their paths start at their keys
	if msg := spelling.CaseMistake("EMI visibility", r.EMI, emi.Visibilities()); msg != "" {
		v.Add("sdk_udf", msg)
	}
	v.Merge("", r.ProductSummary.Validate())
	typed, _ := r.checkBody(&v, ns) // an encoding error is a problem Validate reported above
	return typed, v.Err()
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

func (s *Session) decode(body []byte) error {
	*s = Session{} // nothing of an earlier reply (one refused, before a replay) stays
	return decodeObject(body, s, &s.Raw, s.shapeError)
}

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
	typed, err := req.checked(ns)
	if err != nil {
		return nil, invalid(op, err)
	}
	body, err := req.appendUntyped(typed)
	if err != nil {
		return nil, invalid(op, err)
	}
	var found bool
	s := new(Session)
	cl := &call{op: op, name: "CreateSession", method: http.MethodPost, route: "/session", path: "/session",
		body: body, write: true, orderID: req.OrderID, v4: &v4Call{route: "/v4/session", path: "/v4/session"},
		settle: settleOrder(op, req.OrderID, req.Amount, req.Currency, req.CustomerID, func(*OrderStatus) settled {
			found = true // a session of the order is asked for again
			return replayAgain
		}),
	}
	if err := c.do(ctx, cl, opts, s); err != nil {
		return nil, err
	}
	s.Replayed = found
	return s, nil
}
