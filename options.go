package checkout

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/httpfield"
)

// optionError is an invalid Option or RequestOption; it matches
// ErrInvalidOption.
type optionError struct{ msg string }

func (e *optionError) Error() string        { return "invalid option: " + e.msg }
func (e *optionError) Is(target error) bool { return target == ErrInvalidOption }

func optErr(format string, args ...any) error {
	return &optionError{msg: fmt.Sprintf(format, args...)}
}

// Option configures a [Client] in [NewClient]: [WithBaseURL],
// [WithHTTPClient], [WithAPIVersion], [WithRetry], [WithLogger],
// [WithUserAgent], [WithNamespace], [WithJWE]. An invalid option makes
// NewClient fail with an error matching [ErrInvalidOption].
type Option interface {
	applyClient(*Client) error
}

// RequestOption configures one call (every method of [Client] that talks
// to the service takes them): [WithHeader], [WithRoutingID],
// [WithAPIVersion]. An invalid one fails the call, before
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
}

// WithBaseURL sets the service's base address, such as the sandbox's or
// production's that the dashboard and onboarding give you; it is required,
// as there is no default host. It must be an https:// URL, or http:// on a
// loopback address (tests and
// [github.com/payorch/checkout-go/checkouttest]), without user information,
// query or fragment. A path is kept as a prefix of every endpoint. An
// address without a scheme, such as "127.0.0.1:8080" (the form
// "checkout fake --addr" takes), is refused with the URL to write instead.
func WithBaseURL(base string) Option {
	return optionFunc(func(c *Client) error {
		if !strings.Contains(base, "://") {
			// A host and port, or a bare host: suggest the URL, http:// on
			// loopback, https:// elsewhere, when that URL is one this
			// option takes (the input itself is not quoted: it may hold
			// user information).
			scheme := "https://"
			if h, err := url.Parse("http://" + base); err == nil && isLoopback(h.Hostname()) {
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
// proxy and jar). The default is a client with its own pooled transport: at
// most 64 connections to the service, all kept for reuse (the standard
// library's default keeps 2, a known trap), 10 s to connect and to shake
// hands, 30 s for the reply's headers and 60 s for a whole attempt. Use
// your own client for more connections or other timeouts. Whatever hc's
// redirect policy, the client never follows a redirect (a followed one
// would turn a refund POST into a GET and carry the Authorization header
// elsewhere): a 3xx reply is an [*APIError]. hc is not modified.
func WithHTTPClient(hc *http.Client) Option {
	return optionFunc(func(c *Client) error {
		if hc == nil {
			return optErr("HTTP client is nil")
		}
		c.hc = hc
		return nil
	})
}

// APIVersionOption is what [WithAPIVersion] returns: it is both an [Option]
// (the client's default) and a [RequestOption] (one call).
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

// WithAPIVersion sets the version header, a date written YYYY-MM-DD that
// fixes the shape of the service's replies. As a client option it replaces
// [DefaultAPIVersion] for the order calls; as a per-call option it applies
// to that call only (and, on [Client.CreateSession], adds the header the
// session call otherwise goes without).
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

// WithRetry replaces [DefaultRetryPolicy]. RetryPolicy{} disables retries; a
// zero MinWait or MaxWait takes the default (see [RetryPolicy]).
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

// WithLogger makes the client log each attempt at debug level (message
// "checkout: attempt"): operation, method, host, path, status, attempt and
// duration, never the query, a body or a header. nil (the default) is
// silent.
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *Client) error {
		c.logger = l
		return nil
	})
}

// WithUserAgent adds a product token ("shop/1.4") in front of the SDK's own
// User-Agent ("checkout-go/" and [SDKVersion]), so the service's logs show
// which application called.
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

// WithNamespace sets the namespace of the service's own keys in the
// requests: the part between "metadata." and ":" of the gateway reference
// key, which [SessionRequest.GatewayReferenceID] and
// [OrderRequest.GatewayReferenceID] are sent under. The default is
// [DefaultNamespace], as the service's reference documentation writes it
// (metadata.SERVICE:gateway_reference_id); a deployment uses its own, for
// example WithNamespace("JUSPAY") sends metadata.JUSPAY:gateway_reference_id.
// It must not be empty nor hold ".", ":", spaces or control characters.
// Decoding a session body (json.Unmarshal into a [SessionRequest]) reads
// metadata.SERVICE:gateway_reference_id into GatewayReferenceID and any
// other metadata.<GATEWAY>:<key> into GatewayMetadata.
func WithNamespace(ns string) Option {
	return optionFunc(func(c *Client) error {
		if !validNamespace(ns) {
			return optErr("namespace %q is empty or holds \".\", \":\", spaces or control characters", short(ns))
		}
		c.namespace = ns
		return nil
	})
}

// Namespace returns the namespace the client writes the service's own keys
// in: the one given to [WithNamespace], or [DefaultNamespace].
func (c *Client) Namespace() string {
	if c == nil || c.namespace == "" {
		return DefaultNamespace
	}
	return c.namespace
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
// cannot be set this way: trying is an error, not a silent override. They
// are Authorization, x-merchantid, Content-Type, Content-Length, Host,
// Accept, User-Agent (use [WithUserAgent]), version (use [WithAPIVersion])
// and x-routing-id (use [WithRoutingID]).
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

// WithRoutingID sets the x-routing-id header of one call, which the service
// uses to route related calls of one customer together. A call takes at
// most one routing id: giving WithRoutingID twice is an error, and so is
// setting X-Routing-Id with [WithHeader].
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
