package checkouttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	checkout "github.com/payorch/checkout-go"
)

// handleSession serves POST /session. The body is read into a
// checkout.SessionRequest and refused exactly when its decoding or its
// Validate refuses it; everything else is the service's behaviour: the
// content type, the order a payment session makes (the same order_id with
// another amount is refused), and the sdk_payload echoing the body.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	if mt := mediaType(r); mt != "application/json" {
		p.bad("Content-Type", fmt.Sprintf("must be application/json for /session, got %q", r.Header.Get("Content-Type")))
		p.write(w)
		return
	}
	var req checkout.SessionRequest
	var syntax *json.SyntaxError
	if err := json.Unmarshal(body, &req); errors.As(err, &syntax) {
		p.bad("body", "is not JSON: "+err.Error())
	} else if err != nil {
		p.refuse(err, jsonDoc(body))
	} else if err := req.Validate(); err != nil {
		p.refuse(err, jsonDoc(body))
	}
	if !p.empty() {
		p.write(w)
		return
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(body, &raw) // an object: SessionRequest read it

	now := s.now()
	payload := map[string]json.RawMessage{}
	for k, v := range raw {
		payload[camel(k)] = v
	}
	set := func(k, v string) { payload[k], _ = json.Marshal(v) }
	if key := "payment_page_client_id"; raw[key] != nil {
		delete(payload, camel(key))
		payload["clientId"] = raw[key]
	}
	set("merchantId", s.merchantID)
	set("environment", "sandbox")
	if _, ok := payload["currency"]; !ok {
		set("currency", "INR")
	}
	resp := sessionResponse{}
	if req.Action != checkout.PaymentManagement && req.OrderID != "" && req.Amount != "" {
		got := s.upsertOrder(p, s.orderFromSession(&req, now))
		if got == nil {
			p.write(w)
			return
		}
		s.mu.Lock()
		resp.Status, resp.ID, resp.OrderID = got.status, got.id, got.orderID
		pl := s.paymentLinks(got)
		pl.Mobile, pl.Iframe = "", ""
		pl.Expiry = s.timestamp(got.expiry)
		if req.UPIDeepLinks {
			pl.DeepLink = s.upiDeepLink(got)
		}
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

// orderFromSession is the order a payment session makes.
func (s *Server) orderFromSession(req *checkout.SessionRequest, now time.Time) *order {
	amount, _ := req.Amount.Minor() // Validate let it through, so it reads
	extra := make(map[string]string, len(req.Extra))
	for k, v := range req.Extra {
		if text, ok := v.(string); ok {
			extra[k] = text
		}
	}
	maps.Copy(extra, udfValues(req.UDFs))
	for _, m := range req.GatewayMetadata {
		extra["metadata."+m.Gateway+":"+m.Key] = m.Value
	}
	currency := req.Currency
	if currency == "" {
		currency = extra["currency"]
	}
	o := &order{
		orderID: req.OrderID, amount: amount, currency: currency,
		customerID: req.CustomerID, customerEmail: req.CustomerEmail, customerPhone: req.CustomerPhone,
		returnURL: req.ReturnURL, description: req.Description, clientID: req.PaymentPageClientID,
		webhookURL: req.WebhookURL, gatewayRef: req.GatewayReferenceID,
		status: StatusNew, created: now, udf: map[string]string{}, metadata: map[string]string{},
		page: newPageSetup(req),
	}
	o.keep(extra)
	return o
}

// keep stores the keys of a request that no typed field of the SDK
// models and the order status shows: udf1…udf10, and metadata.<key> under
// <key>.
func (o *order) keep(extra map[string]string) {
	for k, v := range extra {
		if name, ok := strings.CutPrefix(k, "metadata."); ok {
			o.metadata[name] = v
		} else if isUDF(k) {
			o.udf[k] = v
		}
	}
}

// isUDF reports whether k is one of udf1…udf10.
func isUDF(k string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(k, "udf"))
	return err == nil && n >= 1 && n <= 10 && k == "udf"+strconv.Itoa(n)
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
		if o.page != nil {
			have.page = o.page // the payment page shows the latest session's filter and summary
		}
		return have
	}
	if o.currency == "" {
		o.currency = "INR"
	}
	o.id = newID("ordeh_")
	o.clientAuthToken = newID("tkn_")
	o.clientTokenExpiry = o.created.Add(15 * time.Minute)
	o.expiry = o.created.Add(s.orderLife)
	s.orders[o.orderID] = o
	return o
}
