package checkouttest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/payorch/checkout-go/internal/valid"
)

// Webhook event names the fake sends (the event_name of a webhook body). The
// service's complete list is not in the spec (§6.1); these are the names of
// its published samples for the transitions the fake models.
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

// Defaults of WebhookConfig's zero fields. The spec leaves the service's
// retry interval and count open (§8).
const (
	// DefaultRetryInterval is WebhookConfig.RetryInterval when zero: the
	// wait before re-sending after a non-200 reply (spec §6.1.4).
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

// SDKService is the "service" value of every sdk_payload the fake returns
// (the value the service's published session responses carry).
const SDKService = "in.juspay.hyperpay"

// Errors returned by the helpers and by NewServer.
var (
	// ErrUnknownOrder: no order has that order_id.
	ErrUnknownOrder = errors.New("checkouttest: unknown order")
	// ErrUnknownRefund: the order has no refund with that unique_request_id.
	ErrUnknownRefund = errors.New("checkouttest: unknown refund")
	// ErrUnknownEvent: no event with that id was sent.
	ErrUnknownEvent = errors.New("checkouttest: unknown event")
	// ErrInvalidTransition: the order or refund is not in a state the helper
	// can move it from (for example Pay on a CHARGED order).
	ErrInvalidTransition = errors.New("checkouttest: invalid transition")
	// ErrDuplicateReference: the gateway already has a configuration with
	// that gateway reference id (spec §2.9, the availability check).
	ErrDuplicateReference = errors.New("checkouttest: gateway reference id already configured for this gateway")
	// ErrClosed: the server was closed.
	ErrClosed = errors.New("checkouttest: server closed")
	// ErrNotStarted: the method was called on a nil or zero Server, one
	// not made by NewServer, New or Start.
	ErrNotStarted = errors.New("checkouttest: server not started (use NewServer, New or Start)")
)

// Config is the merchant account the fake serves: what the service's
// dashboard and gateway console would hold.
type Config struct {
	// MerchantID is the value every request must carry in x-merchantid
	// (spec §4, §5.1). Required.
	MerchantID string
	// APIKey is the key inside the Basic Authorization header (spec §5.1).
	// Required.
	APIKey string
	// Webhook is the dashboard's webhook configuration (spec §5.2–5.6, §6.1).
	Webhook WebhookConfig
	// Gateways are the gateway configurations and their gateway reference
	// ids (spec §2.9). An order naming a reference id that no configuration
	// holds can be created, but paying it leaves the transaction STARTED
	// (spec §7). Two configurations of one gateway with the same reference
	// id are refused with ErrDuplicateReference.
	Gateways []Gateway
	// Now is the fake's clock (date_created, link expiry). Nil means time.Now.
	Now func() time.Time
}

// WebhookConfig is where and how webhooks are delivered (spec §5, §6.1).
type WebhookConfig struct {
	// URL receives the webhooks of orders without their own
	// metadata.webhook_url (spec §6.1.2, §6.1.6). https, or http on a
	// loopback host. Empty: only orders with their own URL are notified.
	URL string
	// Username is the user-id of the Basic credentials sent with every
	// webhook, also to per-order URLs (spec §5.2, §5.5). It must avoid the
	// characters listed in spec §5.2. Empty: no Authorization header.
	Username string
	// Password is the password of those Basic credentials (spec §5.2). It
	// is never printed: Format shows "[redacted]".
	Password string
	// Headers are the custom headers added to every webhook (spec §5.4); a
	// name may not be Authorization.
	Headers map[string]string
	// Events are the enabled event names (spec §6.1.3). Nil enables
	// DefaultEvents; an empty, non-nil slice enables none.
	Events []string
	// RetryInterval is the wait between attempts after a non-200 reply or a
	// failed send (spec §6.1.4). Zero means DefaultRetryInterval.
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
	// the receiver's duplicate handling (spec §6.1.5).
	Duplicates int
}

// Gateway is one gateway configuration of the gateway control console
// (spec §2.9).
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

// Server is a running fake of the service, made by NewServer, New or
// Start. Its methods are safe for concurrent use. A nil or zero Server
// serves nothing: its methods return ErrNotStarted (or nothing) and Close
// does nothing.
type Server struct {
	// URL is the base URL of the fake, "http://127.0.0.1:port", with no
	// trailing slash. Pass it to checkout.WithBaseURL.
	URL string

	merchantID string
	apiKey     string
	now        func() time.Time
	ts         *httptest.Server

	// ctx is cancelled by Close: it stops webhook deliveries and injected delays.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	slots  chan struct{} // one per webhook request in flight
	hc     *http.Client
	tr     *http.Transport

	mu         sync.Mutex
	closed     bool
	webhook    WebhookConfig
	events     map[string]bool
	gateways   []Gateway
	orders     map[string]*order
	requests   []Request
	faults     []*faultState
	deliveries []*delivery
	sent       map[string]*sentEvent
	pending    int
	idle       chan struct{}
}

// NewServer starts a fake on a loopback address and returns it running, like
// httptest.NewServer; call Close when done (t.Cleanup(s.Close)).
//
// Like httptest.NewServer, it panics when it cannot start: when cfg is
// invalid (the panic value is an error naming each bad field) or no
// loopback port can be had. It is meant for tests and demos, where a bad
// configuration is a programming error; use New to get the error instead,
// or Start to fail a test with it.
func NewServer(cfg Config) *Server {
	s, err := New(cfg)
	if err != nil {
		panic(fmt.Errorf("checkouttest: %w", err))
	}
	return s
}

// New checks cfg and starts a fake on a loopback address. Call Close
// when done (t.Cleanup(s.Close)).
func New(cfg Config) (*Server, error) {
	if err := checkConfig(&cfg); err != nil {
		return nil, err
	}
	wh := cfg.Webhook
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
	events := make(map[string]bool, len(names))
	for _, n := range names {
		events[n] = true
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     30 * time.Second,
	}
	s := &Server{
		merchantID: cfg.MerchantID,
		apiKey:     cfg.APIKey,
		now:        now,
		ctx:        ctx,
		cancel:     cancel,
		tr:         tr,
		slots:      make(chan struct{}, wh.MaxConcurrent),
		hc:         &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		webhook:    wh,
		events:     events,
		gateways:   append([]Gateway(nil), cfg.Gateways...),
		orders:     make(map[string]*order),
		sent:       make(map[string]*sentEvent),
	}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.ts.URL
	return s, nil
}

// Close stops webhook deliveries and injected delays, waits for the
// delivery goroutines to end (no webhook is sent after Close returns) and
// shuts the listener down. Later calls, and calls on a nil or zero Server,
// do nothing.
func (s *Server) Close() {
	if !s.started() {
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.tr.CloseIdleConnections()
	s.ts.Close()
}

// AddGateway adds a gateway configuration at run time, as the gateway
// console would (spec §2.9): ErrDuplicateReference when the same gateway
// already has that reference id.
func (s *Server) AddGateway(g Gateway) error {
	if !s.started() {
		return ErrNotStarted
	}
	var c valid.Collector
	checkGateway(&c, "Gateway", g)
	if err := c.Err(); err != nil {
		return fmt.Errorf("checkouttest: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.gateways {
		if have.Name == g.Name && have.ReferenceID == g.ReferenceID {
			return fmt.Errorf("%w: %s %q", ErrDuplicateReference, g.Name, g.ReferenceID)
		}
	}
	s.gateways = append(s.gateways, g)
	return nil
}

// SetWebhookCredentials changes the Basic credentials of the following
// webhook attempts, as editing them in the dashboard would; deliveries that
// are being re-sent pick them up at their next attempt.
func (s *Server) SetWebhookCredentials(username, password string) error {
	if !s.started() {
		return ErrNotStarted
	}
	var c valid.Collector
	checkUsername(&c, "Username", username)
	if err := c.Err(); err != nil {
		return fmt.Errorf("checkouttest: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.webhook.Username, s.webhook.Password = username, password
	return nil
}

// started reports whether s was made by New: a nil or zero Server has no
// listener and no state, and its methods do nothing or return
// ErrNotStarted instead of panicking.
func (s *Server) started() bool { return s != nil && s.ctx != nil }

func checkConfig(cfg *Config) error {
	var c valid.Collector
	if cfg.MerchantID == "" {
		c.Add("MerchantID", "is required")
	}
	if cfg.APIKey == "" {
		c.Add("APIKey", "is required")
	}
	wh := cfg.Webhook
	if wh.URL != "" {
		if err := checkWebhookURL(wh.URL); err != nil {
			c.Add("Webhook.URL", err.Error())
		}
	}
	checkUsername(&c, "Webhook.Username", wh.Username)
	if wh.Username == "" && wh.Password != "" {
		c.Add("Webhook.Username", "is required when Password is set")
	}
	for _, name := range sortedKeys(wh.Headers) {
		p := "Webhook.Headers[" + name + "]"
		switch {
		case strings.EqualFold(name, "Authorization"):
			c.Add(p, "a custom header may not be named Authorization (spec §5.4)")
		case !isToken(name):
			c.Add(p, "is not a valid header name")
		case strings.ContainsAny(wh.Headers[name], "\r\n"):
			c.Add(p, "value may not contain a line break")
		}
	}
	for i, e := range wh.Events {
		if e == "" || strings.Trim(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
			c.Add(valid.Index("Webhook.Events", i), fmt.Sprintf("%q is not an event name (upper case, like ORDER_SUCCEEDED)", e))
		}
	}
	if wh.RetryInterval < 0 {
		c.Add("Webhook.RetryInterval", "may not be negative")
	}
	if wh.MaxAttempts < 0 {
		c.Add("Webhook.MaxAttempts", "may not be negative")
	}
	if wh.Timeout < 0 {
		c.Add("Webhook.Timeout", "may not be negative")
	}
	if wh.MaxConcurrent < 0 {
		c.Add("Webhook.MaxConcurrent", "may not be negative")
	}
	if wh.Duplicates < 0 {
		c.Add("Webhook.Duplicates", "may not be negative")
	}
	for i, g := range cfg.Gateways {
		checkGateway(&c, valid.Index("Gateways", i), g)
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("checkouttest: config: %w", err)
	}
	for i, g := range cfg.Gateways {
		for j := range i {
			if h := cfg.Gateways[j]; h.Name == g.Name && h.ReferenceID == g.ReferenceID {
				return fmt.Errorf("checkouttest: config: Gateways[%d]: %w: %s %q (also Gateways[%d])", i, ErrDuplicateReference, g.Name, g.ReferenceID, j)
			}
		}
	}
	return nil
}

func checkGateway(c *valid.Collector, path string, g Gateway) {
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

// usernameForbidden are the characters spec §5.2 forbids in a webhook
// username, plus the colon that would break Basic authentication.
const usernameForbidden = "@!#$%&'*+-/=?^_.{|}~`:"

func checkUsername(c *valid.Collector, path, u string) {
	if i := strings.IndexAny(u, usernameForbidden); i >= 0 {
		c.Add(path, fmt.Sprintf("may not contain %q (spec §5.2)", u[i]))
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// drain reads and discards what is left of a response body, bounded, so the
// connection can be reused.
func drain(r io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, 1<<20))
	_ = r.Close()
}

// TB is the part of testing.TB that Start uses.
type TB interface {
	// Helper marks Start as a helper, as testing.TB.Helper does.
	Helper()
	// Fatalf fails the test with an invalid Config's error.
	Fatalf(format string, args ...any)
	// Cleanup registers the server's Close for the end of the test.
	Cleanup(func())
}

// Start is NewServer for tests: it fails the test when cfg is invalid and
// closes the server when the test ends.
//
//	s := checkouttest.Start(t, checkouttest.Config{MerchantID: "shop", APIKey: "key"})
func Start(tb TB, cfg Config) *Server {
	tb.Helper()
	s, err := New(cfg)
	if err != nil {
		tb.Fatalf("%v", err)
		return nil
	}
	tb.Cleanup(s.Close)
	return s
}

// Format prints c without its secrets: the API key and the webhook password
// show as "[redacted]" under every verb.
func (c Config) Format(f fmt.State, _ rune) {
	key := ""
	if c.APIKey != "" {
		key = "[redacted]"
	}
	fmt.Fprintf(f, "checkouttest.Config{MerchantID: %q, APIKey: %s, Webhook: %v, Gateways: %v}", c.MerchantID, key, c.Webhook, c.Gateways)
}

// Format prints w without the password and the custom header values.
func (w WebhookConfig) Format(f fmt.State, _ rune) {
	pass := ""
	if w.Password != "" {
		pass = "[redacted]"
	}
	fmt.Fprintf(f, "checkouttest.WebhookConfig{URL: %q, Username: %q, Password: %s, Headers: %v, Events: %v, RetryInterval: %s, MaxAttempts: %d, Duplicates: %d}",
		w.URL, w.Username, pass, sortedKeys(w.Headers), w.Events, w.RetryInterval, w.MaxAttempts, w.Duplicates)
}

// Format prints the server as its URL; it holds secrets and shows none.
func (s *Server) Format(f fmt.State, _ rune) {
	if s == nil {
		fmt.Fprint(f, "checkouttest.Server(<nil>)")
		return
	}
	fmt.Fprintf(f, "checkouttest.Server(%s)", s.URL)
}
