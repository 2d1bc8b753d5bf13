package checkout

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// WithObserver makes the client tell o about every call and each of its
// requests (see [Observer]); nil, the default, observes nothing.
func WithObserver(o Observer) Option {
	return optionFunc(func(c *Client) error {
		c.observer = o
		return nil
	})
}

// ResponseMeta is what [WithResponseMeta] fills after a call, whether it
// succeeded or failed. The service chose its ids: each is at most 128
// characters (and a "…" when cut), and IDs keeps at most 16 (the first
// by name).
type ResponseMeta struct {
	HTTPStatus int               // status of the last reply (a settle read's after a replay), 0 when none came
	RequestID  string            // the reply's x-request-id header
	ResponseID string            // the reply's x-response-id header
	IDs        map[string]string // reply headers whose name ends in "-Id", by canonical name
	Attempts   int               // HTTP requests made, settle reads included; 0 when refused before sending
	Elapsed    time.Duration     // the whole call, retries and waits included
}

// Bounds of what ResponseMeta keeps of a reply's headers.
const (
	maxMetaIDs      = 16
	maxMetaIDLength = 128
)

// WithResponseMeta makes one call fill *m when it ends: the HTTP status,
// the service's id headers (quote them to its support), attempts and time.
func WithResponseMeta(m *ResponseMeta) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		if m == nil {
			return optErr("response meta is nil")
		}
		r.meta = m
		return nil
	})
}

// operation describes a call for the Observer.
func (c *Client) operation(name, method, route, orderID string) Operation {
	op := Operation{Name: name, Method: method, Route: route, BaseURL: c.baseURL, OrderID: orderID}
	host, port, err := net.SplitHostPort(c.host)
	if err != nil {
		host, port = c.host, "443"
		if strings.HasPrefix(c.baseURL, "http:") {
			port = "80"
		}
	}
	op.ServerAddress = host
	op.ServerPort, _ = strconv.Atoi(port)
	return op
}

// idHeaders are the reply's "-Id" headers, bounded in number and length;
// the first maxMetaIDs by name, so the same reply always keeps the same.
func idHeaders(h http.Header) map[string]string {
	names := make([]string, 0, len(h))
	for k, vs := range h {
		if strings.HasSuffix(k, "-Id") && len(k) <= 64 && len(vs) > 0 {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	ids := make(map[string]string, min(len(names), maxMetaIDs))
	for _, k := range names[:min(len(names), maxMetaIDs)] {
		ids[k] = oneLine(h[k][0], maxMetaIDLength)
	}
	return ids
}

// metaID is the reply's header name, bounded as the IDs are; it is read
// directly, so many other "-Id" headers never push it out.
func metaID(h http.Header, name string) string {
	return oneLine(h.Get(name), maxMetaIDLength)
}

// boundedStatus is s when it is a status the package names, "_OTHER" for
// another one (a value the service chose reaches metric labels), "" for none.
func boundedStatus(s Status) Status {
	if s == "" || s.Known() {
		return s
	}
	return "_OTHER"
}

// errorKind classifies the error a call or attempt ended with.
func errorKind(err error) ErrorKind {
	var (
		ce *ConflictError
		te *TransportError
		ae *APIError
		je *JOSEError
		re replyError
		ne net.Error
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ce):
		return ErrorKindConflict
	case errors.Is(err, ErrInvalidRequest) && !errors.As(err, &ae), errors.Is(err, ErrInvalidOption):
		return ErrorKindInvalid
	case errors.As(err, &ae):
		return ErrorKindHTTP
	case errors.As(err, &je) && !je.reply:
		return ErrorKindJOSE
	case errors.As(err, &je), errors.As(err, &re):
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

// observed is the context a call goes on with once an Observer returned
// octx: its values (the observer's span), but always the caller's
// deadline and cancellation, which an observer's context that was not
// derived from ctx, or nil, would drop.
func observed(ctx, octx context.Context) context.Context {
	if octx == nil || octx == ctx {
		return ctx
	}
	return observedContext{Context: ctx, values: octx}
}

// observedContext is ctx with the values of another context.
type observedContext struct {
	context.Context
	values context.Context
}

func (c observedContext) Value(key any) any { return c.values.Value(key) }
