package checkouttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
)

// handleSession serves POST /session: the body is read as the service
// reads it (readSession) and refused with the service's 400 naming each
// offending key; a payment session makes the order (the same order_id with
// another amount is refused), and the sdk_payload echoes the body.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	if mt := mediaType(r); mt != "application/json" {
		p.bad("Content-Type", fmt.Sprintf("must be application/json for /session, got %q", r.Header.Get("Content-Type")))
		p.write(w)
		return
	}
	req := readSession(p, body)
	if req == nil {
		p.write(w)
		return
	}
	now := s.now()
	payload := map[string]json.RawMessage{}
	for k, v := range req.members {
		payload[camel(k)] = v
	}
	set := func(k, v string) { payload[k], _ = json.Marshal(v) }
	if key := "payment_page_client_id"; req.members[key] != nil {
		delete(payload, camel(key))
		payload["clientId"] = req.members[key]
	}
	set("merchantId", s.merchantID)
	set("environment", "sandbox")
	if _, ok := payload["currency"]; !ok {
		set("currency", "INR")
	}
	resp := sessionResponse{}
	if req.payment() {
		got := s.upsertOrder(p, s.orderFromSession(req, now))
		if got == nil {
			p.write(w)
			return
		}
		s.mu.Lock()
		resp.Status, resp.ID, resp.OrderID = got.status, got.id, got.orderID
		pl := s.paymentLinks(got)
		pl.Mobile, pl.Iframe = "", ""
		pl.Expiry = s.timestamp(got.expiry)
		if req.upiDeepLinks {
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
func (s *Server) orderFromSession(req *sessionIn, now time.Time) *order {
	return &order{
		orderID: req.orderID, amount: req.amount, currency: req.currency,
		customerID: req.customerID, customerEmail: req.customerEmail, customerPhone: req.customerPhone,
		returnURL: req.returnURL, description: req.description, clientID: req.clientID,
		webhookURL: req.webhookURL, gatewayRef: req.gatewayRef,
		status: StatusNew, created: now, udf: req.udf, metadata: req.metadata,
		page: req.page,
	}
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
