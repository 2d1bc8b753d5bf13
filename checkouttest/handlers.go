package checkouttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Actions of the session request.
const (
	actionPaymentPage       = "paymentPage"
	actionQuickPay          = "quickPay"
	actionPaymentManagement = "paymentManagement"
)

const (
	keyWebhookURL = "metadata.webhook_url"
	keyGatewayRef = "metadata.SERVICE:gateway_reference_id"
)

// sessionChecks are the keys of the session request and how
// each is checked; required ones are handled per action in handleSession.
var sessionChecks = map[string]func(*problems, string, any){
	"order_id":               nonEmptyString,
	"amount":                 checkAmountString,
	"customer_id":            nonEmptyString,
	"customer_phone":         nonEmptyString,
	"customer_email":         nonEmptyString,
	"payment_page_client_id": nonEmptyString,
	"action":                 enum(actionPaymentPage, actionQuickPay, actionPaymentManagement),
	"return_url": func(p *problems, path string, v any) {
		if s, ok := v.(string); !ok {
			isString(p, path, v)
		} else if s != "" {
			checkAbsoluteURL(p, path, s)
		}
	},
	"description":            isString,
	"first_name":             isString,
	"last_name":              isString,
	"currency":               checkCurrency,
	"payment_filter":         objectOf(paymentFilterFields),
	"sdk_udf":                enum("showEMI", "hideEMI", "ShowEMIWithoutCards"),
	"product_summary":        checkProductSummary,
	"options.create_mandate": enum("REQUIRED", "OPTIONAL"),
	"mandate.max_amount":     checkAmountString,
	"mandate.start_date":     checkTimestamp,
	"mandate.end_date":       checkTimestamp,
	keyGatewayRef:            nonEmptyString,
	keyWebhookURL:            checkWebhookURLField,
}

func checkAmountString(p *problems, path string, v any) {
	s, ok := v.(string)
	if !ok {
		p.bad(path, "must be a JSON string holding a decimal, got "+jsonKind(v))
		return
	}
	if _, err := parseAmount(s); err != nil {
		p.bad(path, err.Error())
	}
}

func checkTimestamp(p *problems, path string, v any) {
	s, ok := v.(string)
	if !ok || !allDigits(s) {
		p.bad(path, "must be a numeric timestamp sent as text (Unix seconds)")
	}
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

func checkCurrency(p *problems, path string, v any) {
	s, ok := v.(string)
	if !ok || !currencyRE.MatchString(s) {
		p.bad(path, "must be a three-letter upper-case currency code")
	}
}

func checkWebhookURLField(p *problems, path string, v any) {
	s, ok := v.(string)
	if !ok {
		p.bad(path, "must be a JSON string, got "+jsonKind(v))
		return
	}
	if err := checkWebhookURL(s); err != nil {
		p.bad(path, err.Error())
	}
}

// checkMiscased reports keys that differ from a known key only by case
// (the service would not read them), and nested objects where the
// spec has flat dotted keys.
func checkMiscased[V any](p *problems, keys []string, known map[string]V) {
	for _, k := range keys {
		if _, ok := known[k]; ok {
			continue
		}
		for _, want := range sortedKeys(known) {
			if strings.EqualFold(want, k) {
				p.bad(k, fmt.Sprintf("unknown key; keys are case sensitive, did you mean %q?", want))
				break
			}
		}
	}
}

// requireKeys reports each of keys that the request body m (a JSON object
// or a form) lacks as a missing mandatory field.
func requireKeys[V any](p *problems, m map[string]V, keys ...string) {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			p.miss(k)
		}
	}
}

func (s *Server) handleSession(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	if mt := mediaType(r); mt != "application/json" {
		p.bad("Content-Type", fmt.Sprintf("must be application/json for /session, got %q", r.Header.Get("Content-Type")))
		p.write(w)
		return
	}
	doc, err := decodeJSON(body)
	m, isObj := doc.(map[string]any)
	if err != nil || !isObj {
		msg := "must be a JSON object"
		if err != nil {
			msg = "is not JSON: " + err.Error()
		}
		p.bad("body", msg)
		p.write(w)
		return
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(body, &raw)

	keys := sortedKeys(m)
	for _, k := range keys {
		if check := sessionChecks[k]; check != nil {
			check(p, k, m[k])
		}
		switch k {
		case "metadata", "options", "mandate":
			if _, nested := m[k].(map[string]any); nested {
				p.bad(k, fmt.Sprintf("the service reads flat dotted keys such as %q, not a nested %q object", k+".…", k))
			}
		}
	}
	checkMiscased(p, keys, sessionChecks)
	requireKeys(p, m, "customer_id", "customer_phone", "customer_email", "payment_page_client_id", "action")
	action, _ := m["action"].(string)
	switch action {
	case actionPaymentPage, actionQuickPay:
		requireKeys(p, m, "order_id", "amount")
	case actionPaymentManagement:
		for _, k := range []string{"order_id", "amount"} {
			if _, ok := m[k]; ok {
				p.bad(k, "must be absent for action paymentManagement")
			}
		}
	}
	if !p.empty() {
		p.write(w)
		return
	}

	now := s.now()
	payload := map[string]json.RawMessage{}
	for k, v := range raw {
		name := camel(k)
		if k == "payment_page_client_id" {
			name = "clientId"
		}
		payload[name] = v
	}
	set := func(k, v string) { payload[k], _ = json.Marshal(v) }
	set("merchantId", s.merchantID)
	set("environment", "sandbox")
	if _, ok := payload["currency"]; !ok {
		set("currency", "INR")
	}
	resp := sessionResponse{}
	if action != actionPaymentManagement {
		got := s.upsertOrder(p, s.orderFromSession(m, now))
		if got == nil {
			p.write(w)
			return
		}
		s.mu.Lock()
		resp.Status, resp.ID, resp.OrderID = got.status, got.id, got.orderID
		pl := s.paymentLinks(got)
		pl.Mobile, pl.Iframe = "", ""
		pl.Expiry = s.timestamp(got.clientTokenExpiry)
		resp.PaymentLinks = &pl
		resp.OrderExpiry = pl.Expiry
		set("clientAuthToken", got.clientAuthToken)
		set("clientAuthTokenExpiry", s.timestamp(got.clientTokenExpiry))
		s.mu.Unlock()
	} else {
		set("clientAuthToken", newID("tkn_"))
		set("clientAuthTokenExpiry", s.timestamp(now.Add(15*time.Minute)))
	}
	resp.SDKPayload = sdkPayload{RequestID: uuid.NewString(), Service: SDKService, Payload: payload}
	writeJSON(w, http.StatusOK, resp)
}

// sessionResponse follows conformance/session/session_response_*.json.
type sessionResponse struct {
	Status       string        `json:"status,omitempty"`
	ID           string        `json:"id,omitempty"`
	OrderID      string        `json:"order_id,omitempty"`
	PaymentLinks *paymentLinks `json:"payment_links,omitempty"`
	SDKPayload   sdkPayload    `json:"sdk_payload"`
	OrderExpiry  string        `json:"order_expiry,omitempty"`
}

type sdkPayload struct {
	RequestID string                     `json:"requestId"`
	Service   string                     `json:"service"`
	Payload   map[string]json.RawMessage `json:"payload"`
}

// camel turns a request key into the sdk_payload's spelling:
// "customer_id" → "customerId", "options.create_mandate" →
// "options.createMandate" (conformance/payment_links/*_response.json).
func camel(k string) string {
	var b strings.Builder
	up := false
	for _, r := range k {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func (s *Server) orderFromSession(m map[string]any, now time.Time) *order {
	amount, _ := parseAmount(str(m, "amount"))
	o := &order{
		orderID: str(m, "order_id"), amount: amount, currency: str(m, "currency"),
		customerID: str(m, "customer_id"), customerEmail: str(m, "customer_email"), customerPhone: str(m, "customer_phone"),
		returnURL: str(m, "return_url"), description: str(m, "description"), clientID: str(m, "payment_page_client_id"),
		webhookURL: str(m, keyWebhookURL), gatewayRef: str(m, keyGatewayRef),
		status: StatusNew, created: now, udf: map[string]string{}, metadata: map[string]string{},
	}
	for k, v := range m {
		if sv, ok := v.(string); ok {
			if strings.HasPrefix(k, "metadata.") && k != keyGatewayRef {
				o.metadata[strings.TrimPrefix(k, "metadata.")] = sv
			} else if isUDF(k) {
				o.udf[k] = sv
			}
		}
	}
	return o
}

func isUDF(k string) bool {
	switch k {
	case "udf1", "udf2", "udf3", "udf4", "udf5", "udf6", "udf7", "udf8", "udf9", "udf10":
		return true
	}
	return false
}

// upsertOrder stores o, or returns the stored order with the same order_id
// when its amount is the same (a repeated create is answered with the
// existing order); a different amount is added to p at "amount" and nil is
// returned.
func (s *Server) upsertOrder(p *problems, o *order) *order {
	s.mu.Lock()
	defer s.mu.Unlock()
	if have := s.orders[o.orderID]; have != nil {
		if have.amount != o.amount {
			p.bad("amount", fmt.Sprintf("order %q already exists with amount %s", o.orderID, amountText(have.amount)))
			return nil
		}
		return have
	}
	if o.currency == "" {
		o.currency = "INR"
	}
	o.id = newID("ordeh_")
	o.clientAuthToken = newID("tkn_")
	o.clientTokenExpiry = o.created.Add(15 * time.Minute)
	s.orders[o.orderID] = o
	return o
}
