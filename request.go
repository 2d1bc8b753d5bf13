package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

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

// call is one logical request: what the Client method built, and the state
// of its attempts. go-retryablehttp hands CheckRetry only the request's
// context, so the call travels there (callKey); the attempt counters are
// set by the client's transport (attemptTransport) and read by CheckRetry.
type call struct {
	op          string // "create session", …
	orderID     string // the order a call names outside its path (for an Observer)
	method      string
	path        string // escaped path below the base URL, starting with "/"
	query       string // encoded query without "?", or ""; never logged
	body        []byte // encoded once; nil for GET
	contentType string
	versioned   bool   // send the client's version header
	idempotent  bool   // may be retried after an ambiguous failure
	jwePath     string // the call's /v4 path in the JWE+JWS mode; "" leaves it as it is
	jweBody     []byte // the JSON sealed in that mode when body is a form or absent
	route       string // path template for an Observer; "" takes the op's (operations)

	c         *Client
	jwe       bool // sent sealed
	obs       Operation
	ctx       context.Context // the operation's context (the Observer's)
	start     time.Time
	n         int         // attempts started
	sent      atomic.Bool // this attempt got a connection or wrote headers
	delivered bool        // some attempt may have reached the service
	attempt   time.Time   // start of this attempt
	actx      context.Context
	trace     httptrace.ClientTrace
}

type callKey struct{}

// send runs cl and decodes the body of its 2xx reply into out (see
// decodeInto): a non-2xx reply is an *APIError, a failed exchange a
// *TransportError, a reply that cannot be opened in the JWE+JWS mode a
// *JOSEError.
func (c *Client) send(ctx context.Context, cl *call, opts []RequestOption, out any) error {
	if c == nil || c.rc == nil || c.cred == nil {
		return fmt.Errorf("checkout: %s: %w", cl.op, invalidClient{})
	}
	if ctx == nil {
		return fmt.Errorf("checkout: %s: nil context", cl.op)
	}
	var rc requestConfig
	var err error
	for _, o := range opts {
		if o == nil {
			continue
		}
		if e := o.applyRequest(&rc); err == nil {
			err = e
		}
	}
	cl.c, cl.start, cl.ctx = c, time.Now(), ctx
	cl.jwe = c.jwe != nil && cl.jwePath != ""
	if c.observer != nil {
		cl.obs = c.operation(cl)
		cl.ctx = c.observer.StartOperation(ctx, cl.obs)
	}
	var resp *http.Response
	if err != nil {
		err = fmt.Errorf("checkout: %s: %w", cl.op, err)
	} else {
		resp, err = c.roundTrip(cl, &rc, out)
	}
	if err == nil {
		// A reply about another order is refused before anyone hears of
		// it as a success (a misrouting proxy or cache).
		_, err = replyAbout(&struct{}{}, cl.op, cl.orderID, replyOrderID(out))
	}
	if rc.meta != nil {
		rc.meta.fill(cl, resp)
	}
	if c.observer != nil {
		c.endOperation(cl, resp, out, err)
	}
	return err
}

// operationOf names a call's Client method and route template, as an
// Observer hears them: the Basic route and, for the calls that have one,
// the JWE+JWS route.
func operationOf(op string) (name, route, jweRoute string) {
	switch op {
	case "create session":
		return "CreateSession", "/session", "/v4/session"
	case "create order":
		return "CreateOrder", "/orders", ""
	case "get order":
		return "GetOrder", "/orders/{order_id}", "/v4/order-status"
	case "update order":
		return "UpdateOrder", "/orders/{order_id}", ""
	case "refund":
		return "Refund", "/orders/{order_id}/refunds", "/v4/orders/{order_id}/refunds"
	case "refund transaction":
		return "RefundTransaction", "/refunds", ""
	case "create customer":
		return "CreateCustomer", "/customers", ""
	case "get customer":
		return "GetCustomer", "/customers/{customer_id}", ""
	case "update customer":
		return "UpdateCustomer", "/customers/{customer_id}", ""
	}
	return "", "", ""
}

// operation describes cl for the Observer.
func (c *Client) operation(cl *call) Operation {
	name, route, jweRoute := operationOf(cl.op)
	op := Operation{Name: name, Method: cl.method, Route: route, JWE: cl.jwe, ServerAddress: c.host, OrderID: cl.orderID}
	if cl.route != "" || op.Name == "" {
		op.Name, op.Route = "Do", cl.route
	}
	if cl.jwe {
		op.Method, op.Route = http.MethodPost, jweRoute
	}
	if strings.HasPrefix(route, "/orders/{order_id}") {
		if seg, _, _ := strings.Cut(strings.TrimPrefix(cl.path, "/orders/"), "/"); seg != "" {
			op.OrderID, _ = url.PathUnescape(seg)
		}
	}
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

// roundTrip seals, sends, reads, opens and decodes one call.
func (c *Client) roundTrip(cl *call, rc *requestConfig, out any) (*http.Response, error) {
	method, path, query, body, ctype := cl.method, cl.path, cl.query, cl.body, cl.contentType
	if cl.jwe {
		method, path, query, ctype = http.MethodPost, cl.jwePath, "", contentJSON
	}
	header := c.headers(cl, rc, ctype)
	if cl.jwe {
		if cl.jweBody != nil {
			body = cl.jweBody
		}
		sealed, err := c.jwe.seal(cl.ctx, cl.op, body)
		if err != nil {
			return nil, err
		}
		body = sealed
	}
	cl.trace.GotConn = func(httptrace.GotConnInfo) { cl.sent.Store(true) }
	cl.trace.WroteHeaders = func() { cl.sent.Store(true) }
	ctx := httptrace.WithClientTrace(context.WithValue(cl.ctx, callKey{}, cl), &cl.trace)
	target := c.baseURL + path
	if query != "" {
		target += "?" + query
	}
	var rbody any
	if body != nil {
		rbody = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, target, rbody)
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: build request: %w", cl.op, err)
	}
	req.Header = header
	resp, err := c.rc.Do(req)
	var data []byte
	if err == nil {
		if data, err = readBody(resp); err != nil {
			cl.delivered = true // the reply began to arrive: the service has the request
			err = fmt.Errorf("read response: %w", err)
		}
	}
	if err != nil {
		err = cl.transportError(err)
	}
	cl.endAttempt(resp, err)
	if err != nil {
		return resp, err
	}
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	if cl.jwe { // a 2xx reply must open; an error reply is opened when it does
		plain, err := c.jwe.open(cl.ctx, cl.op, data)
		switch {
		case err == nil:
			data = plain
		case ok:
			return resp, err
		}
	}
	if !ok {
		return resp, newAPIError(cl.op, resp.StatusCode, resp.Header, data, time.Now(), c.cred)
	}
	if err := decodeInto(data, out); err != nil {
		if sealed := sealedInBasicMode(cl.op, data); !cl.jwe && sealed != nil {
			return resp, sealed
		}
		return resp, fmt.Errorf("checkout: %s: %w", cl.op, err)
	}
	return resp, nil
}

// headers returns the client's headers, the call's options' (rc) and,
// outside the JWE+JWS mode, where the signature authenticates, Basic auth.
func (c *Client) headers(cl *call, rc *requestConfig, ctype string) http.Header {
	h := make(http.Header, len(rc.header)+7)
	for k, vs := range rc.header {
		h[k] = vs
	}
	if !cl.jwe {
		h["Authorization"] = c.hdr.authorization
	}
	h["X-Merchantid"] = c.hdr.merchantID
	h["Accept"] = c.hdr.accept
	h["User-Agent"] = c.hdr.userAgent
	switch ctype {
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
	return h
}

// decodeInto reads a 2xx body into out with a lenient json.Unmarshal (a
// value of the wrong JSON type is left out; Raw keeps it), sets Raw on the
// replies that keep it, and refuses a body that is not a reply of out's
// type. A nil out or an empty body for a Do call decodes nothing.
func decodeInto(body []byte, out any) error {
	shaped, typed := out.(interface{ shapeError() error })
	if typed {
		if k := replyKind(body); k != "an object" {
			return fmt.Errorf("decode response: the reply is %s, not a JSON object", k)
		}
	} else if out == nil || len(body) == 0 {
		return nil
	}
	unmarshal := json.Unmarshal
	if u, ok := out.(json.Unmarshaler); ok {
		// A reply type that still reads itself whole (its Raw included).
		unmarshal = func(b []byte, _ any) error { return u.UnmarshalJSON(b) }
	}
	var te *json.UnmarshalTypeError
	if err := unmarshal(body, out); err != nil && !errors.As(err, &te) {
		return fmt.Errorf("decode response: %w", err)
	}
	if r, ok := out.(interface{ setRaw([]byte) }); ok {
		r.setRaw(body)
	}
	if typed {
		if err := shaped.shapeError(); err != nil {
			return fmt.Errorf("decode response: %w", err)
		}
	}
	return nil
}

// replyKind names the JSON kind of body for a shape error.
func replyKind(body []byte) string {
	for _, b := range body {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return "an object"
		case '[':
			return "a JSON array"
		case '"':
			return "a JSON string"
		case 'n':
			return "null"
		case 't', 'f':
			return "a JSON boolean"
		}
		return "a JSON number"
	}
	return "empty"
}

// decodeReply decodes body as the request path decodes a reply of type T.
func decodeReply[T any](body []byte) (*T, error) {
	v := new(T)
	if err := decodeInto(body, v); err != nil {
		return nil, err
	}
	return v, nil
}

// notA is the shape error of a reply of type what that holds none of keys.
func notA(what, keys string) error {
	return fmt.Errorf("the reply is not %s: it has none of %s", what, keys)
}

// headerValues are the header values every request of a client shares.
// They are never modified once built, so requests may share the slices.
type headerValues struct {
	authorization, merchantID, accept, userAgent, version, json, form []string
}

// invalidClient is the error of a call on a nil Client or one not made by
// NewClient; it matches ErrInvalidClient.
type invalidClient struct{}

func (invalidClient) Error() string        { return "client is nil or not made by NewClient" }
func (invalidClient) Is(target error) bool { return target == ErrInvalidClient }

// readBody reads a response body to its end (so the connection goes back to
// the pool) and closes it. Its buffer never grows past maxResponseBody+1
// bytes, and a body announced larger is refused before it is read.
func readBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	size := 2048
	if n := resp.ContentLength; n > maxResponseBody {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
		return nil, errTooLarge()
	} else if n >= 0 {
		size = int(n) + 1 // room to read the EOF without growing
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) { // grow fourfold: the copies stay under the cap in all
			buf = append(make([]byte, 0, min(4*cap(buf), maxResponseBody+1)), buf...)
		}
		n, err := resp.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > maxResponseBody {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
			return nil, errTooLarge()
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func errTooLarge() error { return fmt.Errorf("body larger than %d bytes", maxResponseBody) }

// replyOrderID is the order a decoded reply says it is about, "" when none.
func replyOrderID(out any) string {
	switch r := out.(type) {
	case *Session:
		return r.OrderID
	case *Order:
		return r.OrderID
	case *OrderStatus:
		return r.OrderID
	case *Refund:
		return r.OrderID
	}
	return ""
}
