// Package checkout is a typed client for the payment-orchestration service's
// hosted checkout (spec "service-interface.md"): it creates checkout sessions
// (POST /session), creates orders with UPI QR and intent collection links
// (POST /orders), reads order status (GET /orders/{order_id}) and refunds
// (POST /orders/{order_id}/refunds).
//
// A Client is safe for concurrent use and should be created once and shared:
// it keeps a pool of connections to the service. Every call validates its
// request before anything is sent (a *ValidationError lists every problem),
// retries only what cannot have taken effect or what the service asked to be
// retried, and reports a refusal of the service as an *APIError.
//
// Payment locking, EMI filtering and the product summary block are built with
// the sub-packages paymentfilter, emi and productsummary; webhooks are
// verified by package webhook; checkouttest is an in-process fake of the
// service for tests.
package checkout

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// DefaultAPIVersion is the `version` header sent with the /orders calls
// (spec §4.2, §9) unless WithAPIVersion says otherwise.
const DefaultAPIVersion = "2023-06-30"

// SDKVersion is this SDK's version, sent in the User-Agent header
// ("checkout-go/0.1.0").
const SDKVersion = "0.1.0"

// Environment variables read by NewClientFromEnv.
const (
	// EnvBaseURL names the variable holding the base URL (WithBaseURL).
	EnvBaseURL = "CHECKOUT_BASE_URL"
	// EnvMerchantID names the variable holding the merchant id (x-merchantid).
	EnvMerchantID = "CHECKOUT_MERCHANT_ID"
	// EnvAPIKey names the variable holding the API key (Authorization).
	EnvAPIKey = "CHECKOUT_API_KEY"
)

// Limits of the response bodies read by the client.
const (
	maxResponseBody = 16 << 20
	maxDrain        = 256 << 10
)

// RetryPolicy says how often and how long the client retries a call that can
// safely be retried (see Client). The zero value disables retries.
//
// A zero MinWait or MaxWait stands for the value of DefaultRetryPolicy (200 ms
// and 5 s), so RetryPolicy{MaxRetries: 2} waits between attempts like the
// default policy instead of retrying in a tight loop. When only one of them
// is set, the default of the other is bent to fit: a zero MinWait becomes
// min(200 ms, MaxWait) and a zero MaxWait becomes max(5 s, MinWait). A
// negative wait is an option error (ErrInvalidOption). To retry with almost
// no wait, as tests do, set tiny positive values such as time.Millisecond.
//
// The client never starts a wait that cannot end before the context's
// deadline: when the wait before the next attempt (a Retry-After capped at
// MaxWait, or the jittered backoff) would reach the deadline, it makes no
// further attempt and returns the last result at once. For a 429 or 503
// that is the *APIError, matching ErrRateLimited or ErrServer, with
// RetryAfter as the service sent it, so the caller can schedule the retry
// itself; after a transport failure it is that failure. The wait is chosen
// before it starts, so a call with a deadline ends by then with the
// service's answer instead of context.DeadlineExceeded.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt (0–10).
	MaxRetries int
	// MinWait is the base of the exponential backoff: before retry n (from 0)
	// the client waits a random time between 0 and min(MaxWait, MinWait·2ⁿ)
	// ("full jitter"). It is also the least the client waits when the
	// service sends a shorter Retry-After (such as "0"). Zero means 200 ms
	// (see RetryPolicy); negative is an error.
	MinWait time.Duration
	// MaxWait caps every wait, including a Retry-After the service asks for
	// (a longer Retry-After is cut to MaxWait). Zero means 5 s (see
	// RetryPolicy); negative is an error.
	MaxWait time.Duration
}

// DefaultRetryPolicy is the policy of a client built without WithRetry.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 2, MinWait: 200 * time.Millisecond, MaxWait: 5 * time.Second}
}

// resolved checks p and replaces a zero MinWait or MaxWait by its default
// as RetryPolicy documents.
func (p RetryPolicy) resolved() (RetryPolicy, error) {
	switch {
	case p.MaxRetries < 0 || p.MaxRetries > 10:
		return p, optErr("retry: MaxRetries %d is outside 0–10", p.MaxRetries)
	case p.MinWait < 0:
		return p, optErr("retry: MinWait %s is negative", p.MinWait)
	case p.MaxWait < 0:
		return p, optErr("retry: MaxWait %s is negative", p.MaxWait)
	case p.MinWait > 0 && p.MaxWait > 0 && p.MaxWait < p.MinWait:
		return p, optErr("retry: MaxWait %s is less than MinWait %s", p.MaxWait, p.MinWait)
	}
	def := DefaultRetryPolicy()
	if p.MinWait == 0 {
		p.MinWait = def.MinWait
		if p.MaxWait > 0 && p.MaxWait < p.MinWait {
			p.MinWait = p.MaxWait
		}
	}
	if p.MaxWait == 0 {
		p.MaxWait = max(def.MaxWait, p.MinWait)
	}
	return p, nil
}

// Client calls the service for one merchant. Create it with NewClient or
// NewClientFromEnv; the zero value and a nil *Client are not usable: their
// calls return an error matching ErrInvalidClient (they never panic). It is safe for concurrent
// use, holds no mutable state, and never prints its API key: every fmt verb
// shows a redacted form.
//
// Every call takes one path: validate the request (a *ValidationError, and
// nothing is sent), encode it once, send it with the Authorization,
// x-merchantid and (for /orders) version headers, retry under the
// RetryPolicy, and turn a non-2xx reply into an *APIError.
//
// Retries follow one rule: retry only what cannot have taken effect, or what
// the service asked to be retried. That is a connection that failed before
// anything was written (dial or TLS handshake; a certificate the client does
// not trust is not retried), and 429 or 503, waiting as Retry-After says but
// never longer than MaxWait. Ambiguous failures (a timeout or a dropped
// connection after the request was sent, 500, 502, 504) are retried for
// GetOrder only: the service documents no idempotency for creating sessions,
// orders and refunds, so a retry could charge or refund twice. After such a
// failure, ask GetOrder what happened. Waits use full jitter and end at once
// when the context is done; a wait that would outlast the context's deadline
// is not started, and the call returns the last reply or error instead (see
// RetryPolicy).
type Client struct {
	merchantID string
	cred       *credential
	baseURL    string // scheme://host[/prefix], without a trailing slash
	host       string
	hc         *http.Client
	apiVersion string
	retry      RetryPolicy
	logger     *slog.Logger
	userAgent  string
	hdr        *headerValues // behind a pointer: it holds the Authorization value
	rc         *retryablehttp.Client
	jwe        *jweConfig // WithJWE: keys of the JWE+JWS mode (jose.go); nil in Basic mode
}

// credential holds the API key behind a pointer, so that even reflection-based
// printing of a Client copy shows only an address.
type credential struct {
	key           string
	authorization string // "Basic " + base64(key + ":")
}

func (*credential) String() string             { return "[REDACTED]" }
func (*credential) GoString() string           { return "[REDACTED]" }
func (*credential) Format(f fmt.State, _ rune) { io.WriteString(f, "[REDACTED]") }

// String describes the client without its API key.
func (c Client) String() string {
	return fmt.Sprintf("checkout.Client{merchant: %q, base: %q, version: %q, key: [REDACTED]}",
		c.merchantID, c.baseURL, c.apiVersion)
}

// GoString is String: the API key is never printed.
func (c Client) GoString() string { return c.String() }

// Format prints String for every verb, so %v, %+v, %#v, %s, %q and %x all
// leave the API key out.
func (c Client) Format(f fmt.State, _ rune) { io.WriteString(f, c.String()) }

// optionError is an invalid Option or RequestOption; it matches
// ErrInvalidOption.
type optionError struct{ msg string }

func (e *optionError) Error() string        { return "invalid option: " + e.msg }
func (e *optionError) Is(target error) bool { return target == ErrInvalidOption }

func optErr(format string, args ...any) error {
	return &optionError{msg: fmt.Sprintf(format, args...)}
}

// Option configures a Client in NewClient. An invalid option makes NewClient
// fail with an error wrapping ErrInvalidOption.
type Option interface {
	applyClient(*Client) error
}

// RequestOption configures one call (CreateSession, CreateOrder, GetOrder,
// Refund). An invalid one fails the call, before anything is sent, with an
// error wrapping ErrInvalidOption.
type RequestOption interface {
	applyRequest(*requestConfig) error
}

type optionFunc func(*Client) error

func (f optionFunc) applyClient(c *Client) error { return f(c) }

type requestOptionFunc func(*requestConfig) error

func (f requestOptionFunc) applyRequest(r *requestConfig) error { return f(r) }

// requestConfig is what per-call options set.
type requestConfig struct {
	apiVersion string
	header     http.Header
	routingID  bool // WithRoutingID was applied
}

// WithBaseURL sets the service's base address (required: the spec gives no
// host). It must be an https:// URL, or http:// on a loopback address (tests
// and checkouttest), without user information, query or fragment. A path is
// kept as a prefix of every endpoint.
func WithBaseURL(base string) Option {
	return optionFunc(func(c *Client) error {
		u, err := url.Parse(base)
		if err != nil {
			return optErr("base URL: cannot parse")
		}
		switch {
		case u.Scheme != "https" && u.Scheme != "http":
			return optErr("base URL: scheme must be https")
		case u.Host == "" || u.Hostname() == "":
			return optErr("base URL: no host")
		case u.User != nil:
			return optErr("base URL: must not carry user information")
		case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
			return optErr("base URL: must not have a query or fragment")
		case u.Scheme == "http" && !isLoopback(u.Hostname()):
			return optErr("base URL: must be https (http only on a loopback address)")
		}
		c.baseURL = u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/")
		c.host = u.Host
		return nil
	})
}

// isLoopback reports whether host is "localhost" or a loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// WithHTTPClient makes the client send through hc (its transport, timeout,
// proxy and redirect policy). The default is a client with its own pooled
// transport that does not follow redirects: at most 64 connections to the
// service, all kept for reuse (the standard library's default keeps 2, a
// known trap), 10 s to connect and to shake hands, 30 s for the reply's
// headers and 60 s for a whole attempt. Use your own client for more
// connections or other timeouts. hc is not modified.
func WithHTTPClient(hc *http.Client) Option {
	return optionFunc(func(c *Client) error {
		if hc == nil {
			return optErr("HTTP client is nil")
		}
		c.hc = hc
		return nil
	})
}

// APIVersionOption is what WithAPIVersion returns: it is both an Option (the
// client's default) and a RequestOption (one call).
type APIVersionOption struct {
	version string
}

func (o APIVersionOption) applyClient(c *Client) error {
	if err := checkAPIVersion(o.version); err != nil {
		return err
	}
	c.apiVersion = o.version
	return nil
}

func (o APIVersionOption) applyRequest(r *requestConfig) error {
	if err := checkAPIVersion(o.version); err != nil {
		return err
	}
	r.apiVersion = o.version
	return nil
}

// WithAPIVersion sets the `version` header (spec §9), a date written
// YYYY-MM-DD. As a client option it replaces DefaultAPIVersion for the
// /orders calls; as a per-call option it applies to that call only (and, on
// CreateSession, adds the header the session call otherwise goes without).
func WithAPIVersion(version string) APIVersionOption {
	return APIVersionOption{version: version}
}

func checkAPIVersion(v string) error {
	if len(v) != len("2006-01-02") {
		return optErr("API version %q is not a date YYYY-MM-DD", short(v))
	}
	if _, err := time.Parse("2006-01-02", v); err != nil {
		return optErr("API version %q is not a date YYYY-MM-DD", short(v))
	}
	return nil
}

func short(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// WithRetry replaces DefaultRetryPolicy. RetryPolicy{} disables retries; a
// zero MinWait or MaxWait takes the default (see RetryPolicy).
func WithRetry(p RetryPolicy) Option {
	return optionFunc(func(c *Client) error {
		r, err := p.resolved()
		if err != nil {
			return err
		}
		c.retry = r
		return nil
	})
}

// WithLogger makes the client log each attempt at debug level: method, host,
// path, status, attempt and duration, never the query, a body or a header.
// nil (the default) is silent.
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *Client) error {
		c.logger = l
		return nil
	})
}

// WithUserAgent adds a product token ("shop/1.4") in front of the SDK's own
// User-Agent.
func WithUserAgent(ua string) Option {
	return optionFunc(func(c *Client) error {
		ua = strings.TrimSpace(ua)
		if ua == "" || !validHeaderValue(ua) {
			return optErr("user agent is empty or holds control characters")
		}
		c.userAgent = ua + " " + c.userAgent
		return nil
	})
}

// reservedHeader reports the headers the client sets, which cannot be
// replaced per call, and the option to use instead ("" when none). canon is
// in canonical form.
func reservedHeader(canon string) (reserved bool, use string) {
	switch canon {
	case "Authorization", "X-Merchantid", "Content-Type", "Content-Length",
		"Host", "Transfer-Encoding", "Connection", "Accept":
		return true, ""
	case "Version":
		return true, "WithAPIVersion"
	case "User-Agent":
		return true, "WithUserAgent"
	case "X-Routing-Id":
		return true, "WithRoutingID"
	}
	return false, ""
}

// WithHeader adds a header to one call. The headers the client manages
// (Authorization, x-merchantid, Content-Type, Content-Length, Host, Accept,
// User-Agent — use WithUserAgent —, version — use WithAPIVersion — and
// x-routing-id — use WithRoutingID) cannot be set this way: trying is an
// error, not a silent override.
func WithHeader(name, value string) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		if !validHeaderName(name) {
			return optErr("header name %q is not a valid token", short(name))
		}
		canon := http.CanonicalHeaderKey(name)
		if reserved, use := reservedHeader(canon); reserved {
			if use != "" {
				return optErr("header %s is set by the client: use %s", canon, use)
			}
			return optErr("header %s is set by the client", canon)
		}
		if !validHeaderValue(value) {
			return optErr("header %s: value holds control characters", canon)
		}
		if r.header == nil {
			r.header = make(http.Header)
		}
		r.header.Add(canon, value)
		return nil
	})
}

// WithRoutingID sets the x-routing-id header of one call, which the service
// uses to route related calls of one customer together. A call takes at
// most one routing id: giving WithRoutingID twice is an error, and so is
// setting X-Routing-Id with WithHeader.
func WithRoutingID(id string) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		if id == "" || !validHeaderValue(id) {
			return optErr("routing id is empty or holds control characters")
		}
		if r.routingID {
			return optErr("routing id given twice (WithRoutingID)")
		}
		r.routingID = true
		if r.header == nil {
			r.header = make(http.Header)
		}
		r.header.Set("X-Routing-Id", id)
		return nil
	})
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		if !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// NewClient returns a client for the merchant merchantID (sent as
// x-merchantid) authenticating with apiKey (sent as
// `Authorization: Basic base64("<api key>:")`, spec §5). WithBaseURL is
// required. An empty merchant id or key, or an invalid option, is an error
// wrapping ErrInvalidOption.
func NewClient(merchantID, apiKey string, opts ...Option) (*Client, error) {
	switch {
	case strings.TrimSpace(merchantID) == "":
		return nil, fmt.Errorf("checkout: new client: %w", optErr("merchant id is empty"))
	case !validHeaderValue(merchantID):
		return nil, fmt.Errorf("checkout: new client: %w", optErr("merchant id holds control characters"))
	case strings.TrimSpace(apiKey) == "":
		return nil, fmt.Errorf("checkout: new client: %w", optErr("API key is empty"))
	case !validHeaderValue(apiKey):
		return nil, fmt.Errorf("checkout: new client: %w", optErr("API key holds control characters"))
	}
	c := &Client{
		merchantID: merchantID,
		cred: &credential{
			key:           apiKey,
			authorization: "Basic " + base64.StdEncoding.EncodeToString([]byte(apiKey+":")),
		},
		apiVersion: DefaultAPIVersion,
		retry:      DefaultRetryPolicy(),
		userAgent:  "checkout-go/" + SDKVersion,
	}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o.applyClient(c); err != nil {
			return nil, fmt.Errorf("checkout: new client: %w", err)
		}
	}
	if c.baseURL == "" {
		return nil, fmt.Errorf("checkout: new client: %w", optErr("WithBaseURL is required"))
	}
	if c.hc == nil {
		c.hc = &http.Client{
			Transport: newTransport(),
			Timeout:   60 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		}
	}
	// go-retryablehttp closes idle connections when it gives up; hide that
	// method so one failing call does not drop the pool every other
	// goroutine uses.
	hc := *c.hc
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	hc.Transport = keepIdle{rt}
	c.hc = &hc
	c.buildHeaders()
	c.rc = c.newRetryClient()
	return c, nil
}

// keepIdle hides CloseIdleConnections of the transport it wraps.
type keepIdle struct{ rt http.RoundTripper }

func (k keepIdle) RoundTrip(r *http.Request) (*http.Response, error) { return k.rt.RoundTrip(r) }

// maxConnsPerHost bounds the default transport's connections to the
// service, idle or busy. Without the bound, callers that wait for a dial can
// take a connection another caller just freed and leave their own dial to
// add one more; with it, a burst of calls shares at most this many
// connections and further calls wait (within their context) for a free one.
const maxConnsPerHost = 64

// newTransport is the default transport: the standard library's defaults
// with a pool large enough for concurrent use (its 2 idle connections per
// host is a known trap).
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			Timeout:   10 * time.Second,
			KeepAlive: 30 * time.Second,
		}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   maxConnsPerHost,
		MaxConnsPerHost:       maxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
	}
}

// NewClientFromEnv is NewClient with the base URL, merchant id and API key
// read from CHECKOUT_BASE_URL, CHECKOUT_MERCHANT_ID and CHECKOUT_API_KEY
// (white space around a value, such as the newline of a file read into a
// variable, is ignored). A missing variable is an error naming it. opts are
// applied after the base URL, so they may replace it.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	var missing []string
	get := func(name string) string {
		v := strings.TrimSpace(os.Getenv(name))
		if v == "" {
			missing = append(missing, name)
		}
		return v
	}
	base, merchant, key := get(EnvBaseURL), get(EnvMerchantID), get(EnvAPIKey)
	if len(missing) > 0 {
		return nil, fmt.Errorf("checkout: new client from environment: %w", optErr("%s not set", strings.Join(missing, ", ")))
	}
	return NewClient(merchant, key, append([]Option{WithBaseURL(base)}, opts...)...)
}

// call is one logical request: what the single request path needs.
type call struct {
	op          string // "create session", …
	method      string
	path        string // escaped path below the base URL, starting with "/"
	body        []byte // encoded once; nil for GET
	contentType string
	versioned   bool // send the client's version header
	idempotent  bool // may be retried after an ambiguous failure
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
	start   time.Time
	// wait is the pause before the next attempt, chosen by checkRetry
	// (which knows the context's deadline) and returned by Backoff.
	wait time.Duration
	// rc runs this call: a copy of the client's settings whose Backoff
	// reads wait. It lives in the attempt so that it costs no allocation.
	rc retryablehttp.Client
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

// newRetryClient returns the go-retryablehttp client shared by every call
// of c, with our retry policy, backoff and error handler and no logger of
// its own.
func (c *Client) newRetryClient() *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   c.hc,
		RetryMax:     c.retry.MaxRetries,
		RetryWaitMin: c.retry.MinWait,
		RetryWaitMax: c.retry.MaxWait,
		RequestLogHook: func(_ retryablehttp.Logger, r *http.Request, i int) {
			if at, ok := r.Context().Value(attemptKey{}).(*attempt); ok {
				at.n = i + 1
				at.gotConn.Store(false)
				at.wrote.Store(false)
				at.start = time.Now()
			}
		},
		CheckRetry:   checkRetry,
		Backoff:      backoff,
		ErrorHandler: giveUp,
	}
}

// do sends the call through the one request path: options, headers,
// go-retryablehttp with our retry policy, body reading and error decoding. It
// returns the body of a 2xx response.
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
	at := &attempt{c: c, call: cl}
	at.trace.GotConn = func(httptrace.GotConnInfo) { at.gotConn.Store(true) }
	at.trace.WroteHeaders = func() { at.wrote.Store(true) }
	ctx = httptrace.WithClientTrace(context.WithValue(ctx, attemptKey{}, at), &at.trace)

	var body any
	if cl.body != nil {
		body = cl.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, cl.method, c.baseURL+cl.path, body)
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: build request: %w", cl.op, err)
	}
	h := req.Header
	if rc != nil {
		for k, vs := range rc.header {
			h[k] = vs
		}
	}
	h["Authorization"] = c.hdr.authorization
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
		return nil, fmt.Errorf("checkout: %s: %w", cl.op, err)
	}
	data, err := readBody(resp)
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: read response: %w", cl.op, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.apiError(cl.op, resp, data)
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
		return nil, fmt.Errorf("checkout: %s: %w", cl.op, err)
	}
	return v, nil
}

// postForm is a POST of a form-encoded body to one of the /orders
// endpoints, which take the `version` header (spec §4.2, §9). Writes are not
// idempotent: an ambiguous failure is not retried.
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
		return fmt.Errorf("checkout: %s: %w", op, ErrInvalidClient)
	}
	return nil
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

// checkRetry is the retry policy of DESIGN §2: retry what cannot have taken
// effect (no connection was made: dial or TLS handshake failed), what the
// service asks to be retried (429, 503), and, for idempotent calls only,
// ambiguous failures (a transport error after the request was sent, 500, 502,
// 504). It also logs the attempt.
//
// When a retry follows, checkRetry chooses the wait before it (backoff) and
// gives up instead when that wait would reach the context's deadline (see
// RetryPolicy): go-retryablehttp then returns the last reply or error at
// once rather than sleeping into context.DeadlineExceeded.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	at, ok := ctx.Value(attemptKey{}).(*attempt)
	if !ok {
		return false, errors.New("checkout: request without call state")
	}
	at.log(ctx, resp, err)
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	retry := retryable(at, resp, err)
	if !retry || at.n > at.c.retry.MaxRetries {
		// No retry, or none left: go-retryablehttp stops without waiting.
		return retry, nil
	}
	at.wait = backoff(at.c.retry.MinWait, at.c.retry.MaxWait, at.n-1, resp)
	if deadline, ok := ctx.Deadline(); ok {
		if left := time.Until(deadline); at.wait >= left {
			at.logGiveUp(ctx, left)
			return false, nil
		}
	}
	return true, nil
}

// chosenWait is the Backoff of a call: the wait checkRetry chose.
func (at *attempt) chosenWait(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
	return at.wait
}

// retryable is the retry rule of checkRetry, without the deadline.
func retryable(at *attempt, resp *http.Response, err error) bool {
	if err != nil {
		if permanent(err) {
			return false
		}
		if at.call.idempotent {
			return true
		}
		// Nothing can have reached the service when no connection was
		// obtained and no header was written.
		return !at.gotConn.Load() && !at.wrote.Load()
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return at.call.idempotent
	}
	return false
}

// permanent reports transport errors that no retry can fix.
func permanent(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		verify           *tls.CertificateVerificationError
	)
	if errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &verify) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "unsupported protocol scheme") ||
		strings.Contains(msg, "stopped after") && strings.Contains(msg, "redirects") ||
		strings.Contains(msg, "invalid header")
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

// giveUp is the ErrorHandler: after the last attempt it hands back the last
// response (so its body becomes an *APIError) or the last transport error.
func giveUp(resp *http.Response, err error, tries int) (*http.Response, error) {
	if err == nil && resp != nil {
		return resp, nil
	}
	if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
		resp.Body.Close()
	}
	if err == nil {
		err = errors.New("request failed")
	}
	if tries > 1 {
		return nil, fmt.Errorf("after %d attempts: %w", tries, err)
	}
	return nil, err
}

// backoff waits as the service asks with Retry-After on 429 and 503, but
// never less than min (a "Retry-After: 0" must not make a tight loop) nor
// longer than max; else a random time in [0, min(max, min·2ⁿ)] (full
// jitter).
func backoff(min, max time.Duration, n int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			if d < min {
				d = min
			}
			if d > max {
				d = max
			}
			return d
		}
	}
	ceil := max
	if n < 62 && min > 0 {
		if exp := min << uint(n); exp > 0 && exp < max {
			ceil = exp
		}
	}
	if ceil <= 0 {
		return 0
	}
	return rand.N(ceil + 1)
}
