package checkout

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// call is one call of the service as its endpoint describes it, once: the
// endpoint hands it to [Client.do], the one loop every call goes through.
type call struct {
	op        string // the call as errors name it: "create session"
	name      string // the Client method, as an Observer hears it: "CreateSession"
	method    string // "POST"
	route     string // path template: "/orders/{order_id}"
	path      string // the escaped path below the base URL
	query     string // encoded query without "?", or ""; never logged
	body      []byte // encoded once; nil sends none
	form      bool   // body is a form, else JSON
	versioned bool   // carries the version header
	write     bool   // may change something at the service (see classify)
	orderID   string // the order the call is about: its reply must name it
	v4        *v4Call
	settle    settleFunc // for a write: finds what an unknown outcome did; nil leaves the error as it is
}

// v4Call is the JWE+JWS form of a call: a POST of the sealed JSON to path.
type v4Call struct {
	route, path string
	body        []byte // the JSON to seal; nil seals call.body
}

// settleFunc is a write's settle step. After an outcome the client cannot
// know (cause), it reads with read what the write would have made, and
// says what it found; err is what the call returns when it ends there:
// cause, or a [*ConflictError] when it found something else.
type settleFunc func(read readFunc, cause error) (settled, error)

// settled is what a settle step found.
type settled int

const (
	unsettled   settled = iota // it could not tell, or found a conflict: the call ends with err
	replayed                   // it found what the write asked for, and filled the reply
	absent                     // nothing was made: the write may be sent again
	replayAgain                // it found what the write asked for; sending again asks for its reply (a session)
)

// readFunc makes a settle step's read, as part of the write's operation.
type readFunc func(cl *call, out decodable) error

// do runs cl with opts and decodes its 2xx reply into out.
func (c *Client) do(ctx context.Context, cl *call, opts []RequestOption, out decodable) error {
	rc, err := requestOptions(opts, cl.name)
	return c.run(ctx, cl, rc, out, err)
}

// run is do with the options applied; a non-nil err (an option's) ends the
// call before anything is sent, as the Observer hears.
func (c *Client) run(ctx context.Context, cl *call, rc *requestConfig, out decodable, err error) error {
	switch {
	case c == nil || c.cred == nil || c.hc == nil:
		return fmt.Errorf("checkout: %s: %w", cl.op, invalidClient{})
	case ctx == nil:
		return fmt.Errorf("checkout: %s: nil context", cl.op)
	}
	x := c.begin(ctx, cl, rc)
	if err != nil {
		err = fmt.Errorf("checkout: %s: %w", cl.op, err)
	} else {
		err = x.loop(out)
	}
	x.end(out, err)
	return err
}

// exchange is one call in flight: what its requests did so far. It lives
// as long as the call, on the caller's goroutine.
type exchange struct {
	c        *Client
	cl       *call
	rc       *requestConfig
	ctx      context.Context // the operation's: what the Observer returned, else the caller's
	op       Operation
	start    time.Time
	requests int            // HTTP requests made, settle reads included
	sends    int            // requests of cl itself
	effect   bool           // the last send of cl failed after it may have taken effect: it is to be settled
	maybe    bool           // some send of cl failed after it may have reached the service (MaybeDelivered)
	last     *http.Response // the last reply, its body read
	replayed bool           // a settle step found what the write asked for
}

// begin starts the exchange of cl, telling the Observer.
func (c *Client) begin(ctx context.Context, cl *call, rc *requestConfig) *exchange {
	x := &exchange{c: c, cl: cl, rc: rc, ctx: ctx, start: time.Now()}
	if c.observer != nil {
		method, route := x.sentMethod(cl), x.sentRoute(cl)
		x.op = c.operation(cl.name, method, route, cl.orderID)
		x.op.JWE = x.jwe(cl)
		x.ctx = observed(ctx, c.observer.StartOperation(ctx, x.op))
	}
	return x
}

// end fills the call's ResponseMeta and tells the Observer how the call
// ended: as the caller sees it.
func (x *exchange) end(out decodable, err error) {
	if m := x.rc.meta; m != nil {
		*m = ResponseMeta{Attempts: x.requests, Elapsed: time.Since(x.start)}
		if x.last != nil {
			m.HTTPStatus = x.last.StatusCode
			m.IDs = idHeaders(x.last.Header)
			m.RequestID, m.ResponseID = metaID(x.last.Header, "X-Request-Id"), metaID(x.last.Header, "X-Response-Id")
		}
	}
	obs := x.c.observer
	if obs == nil {
		return
	}
	r := OperationResult{Attempts: x.requests, ErrorKind: errorKind(err), Err: err, Duration: time.Since(x.start),
		MaybeDelivered: err != nil && x.maybe, Replayed: err == nil && x.replayed}
	if x.last != nil {
		r.HTTPStatus = x.last.StatusCode
	}
	if err == nil && out != nil {
		_, st := out.names()
		r.OrderStatus = boundedStatus(st)
	}
	obs.EndOperation(x.ctx, x.op, r)
}

// loop sends the call. While a write's outcome is unknown it settles it
// and, when nothing was made, sends it again: MaxRetries+1 sends at most.
func (x *exchange) loop(out decodable) error {
	for {
		err := x.send(x.cl, out, AttemptSend)
		if err == nil || !x.effect || x.cl.settle == nil || x.c.retry.MaxRetries == 0 || x.ctx.Err() != nil {
			return err
		}
		found, err := x.cl.settle(x.read, err)
		x.replayed = found == replayed || found == replayAgain
		switch {
		case found == replayed:
			return nil
		case found == unsettled || x.sends > x.c.retry.MaxRetries:
			return err
		}
		x.effect = false // settled: nothing was made, or it is asked again (x.maybe stays)
	}
}

// read is the settle step's read: a request of the operation, retried as
// reads are.
func (x *exchange) read(cl *call, out decodable) error { return x.send(cl, out, AttemptSettle) }

// send makes one request of the exchange (cl itself, or a settle read),
// its attempts run by go-retryablehttp, and reads its reply into out.
func (x *exchange) send(cl *call, out decodable, kind AttemptKind) error {
	s := &sending{x: x, cl: cl, kind: kind, retries: x.c.retry.MaxRetries,
		method: x.sentMethod(cl), route: x.sentRoute(cl), path: x.shownPath(cl)}
	if kind == AttemptSend {
		s.retries -= x.sends // a write's sends share one budget
	}
	req, err := x.request(cl)
	if err != nil {
		return err
	}
	s.trace = httptrace.ClientTrace{
		GetConn:      func(string) { s.traced.Store(true) },
		GotConn:      func(httptrace.GotConnInfo) { s.sent.Store(true) },
		WroteHeaders: func() { s.sent.Store(true) },
	}
	engine := retryablehttp.Client{
		HTTPClient:   &http.Client{Transport: s, CheckRedirect: x.c.hc.CheckRedirect, Jar: x.c.hc.Jar, Timeout: x.c.hc.Timeout},
		RetryMax:     max(s.retries, 0),
		RetryWaitMin: x.c.retry.MinWait,
		RetryWaitMax: x.c.retry.MaxWait,
		CheckRetry:   s.checkRetry,
		Backoff:      backoff,
		ErrorHandler: giveUp,
	}
	resp, err := engine.Do(req)
	if err != nil {
		sent := s.maySent(err)
		return s.fail(0, nil, sent, s.transportError(err, sent))
	}
	data, err := readBody(resp)
	if err != nil { // the reply began: the service has the request
		return s.fail(0, nil, true, s.transportError(fmt.Errorf("read response: %w", err), true))
	}
	x.last = resp
	if x.jwe(cl) && (ok2xx(resp.StatusCode) || isSealed(data)) {
		plain, err := x.c.jwe.open(x.ctx, cl.op, data)
		if err != nil && ok2xx(resp.StatusCode) {
			return s.fail(resp.StatusCode, nil, true, s.unusable(err))
		} else if err == nil {
			data = plain // an error reply is opened when it opens
		}
	}
	if !ok2xx(resp.StatusCode) {
		o := classify(cl.write, true, resp.StatusCode, resp.Header, nil)
		ae := newAPIError(cl.op, resp.StatusCode, o.wait, data, x.c.cred)
		if ae.OrderID == "" {
			ae.OrderID = cl.orderID
		}
		return s.fail(resp.StatusCode, resp.Header, true, ae)
	}
	if err := x.decode(cl, data, out); err != nil {
		return s.fail(resp.StatusCode, nil, true, s.unusable(err))
	}
	s.endAttempt(resp.StatusCode, "", outcome{reached: true})
	return nil
}

// decode reads a 2xx reply into out and checks that it is about cl's
// order: a reply that names another order, or none, is refused.
func (x *exchange) decode(cl *call, data []byte, out decodable) error {
	err := out.decode(data)
	if sealed := sealedInBasicMode(cl.op, data); err != nil && sealed != nil && !x.jwe(cl) {
		return sealed
	}
	if err == nil && cl.orderID != "" {
		switch id, _ := out.names(); {
		case id == "":
			err = fmt.Errorf("the reply names no order, where it must name %.24q", cl.orderID)
		case id != cl.orderID:
			err = fmt.Errorf("the reply is about another order than %.24q", cl.orderID)
		}
	}
	if err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// request builds the HTTP request of cl: sealed in the JWE+JWS mode.
func (x *exchange) request(cl *call) (*retryablehttp.Request, error) {
	method, path, query, body := cl.method, cl.path, cl.query, cl.body
	contentType := x.c.hdr.json
	if cl.form {
		contentType = x.c.hdr.form
	}
	if x.jwe(cl) {
		method, path, query, contentType = http.MethodPost, cl.v4.path, "", x.c.hdr.json
		if cl.v4.body != nil {
			body = cl.v4.body
		}
		sealed, err := x.c.jwe.seal(x.ctx, cl.op, body)
		if err != nil {
			return nil, err
		}
		body = sealed
	}
	target := x.c.baseURL + path
	if query != "" {
		target += "?" + query
	}
	var rbody any
	if body != nil {
		rbody = body
	}
	req, err := retryablehttp.NewRequestWithContext(x.ctx, method, target, rbody)
	if err != nil { // its text would quote the URL, query included
		return nil, fmt.Errorf("checkout: %s: build request: %w", cl.op, optErr("the path or query is not a valid URL"))
	}
	req.Header = x.c.headers(x.rc, !x.jwe(cl), cl.versioned, body != nil, contentType)
	return req, nil
}

// jwe reports whether cl is sent sealed: the client is in the JWE+JWS
// mode and the call has a /v4 form.
func (x *exchange) jwe(cl *call) bool { return x.c.jwe != nil && cl.v4 != nil }

// sentMethod and sentRoute are cl's method and route as sent.
func (x *exchange) sentMethod(cl *call) string {
	if x.jwe(cl) {
		return http.MethodPost
	}
	return cl.method
}

func (x *exchange) sentRoute(cl *call) string {
	if x.jwe(cl) {
		return cl.v4.route
	}
	return cl.route
}

// shownPath is the path errors and logs name: a call about an order shows
// its path (the order id is the merchant's own reference), others their
// route, so that no other id (a customer's email) is written out.
func (x *exchange) shownPath(cl *call) string {
	switch {
	case cl.orderID == "":
		return x.sentRoute(cl)
	case x.jwe(cl):
		return cl.v4.path
	}
	return cl.path
}

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

// drain reads a little of a body it will not use, so that the connection
// can be reused, and closes it.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	resp.Body.Close()
}

func errTooLarge() error { return fmt.Errorf("body larger than %d bytes", maxResponseBody) }
