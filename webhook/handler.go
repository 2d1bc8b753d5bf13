package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"time"
)

// Handler returns an http.Handler that verifies each delivery, runs fn once
// per event, and replies so that the service re-sends exactly what was not
// processed (the service marks an event notified only after a 200):
//
//	403 source not allowed (ErrForbiddenSource)
//	405 not a POST (ErrMethodNotAllowed), with Allow: POST
//	401 bad credentials or custom headers (ErrUnauthorized,
//	    ErrHeaderMismatch), with WWW-Authenticate: Basic realm=...
//	413 body too large (ErrBodyTooLarge)
//	400 not parseable (ErrMalformedBody)
//	500 encrypted body without a Decrypter, or one that cannot be opened,
//	    or a plain body while a Decrypter is configured without
//	    Config.AcceptPlain (ErrNotEncrypted) (logged at error level: the
//	    merchant must fix the configuration, and meanwhile the service
//	    keeps the event)
//	409 a duplicate of an event whose first delivery is still running
//	    after Config.DuplicateWait (or the sender hung up), with
//	    Retry-After: 5
//	500 fn returned an error or panicked, or the Deduplicator failed
//	200 fn succeeded, or the event was processed before (fn not called)
//
// Concurrent deliveries of one event run fn once. A duplicate
// that arrives while the first delivery is running waits for it, at most
// Config.DuplicateWait and only while its own request's context lives:
//
//   - the first succeeds: the duplicate replies 200 without calling fn;
//   - the first fails or panics: one of the waiting duplicates claims the
//     event and runs fn itself, so the event is not left for a later
//     re-send (the others keep waiting for that one);
//   - the wait ends first: 409, so the service re-sends later.
//
// A duplicate never gets 200 before the event is processed: if the first
// delivery then failed, the service would have been told it was delivered
// and the event would be lost.
//
// The wait re-asks the Deduplicator's Begin with a short backoff (5 ms
// doubling to 100 ms), which any store (Redis, SQL) supports. A
// Deduplicator that also implements DedupWaiter, as MemoryDeduplicator
// does, is woken up at once instead.
//
// fn receives the request's context. An event is marked done only after fn
// returns nil; if fn fails or panics it is released, and the next delivery
// (or a waiting duplicate) runs fn again. If marking it done fails after fn
// succeeded, the reply is still 200 (the work is done; re-running it would
// be worse) and the failure is logged. A nil fn answers 500 to everything.
//
// A typical fn switches on the event name and reads the typed content,
// acknowledging the events it does not act on:
//
//	h := v.Handler(func(ctx context.Context, ev *webhook.Event) error {
//		switch ev.Name {
//		case webhook.OrderSucceeded:
//			order, err := ev.Order() // the same *checkout.OrderStatus GetOrder returns
//			if err != nil {
//				return err
//			}
//			if err := order.CheckPaid(shop.Total(order.OrderID)); err != nil {
//				return shop.Flag(ctx, order.OrderID, err) // paid, but not as expected
//			}
//			return shop.Fulfil(ctx, order.OrderID)
//		case webhook.OrderRefunded:
//			order, err := ev.Order()
//			if err != nil {
//				return err
//			}
//			return shop.RecordRefunds(ctx, order.OrderID, order.Refunds)
//		}
//		return nil // other and unknown events: 200, nothing to do
//	})
func (v *Verifier) Handler(fn func(ctx context.Context, ev *Event) error) http.Handler {
	h := &handler{v: v, fn: fn}
	if v != nil {
		h.log = v.log
		h.wait = v.dupWait
		h.waiter, _ = v.dedup.(DedupWaiter)
	}
	return h
}

type handler struct {
	v      *Verifier
	fn     func(ctx context.Context, ev *Event) error
	log    *slog.Logger  // nil: silent
	wait   time.Duration // how long a duplicate waits; <= 0: not at all
	waiter DedupWaiter   // nil: poll Begin
}

// The backoff between two Begin calls while a duplicate waits for a
// Deduplicator that is not a DedupWaiter.
const (
	pollMin = 5 * time.Millisecond
	pollMax = 100 * time.Millisecond
)

// awaitFirst waits while key is in flight, for at most h.wait and while
// ctx lives, and returns what Begin last gave: DedupDone (the first
// delivery succeeded), DedupNew and its token (it failed and this delivery
// now owns the key), or DedupInFlight (the wait ended first).
func (h *handler) awaitFirst(ctx context.Context, key string) (DedupState, DedupToken, error) {
	if h.wait <= 0 {
		return DedupInFlight, "", nil
	}
	timer := time.NewTimer(h.wait)
	defer timer.Stop()
	var poll *time.Timer
	backoff := pollMin
	for {
		var (
			wake <-chan struct{}  // DedupWaiter: closed when key is released
			tick <-chan time.Time // otherwise: the next poll
		)
		if h.waiter != nil {
			wake = h.waiter.Released(key)
		}
		if wake == nil {
			// No waiter, or the key was released between Begin and
			// Released: poll (never spin).
			if poll == nil {
				poll = time.NewTimer(backoff)
				defer poll.Stop()
			} else {
				poll.Reset(backoff)
			}
			tick = poll.C
			backoff = min(2*backoff, pollMax)
		}
		select {
		case <-wake:
		case <-tick:
		case <-timer.C:
			return DedupInFlight, "", nil
		case <-ctx.Done():
			return DedupInFlight, "", nil
		}
		state, token, err := h.v.dedup.Begin(ctx, key)
		if err != nil || state != DedupInFlight {
			return state, token, err
		}
	}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r == nil { // net/http never does this; a direct caller might
		reply(w, StatusFor(ErrMalformedBody))
		return
	}
	ev, client, err := h.v.verify(r)
	if err != nil {
		h.reject(w, r, client, err)
		return
	}
	if h.fn == nil {
		h.logError(r, "webhook handler has no function", client, ev, nil)
		reply(w, http.StatusInternalServerError)
		return
	}
	ctx := r.Context()
	key := ev.DedupKey()
	state, token, err := h.v.dedup.Begin(ctx, key)
	if err != nil {
		h.logError(r, "webhook deduplicator failed", client, ev, err)
		reply(w, http.StatusInternalServerError)
		return
	}
	if state == DedupInFlight {
		state, token, err = h.awaitFirst(ctx, key)
		if err != nil {
			h.logError(r, "webhook deduplicator failed", client, ev, err)
			reply(w, http.StatusInternalServerError)
			return
		}
	}
	switch state {
	case DedupDone:
		h.logDebug(ctx, "webhook duplicate ignored", client, ev)
		reply(w, http.StatusOK)
		return
	case DedupInFlight:
		h.logWarn(ctx, "webhook duplicate: the first delivery is still in progress; the service will re-send", client, ev, ErrInFlight)
		w.Header().Set("Retry-After", "5")
		reply(w, http.StatusConflict)
		return
	case DedupNew:
	default:
		h.logError(r, "webhook deduplicator returned an invalid state", client, ev, errors.New("state "+strconv.Itoa(int(state))))
		reply(w, http.StatusInternalServerError)
		return
	}

	if err := h.run(ctx, key, token, ev); err != nil {
		h.logError(r, "webhook function failed; the service will re-send", client, ev, err)
		reply(w, http.StatusInternalServerError)
		return
	}
	// Recorded even when the sender has hung up meanwhile: the work is done,
	// and a cancelled context must not leave the key claimed.
	if err := h.v.dedup.Done(context.WithoutCancel(ctx), key, token); err != nil {
		h.logError(r, "webhook processed but the deduplicator could not record it", client, ev, err)
	}
	h.logDebug(ctx, "webhook processed", client, ev)
	reply(w, http.StatusOK)
}

// run calls fn and releases this delivery's claim on the key (token) when
// it fails or panics. A panic is re-raised after the claim is released, so
// net/http handles it as usual.
func (h *handler) run(ctx context.Context, key string, token DedupToken, ev *Event) (err error) {
	ok := false
	defer func() {
		if !ok {
			// Release with a context that outlives a cancelled request, so
			// the key is not left claimed.
			if aerr := h.v.dedup.Abandon(context.WithoutCancel(ctx), key, token); aerr != nil && h.log != nil {
				h.log.LogAttrs(ctx, slog.LevelError, "webhook deduplicator could not release an event", attrs(netip.Addr{}, ev, aerr)...)
			}
		}
	}()
	err = h.fn(ctx, ev)
	ok = err == nil
	return err
}

func (h *handler) reject(w http.ResponseWriter, r *http.Request, client netip.Addr, err error) {
	status := StatusFor(err)
	switch status {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Basic realm="`+h.v.realmOrDefault()+`", charset="UTF-8"`)
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", http.MethodPost)
	}
	if status >= 500 {
		h.logError(r, "webhook rejected; the service will re-send", client, nil, err)
	} else {
		h.logWarn(r.Context(), "webhook rejected", client, nil, err)
	}
	reply(w, status)
}

func (v *Verifier) realmOrDefault() string {
	if v == nil || v.realm == "" {
		return "webhook"
	}
	return v.realm
}

// StatusFor maps an error of Verify to the status Handler replies with:
// 403, 405, 401, 413, 400, 409 as documented on Handler, and 500 for
// anything else (including the encrypted-payload errors, ErrNotEncrypted
// and nil-safe ErrNotConfigured).
func StatusFor(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, ErrForbiddenSource):
		return http.StatusForbidden
	case errors.Is(err, ErrMethodNotAllowed):
		return http.StatusMethodNotAllowed
	case errors.Is(err, ErrUnauthorized), errors.Is(err, ErrHeaderMismatch):
		return http.StatusUnauthorized
	case errors.Is(err, ErrBodyTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrEncrypted):
		return http.StatusInternalServerError
	case errors.Is(err, ErrMalformedBody):
		return http.StatusBadRequest
	case errors.Is(err, ErrInFlight):
		return http.StatusConflict
	default:
		return http.StatusInternalServerError
	}
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
	if h.log == nil {
		return
	}
	a := append(attrs(client, ev, err), slog.String("peer", r.RemoteAddr))
	h.log.LogAttrs(r.Context(), slog.LevelError, msg, a...)
}

func (h *handler) logWarn(ctx context.Context, msg string, client netip.Addr, ev *Event, err error) {
	if h.log == nil || !h.log.Enabled(ctx, slog.LevelWarn) {
		return
	}
	h.log.LogAttrs(ctx, slog.LevelWarn, msg, attrs(client, ev, err)...)
}

func (h *handler) logDebug(ctx context.Context, msg string, client netip.Addr, ev *Event) {
	if h.log == nil || !h.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	h.log.LogAttrs(ctx, slog.LevelDebug, msg, attrs(client, ev, nil)...)
}
