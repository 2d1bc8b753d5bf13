package checkouttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/payorch/checkout-go/validation"
)

// Webhook event names the fake sends (the event_name of a webhook body). The
// service sends many more; these are the names of its published samples for
// the transitions the fake models.
const (
	// EventTxnCreated is sent when a payment attempt starts (Pay, PayWith,
	// Fail). It is not enabled by default.
	EventTxnCreated = "TXN_CREATED"
	// EventOrderSucceeded is sent when Pay or PayWith charges an order.
	EventOrderSucceeded = "ORDER_SUCCEEDED"
	// EventOrderFailed is sent when Fail fails an order's payment.
	EventOrderFailed = "ORDER_FAILED"
	// EventOrderRefunded is sent when RefundCompleted completes a refund.
	EventOrderRefunded = "ORDER_REFUNDED"
	// EventOrderRefundFailed is sent when RefundFailed fails a refund.
	EventOrderRefundFailed = "ORDER_REFUND_FAILED"
)

// DefaultEvents returns the events enabled when WebhookConfig.Events is nil:
// the four ORDER_* events.
func DefaultEvents() []string {
	return []string{EventOrderSucceeded, EventOrderFailed, EventOrderRefunded, EventOrderRefundFailed}
}

// Defaults of WebhookConfig's zero fields. The service does not publish its
// own retry interval or count.
const (
	// DefaultRetryInterval is WebhookConfig.RetryInterval when zero: the
	// wait before re-sending after a non-200 reply.
	DefaultRetryInterval = 100 * time.Millisecond
	// DefaultMaxAttempts is WebhookConfig.MaxAttempts when zero: a test
	// fake gives up where the service would go on re-sending.
	DefaultMaxAttempts = 10
	// DefaultSendTimeout is WebhookConfig.Timeout when zero: how long one
	// attempt may take.
	DefaultSendTimeout = 10 * time.Second
	// DefaultMaxConcurrent is WebhookConfig.MaxConcurrent when zero: the
	// webhook requests in flight at once.
	DefaultMaxConcurrent = 32
)

// Config is the merchant account the fake serves: what the service's
// dashboard and gateway console would hold.
type Config struct {
	// MerchantID is the value every request must carry in the x-merchantid
	// header. Required.
	MerchantID string
	// APIKey is the key inside the Basic Authorization header. Required.
	APIKey string
	// Webhook is the dashboard's webhook configuration. It can be set or
	// changed after the fake starts, with Server.SetWebhook.
	Webhook WebhookConfig
	// Gateways are the gateway configurations and their gateway reference
	// ids. An order naming a reference id that no configuration holds can
	// be created, but paying it leaves the transaction STARTED, as the
	// service does. Two configurations of one gateway with the same
	// reference id are refused with ErrDuplicateReference.
	Gateways []Gateway
	// ResponseKey is the dashboard's response key, with which the fake
	// signs the redirect to an order's return_url (Server.ReturnURL), as
	// checkout.VerifyReturn expects. Empty: ReturnURL fails.
	ResponseKey string
	// Listener, when not nil, is where the fake accepts connections, for a
	// fake at a fixed address (the checkout command's fake --addr); Close
	// closes it. Nil means a new listener on a free loopback port, as
	// httptest.NewServer does.
	Listener net.Listener
	// Hosts are the names (or addresses) under which other machines reach a
	// fake listening beyond loopback, such as "fake.test" or a container's
	// service name. Requests whose Host header names anything else than
	// these, loopback names and the addresses the fake listens on are
	// refused with 421, so that a page on a DNS name rebound to the fake's
	// address reaches nothing.
	Hosts []string
	// Now is the fake's clock (date_created, link expiry). Nil means time.Now.
	Now func() time.Time
	// OrderExpiry is how long an order takes payments after it is made:
	// the order_expiry of its replies and status is its creation plus
	// this, so checkout's AwaitFinal gives up with ErrOrderExpired on an
	// order left unpaid past it. Zero means DefaultOrderExpiry.
	OrderExpiry time.Duration
}

// DefaultOrderExpiry is Config.OrderExpiry when zero. The service does not
// publish its own; its published replies show 15 minutes.
const DefaultOrderExpiry = 15 * time.Minute

// WebhookConfig is where and how webhooks are delivered.
type WebhookConfig struct {
	// URL receives the webhooks of orders without their own
	// metadata.webhook_url. https, or http on a loopback host. Empty: only
	// orders with their own URL are notified.
	URL string
	// Username is the user-id of the Basic credentials sent with every
	// webhook, also to per-order URLs. It may not hold the characters the
	// dashboard refuses (@ ! # $ % & ' * + - / = ? ^ _ . { | } ~ and the
	// backtick) nor ':'. Empty: no Authorization header.
	Username string
	// Password is the password of those Basic credentials. It is never
	// printed: Format shows "[redacted]".
	Password string
	// Headers are the custom headers added to every webhook; a name may
	// not be Authorization.
	Headers map[string]string
	// Events are the enabled event names. Nil enables DefaultEvents; an
	// empty, non-nil slice enables none.
	Events []string
	// RetryInterval is the wait between attempts after a non-200 reply or a
	// failed send. Zero means DefaultRetryInterval.
	RetryInterval time.Duration
	// MaxAttempts bounds the attempts of one delivery. Zero means
	// DefaultMaxAttempts.
	MaxAttempts int
	// Timeout bounds one attempt. Zero means DefaultSendTimeout.
	Timeout time.Duration
	// MaxConcurrent bounds the webhook requests in flight at once, as the
	// service's own senders are bounded. Zero means DefaultMaxConcurrent.
	MaxConcurrent int
	// Duplicates makes every event be delivered 1+Duplicates times, as
	// independent concurrent deliveries of identical bodies, to exercise
	// the receiver's duplicate handling (the service may deliver an event
	// more than once).
	Duplicates int
}

// Gateway is one gateway configuration of the gateway control console.
type Gateway struct {
	// Name is the gateway, for example "RAZORPAY" or "PAYU".
	Name string
	// ID is the numeric gateway_id reported in order status; zero reports 100
	// (the service's DUMMY gateway).
	ID int
	// ReferenceID is the gateway reference id that routes to this
	// configuration (metadata.SERVICE:gateway_reference_id). Case sensitive.
	ReferenceID string
}

// Validate reports every problem of c that would make NewServer panic, as
// one error naming each bad field ("Webhook.URL", "Gateways[1].Name"), so
// that a program taking the configuration from its user (the checkout
// command) can report it instead.
func (c Config) Validate() error {
	var col validation.Error
	if c.MerchantID == "" {
		col.Add("MerchantID", "is required")
	}
	if c.APIKey == "" {
		col.Add("APIKey", "is required")
	}
	checkWebhook(&col, "Webhook.", c.Webhook)
	for i, h := range c.Hosts {
		if err := checkHost(h); err != nil {
			col.Add(validation.Index("Hosts", i), err.Error())
		}
	}
	if c.OrderExpiry < 0 {
		col.Add("OrderExpiry", "may not be negative")
	}
	for i, g := range c.Gateways {
		checkGateway(&col, validation.Index("Gateways", i), g)
	}
	if err := col.Err(); err != nil {
		return fmt.Errorf("checkouttest: config: %w", err)
	}
	for i, g := range c.Gateways {
		for j := range i {
			if h := c.Gateways[j]; h.Name == g.Name && h.ReferenceID == g.ReferenceID {
				return fmt.Errorf("checkouttest: config: Gateways[%d]: %w: %s %q (also Gateways[%d])", i, ErrDuplicateReference, g.Name, g.ReferenceID, j)
			}
		}
	}
	return nil
}

// checkWebhook adds the problems of wh, its paths starting with prefix.
func checkWebhook(c *validation.Error, prefix string, wh WebhookConfig) {
	if wh.URL != "" {
		if err := checkWebhookURL(wh.URL); err != nil {
			c.Add(prefix+"URL", err.Error())
		}
	}
	checkUsername(c, prefix+"Username", wh.Username)
	if wh.Username == "" && wh.Password != "" {
		c.Add(prefix+"Username", "is required when Password is set")
	}
	for _, name := range slices.Sorted(maps.Keys(wh.Headers)) {
		p := prefix + "Headers[" + name + "]"
		switch {
		case strings.EqualFold(name, "Authorization"):
			c.Add(p, "a custom header may not be named Authorization: the Basic credentials use it")
		case !isToken(name):
			c.Add(p, "is not a valid header name")
		case strings.ContainsAny(wh.Headers[name], "\r\n"):
			c.Add(p, "value may not contain a line break")
		}
	}
	for i, e := range wh.Events {
		if e == "" || strings.Trim(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
			c.Add(validation.Index(prefix+"Events", i), fmt.Sprintf("%q is not an event name (upper case, like ORDER_SUCCEEDED)", e))
		}
	}
	if wh.RetryInterval < 0 {
		c.Add(prefix+"RetryInterval", "may not be negative")
	}
	if wh.MaxAttempts < 0 {
		c.Add(prefix+"MaxAttempts", "may not be negative")
	}
	if wh.Timeout < 0 {
		c.Add(prefix+"Timeout", "may not be negative")
	}
	if wh.MaxConcurrent < 0 {
		c.Add(prefix+"MaxConcurrent", "may not be negative")
	}
	if wh.Duplicates < 0 {
		c.Add(prefix+"Duplicates", "may not be negative")
	}
}

// withDefaults returns wh with its zero fields set to the defaults and its
// map and slice copied, so the caller's later changes do not reach the fake.
func (wh WebhookConfig) withDefaults() WebhookConfig {
	wh.Headers = cloneMap(wh.Headers)
	if wh.RetryInterval == 0 {
		wh.RetryInterval = DefaultRetryInterval
	}
	if wh.MaxAttempts == 0 {
		wh.MaxAttempts = DefaultMaxAttempts
	}
	if wh.Timeout == 0 {
		wh.Timeout = DefaultSendTimeout
	}
	if wh.MaxConcurrent == 0 {
		wh.MaxConcurrent = DefaultMaxConcurrent
	}
	names := wh.Events
	if names == nil {
		names = DefaultEvents()
	}
	wh.Events = append([]string{}, names...)
	return wh
}

func checkGateway(c *validation.Error, path string, g Gateway) {
	if g.Name == "" {
		c.Add(path+".Name", "is required")
	}
	if g.ReferenceID == "" {
		c.Add(path+".ReferenceID", "is required")
	}
	if g.ID < 0 {
		c.Add(path+".ID", "may not be negative")
	}
}

// usernameForbidden are the characters the service's dashboard refuses in
// a webhook username, plus the colon that would break Basic authentication.
const usernameForbidden = "@!#$%&'*+-/=?^_.{|}~`:"

func checkUsername(c *validation.Error, path, u string) {
	if i := strings.IndexAny(u, usernameForbidden); i >= 0 {
		c.Add(path, fmt.Sprintf("may not contain %q (the dashboard refuses it)", u[i]))
	}
}

// checkWebhookURL accepts https URLs, and http ones on loopback hosts (the
// receivers of tests).
func checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return errors.New("is not an absolute URL")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopbackHost(u.Hostname()) {
			return nil
		}
		return errors.New("must be https (http only on a loopback host)")
	default:
		return errors.New("must be https (http only on a loopback host)")
	}
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 126 || r <= 32 || strings.ContainsRune("()<>@,;:\\\"/[]?={}", r) {
			return false
		}
	}
	return true
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// String describes c without its secrets: the API key, the response key,
// the webhook password and header values show as "[redacted]".
func (c Config) String() string {
	return fmt.Sprintf("checkouttest.Config{MerchantID: %q, APIKey: %s, Webhook: %s, Gateways: %v, ResponseKey: %s, Hosts: %q, OrderExpiry: %v}",
		c.MerchantID, redacted(c.APIKey), c.Webhook, c.Gateways, redacted(c.ResponseKey), c.Hosts, c.OrderExpiry)
}

// Format prints String under every verb.
func (c Config) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue makes log/slog print String.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// MarshalJSON writes String as a JSON string, so that encoding/json never
// writes a secret of c. A Config is not read back from JSON.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// String describes w without the password, the custom header values
// (their names show) and the URL's secrets (see RedactURL).
func (w WebhookConfig) String() string {
	return fmt.Sprintf("checkouttest.WebhookConfig{URL: %q, Username: %q, Password: %s, Headers: %v, Events: %v, RetryInterval: %s, MaxAttempts: %d, Duplicates: %d}",
		RedactURL(w.URL), w.Username, redacted(w.Password), slices.Sorted(maps.Keys(w.Headers)), w.Events, w.RetryInterval, w.MaxAttempts, w.Duplicates)
}

// Format prints String under every verb.
func (w WebhookConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, w.String()) }

// LogValue makes log/slog print String.
func (w WebhookConfig) LogValue() slog.Value { return slog.StringValue(w.String()) }

// MarshalJSON writes String as a JSON string, so that encoding/json never
// writes the password or a header value.
func (w WebhookConfig) MarshalJSON() ([]byte, error) { return json.Marshal(w.String()) }

func redacted(secret string) string {
	if secret == "" {
		return ""
	}
	return "[redacted]"
}

// RedactURL returns the URL raw for printing, its secrets replaced by
// "xxxxx": the whole user information (a user alone is often a token),
// each query value and the fragment. Text that does not parse as a URL
// with a host is not shown at all.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return ""
	case err != nil || u.Opaque != "":
		return "(not a URL with a host)"
	}
	if u.User != nil {
		u.User = url.User("xxxxx")
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			if k, _, ok := strings.Cut(p, "="); ok {
				parts[i] = k + "=xxxxx"
			} else if p != "" {
				parts[i] = "xxxxx"
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = "xxxxx", ""
	}
	return u.String()
}
