package checkouttest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	checkout "github.com/payorch/checkout-go"
)

// Payment says how PayWith pays: the payment_method_type and
// payment_method the order status reports. Zero fields mean CARD and VISA.
type Payment struct {
	// MethodType is the order status's "payment_method_type", for example
	// "CARD", "UPI" or "NB"; "" means "CARD".
	MethodType string
	// Method is the order status's "payment_method", for example "VISA"
	// or "MASTERCARD"; "" means "VISA" for a card, else MethodType.
	Method string
	// Amount is what the customer pays, "" for the order's amount. Another
	// amount becomes the order's (amount, effective_amount, txn_amount),
	// so an underpaid or overpaid order fails OrderStatus.CheckPaid
	// against the amount asked for.
	Amount checkout.Amount
}

// Pay charges the order with a card, as a customer completing the checkout
// would: the order becomes CHARGED (status_id 21) and ORDER_SUCCEEDED is
// sent. When the order names a gateway reference id that no Gateway holds,
// the transaction stays STARTED and no ORDER_* event is sent, as with the
// service.
// It fails with ErrUnknownOrder, with ErrInvalidTransition unless the order
// is CREATED, NEW, STARTED, PENDING_VBV or AUTHORIZATION_FAILED, and with
// ErrClosed.
func (s *Server) Pay(orderID string) error { return s.PayWith(orderID, Payment{}) }

// PayWith is Pay with the payment method of p.
func (s *Server) PayWith(orderID string, p Payment) error {
	return s.attempt(orderID, p, StatusCharged)
}

// Fail fails the order's payment (AUTHORIZATION_FAILED, status_id 27, bank
// error 03 "Not sufficient funds") and sends ORDER_FAILED. An unknown
// gateway reference id leaves the transaction STARTED, as with Pay.
func (s *Server) Fail(orderID string) error {
	return s.attempt(orderID, Payment{}, StatusAuthorizationFailed)
}

func (s *Server) attempt(orderID string, p Payment, final string) error {
	if !s.started() {
		return ErrNotStarted
	}
	if p.MethodType == "" {
		p.MethodType = "CARD"
	}
	if p.Method == "" {
		p.Method = "VISA"
		if p.MethodType != "CARD" {
			p.Method = p.MethodType
		}
	}
	paid, msg := parseAmount(string(p.Amount))
	if p.Amount != "" && (msg != "" || paid == 0) {
		return fmt.Errorf("checkouttest: pay: Payment.Amount %.24q is not a positive amount like 90.00", string(p.Amount))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.openOrderLocked(orderID)
	if err != nil {
		return err
	}
	switch o.status {
	case StatusCreated, StatusNew, StatusStarted, StatusAuthorizationFailed, StatusPendingVBV:
	default:
		return fmt.Errorf("%w: order %q is %s", ErrInvalidTransition, orderID, o.status)
	}
	if p.Amount != "" {
		o.amount = paid
	}
	o.txns++
	t := &txn{
		id:   s.merchantID + "-" + o.orderID + "-" + strconv.Itoa(o.txns),
		uuid: newID("txn")[:23], methodType: p.MethodType, method: p.Method,
		gateway: "DUMMY", gatewayID: dummyGatewayID, created: s.now(), status: final,
	}
	o.txn = t
	routed := true
	if o.gatewayRef != "" {
		routed = false
		for _, g := range s.gateways {
			if g.ReferenceID == o.gatewayRef {
				t.gateway, t.gatewayID, routed = g.Name, g.ID, true
				if t.gatewayID == 0 {
					t.gatewayID = dummyGatewayID
				}
				o.metadata[g.Name+":gateway_reference_id"] = g.ReferenceID
				break
			}
		}
	}
	if !routed {
		// The reference id matches no configuration; the
		// transaction cannot be processed and stays STARTED.
		t.gateway, t.gatewayID, t.status = "", 0, StatusStarted
		o.status = StatusStarted
		s.emitLocked(o, EventTxnCreated)
		return nil
	}
	s.emitLocked(o, EventTxnCreated)
	o.status = final
	if final == StatusPendingVBV { // the payment page's pending outcome: no final event yet
		return nil
	}
	if final == StatusAuthorizationFailed {
		t.errCode, t.errMessage = "03", "Not sufficient funds"
		s.emitLocked(o, EventOrderFailed)
		return nil
	}
	s.emitLocked(o, EventOrderSucceeded)
	return nil
}

// openOrderLocked returns the order a helper acts on: ErrClosed once the
// server is closed, ErrUnknownOrder when no order has orderID. Called with
// s.mu held.
func (s *Server) openOrderLocked(orderID string) (*order, error) {
	if s.closed {
		return nil, ErrClosed
	}
	o := s.orders[orderID]
	if o == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownOrder, orderID)
	}
	return o, nil
}

// RefundCompleted completes the refunds made with the given unique request
// ids (status SUCCESS), or every pending refund of the order when none is
// given, and sends ORDER_REFUNDED for each.
func (s *Server) RefundCompleted(orderID string, uniqueRequestIDs ...string) error {
	return s.finishRefunds(orderID, uniqueRequestIDs, RefundSuccess, EventOrderRefunded)
}

// RefundFailed fails the refunds made with the given unique request ids
// (status FAILURE; their amount is refundable again), or every pending refund
// of the order when none is given, and sends ORDER_REFUND_FAILED for each.
func (s *Server) RefundFailed(orderID string, uniqueRequestIDs ...string) error {
	return s.finishRefunds(orderID, uniqueRequestIDs, RefundFailure, EventOrderRefundFailed)
}

// finishRefunds moves the named refunds, or all pending ones when ids is
// empty, to status; it stops at the first that cannot move.
func (s *Server) finishRefunds(orderID string, ids []string, status, event string) error {
	if len(ids) == 0 {
		if !s.started() {
			return ErrNotStarted
		}
		s.mu.Lock()
		o, err := s.openOrderLocked(orderID)
		if err == nil {
			for _, r := range o.refunds {
				if r.status == RefundPending {
					ids = append(ids, r.uniqueRequestID)
				}
			}
		}
		s.mu.Unlock()
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return fmt.Errorf("%w: order %q has no pending refund", ErrUnknownRefund, orderID)
		}
	}
	for _, id := range ids {
		if err := s.finishRefund(orderID, id, status, event); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) finishRefund(orderID, id, status, event string) error {
	if !s.started() {
		return ErrNotStarted
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.openOrderLocked(orderID)
	if err != nil {
		return err
	}
	for _, r := range o.refunds {
		if r.uniqueRequestID != id {
			continue
		}
		if r.status != RefundPending {
			return fmt.Errorf("%w: refund %q of order %q is %s", ErrInvalidTransition, id, orderID, r.status)
		}
		r.status = status
		if status == RefundSuccess {
			r.ref = strconv.FormatInt(s.now().UnixNano()%100000000, 10)
		}
		s.emitLocked(o, event)
		return nil
	}
	return fmt.Errorf("%w: %q of order %q", ErrUnknownRefund, id, orderID)
}

// Attempt is one try of a delivery.
type Attempt struct {
	// Time is when the attempt was made.
	Time time.Time
	// StatusCode is the receiver's HTTP status, 0 when no reply came.
	StatusCode int
	// Err says why no reply came ("" when one did).
	Err string
}

// Delivery is a snapshot of one delivery of an event to one URL.
type Delivery struct {
	// EventID is the webhook body's "id" ("evt_V2_…"); Resend takes it.
	EventID string
	// EventName is the body's "event_name", for example
	// EventOrderSucceeded.
	EventName string
	// OrderID is the merchant's order id the event is about.
	OrderID string
	// URL is where the event is sent: the order's metadata.webhook_url,
	// else WebhookConfig.URL; "" when neither is set.
	URL string
	// Body is the exact JSON sent.
	Body []byte
	// Attempts are the tries so far, oldest first.
	Attempts []Attempt
	// Notified is the service's notified flag: true once the receiver
	// replied 200.
	Notified bool
	// Done is true when no further attempt will be made: notified, out of
	// attempts, stopped by Close, or never possible (Err says why).
	Done bool
	// Err says why the delivery ended without a 200 ("" otherwise), for
	// example "gave up after 10 attempts" or "stopped by Close".
	Err string
}

type delivery struct {
	Delivery
}

type sentEvent struct {
	id, name, orderID, url string
	body                   []byte
}

// eventBody is a webhook body (conformance/webhooks/webhook_order_*.json).
type eventBody struct {
	ID          string         `json:"id"`
	EventName   string         `json:"event_name"`
	DateCreated string         `json:"date_created"`
	Content     map[string]any `json:"content"`
}

// emitLocked builds event name for o and starts its deliveries when the
// event is enabled. Called with s.mu held and the server open.
func (s *Server) emitLocked(o *order, name string) {
	if !s.events[name] {
		return
	}
	now := s.now()
	content := map[string]any{}
	if name == EventTxnCreated {
		content["txn"] = s.view(o).TxnDetail
	} else {
		content["order"] = s.view(o)
	}
	ev := eventBody{ID: newID("evt_V2_"), EventName: name, DateCreated: s.timestamp(now), Content: content}
	body, err := json.Marshal(ev)
	if err != nil {
		return
	}
	target := o.webhookURL
	if target == "" {
		target = s.webhook.URL
	}
	se := &sentEvent{id: ev.ID, name: name, orderID: o.orderID, url: target, body: body}
	s.sent[ev.ID] = se
	for range 1 + s.webhook.Duplicates {
		s.startLocked(se)
	}
}

// startLocked records one delivery of se and starts it. Called with s.mu held.
func (s *Server) startLocked(se *sentEvent) {
	d := &delivery{Delivery{EventID: se.id, EventName: se.name, OrderID: se.orderID, URL: se.url, Body: se.body}}
	s.deliveries = append(s.deliveries, d)
	switch {
	case se.url == "":
		d.Done, d.Err = true, "no webhook URL: set Config.Webhook.URL or the order's metadata.webhook_url"
		return
	case s.closed:
		d.Done, d.Err = true, "server closed"
		return
	case s.droppedLocked(d):
		return
	}
	if s.pending == 0 {
		s.idle = make(chan struct{})
	}
	s.pending++
	s.wg.Add(1)
	go s.deliver(d)
}

// Resend delivers an event that was already sent once more, as the
// service does on rare network trouble.
func (s *Server) Resend(eventID string) error {
	if !s.started() {
		return ErrNotStarted
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	se := s.sent[eventID]
	if se == nil {
		return fmt.Errorf("%w: %q", ErrUnknownEvent, eventID)
	}
	s.startLocked(se)
	return nil
}

// deliver sends d until the receiver answers 200, attempts run out or the
// server is closed.
func (s *Server) deliver(d *delivery) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		d.Done = true
		s.pending--
		if s.pending == 0 {
			close(s.idle)
		}
		s.mu.Unlock()
	}()
	s.mu.Lock()
	maxAttempts, interval := s.webhook.MaxAttempts, s.webhook.RetryInterval
	s.mu.Unlock()
	for n := 1; ; n++ {
		a := s.send(d)
		s.mu.Lock()
		stopped := s.ctx.Err() != nil
		if a.StatusCode != 0 || !stopped {
			d.Attempts = append(d.Attempts, a)
		}
		if a.StatusCode == http.StatusOK {
			d.Notified = true
			s.mu.Unlock()
			return
		}
		if stopped {
			d.Err = "stopped by Close"
			s.mu.Unlock()
			return
		}
		if n >= maxAttempts {
			d.Err = fmt.Sprintf("gave up after %d attempts", n)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		t := time.NewTimer(interval)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			s.mu.Lock()
			d.Err = "stopped by Close"
			s.mu.Unlock()
			return
		}
	}
}

// send makes one attempt with the credentials and headers configured now
// (Basic credentials, custom headers).
func (s *Server) send(d *delivery) Attempt {
	s.mu.Lock()
	slots := s.slots // SetWebhook may replace it; release into the one taken from
	s.mu.Unlock()
	select {
	case slots <- struct{}{}:
		defer func() { <-slots }()
	case <-s.ctx.Done():
		return Attempt{Time: s.now(), Err: "stopped by Close"}
	}
	s.mu.Lock()
	user, pass, timeout := s.webhook.Username, s.webhook.Password, s.webhook.Timeout
	headers := cloneMap(s.webhook.Headers)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	a := Attempt{Time: s.now()}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		a.Err = err.Error()
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "checkouttest-webhook/1")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if user != "" {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+pass)))
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // its URL, with the user and query, is not repeated
		}
		a.Err = "POST <webhook url>: " + err.Error()
		return a
	}
	drain(resp.Body)
	a.StatusCode = resp.StatusCode
	return a
}

// Deliveries returns snapshots of every delivery so far, in the order they
// were started.
func (s *Server) Deliveries() []Delivery {
	if !s.started() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Delivery, len(s.deliveries))
	for i, d := range s.deliveries {
		c := d.Delivery
		c.Attempts = append([]Attempt(nil), d.Attempts...)
		c.Body = append([]byte(nil), d.Body...)
		out[i] = c
	}
	return out
}

// WaitDeliveries waits until no delivery is in progress (each is notified,
// out of attempts or stopped), or ctx ends.
func (s *Server) WaitDeliveries(ctx context.Context) error {
	if !s.started() {
		return ErrNotStarted
	}
	s.mu.Lock()
	if s.pending == 0 {
		s.mu.Unlock()
		return nil
	}
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		// Deliveries started while waiting (a Resend from another
		// goroutine) are waited for too.
		return s.WaitDeliveries(ctx)
	case <-ctx.Done():
		return fmt.Errorf("checkouttest: wait for deliveries: %w", ctx.Err())
	}
}
