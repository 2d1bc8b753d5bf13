package checkouttest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"time"
)

// Fault makes the next requests that match Method and Path misbehave, to
// test a client's retries, timeouts and replays. Delay applies first; then
// Drop, else Status, else the request is served normally (a delay alone).
// With AfterProcessing the request is served first (the order made, the
// refund recorded) and only its reply is lost: the write took effect, and
// the client cannot know it.
type Fault struct {
	// Method matches the request method; "" matches any.
	Method string
	// Path is a path.Match pattern of the request path, for example
	// "/orders" or "/orders/*" (every order status, not the refunds).
	Path string
	// Times is how many matching requests the fault applies to; zero means 1.
	Times int
	// Delay holds the request this long before answering (cut short by
	// the client going away or Close).
	Delay time.Duration
	// Drop reads the request, then closes the connection without a reply
	// (hijack and close).
	Drop bool
	// Status answers with this HTTP status and the service's error body,
	// for example 503, 429 or 500.
	Status int
	// RetryAfter, when not empty, is sent as the Retry-After header with
	// Status ("1", or an HTTP date).
	RetryAfter string
	// AfterProcessing serves the request as usual and then loses its
	// reply: Drop closes the connection instead of answering, Status (such
	// as 502) answers instead of the reply. It needs Drop or Status. Use
	// it to test that a write whose outcome is unknown is settled, not
	// repeated: checkout's CreateOrder reads the order and returns it with
	// Replayed set.
	AfterProcessing bool
}

// String describes the fault as Request.Fault records it.
func (f Fault) String() string {
	var parts []string
	if f.Delay > 0 {
		parts = append(parts, "delay "+f.Delay.String())
	}
	switch {
	case f.Drop:
		parts = append(parts, "drop")
	case f.Status != 0:
		s := fmt.Sprintf("status %d", f.Status)
		if f.RetryAfter != "" {
			s += " retry-after " + f.RetryAfter
		}
		parts = append(parts, s)
	}
	out := strings.Join(parts, ", ")
	if f.AfterProcessing {
		out += " after processing"
	}
	return out
}

type faultState struct {
	Fault
	left int
}

// InjectFault arms f for the next f.Times matching requests. Faults are
// matched in the order they were injected; a request takes at most one.
// It returns an error when f.Path is not a valid pattern or f does nothing.
func (s *Server) InjectFault(f Fault) error {
	if !s.started() {
		return ErrNotStarted
	}
	if _, err := path.Match(f.Path, "/"); err != nil || f.Path == "" {
		return fmt.Errorf("checkouttest: fault path %q is not a path.Match pattern", f.Path)
	}
	if f.Delay <= 0 && !f.Drop && f.Status == 0 {
		return fmt.Errorf("checkouttest: fault for %s does nothing: set Delay, Drop or Status", f.Path)
	}
	if f.AfterProcessing && !f.Drop && f.Status == 0 {
		return fmt.Errorf("checkouttest: fault for %s loses no reply after processing: set Drop or Status", f.Path)
	}
	if f.Status != 0 && (f.Status < 100 || f.Status > 599) {
		return fmt.Errorf("checkouttest: fault status %d is not an HTTP status", f.Status)
	}
	n := f.Times
	if n <= 0 {
		n = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{Fault: f, left: n})
	return nil
}

func (s *Server) takeFault(method, p string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if f.Method != "" && f.Method != method {
			continue
		}
		if ok, _ := path.Match(f.Path, p); !ok {
			continue
		}
		f.left--
		if f.left == 0 {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
		}
		cp := f.Fault
		return &cp
	}
	return nil
}

// applyFault plays f and reports whether the request was answered (or
// dropped) by it. serve serves the request: a fault after processing
// serves it into a recorder and then loses the reply.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, f *Fault, serve func(http.ResponseWriter)) bool {
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true
		case <-s.ctx.Done():
			t.Stop()
			writeError(w, http.StatusServiceUnavailable, errBody{Status: "error", ErrorCode: "service_unavailable", ErrorMessage: "server closing"})
			return true
		}
	}
	if f.AfterProcessing {
		serve(httptest.NewRecorder()) // the write takes effect; its reply is lost below
	}
	switch {
	case f.Drop:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic(http.ErrAbortHandler)
		}
		conn, _, err := hj.Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		_ = conn.Close()
		return true
	case f.Status != 0:
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		code := strings.ToLower(strings.ReplaceAll(http.StatusText(f.Status), " ", "_"))
		writeError(w, f.Status, errBody{Status: "error", ErrorCode: code, ErrorMessage: http.StatusText(f.Status) + " (injected fault)"})
		return true
	}
	return false
}
