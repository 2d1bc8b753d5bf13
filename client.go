package checkout

import (
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/internal/httpfield"
)

// DefaultAPIVersion is the version header of the order calls.
const DefaultAPIVersion = "2023-06-30"

// SDKVersion is this SDK's version, sent in the User-Agent header.
const SDKVersion = "0.1.0"

// Environment variables read by [NewClientFromEnv].
const (
	EnvBaseURL    = "CHECKOUT_BASE_URL"
	EnvMerchantID = "CHECKOUT_MERCHANT_ID"
	EnvAPIKey     = "CHECKOUT_API_KEY"
)

// Client calls the service for one merchant. Create it with [NewClient] or
// [NewClientFromEnv]; a nil or zero Client returns errors matching
// [ErrInvalidClient]. It is safe for concurrent use and never prints its
// API key. Every call checks its request, encodes it once, sends it, retries
// under the [RetryPolicy] and turns a non-2xx reply into an [*APIError]; the
// package doc says what is retried and what to do after a failed write.
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
	namespace  string        // WithNamespace; "" means DefaultNamespace
	jwe        *jweConfig    // WithJWE: keys of the JWE+JWS mode (jose.go); nil in Basic mode
	observer   Observer
}

// credential holds the API key behind a pointer: printing a Client copy
// by reflection shows only an address.
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

// Format prints String for every verb.
func (c Client) Format(f fmt.State, _ rune) { io.WriteString(f, c.String()) }

// NewClient returns a client for the merchant merchantID (x-merchantid)
// that authenticates with apiKey as the Basic user name. [WithBaseURL] is
// required. An empty id or key, or a bad option, is an error matching
// [ErrInvalidOption].
func NewClient(merchantID, apiKey string, opts ...Option) (*Client, error) {
	switch {
	case strings.TrimSpace(merchantID) == "":
		return nil, fmt.Errorf("checkout: new client: %w", optErr("merchant id is empty"))
	case !httpfield.ValidValue(merchantID):
		return nil, fmt.Errorf("checkout: new client: %w", optErr("merchant id holds control characters"))
	case !utf8.ValidString(merchantID):
		return nil, fmt.Errorf("checkout: new client: %w", optErr("merchant id is not valid UTF-8"))
	case strings.TrimSpace(apiKey) == "":
		return nil, fmt.Errorf("checkout: new client: %w", optErr("API key is empty"))
	case !httpfield.ValidValue(apiKey):
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
		}
	}
	c.buildHeaders()
	// A copy: the caller's client is left as it was. Never follow a
	// redirect, whatever client was given: a followed 303 turns a refund
	// POST into a GET, and carries Authorization elsewhere.
	hc := *c.hc
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.hc = &hc
	return c, nil
}

// transport is the RoundTripper every attempt goes through.
func (c *Client) transport() http.RoundTripper {
	if c.hc.Transport != nil {
		return c.hc.Transport
	}
	return http.DefaultTransport
}

// headers returns the headers of a request: the client's, the call's
// options' (rc), the content type of a body, the version header when the
// call takes it, and Basic auth unless the JWE+JWS signature authenticates.
func (c *Client) headers(rc *requestConfig, basic, versioned, body bool, contentType []string) http.Header {
	h := make(http.Header, len(rc.header)+7)
	for k, vs := range rc.header {
		h[k] = vs
	}
	if basic {
		h["Authorization"] = c.hdr.authorization
	}
	h["X-Merchantid"] = c.hdr.merchantID
	h["Accept"] = c.hdr.accept
	h["User-Agent"] = c.hdr.userAgent
	if body {
		h["Content-Type"] = contentType
	}
	switch {
	case rc.apiVersion != "":
		h["Version"] = []string{rc.apiVersion}
	case versioned:
		h["Version"] = c.hdr.version
	}
	return h
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

// buildHeaders makes the header values every request of c shares.
func (c *Client) buildHeaders() {
	c.hdr = &headerValues{
		authorization: []string{c.cred.authorization},
		merchantID:    []string{c.merchantID},
		accept:        []string{"application/json"},
		userAgent:     []string{c.userAgent},
		version:       []string{c.apiVersion},
		json:          []string{contentJSON},
		form:          []string{contentForm},
	}
}

// maxConnsPerHost bounds the default transport's connections, so that a
// burst of calls shares them instead of dialling ever more.
const maxConnsPerHost = 64

// newTransport is the default transport, pooled for concurrent use.
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

// NewClientFromEnv is [NewClient] with the base URL, merchant id and API
// key read from the Env… variables (surrounding white space ignored); opts
// come after the base URL and may replace it.
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

// merchant is the client's merchant id; "" for a nil client.
func (c *Client) merchant() string {
	if c == nil {
		return ""
	}
	return c.merchantID
}
