package checkouttest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/payorch/checkout-go/validation"
)

// SDKService is the "service" value of every sdk_payload the fake returns
// (the value the service's published session responses carry).
const SDKService = "in.juspay.hyperpay"

// Errors returned by the helpers.
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
	// that gateway reference id (the service's availability check refuses
	// it).
	ErrDuplicateReference = errors.New("checkouttest: gateway reference id already configured for this gateway")
	// ErrClosed: the server was closed.
	ErrClosed = errors.New("checkouttest: server closed")
	// ErrNotStarted: the method was called on a nil or zero Server, one
	// not made by NewServer.
	ErrNotStarted = errors.New("checkouttest: server not started (use NewServer)")
)

// Server is a running fake of the service, made by NewServer. Its methods
// are safe for concurrent use. A nil or zero Server serves nothing: its
// methods return ErrNotStarted (or nothing) and Close does nothing.
type Server struct {
	// URL is the base URL of the fake, "http://127.0.0.1:port", with no
	// trailing slash: a loopback URL even when Config.Listener listens on
	// every interface. Pass it to checkout.WithBaseURL.
	URL string

	merchantID  string
	apiKey      string
	responseKey string
	now         func() time.Time
	orderLife   time.Duration // Config.OrderExpiry, defaulted
	ts          *httptest.Server
	hosts       hostPolicy // the Host names served (host.go)

	// ctx is cancelled by Close: it stops webhook deliveries and injected delays.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	hc     *http.Client
	tr     *http.Transport

	mu         sync.Mutex
	closed     bool
	webhook    WebhookConfig
	events     map[string]bool
	slots      chan struct{} // one per webhook request in flight; replaced by SetWebhook
	gateways   []Gateway
	orders     map[string]*order
	customers  map[string]*customer // by the service's id
	requests   []Request
	faults     []*faultState
	deliveries []*delivery
	sent       map[string]*sentEvent
	drops      dropState // webhooks lost on purpose (pending.go)
	pending    int
	idle       chan struct{}

	v4 v4State // keys of the JWE+JWS calls (v4.go)
}

// NewServer starts a fake and returns it running, like httptest.NewServer:
// on a free loopback port, or on cfg.Listener. Call Close when done
// (t.Cleanup(s.Close) or defer s.Close()).
//
// Like httptest.NewServer, it panics when it cannot start: when cfg is
// invalid (the panic value is the error of cfg.Validate, naming each bad
// field) or no loopback port can be had. It is meant for tests and demos,
// where a bad configuration is a programming error; a program that takes
// the configuration from its user calls cfg.Validate first.
func NewServer(cfg Config) *Server {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	wh := cfg.Webhook.withDefaults()
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	orderLife := cfg.OrderExpiry
	if orderLife == 0 {
		orderLife = DefaultOrderExpiry
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
		merchantID:  cfg.MerchantID,
		apiKey:      cfg.APIKey,
		responseKey: cfg.ResponseKey,
		now:         now,
		orderLife:   orderLife,
		ctx:         ctx,
		cancel:      cancel,
		tr:          tr,
		hc:          &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		webhook:     wh,
		events:      eventSet(wh.Events),
		slots:       make(chan struct{}, wh.MaxConcurrent),
		gateways:    append([]Gateway(nil), cfg.Gateways...),
		orders:      make(map[string]*order),
		customers:   make(map[string]*customer),
		sent:        make(map[string]*sentEvent),
	}
	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	if cfg.Listener != nil {
		_ = s.ts.Listener.Close()
		s.ts.Listener = cfg.Listener
	}
	s.ts.Start()
	s.URL = baseURL(s.ts.Listener.Addr())
	s.hosts = newHostPolicy(s.ts.Listener.Addr(), cfg.Hosts)
	return s
}

// baseURL is the URL at which a client on this machine reaches addr (a
// loopback one for a listener on every interface).
func baseURL(addr net.Addr) string {
	ta, ok := addr.(*net.TCPAddr)
	switch {
	case !ok:
		return "http://" + addr.String()
	case ta.IP.IsUnspecified(): // Go listens on both families there
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(ta.Port))
	}
	return "http://" + ta.String()
}

func eventSet(names []string) map[string]bool {
	events := make(map[string]bool, len(names))
	for _, n := range names {
		events[n] = true
	}
	return events
}

// Close stops webhook deliveries and injected delays, waits for the
// delivery goroutines to end (no webhook is sent after Close returns) and
// shuts the listener down, waiting for the requests being served. Later
// calls, and calls on a nil or zero Server, do nothing.
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
// console would: ErrDuplicateReference when the same gateway already has
// that reference id, a *checkout.ValidationError naming each bad field,
// ErrNotStarted or ErrClosed when the server does not run.
func (s *Server) AddGateway(g Gateway) error {
	if !s.started() {
		return ErrNotStarted
	}
	var c validation.Error
	checkGateway(&c, "Gateway", g)
	if err := c.Err(); err != nil {
		return err.(*validation.Error).WithOp("add gateway")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for _, have := range s.gateways {
		if have.Name == g.Name && have.ReferenceID == g.ReferenceID {
			return fmt.Errorf("%w: %s %q", ErrDuplicateReference, g.Name, g.ReferenceID)
		}
	}
	s.gateways = append(s.gateways, g)
	return nil
}

// SetWebhook replaces the webhook configuration, as editing it in the
// dashboard would, so that a receiver started after the fake (one that
// needs the fake's URL first) can be registered. Zero fields take the
// defaults, as in Config.Webhook. Events sent from now on go to the new URL
// with the new enabled events; deliveries already being re-sent keep their
// URL and pick up the new credentials and headers at their next attempt.
// An invalid wh changes nothing and the error names each bad field.
func (s *Server) SetWebhook(wh WebhookConfig) error {
	if !s.started() {
		return ErrNotStarted
	}
	var c validation.Error
	checkWebhook(&c, "", wh)
	if err := c.Err(); err != nil {
		return err.(*validation.Error).WithOp("set webhook")
	}
	wh = wh.withDefaults()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if wh.MaxConcurrent != s.webhook.MaxConcurrent {
		s.slots = make(chan struct{}, wh.MaxConcurrent)
	}
	s.webhook = wh
	s.events = eventSet(wh.Events)
	return nil
}

// Webhook returns the webhook configuration in use, with the defaults
// filled in: change a field and pass it to SetWebhook.
func (s *Server) Webhook() WebhookConfig {
	if !s.started() {
		return WebhookConfig{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	wh := s.webhook
	wh.Headers = cloneMap(wh.Headers)
	wh.Events = append([]string{}, wh.Events...)
	return wh
}

// started reports whether s was made by NewServer: a nil or zero Server
// has no listener and no state, and its methods do nothing or return
// ErrNotStarted instead of panicking.
func (s *Server) started() bool { return s != nil && s.ctx != nil }

// drain reads and discards what is left of a response body, bounded, so the
// connection can be reused.
func drain(r io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, 1<<20))
	_ = r.Close()
}

// Format prints the server as its URL; it holds secrets and shows none.
func (s *Server) Format(f fmt.State, _ rune) {
	if s == nil {
		fmt.Fprint(f, "checkouttest.Server(<nil>)")
		return
	}
	fmt.Fprintf(f, "checkouttest.Server(%s)", s.URL)
}
