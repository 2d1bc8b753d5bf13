package checkouttest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
)

// ControlPrefix is the path under which the fake serves its control
// endpoints, which exist only in the fake: they let a program not written
// in Go (checkout trigger, a mobile app's tests) do what Pay, Fail,
// RefundCompleted and Resend do. The package doc lists them.
const ControlPrefix = "/__checkouttest/"

// ControlHeader is the header every control POST must carry.
const ControlHeader = "X-Checkouttest-Control"

// FakeHeader is sent with every reply of the fake, set to "1", so that a
// client (or a person reading a trace) never takes it for the service.
const FakeHeader = "X-Checkout-Fake"

// MaxControlRepeat bounds the duplicates and times parameters of the
// control endpoints.
const MaxControlRepeat = 10

// ControlWait bounds how long a control POST waits for its webhooks.
const ControlWait = 60 * time.Second

// ControlResult is the JSON reply of a control POST.
type ControlResult struct {
	// OrderID is the merchant's order id.
	OrderID string `json:"order_id"`
	// Status is the order's status after the action, such as CHARGED.
	Status string `json:"status"`
	// StatusID is the number of that status, such as 21 for CHARGED.
	StatusID int `json:"status_id"`
	// ReturnURL is the signed redirect to the order's return_url (see
	// Server.ReturnURL); omitted when the order has no return_url or the
	// fake no response key.
	ReturnURL string `json:"return_url,omitempty"`
	// Deliveries are the webhook deliveries the action started, as they
	// ended (or stood when the wait ran out).
	Deliveries []ControlDelivery `json:"deliveries"`
}

// ControlDelivery is one webhook delivery in a ControlResult.
type ControlDelivery struct {
	// EventID is the id of the webhook event.
	EventID string `json:"event_id"`
	// EventName is the event's name, such as ORDER_SUCCEEDED.
	EventName string `json:"event_name"`
	// URL is where the event was sent, its secrets redacted (RedactURL);
	// "" when no webhook URL is set.
	URL string `json:"url"`
	// Notified is true once the receiver replied 200.
	Notified bool `json:"notified"`
	// Attempts is how many times it was sent.
	Attempts int `json:"attempts"`
	// LastStatus is the HTTP status of the last reply, 0 when none came.
	LastStatus int `json:"last_status"`
	// Error says why it ended without a 200, if it did.
	Error string `json:"error,omitempty"`
}

type controlError struct {
	Error string `json:"error"`
}

// serveControl answers the control endpoints; parts is the path after
// ControlPrefix, split and unescaped.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, parts []string) {
	if why := crossSite(r); why != "" {
		writeJSON(w, http.StatusForbidden, controlError{why})
		return
	}
	if len(parts) == 1 && parts[0] == "health" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSON(w, http.StatusMethodNotAllowed, controlError{"use GET"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		return
	}
	isFaults := len(parts) == 1 && parts[0] == "faults"
	if !isFaults && (len(parts) != 3 || parts[0] != "orders" || parts[1] == "") {
		writeJSON(w, http.StatusNotFound, controlError{"no such control endpoint: " + r.URL.Path})
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, controlError{"use POST"})
		return
	}
	if r.Header.Get(ControlHeader) == "" {
		writeJSON(w, http.StatusForbidden, controlError{"a control POST needs the header " + ControlHeader + ": 1 (checkout trigger sends it)"})
		return
	}
	if isFaults {
		s.serveFaultControl(w, r)
		return
	}
	orderID := parts[1]
	q := r.URL.Query()
	var ids []string
	if id := q.Get("unique_request_id"); id != "" {
		ids = []string{id}
	}
	action := parts[2]
	repeat := "duplicates"
	if action == "resend" {
		repeat = "times"
	}
	for k := range q {
		if k != repeat && (k != "unique_request_id" || !strings.HasPrefix(action, "refund")) && (k != "amount" || action != "pay") {
			writeJSON(w, http.StatusBadRequest, controlError{"unknown parameter " + strconv.Quote(k) + " for " + action})
			return
		}
	}
	n := 0
	if action == "resend" {
		n = 1
	}
	if v := q.Get(repeat); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > MaxControlRepeat {
			writeJSON(w, http.StatusBadRequest, controlError{fmt.Sprintf("%s must be a number from 1 to %d", repeat, MaxControlRepeat)})
			return
		}
	}
	var act func() error
	switch action {
	case "pay":
		act = func() error { return s.PayWith(orderID, Payment{Amount: checkout.Amount(q.Get("amount"))}) }
	case "fail":
		act = func() error { return s.Fail(orderID) }
	case "refund":
		act = func() error { return s.RefundCompleted(orderID, ids...) }
	case "refund-fail":
		act = func() error { return s.RefundFailed(orderID, ids...) }
	case "resend":
		act = func() error { return nil } // the resends below are the action
	default:
		writeJSON(w, http.StatusNotFound, controlError{"unknown action " + strings.ToValidUTF8(action, "?") + ": use pay, fail, refund, refund-fail or resend"})
		return
	}
	s.mu.Lock()
	from := len(s.deliveries)
	s.mu.Unlock()
	err := act()
	if err == nil {
		err = s.repeatEvents(orderID, from, action == "resend", n)
	}
	if err != nil {
		status := http.StatusBadRequest
		switch {
		case errors.Is(err, ErrUnknownOrder):
			status = http.StatusNotFound
		case errors.Is(err, ErrInvalidTransition), errors.Is(err, ErrUnknownRefund), errors.Is(err, errNoEventSent):
			status = http.StatusConflict
		case errors.Is(err, ErrClosed):
			status = http.StatusServiceUnavailable
		}
		writeJSON(w, status, controlError{err.Error()})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), ControlWait)
	defer cancel()
	res := ControlResult{OrderID: orderID, Deliveries: s.awaitDeliveries(ctx, from, orderID)}
	if o, err := s.Order(orderID); err == nil {
		res.Status, res.StatusID = o.Status, o.StatusID
	}
	res.ReturnURL, _ = s.ReturnURL(orderID)
	writeJSON(w, http.StatusOK, res)
}

// errNoEventSent is the failure of a resend for an order that has had no
// event yet.
var errNoEventSent = errors.New("no webhook event was sent for this order yet")

// repeatEvents sends events of orderID again, n times each, through Resend:
// with last, the order's latest event (the action sent none); otherwise
// each event whose first delivery started at index from or later, that is
// those the action just sent.
func (s *Server) repeatEvents(orderID string, from int, last bool, n int) error {
	var events []string
	s.mu.Lock()
	if _, err := s.openOrderLocked(orderID); err != nil {
		s.mu.Unlock()
		return err
	}
	if last {
		for i := len(s.deliveries) - 1; i >= 0; i-- {
			if d := s.deliveries[i]; d.OrderID == orderID {
				events = []string{d.EventID}
				break
			}
		}
	} else {
		for _, d := range s.deliveries[from:] {
			if d.OrderID == orderID && !slices.Contains(events, d.EventID) {
				events = append(events, d.EventID)
			}
		}
	}
	s.mu.Unlock()
	if last && len(events) == 0 {
		return errNoEventSent
	}
	for _, id := range events {
		for range n {
			if err := s.Resend(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// awaitDeliveries waits until the deliveries of orderID started at index
// from or later are done, or ctx ends, and returns them.
func (s *Server) awaitDeliveries(ctx context.Context, from int, orderID string) []ControlDelivery {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		out := []ControlDelivery{}
		done := true
		s.mu.Lock()
		for _, d := range s.deliveries[from:] {
			if d.OrderID != orderID {
				continue
			}
			cd := ControlDelivery{EventID: d.EventID, EventName: d.EventName, URL: RedactURL(d.URL), Notified: d.Notified, Attempts: len(d.Attempts), Error: d.Err}
			if n := len(d.Attempts); n > 0 {
				cd.LastStatus = d.Attempts[n-1].StatusCode
			}
			out = append(out, cd)
			done = done && d.Done
		}
		s.mu.Unlock()
		if done {
			return out
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return out
		}
	}
}

// crossSite says why a browser's request came from another site (Origin
// not the fake's own; Sec-Fetch-Site cross-site or same-site); "" when it
// did not, or came from no browser.
func crossSite(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "cross-site", "same-site":
		return "refused: a " + site + " request (Sec-Fetch-Site); the fake obeys only its own pages and programs"
	}
	if origin := r.Header.Values("Origin"); len(origin) > 0 && (len(origin) > 1 || origin[0] != "http://"+r.Host) {
		return "refused: a request from another origin; the fake obeys only its own pages and programs"
	}
	return ""
}

// FaultResult is the JSON reply of the control POST that injects a fault
// (checkout trigger fault).
type FaultResult struct {
	// Method is the method the fault matches, "" for any.
	Method string `json:"method"`
	// Path is the path.Match pattern the fault matches.
	Path string `json:"path"`
	// Times is how many matching requests it applies to.
	Times int `json:"times"`
	// Fault describes it as Request.Fault will, such as "status 502 after
	// processing".
	Fault string `json:"fault"`
}

// serveFaultControl injects the fault its query describes: path (required),
// method, times, status, retry_after, delay (a Go duration), drop and after
// (1 or true: after processing).
func (s *Server) serveFaultControl(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	bad := func(msg string) { writeJSON(w, http.StatusBadRequest, controlError{msg}) }
	for k, vs := range q {
		if !slices.Contains([]string{"path", "method", "times", "status", "retry_after", "delay", "drop", "after"}, k) {
			bad("unknown parameter " + strconv.Quote(k) + " for faults: use path, method, times, status, retry_after, delay, drop, after")
			return
		}
		if len(vs) != 1 {
			bad(k + " is given more than once")
			return
		}
	}
	f := Fault{Method: strings.ToUpper(q.Get("method")), Path: q.Get("path"), RetryAfter: q.Get("retry_after")}
	var err error
	flag := func(k string) bool {
		v := q.Get(k)
		ok := v == "" || v == "0" || v == "1" || v == "true" || v == "false"
		if !ok && err == nil {
			err = fmt.Errorf("%s must be 1, true, 0 or false", k)
		}
		return v == "1" || v == "true"
	}
	number := func(k string) int {
		v := q.Get(k)
		if v == "" {
			return 0
		}
		n, e := strconv.Atoi(v)
		if (e != nil || n < 1) && err == nil {
			err = fmt.Errorf("%s must be a positive number", k)
		}
		return n
	}
	f.Drop, f.AfterProcessing = flag("drop"), flag("after")
	f.Times, f.Status = number("times"), number("status")
	if v := q.Get("delay"); v != "" {
		if f.Delay, err = time.ParseDuration(v); err != nil || f.Delay <= 0 {
			err = errors.New("delay must be a positive duration, like 2s")
		}
	}
	if err == nil {
		err = s.InjectFault(f)
	}
	if err != nil {
		bad(strings.TrimPrefix(err.Error(), "checkouttest: "))
		return
	}
	times := max(f.Times, 1)
	writeJSON(w, http.StatusOK, FaultResult{Method: f.Method, Path: f.Path, Times: times, Fault: f.String()})
}
