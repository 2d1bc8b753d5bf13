package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
)

// Handler returns an http.Handler that verifies each delivery, runs fn
// once per event with the request's context, and answers so that the
// service re-sends exactly what was not processed: 200 after fn succeeded
// or for an event processed before, 500 when fn fails or panics (the event
// is released and processed again), 409 for a duplicate whose first
// delivery is still running, 4xx for what is refused. The package doc
// lists every answer and how events are claimed. A nil fn answers 500.
func (v *Verifier) Handler(fn func(ctx context.Context, ev *Event) error, opts ...HandlerOption) http.Handler {
	h := &handler{v: v, fn: fn}
	for _, o := range opts {
		if o != nil {
			o(&h.opts)
		}
	}
	if v != nil {
		h.log = v.log
		h.obs = v.observer
		h.wait = v.dupWait
		h.waiter, _ = v.claims.(claim.Waiter)
	}
	return h
}

type handler struct {
	v      *Verifier
	fn     func(ctx context.Context, ev *Event) error
	opts   handlerOptions
	log    *slog.Logger      // nil: silent
	obs    checkout.Observer // nil: nothing observed
	wait   time.Duration     // how long a duplicate waits; <= 0: not at all
	waiter claim.Waiter      // nil: poll Claim
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var start time.Time
	if h.obs != nil {
		start = time.Now()
	}
	status, outcome, ev := h.serve(w, r)
	reply(w, status)
	if h.obs != nil {
		d := checkout.Delivery{Outcome: outcome, HTTPStatus: status, Duration: time.Since(start)}
		if ev != nil {
			d.EventName = clipped(ev.Name)
		}
		ctx := context.Background()
		if r != nil {
			ctx = r.Context()
		}
		h.obs.ObserveDelivery(ctx, d)
	}
}

// serve handles one delivery and returns the status to answer, its
// outcome, and the event when it was read.
func (h *handler) serve(w http.ResponseWriter, r *http.Request) (int, checkout.DeliveryOutcome, *Event) {
	if r == nil { // net/http never does this; a direct caller might
		return http.StatusBadRequest, checkout.DeliveryDecodeFailure, nil
	}
	ev, client, err := h.verify(w, r)
	if err != nil {
		status, outcome := h.reject(w, r, client, err)
		return status, outcome, nil
	}
	if h.fn == nil {
		h.logError(r, "webhook handler has no function", client, ev, nil)
		return http.StatusInternalServerError, checkout.DeliveryNotConfigured, ev
	}
	ctx := r.Context()
	key := ev.DedupKey()
	if h.opts.key != nil {
		key = h.opts.key(ev)
	}
	if key == "" { // fn claims its work itself
		if err := h.fn(ctx, ev); err != nil {
			h.logError(r, "webhook function failed; the service will re-send", client, ev, err)
			return http.StatusInternalServerError, checkout.DeliveryHandlerError, ev
		}
		h.logDebug(ctx, "webhook processed", client, ev)
		return http.StatusOK, checkout.DeliveryProcessed, ev
	}
	state, token, since, err := h.claim(ctx, key)
	switch {
	case err != nil:
		h.logError(r, "webhook claim store failed", client, ev, err)
		return http.StatusInternalServerError, checkout.DeliveryHandlerError, ev
	case state == claimDone:
		h.logDebug(ctx, "webhook duplicate ignored", client, ev)
		return http.StatusOK, checkout.DeliveryDuplicate, ev
	case state == claimInFlight:
		h.logWarn(ctx, "webhook duplicate: the first delivery is still in progress; the service will re-send", client, ev, ErrInFlight)
		w.Header().Set("Retry-After", "5")
		return http.StatusConflict, checkout.DeliveryDuplicate, ev
	}
	if err := h.run(ctx, key, token, since, client, ev); err != nil {
		h.logError(r, "webhook function failed; the service will re-send", client, ev, err)
		return http.StatusInternalServerError, checkout.DeliveryHandlerError, ev
	}
	h.logDebug(ctx, "webhook processed", client, ev)
	return http.StatusOK, checkout.DeliveryProcessed, ev
}

// verify runs Verify with the connection's read deadline set to the
// Verifier's ReadTimeout, so a sender trickling its body cannot hold the
// goroutine, whatever the server's own timeouts; the deadline is lifted
// once the body is read, so it does not cancel fn's context.
func (h *handler) verify(w http.ResponseWriter, r *http.Request) (*Event, netip.Addr, error) {
	if h.v == nil || !h.v.ok {
		return h.v.verify(r) // ErrNotConfigured, body unread
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(h.v.readTimeout)) == nil {
		defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	}
	return h.v.verify(r)
}

func (h *handler) reject(w http.ResponseWriter, r *http.Request, client netip.Addr, err error) (int, checkout.DeliveryOutcome) {
	status, outcome := classify(err)
	switch status {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Basic realm="`+h.v.realm+`", charset="UTF-8"`)
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", http.MethodPost)
	}
	if status >= 500 {
		h.logError(r, "webhook rejected; the service will re-send", client, nil, err)
	} else {
		h.logWarn(r.Context(), "webhook rejected", client, nil, err)
	}
	return status, outcome
}

// StatusFor maps an error of Verify to the status Handler answers with
// (see the package doc); 500 for anything else.
func StatusFor(err error) int {
	status, _ := classify(err)
	return status
}

// classify gives the status and the Outcome of an error of Verify.
func classify(err error) (int, checkout.DeliveryOutcome) {
	switch {
	case err == nil:
		return http.StatusOK, checkout.DeliveryProcessed
	case errors.Is(err, ErrForbiddenSource):
		return http.StatusForbidden, checkout.DeliveryForbidden
	case errors.Is(err, ErrMethodNotAllowed):
		return http.StatusMethodNotAllowed, checkout.DeliveryDecodeFailure
	case errors.Is(err, ErrBadCredentials), errors.Is(err, ErrHeaderMismatch):
		return http.StatusUnauthorized, checkout.DeliveryUnauthorized
	case errors.Is(err, ErrBodyTooLarge):
		return http.StatusRequestEntityTooLarge, checkout.DeliveryDecodeFailure
	case errors.Is(err, ErrEncrypted) && errors.Is(err, checkout.ErrSignature):
		return http.StatusInternalServerError, checkout.DeliveryUnauthorized
	case errors.Is(err, ErrNoDecrypter), errors.Is(err, ErrNotEncrypted), errors.Is(err, ErrNotConfigured):
		return http.StatusInternalServerError, checkout.DeliveryNotConfigured
	case errors.Is(err, ErrEncrypted):
		return http.StatusInternalServerError, checkout.DeliveryDecodeFailure
	case errors.Is(err, ErrMalformedBody):
		return http.StatusBadRequest, checkout.DeliveryDecodeFailure
	case errors.Is(err, ErrInFlight):
		return http.StatusConflict, checkout.DeliveryDuplicate
	}
	return http.StatusInternalServerError, checkout.DeliveryHandlerError
}

// reply writes a short status text body; it never echoes the request.
func reply(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, http.StatusText(status)+"\n")
}

// maxLogText bounds the event id and name a log record carries: they come
// from the body, which is never logged whole.
const maxLogText = 128

// clipped is s cut to maxLogText characters.
func clipped(s string) string {
	if len(s) <= maxLogText {
		return s
	}
	return fmt.Sprintf("%.*s", maxLogText, s)
}

func attrs(client netip.Addr, ev *Event, err error) []slog.Attr {
	a := make([]slog.Attr, 0, 4)
	if client.IsValid() {
		a = append(a, slog.String("client", client.String()))
	}
	if ev != nil {
		a = append(a, slog.String("event_id", clipped(ev.ID)), slog.String("event_name", clipped(ev.Name)))
	}
	if err != nil {
		a = append(a, slog.String("error", err.Error()))
	}
	return a
}

func (h *handler) logError(r *http.Request, msg string, client netip.Addr, ev *Event, err error) {
	h.logAt(r.Context(), slog.LevelError, msg, append(attrs(client, ev, err), slog.String("peer", r.RemoteAddr)))
}

func (h *handler) logWarn(ctx context.Context, msg string, client netip.Addr, ev *Event, err error) {
	h.logAt(ctx, slog.LevelWarn, msg, attrs(client, ev, err))
}

func (h *handler) logDebug(ctx context.Context, msg string, client netip.Addr, ev *Event) {
	if h.log != nil && h.log.Enabled(ctx, slog.LevelDebug) {
		h.logAt(ctx, slog.LevelDebug, msg, attrs(client, ev, nil))
	}
}

func (h *handler) logAt(ctx context.Context, level slog.Level, msg string, a []slog.Attr) {
	if h.log != nil {
		h.log.LogAttrs(ctx, level, msg, a...)
	}
}
