package checkout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Limits of the response bodies read by the client.
const (
	maxResponseBody = 16 << 20
	maxDrain        = 256 << 10
)

// call is one logical request: what the single request path needs.
type call struct {
	op          string // "create session", …
	method      string
	path        string // escaped path below the base URL, starting with "/"
	query       string // encoded query without "?", or ""; never logged
	body        []byte // encoded once; nil for GET
	contentType string
	versioned   bool // send the client's version header
	idempotent  bool // may be retried after an ambiguous failure
	// jwePath is the call's path in the JWE+JWS mode (WithJWE), where it
	// is a POST of the sealed JSON body there; "" for a call that mode
	// leaves as it is.
	jwePath string
	// jweBody is the value whose JSON is sealed in that mode; nil seals
	// body, which is JSON already.
	jweBody any
}

// withJWE gives the call its form in the JWE+JWS mode: path, and the value
// whose JSON is sealed (nil: the call's body).
func (cl *call) withJWE(path string, body any) *call {
	cl.jwePath, cl.jweBody = path, body
	return cl
}

// attempt tracks one call across its attempts, for CheckRetry and logging.
// It travels in the request's context (attemptKey) so that one
// go-retryablehttp client serves every call.
type attempt struct {
	trace   httptrace.ClientTrace
	c       *Client
	call    *call
	n       int         // attempt number, from 1
	gotConn atomic.Bool // a connection was obtained in this attempt
	wrote   atomic.Bool // request headers were written in this attempt
	// delivered: some attempt's request may have reached the service (see
	// TransportError.MaybeDelivered).
	delivered bool
	start     time.Time
	// wait is the pause before the next attempt, chosen by checkRetry
	// (which knows the context's deadline) and returned by Backoff.
	wait time.Duration
	// rc runs this call: a copy of the client's settings whose Backoff
	// reads wait. It lives in the attempt so that it costs no allocation.
	rc retryablehttp.Client
	// first is the body reader of the first attempt (see body), and
	// bodies counts the readers handed out.
	first  bytes.Reader
	bodies atomic.Int32
}

// body is the call's body as go-retryablehttp asks for it: once to learn
// its length, then once per attempt, and net/http may ask again through
// GetBody to resend. The first two readers are the attempt's own (both are
// handed out before anything is sent); each later one is new, since a
// transport may still be reading the one before. They are *bytes.Reader,
// which net/http knows to be in memory: it then writes headers and body
// in one go.
func (at *attempt) body() (io.Reader, error) {
	if at.bodies.Add(1) <= 2 {
		at.first.Reset(at.call.body)
		return &at.first, nil
	}
	return bytes.NewReader(at.call.body), nil
}

type attemptKey struct{}

// headerValues are the header values every request of a client shares.
// They are never modified once built, so requests may share the slices.
type headerValues struct {
	authorization, merchantID, accept, userAgent, version, json, form []string
}

func (c *Client) buildHeaders() {
	c.hdr = &headerValues{
		authorization: []string{c.cred.authorization},
		merchantID:    []string{c.merchantID},
		accept:        []string{"application/json"},
		userAgent:     []string{c.userAgent},
		version:       []string{c.apiVersion},
		json:          []string{"application/json"},
		form:          []string{"application/x-www-form-urlencoded"},
	}
}

// do sends the call through the one request path: options, sealing in the
// JWE+JWS mode, headers, go-retryablehttp with our retry policy, body
// reading, opening in that mode and error decoding. It returns the body of
// a 2xx response (in the JWE+JWS mode the JSON the service signed); a
// non-2xx reply is an *APIError, a failed exchange a *TransportError and a
// reply that cannot be opened a *JOSEError.
func (c *Client) do(ctx context.Context, cl *call, opts []RequestOption) ([]byte, error) {
	if err := c.usable(cl.op); err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, fmt.Errorf("checkout: %s: nil context", cl.op)
	}
	var rc *requestConfig
	for _, o := range opts {
		if o == nil {
			continue
		}
		if rc == nil {
			rc = &requestConfig{}
		}
		if err := o.applyRequest(rc); err != nil {
			return nil, fmt.Errorf("checkout: %s: %w", cl.op, err)
		}
	}
	// j is the JWE+JWS configuration when this call is sealed, else nil.
	j := c.jwe
	if cl.jwePath == "" {
		j = nil
	}
	if j != nil {
		sealed, err := j.sealCall(cl)
		if err != nil {
			return nil, err
		}
		cl = sealed
	}
	at := &attempt{c: c, call: cl}
	at.trace.GotConn = func(httptrace.GotConnInfo) { at.gotConn.Store(true) }
	at.trace.WroteHeaders = func() { at.wrote.Store(true) }
	ctx = httptrace.WithClientTrace(context.WithValue(ctx, attemptKey{}, at), &at.trace)

	var body any
	if cl.body != nil {
		body = retryablehttp.ReaderFunc(at.body)
	}
	target := c.baseURL + cl.path
	if cl.query != "" {
		target += "?" + cl.query
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, cl.method, target, body)
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: build request: %w", cl.op, err)
	}
	h := req.Header
	if rc != nil {
		for k, vs := range rc.header {
			h[k] = vs
		}
	}
	if j == nil { // the signature authenticates a sealed call (see WithJWE)
		h["Authorization"] = c.hdr.authorization
	}
	h["X-Merchantid"] = c.hdr.merchantID
	h["Accept"] = c.hdr.accept
	h["User-Agent"] = c.hdr.userAgent
	switch cl.contentType {
	case "":
	case "application/json":
		h["Content-Type"] = c.hdr.json
	case "application/x-www-form-urlencoded":
		h["Content-Type"] = c.hdr.form
	default:
		h["Content-Type"] = []string{cl.contentType}
	}
	switch {
	case rc != nil && rc.apiVersion != "":
		h["Version"] = []string{rc.apiVersion}
	case cl.versioned:
		h["Version"] = c.hdr.version
	}

	at.rc = retryablehttp.Client{
		HTTPClient:     c.rc.HTTPClient,
		RetryMax:       c.rc.RetryMax,
		RetryWaitMin:   c.rc.RetryWaitMin,
		RetryWaitMax:   c.rc.RetryWaitMax,
		RequestLogHook: c.rc.RequestLogHook,
		CheckRetry:     c.rc.CheckRetry,
		Backoff:        at.chosenWait,
		ErrorHandler:   c.rc.ErrorHandler,
	}
	resp, err := at.rc.Do(req)
	if err != nil {
		return nil, at.transportError(err)
	}
	data, err := readBody(resp)
	if err != nil {
		// The reply began to arrive: the service has the request.
		at.delivered = true
		return nil, at.transportError(fmt.Errorf("read response: %w", err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if j != nil {
			data = j.openError(cl.op, data)
		}
		return nil, c.apiError(cl.op, resp, data)
	}
	if j != nil {
		return j.open(cl.op, data)
	}
	return data, nil
}

// send runs cl through the one request path (do) and decodes the body of
// the 2xx reply with decode; a body decode refuses is an error naming the
// operation.
func send[T any](ctx context.Context, c *Client, cl *call, opts []RequestOption, decode func([]byte) (*T, error)) (*T, error) {
	data, err := c.do(ctx, cl, opts)
	if err != nil {
		return nil, err
	}
	v, err := decode(data)
	if err != nil {
		// A sealed reply to a client in Basic mode never has the keys that
		// identify a reply type, so it always ends here; telling it apart
		// only then keeps the check off the path of every good reply.
		if c.jwe == nil && isSealed(data) {
			return nil, sealedInBasicMode(cl.op)
		}
		return nil, fmt.Errorf("checkout: %s: %w", cl.op, err)
	}
	return v, nil
}

// postForm is a POST of a form-encoded body to one of the /orders
// endpoints, which take the version header. Writes are not idempotent: an
// ambiguous failure is not retried.
func postForm(op, path string, form url.Values) *call {
	return &call{
		op:          op,
		method:      http.MethodPost,
		path:        path,
		body:        []byte(form.Encode()),
		contentType: "application/x-www-form-urlencoded",
		versioned:   true,
	}
}

// usable reports a nil Client, or one not made by NewClient, as an error
// matching ErrInvalidClient instead of panicking.
func (c *Client) usable(op string) error {
	if c == nil || c.rc == nil || c.cred == nil || c.hdr == nil {
		return fmt.Errorf("checkout: %s: %w", op, invalidClient{})
	}
	return nil
}

// invalidClient is the cause usable reports: its text follows the
// operation without repeating "checkout:", and it matches ErrInvalidClient.
type invalidClient struct{}

func (invalidClient) Error() string        { return "client is nil or not made by NewClient" }
func (invalidClient) Is(target error) bool { return target == ErrInvalidClient }

// transportError wraps the failure of the call's last attempt, err, as a
// *TransportError. A *url.Error is unwrapped: the error names the method
// and path itself, and the URL's query stays out of it.
func (at *attempt) transportError(err error) *TransportError {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	return &TransportError{
		Op:             at.call.op,
		Method:         at.call.method,
		Path:           at.call.path,
		Attempts:       max(at.n, 1),
		MaybeDelivered: at.delivered,
		Err:            err,
		idempotent:     at.call.idempotent,
	}
}

// noteDelivery records after each attempt whether its request may have
// reached the service (see TransportError.MaybeDelivered).
func (at *attempt) noteDelivery(resp *http.Response, err error) {
	switch {
	case resp != nil && err == nil:
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			at.delivered = true
		}
	case at.mayHaveSent():
		at.delivered = true
	}
}

// mayHaveSent reports whether the current attempt may have put request
// bytes on the wire: a connection was obtained or headers were written.
// Only when neither happened is it sure that nothing reached the service.
func (at *attempt) mayHaveSent() bool {
	return at.gotConn.Load() || at.wrote.Load()
}

// apiError decodes an error reply. The decoded fields stay exactly as the
// service sent them; the client's credential travels along (unexported) so
// that Error() can scrub it should the service ever echo it.
func (c *Client) apiError(op string, resp *http.Response, body []byte) *APIError {
	e := decodeAPIError(op, resp.StatusCode, resp.Header, body, time.Now())
	e.cred = c.cred
	return e
}

// readBody reads a response body to its end (so the connection goes back to
// the pool) and closes it.
func readBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	size := 2048
	if n := resp.ContentLength; n >= 0 && n < maxResponseBody {
		size = int(n) + 1 // room to read the EOF without growing
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := resp.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > maxResponseBody {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
			return nil, fmt.Errorf("body larger than %d bytes", maxResponseBody)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// log writes one debug record per attempt: method, host, path, status,
// attempt and duration. Never the query, a body or a header.
func (at *attempt) log(ctx context.Context, resp *http.Response, err error) {
	l := at.c.logger
	if l == nil || !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("op", at.call.op),
		slog.String("method", at.call.method),
		slog.String("host", at.c.host),
		slog.String("path", at.call.path),
		slog.Int("attempt", at.n),
		slog.Duration("elapsed", time.Since(at.start)),
	}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", transportErrorKind(err)))
	}
	l.LogAttrs(ctx, slog.LevelDebug, "checkout: attempt", attrs...)
}

// logGiveUp writes a debug record when the wait before the next attempt
// would outlast the context's deadline, so no retry is made.
func (at *attempt) logGiveUp(ctx context.Context, left time.Duration) {
	l := at.c.logger
	if l == nil || !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	l.LogAttrs(ctx, slog.LevelDebug, "checkout: no retry: the wait outlasts the context deadline",
		slog.String("op", at.call.op),
		slog.Int("attempt", at.n),
		slog.Duration("wait", at.wait),
		slog.Duration("left", left),
	)
}

// transportErrorKind names a transport failure without quoting the URL.
func transportErrorKind(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}
