package checkout

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// WithObserver makes the client tell o about every call and each of its
// attempts (see [Observer]); nil, the default, observes nothing.
func WithObserver(o Observer) Option {
	return optionFunc(func(c *Client) error {
		c.observer = o
		return nil
	})
}

// ResponseMeta is what [WithResponseMeta] fills after a call, whether it
// succeeded or failed.
type ResponseMeta struct {
	HTTPStatus int               // status of the last reply, 0 when none came
	RequestID  string            // the reply's x-request-id header
	ResponseID string            // the reply's x-response-id header
	IDs        map[string]string // every reply header whose name ends in "-Id", by canonical name
	Attempts   int               // HTTP attempts made; 0 when refused before sending
	Elapsed    time.Duration     // the whole call, retries and waits included
}

// WithResponseMeta makes one call fill *m when it ends: the HTTP status,
// the service's id headers (quote them to its support), attempts and time.
func WithResponseMeta(m *ResponseMeta) RequestOption { return metaOption{m} }

// metaOption is WithResponseMeta's option: a type of its own, so that the
// reads a replay makes (replay.go) can leave it out and the meta stays the
// call's.
type metaOption struct{ m *ResponseMeta }

func (o metaOption) applyRequest(r *requestConfig) error {
	if o.m == nil {
		return optErr("response meta is nil")
	}
	r.meta = o.m
	return nil
}

// withoutMeta returns opts less any WithResponseMeta.
func withoutMeta(opts []RequestOption) []RequestOption {
	out := make([]RequestOption, 0, len(opts))
	for _, o := range opts {
		if _, ok := o.(metaOption); !ok {
			out = append(out, o)
		}
	}
	return out
}

func (m *ResponseMeta) fill(cl *call, resp *http.Response) {
	*m = ResponseMeta{Attempts: cl.n, Elapsed: time.Since(cl.start)}
	if resp == nil {
		return
	}
	m.HTTPStatus = resp.StatusCode
	for k, vs := range resp.Header {
		if strings.HasSuffix(k, "-Id") && len(vs) > 0 {
			if m.IDs == nil {
				m.IDs = make(map[string]string)
			}
			m.IDs[k] = vs[0]
		}
	}
	m.RequestID, m.ResponseID = m.IDs["X-Request-Id"], m.IDs["X-Response-Id"]
}

// endOperation tells the Observer that the call ended with err.
func (c *Client) endOperation(cl *call, resp *http.Response, out any, err error) {
	if cl.actx != nil { // ended by the context during a wait
		cl.endAttempt(nil, err)
	}
	r := OperationResult{Attempts: cl.n, ErrorKind: errorKind(err), Err: err, Duration: time.Since(cl.start)}
	if resp != nil {
		r.HTTPStatus = resp.StatusCode
	}
	var te *TransportError
	var ae *APIError
	var je *JOSEError
	switch {
	case errors.As(err, &te):
		r.MaybeDelivered = te.MaybeDelivered && !cl.idempotent
	case errors.As(err, &je):
		r.MaybeDelivered = je.reply && !cl.idempotent
	case errors.As(err, &ae):
		r.MaybeDelivered = !cl.idempotent && (ae.HTTPStatus == 500 || ae.HTTPStatus == 502 || ae.HTTPStatus == 504)
	case err == nil:
		switch v := out.(type) {
		case *OrderStatus:
			r.OrderStatus = v.Status
		case *Order:
			r.OrderStatus = Status(v.Status)
		}
	}
	c.observer.EndOperation(cl.ctx, cl.obs, r)
}

// errorKind classifies err for an Observer.
func errorKind(err error) ErrorKind {
	var (
		te *TransportError
		ae *APIError
		je *JOSEError
		ne net.Error
	)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrInvalidRequest) && !errors.As(err, &ae), errors.Is(err, ErrInvalidOption):
		return ErrorKindInvalid
	case errors.As(err, &ae):
		return ErrorKindHTTP
	case errors.As(err, &je):
		if je.Kind == ErrKey || strings.HasPrefix(je.Detail, "sign request") || strings.HasPrefix(je.Detail, "request: ") {
			return ErrorKindJOSE
		}
		return ErrorKindDecode
	case errors.Is(err, context.Canceled):
		return ErrorKindCanceled
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return ErrorKindTimeout
	case errors.As(err, &te):
		return ErrorKindConnection
	}
	return ErrorKindDecode
}

// log writes one debug record per attempt: method, host, path, status,
// attempt and duration. Never the query, a body or a header.
func (cl *call) log(ctx context.Context, resp *http.Response, err error) {
	l := cl.c.logger
	if l == nil || !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	method, path := cl.method, cl.path
	if cl.jwe {
		method, path = http.MethodPost, cl.jwePath
	}
	attrs := []slog.Attr{
		slog.String("op", cl.op),
		slog.String("method", method),
		slog.String("host", cl.c.host),
		slog.String("path", path),
		slog.Int("attempt", cl.n),
		slog.Duration("elapsed", time.Since(cl.attempt)),
	}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	l.LogAttrs(ctx, slog.LevelDebug, "checkout: attempt", attrs...)
}

// logGiveUp writes a debug record when the wait before the next attempt
// could outlast the context's deadline, so no retry is made.
func (cl *call) logGiveUp(ctx context.Context, wait, left time.Duration) {
	if l := cl.c.logger; l != nil && l.Enabled(ctx, slog.LevelDebug) {
		l.LogAttrs(ctx, slog.LevelDebug, "checkout: no retry: the wait outlasts the context deadline",
			slog.String("op", cl.op), slog.Int("attempt", cl.n), slog.Duration("wait", wait), slog.Duration("left", left))
	}
}
