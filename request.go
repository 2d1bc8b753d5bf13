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

// The one request path every call of the Client takes: options, the
// JWE+JWS step, headers, go-retryablehttp under the retry policy, reading
// the reply, error replies, and decoding.

// Limits of the response bodies read by the client.
const (
	maxResponseBody = 16 << 20
	maxDrain        = 256 << 10
)

// Content types of request bodies.
const (
	contentJSON = "application/json"
	contentForm = "application/x-www-form-urlencoded"
)

// call is one logical request: what the request path needs to send it.
type call struct {
	op          string // "create session", …
	method      string
	path        string // escaped path below the base URL, starting with "/"
	query       string // encoded query without "?", or ""; never logged
	body        []byte // encoded once; nil for GET
	contentType string
	versioned   bool // send the client's version header
	idempotent  bool // may be retried after an ambiguous failure
	// jwePath is the call's path in the JWE+JWS mode ([WithJWE]), where it
	// is a POST of the sealed JSON body; "" for a call that mode leaves as
	// it is.
	jwePath string
	// jweBody is the JSON sealed in that mode when body is not JSON (a
	// form) or absent; nil seals body.
	jweBody []byte
}

// reply is a type the request path decodes a successful reply into.
type replyType interface {
	// setRaw keeps the body as the reply's Raw.
	setRaw(body []byte)
	// shapeError reports a decoded body that is not a reply of this type
	// (none of the keys that identify it), or nil.
	shapeError() error
}

// send runs cl through the request path and decodes the body of its 2xx
// reply into out: a non-2xx reply is an *APIError, a failed exchange a
// *TransportError, a reply that cannot be opened in the JWE+JWS mode a
// *JOSEError, and a body that is not a reply of out's type an error naming
// the operation.
func (c *Client) send(ctx context.Context, cl *call, opts []RequestOption, out replyType) error {
	data, err := c.exchange(ctx, cl, opts)
	if err != nil {
		return err
	}
	if err := decodeInto(data, out); err != nil {
		// A sealed reply to a client in Basic mode never has the keys that
		// identify a reply type, so it always ends here; telling it apart
		// only then keeps the check off the path of every good reply.
		if c.jwe == nil && isSealed(data) {
			return sealedInBasicMode(cl.op)
		}
		return fmt.Errorf("checkout: %s: %w", cl.op, err)
	}
	return nil
}

// decodeInto reads a successful reply into out. It must be a JSON object
// holding at least one of the keys that identify out's type: a reply of
// another shape is an error, never an empty value.
func decodeInto(body []byte, out replyType) error {
	if k := kindOf(body); k != "object" {
		switch k {
		case "nothing":
			k = "empty"
		case "null":
		default:
			k = "a JSON " + k
		}
		return fmt.Errorf("decode response: the reply is %s, not a JSON object", k)
	}
	if err := decodeLenient(body, out); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	out.setRaw(body)
	if err := out.shapeError(); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// decodeReply decodes body as the request path decodes a reply of type T.
func decodeReply[T any, P interface {
	*T
	replyType
}](body []byte) (*T, error) {
	v := P(new(T))
	if err := decodeInto(body, v); err != nil {
		return nil, err
	}
	return v, nil
}

// notA is the shape error of a reply of type what that holds none of keys.
func notA(what, keys string) error {
	return fmt.Errorf("the reply is not %s: it has none of %s", what, keys)
}

// exchange sends cl and returns the body of its 2xx reply, opened in the
// JWE+JWS mode.
func (c *Client) exchange(ctx context.Context, cl *call, opts []RequestOption) ([]byte, error) {
	if c == nil || c.rc == nil || c.cred == nil {
		return nil, fmt.Errorf("checkout: %s: %w", cl.op, invalidClient{})
	}
	if ctx == nil {
		return nil, fmt.Errorf("checkout: %s: nil context", cl.op)
	}
	var rc requestConfig
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o.applyRequest(&rc); err != nil {
			return nil, fmt.Errorf("checkout: %s: %w", cl.op, err)
		}
	}
	// jwe is the JWE+JWS configuration when this call is sealed, else nil.
	jwe := c.jwe
	if cl.jwePath == "" {
		jwe = nil
	}
	if jwe != nil {
		sealed, err := jwe.sealCall(cl)
		if err != nil {
			return nil, err
		}
		cl = sealed
	}
	req, at, err := c.newRequest(ctx, cl, &rc, jwe == nil)
	if err != nil {
		return nil, err
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
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		if jwe != nil {
			data = jwe.openError(cl.op, data)
		}
		return nil, c.apiError(cl.op, resp, data)
	case jwe != nil:
		return jwe.open(cl.op, data)
	}
	return data, nil
}

// newRequest builds the request of cl with the client's headers, those of
// the call's options (rc) and, when basic, the Basic Authorization, and the
// attempt that tracks it across retries.
func (c *Client) newRequest(ctx context.Context, cl *call, rc *requestConfig, basic bool) (*retryablehttp.Request, *attempt, error) {
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
		return nil, nil, fmt.Errorf("checkout: %s: build request: %w", cl.op, err)
	}
	h := req.Header
	for k, vs := range rc.header {
		h[k] = vs
	}
	if basic { // the signature authenticates a sealed call (see WithJWE)
		h["Authorization"] = c.hdr.authorization
	}
	h["X-Merchantid"] = c.hdr.merchantID
	h["Accept"] = c.hdr.accept
	h["User-Agent"] = c.hdr.userAgent
	switch cl.contentType {
	case contentJSON:
		h["Content-Type"] = c.hdr.json
	case contentForm:
		h["Content-Type"] = c.hdr.form
	}
	switch {
	case rc.apiVersion != "":
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
	return req, at, nil
}

// attempt tracks one call across its attempts, for CheckRetry and logging.
// go-retryablehttp hands CheckRetry only the request's context, so the
// attempt travels there (attemptKey).
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
	// rc runs this call: the client's go-retryablehttp settings with a
	// Backoff that returns wait. It lives in the attempt so that it costs
	// no allocation.
	rc retryablehttp.Client
	// first is the body reader of the first attempt (see body), and
	// bodies counts the readers handed out.
	first  bytes.Reader
	bodies atomic.Int32
}

type attemptKey struct{}

// body is the call's body as go-retryablehttp asks for it: once to learn
// its length, then once per attempt, and net/http may ask again through
// GetBody to resend. The first two readers are the attempt's own (both are
// handed out before anything is sent); each later one is new, since a
// transport may still be reading the one before.
func (at *attempt) body() (io.Reader, error) {
	if at.bodies.Add(1) <= 2 {
		at.first.Reset(at.call.body)
		return &at.first, nil
	}
	return bytes.NewReader(at.call.body), nil
}

// headerValues are the header values every request of a client shares.
// They are never modified once built, so requests may share the slices.
type headerValues struct {
	authorization, merchantID, accept, userAgent, version, json, form []string
}

// invalidClient is the error of a call on a nil Client or one not made by
// NewClient: its text follows the operation without repeating "checkout:",
// and it matches ErrInvalidClient.
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

// apiError decodes an error reply, with the client's credential so that
// the key is scrubbed from every field should the service echo it.
func (c *Client) apiError(op string, resp *http.Response, body []byte) *APIError {
	return newAPIError(op, resp.StatusCode, resp.Header, body, time.Now(), c.cred)
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
