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

	"github.com/hashicorp/go-retryablehttp"

	"github.com/payorch/checkout-go/internal/httpfield"
)

// DefaultAPIVersion is the date sent in the version header of the order
// calls ([Client.CreateOrder], [Client.GetOrder], [Client.Refund]), which
// fixes the shape of the service's replies. [WithAPIVersion] chooses
// another.
const DefaultAPIVersion = "2023-06-30"

// SDKVersion is this SDK's version, sent in the User-Agent header
// ("checkout-go/0.1.0").
const SDKVersion = "0.1.0"

// Environment variables read by [NewClientFromEnv].
const (
	// EnvBaseURL names the variable holding the base URL ([WithBaseURL]).
	EnvBaseURL = "CHECKOUT_BASE_URL"
	// EnvMerchantID names the variable holding the merchant id (x-merchantid).
	EnvMerchantID = "CHECKOUT_MERCHANT_ID"
	// EnvAPIKey names the variable holding the API key (Authorization).
	EnvAPIKey = "CHECKOUT_API_KEY"
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
	rc         *retryablehttp.Client
	namespace  string     // WithNamespace; "" means DefaultNamespace
	jwe        *jweConfig // WithJWE: keys of the JWE+JWS mode (jose.go); nil in Basic mode
	observer   Observer
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

// NewClient returns a client for the merchant merchantID, sent in the
// x-merchantid header, that authenticates with apiKey: each request carries
// "Authorization: Basic " and the base64 of the key followed by a colon (the
// key is the user name, the password is empty). [WithBaseURL] is required;
// the other options have defaults:
//
//	c, err := checkout.NewClient(merchantID, apiKey,
//		checkout.WithBaseURL("https://api.example.com"),
//		checkout.WithLogger(slog.Default()))
//
// An empty merchant id or key, or an invalid option, is an error matching
// [ErrInvalidOption]; NewClient never panics.
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
	c.rc = c.newRetryClient()
	return c, nil
}

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

// NewClientFromEnv is [NewClient] with the base URL, merchant id and API key
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
