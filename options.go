package checkout

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/httpfield"
	"github.com/payorch/checkout-go/internal/weburl"
)

// optionError is an invalid Option or RequestOption; it matches
// ErrInvalidOption.
type optionError struct{ msg string }

func (e *optionError) Error() string        { return "invalid option: " + e.msg }
func (e *optionError) Is(target error) bool { return target == ErrInvalidOption }

func optErr(format string, args ...any) error {
	return &optionError{msg: fmt.Sprintf(format, args...)}
}

// Option configures a [Client] in [NewClient]; an invalid one makes it fail
// with an error matching [ErrInvalidOption].
type Option interface {
	applyClient(*Client) error
}

// RequestOption configures one call; an invalid one fails it, before
// anything is sent, with an error matching [ErrInvalidOption].
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
	meta       *ResponseMeta
	poll       []time.Duration // WithPollIntervals: AwaitFinal's schedule
	route      string          // WithRouteTemplate: Do's route
	clock      clock           // AwaitFinal's time (tests replace it)
}

// requestOptions applies opts to the call the Client method name makes;
// the first invalid one, or one of another method, is the error.
func requestOptions(opts []RequestOption, name string) (*requestConfig, error) {
	rc := new(requestConfig)
	var err error
	for _, o := range opts {
		if o == nil {
			continue
		}
		if e := o.applyRequest(rc); err == nil {
			err = e
		}
	}
	switch {
	case err != nil:
	case rc.poll != nil && name != "AwaitFinal":
		err = optErr("WithPollIntervals is an option of AwaitFinal")
	case rc.route != "" && name != "Do":
		err = optErr("WithRouteTemplate is an option of Do")
	}
	return rc, err
}

// WithBaseURL sets the service's base address (required: there is no
// default host): an https:// URL, or http:// on a loopback address, without
// user information, query or fragment; a path is a prefix of every
// endpoint. An address without a scheme is refused with the URL to write.
func WithBaseURL(base string) Option {
	return optionFunc(func(c *Client) error {
		if !strings.Contains(base, "://") {
			// Suggest the URL (not quoting the input: it may hold a password).
			scheme := "https://"
			if h, err := url.Parse("http://" + base); err == nil && weburl.Loopback(h.Hostname()) {
				scheme = "http://"
			}
			if WithBaseURL(scheme+base).applyClient(&Client{}) == nil {
				return optErr("base URL: no scheme: write %s", scheme+base)
			}
		}
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
		case u.Scheme == "http" && !weburl.Loopback(u.Hostname()):
			return optErr("base URL: must be https (http only on a loopback address)")
		}
		c.baseURL = u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/")
		c.host = u.Host
		return nil
	})
}

// WithHTTPClient makes the client send through a copy of hc. The default
// pools up to 64 connections to the service (the standard library keeps 2
// idle), with 10 s to connect, 30 s for the reply's headers and 60 s per
// attempt. A redirect is never followed, whatever hc says: a 3xx reply is
// an [*APIError].
func WithHTTPClient(hc *http.Client) Option {
	return optionFunc(func(c *Client) error {
		if hc == nil {
			return optErr("HTTP client is nil")
		}
		c.hc = hc
		return nil
	})
}

// APIVersionOption is both an [Option] and a [RequestOption].
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

// WithAPIVersion sets the version header (YYYY-MM-DD), which fixes the
// shape of the replies: for the client's order calls, or for one call.
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

// WithRetry replaces [DefaultRetryPolicy]; RetryPolicy{} disables retries.
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

// WithLogger logs each attempt at debug level: operation, method, host,
// path, status, attempt and duration, never a query, body or header.
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *Client) error {
		c.logger = l
		return nil
	})
}

// WithUserAgent puts a product token ("shop/1.4") before the SDK's own
// User-Agent.
func WithUserAgent(ua string) Option {
	return optionFunc(func(c *Client) error {
		ua = strings.TrimSpace(ua)
		if ua == "" || !httpfield.ValidValue(ua) {
			return optErr("user agent is empty or holds control characters")
		}
		c.userAgent = ua + " " + c.userAgent
		return nil
	})
}

// WithNamespace sets the namespace of the service's own metadata keys
// (default [DefaultNamespace]): WithNamespace("JUSPAY") sends the gateway
// reference id as metadata.JUSPAY:gateway_reference_id.
func WithNamespace(ns string) Option {
	return optionFunc(func(c *Client) error {
		if !validNamespace(ns) {
			return optErr("namespace %q is empty or holds \".\", \":\", spaces or control characters", short(ns))
		}
		c.namespace = ns
		return nil
	})
}

// Namespace returns the client's [WithNamespace], or [DefaultNamespace].
func (c *Client) Namespace() string {
	if c == nil || c.namespace == "" {
		return DefaultNamespace
	}
	return c.namespace
}

// reservedHeader reports the headers the client sets and the option to use
// instead ("" when none).
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

// WithHeader adds a header to one call. Setting one the client manages
// (Authorization, x-merchantid, Content-Type, Accept, User-Agent, version,
// x-routing-id…) is an error.
func WithHeader(name, value string) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		if !httpfield.ValidName(name) {
			return optErr("header name %q is not a valid token", short(name))
		}
		canon := http.CanonicalHeaderKey(name)
		if reserved, use := reservedHeader(canon); reserved {
			if use != "" {
				return optErr("header %s is set by the client: use %s", canon, use)
			}
			return optErr("header %s is set by the client", canon)
		}
		if !httpfield.ValidValue(value) {
			return optErr("header %s: value holds control characters", canon)
		}
		if r.header == nil {
			r.header = make(http.Header)
		}
		r.header.Add(canon, value)
		return nil
	})
}

// WithRoutingID sets the x-routing-id header of one call, with which the
// service routes one customer's calls together; at most one per call.
func WithRoutingID(id string) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		if id == "" || !httpfield.ValidValue(id) {
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
