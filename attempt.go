package checkout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"
)

// sending is one request of an exchange in flight: the http.RoundTripper,
// CheckRetry and ErrorHandler of the go-retryablehttp run that makes its
// attempts, and what the current attempt saw.
type sending struct {
	x       *exchange
	cl      *call
	kind    AttemptKind
	method  string      // as sent
	route   string      // as sent
	path    string      // as errors and logs show it
	proto   string      // the reply's HTTP version
	retries int         // retries this run may make
	n       int         // attempts started
	sent    atomic.Bool // this attempt got a connection or wrote its headers
	traced  atomic.Bool // the transport reports to httptrace (it asked for a connection)
	began   time.Time
	actx    context.Context // the attempt's, from the Observer; nil when none is open
	trace   httptrace.ClientTrace
}

// RoundTrip starts an attempt: it counts it, resets what the trace saw,
// tells the Observer and sends through the client's transport.
func (s *sending) RoundTrip(r *http.Request) (*http.Response, error) {
	s.n++
	s.x.requests++
	if s.kind == AttemptSend {
		s.x.sends++
	}
	s.sent.Store(false)
	s.traced.Store(false)
	s.began, s.proto = time.Now(), ""
	ctx := r.Context()
	if o := s.x.c.observer; o != nil {
		s.actx = observed(ctx, o.StartAttempt(ctx, s.x.op, s.attempt()))
		ctx = s.actx
	}
	if err := ctx.Err(); err != nil {
		s.traced.Store(true) // known: nothing was sent
		return nil, err
	}
	return s.x.c.transport().RoundTrip(r.WithContext(httptrace.WithClientTrace(ctx, &s.trace)))
}

// attempt is the Observer's view of the current attempt, as it starts.
func (s *sending) attempt() Attempt {
	n := s.n
	if s.kind == AttemptSend {
		n = s.x.sends
	}
	return Attempt{Number: n, Kind: s.kind, Method: s.method, Route: s.route, Path: s.path, Protocol: s.proto}
}

// checkRetry decides after each attempt, as classify says, whether to
// make another; it never starts one whose longest wait could outlast the
// context's deadline, and returns the last reply or error instead.
func (s *sending) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	var status int
	var header http.Header
	if resp != nil {
		status, header = resp.StatusCode, resp.Header
		s.proto = strconv.Itoa(resp.ProtoMajor)
		if resp.ProtoMajor < 2 {
			s.proto += "." + strconv.Itoa(resp.ProtoMinor)
		}
	}
	sent := status != 0 || s.maySent(err)
	o := s.note(classify(s.cl.write, sent, status, header, err))
	s.log(ctx, status, err)
	if !o.retry || s.n > s.retries {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if deadline, ok := ctx.Deadline(); ok {
		if left, wait := time.Until(deadline), longestWait(s.x.c.retry, s.n-1, resp); wait >= left {
			s.logGiveUp(ctx, wait, left)
			return false, nil
		}
	}
	kind := ErrorKindHTTP
	if err != nil {
		kind = errorKind(&TransportError{Err: err})
	}
	s.endAttempt(status, kind, o)
	// Retried, so it took no effect: a wait the context ends says so.
	s.sent.Store(false)
	s.traced.Store(true)
	return true, nil
}

// maySent reports whether the request of the current attempt, which
// failed with err, may have reached the service: it got a connection or
// wrote its headers, or (a transport that reports nothing to httptrace)
// err is not one that comes before anything is sent.
func (s *sending) maySent(err error) bool {
	if s.sent.Load() {
		return true
	}
	return !s.traced.Load() && !beforeSending(err)
}

// unusable is the error of a 2xx reply the call could not read, open or
// trust: for a write, which the service may have acted on, a
// *TransportError that says so.
func (s *sending) unusable(err error) error {
	if s.cl.write {
		return &TransportError{Op: s.cl.op, Method: s.method, Path: s.path, Attempts: s.attempts(),
			MaybeDelivered: true, Err: replyError{err}, write: true}
	}
	var je *JOSEError
	if errors.As(err, &je) {
		return err // it names the call itself
	}
	return fmt.Errorf("checkout: %s: %w", s.cl.op, err)
}

// fail ends the request's last attempt with err, as classify says, and
// returns err.
func (s *sending) fail(status int, header http.Header, sent bool, err error) error {
	o := s.note(classify(s.cl.write, sent, status, header, err))
	kind := errorKind(err)
	if s.kind == AttemptSettle && errors.Is(err, ErrNotFound) {
		kind = "" // the answer a settle read may well get: nothing was made
	}
	s.endAttempt(status, kind, o)
	return err
}

// note keeps what o says of the call's own request, and returns o.
func (s *sending) note(o outcome) outcome {
	if s.kind == AttemptSend {
		s.x.effect = o.effect
		s.x.maybe = s.x.maybe || o.effect
	}
	return o
}

// attempts is how many attempts the request made: every send of the
// call's own request, or this run's of a settle read.
func (s *sending) attempts() int {
	if s.kind == AttemptSend {
		return s.x.sends
	}
	return s.n
}

// transportError is the *TransportError of a request that got no usable
// reply. A *url.Error is unwrapped: it would quote the URL.
func (s *sending) transportError(err error, sent bool) *TransportError {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	maybe := sent
	if s.kind == AttemptSend { // some earlier send may have reached the service
		maybe = maybe || s.x.maybe
	}
	return &TransportError{Op: s.cl.op, Method: s.method, Path: s.path, Attempts: max(s.attempts(), 1),
		MaybeDelivered: maybe, Err: err, write: s.cl.write}
}

// endAttempt tells the Observer that the current attempt ended.
func (s *sending) endAttempt(status int, kind ErrorKind, o outcome) {
	obs := s.x.c.observer
	if obs == nil || s.actx == nil {
		return
	}
	a := s.attempt()
	a.HTTPStatus, a.ErrorKind, a.MaybeDelivered, a.Duration = status, kind, kind != "" && o.effect, time.Since(s.began)
	obs.EndAttempt(s.actx, s.x.op, a)
	s.actx = nil
}

// giveUp hands back the last reply (its body becomes an *APIError) or the
// last transport error.
func giveUp(resp *http.Response, err error, _ int) (*http.Response, error) {
	if err == nil && resp != nil {
		return resp, nil
	}
	if resp != nil {
		drain(resp)
	}
	if err == nil {
		err = errRequestFailed
	}
	return nil, err
}

// longestWait is the longest wait backoff may choose before retry n.
func longestWait(p RetryPolicy, n int, resp *http.Response) time.Duration {
	d, _ := waitCeiling(p.MinWait, p.MaxWait, n, resp)
	return d
}

func ok2xx(status int) bool { return status >= 200 && status <= 299 }

// log writes one debug record per attempt: method, host, path (as
// errors show it), status, attempt and duration. Never the query, a body
// or a header.
func (s *sending) log(ctx context.Context, status int, err error) {
	l := s.x.c.logger
	if l == nil || !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("op", s.cl.op),
		slog.String("method", s.method),
		slog.String("host", s.x.c.host),
		slog.String("path", s.path),
		slog.Int("attempt", s.n),
		slog.Duration("elapsed", time.Since(s.began)),
	}
	if s.kind != AttemptSend {
		attrs = append(attrs, slog.String("kind", string(s.kind)))
	}
	if status != 0 {
		attrs = append(attrs, slog.Int("status", status))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", (&TransportError{Err: err}).cause()))
	}
	l.LogAttrs(ctx, slog.LevelDebug, "checkout: attempt", attrs...)
}

// logGiveUp writes a debug record when the wait before the next attempt
// could outlast the context's deadline, so no retry is made.
func (s *sending) logGiveUp(ctx context.Context, wait, left time.Duration) {
	if l := s.x.c.logger; l != nil && l.Enabled(ctx, slog.LevelDebug) {
		l.LogAttrs(ctx, slog.LevelDebug, "checkout: no retry: the wait outlasts the context deadline",
			slog.String("op", s.cl.op), slog.Int("attempt", s.n), slog.Duration("wait", wait), slog.Duration("left", left))
	}
}
