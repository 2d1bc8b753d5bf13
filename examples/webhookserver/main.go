// Command webhookserver is a merchant's webhook receiver built with the
// webhook package: it accepts the service's notifications on POST
// /webhooks, verifies them (source address, Basic credentials, custom
// headers), reads the order, transaction or refund each carries, and
// processes each event once.
//
// Configuration comes from the environment:
//
//	WEBHOOK_USERNAME, WEBHOOK_PASSWORD  the dashboard's webhook credentials (required)
//	WEBHOOK_ENV            production (default) or sandbox: the service's addresses to accept
//	WEBHOOK_ALLOW_ANY_SOURCE=1  skip the source check (tests, or behind your own gateway)
//	WEBHOOK_TRUSTED_PROXIES     comma-separated CIDRs whose X-Forwarded-For is believed
//	WEBHOOK_HEADERS        custom headers set in the dashboard, "Name=value,Other=value"
//	WEBHOOK_JWE_KEY_FILE   PEM private key for encrypted ({"JWT": ...}) webhooks, optional
//	WEBHOOK_JWS_KEY_FILE   PEM public key of the service to verify signed payloads, optional
//	WEBHOOK_ACCEPT_PLAIN=1 with WEBHOOK_JWE_KEY_FILE, still accept plain JSON bodies (switch-over only)
//	ADDR                   listen address, default ":8080"
//
// It stops gracefully on SIGINT or SIGTERM: deliveries in progress finish
// (or, past the deadline, are cut and will be re-sent by the service).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/payorch/checkout-go/webhook"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log); err != nil {
		log.Error("webhookserver stopped", "error", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	cfg, err := configFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	mux, v, err := newMux(cfg, log)
	if err != nil {
		return err
	}

	addr := os.Getenv("ADDR")
	if addr == "" {
		addr = ":8080"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Info("listening", "addr", ln.Addr().String(), "verifier", v)
	err = serve(ctx, newServer(mux, log), ln, shutdownGrace)
	log.Info("stopped")
	return err
}

// shutdownGrace is how long deliveries in progress may run on after the
// signal. Keep it below the orchestrator's kill timeout (Kubernetes: 30 s).
const shutdownGrace = 20 * time.Second

// newServer sets the timeouts a public endpoint needs.
func newServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second, // one event's processing, or a duplicate's wait (webhook.DefaultDuplicateWait) and its own run
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// serve runs srv on ln until ctx ends (the signal), then shuts down
// gracefully: the listener closes at once, idle connections are closed,
// and deliveries in progress run to their reply for at most grace. Past
// grace the remaining connections are cut; the service gets no 200 for
// those deliveries and re-sends them. It returns nil after a
// clean stop.
func serve(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
		<-errc
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newMux serves the webhook endpoint and a health check.
func newMux(cfg webhook.Config, log *slog.Logger) (*http.ServeMux, *webhook.Verifier, error) {
	cfg.Logger = log
	v, err := webhook.NewVerifier(cfg)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks", v.Handler(process(log)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	return mux, v, nil
}

// process is the merchant's business logic: it switches on the event name
// and reads the typed content (the order is the same *checkout.OrderStatus
// that Client.GetOrder returns). Returning an error makes the handler
// answer 500, and the service re-sends the event later.
func process(log *slog.Logger) func(ctx context.Context, ev *webhook.Event) error {
	return func(ctx context.Context, ev *webhook.Event) error {
		switch ev.Name {
		case webhook.OrderSucceeded:
			order, err := ev.Order()
			if err != nil {
				return unreadable(ctx, log, ev, err)
			}
			// A shop compares the amount with its cart before shipping:
			// order.CheckPaid(cart.Total).
			log.InfoContext(ctx, "order paid", "order_id", order.OrderID, "status", string(order.Status),
				"amount", string(order.Amount), "method", order.PaymentMethodType)
		case webhook.OrderFailed:
			order, err := ev.Order()
			if err != nil {
				return unreadable(ctx, log, ev, err)
			}
			log.InfoContext(ctx, "payment failed", "order_id", order.OrderID, "status", string(order.Status),
				"bank_error", order.BankErrorMessage)
		case webhook.TxnFailed:
			txn, err := ev.Transaction()
			if err != nil {
				return unreadable(ctx, log, ev, err)
			}
			log.InfoContext(ctx, "payment failed", "order_id", txn.OrderID, "status", string(txn.Status),
				"txn_id", txn.TxnID, "error", txn.ErrorMessage)
		case webhook.OrderRefunded, webhook.OrderRefundFailed, webhook.AutoRefundSucceeded, webhook.AutoRefundFailed:
			refund, err := ev.Refund()
			if err != nil {
				return unreadable(ctx, log, ev, err)
			}
			log.InfoContext(ctx, "refund", "order_id", ev.OrderID(), "unique_request_id", refund.UniqueRequestID,
				"status", string(refund.Status), "amount", string(refund.Amount))
		default:
			// Unknown events are normal: the service adds events. Acknowledge them.
			log.InfoContext(ctx, "event", "name", ev.Name, "kind", ev.Kind())
		}
		return nil
	}
}

// unreadable logs an event whose content is missing or unreadable and
// acknowledges it: a re-send would bring the same body. Confirm the order
// with Client.GetOrder instead.
func unreadable(ctx context.Context, log *slog.Logger, ev *webhook.Event, err error) error {
	log.ErrorContext(ctx, "event content unreadable; confirm the order with GetOrder",
		"name", ev.Name, "order_id", ev.OrderID(), "error", err)
	return nil
}

// configFromEnv builds a webhook.Config from environment variables.
func configFromEnv(getenv func(string) string) (webhook.Config, error) {
	cfg := webhook.Config{
		Username: getenv("WEBHOOK_USERNAME"),
		Password: getenv("WEBHOOK_PASSWORD"),
	}
	switch env := strings.ToLower(getenv("WEBHOOK_ENV")); {
	case getenv("WEBHOOK_ALLOW_ANY_SOURCE") == "1":
		cfg.AllowAnySource = true
	case env == "" || env == "production":
		cfg.Sources = webhook.ProductionSources
	case env == "sandbox":
		cfg.Sources = webhook.SandboxSources
	default:
		return cfg, fmt.Errorf("WEBHOOK_ENV=%q: want production or sandbox", env)
	}
	for _, s := range splitList(getenv("WEBHOOK_TRUSTED_PROXIES")) {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return cfg, fmt.Errorf("WEBHOOK_TRUSTED_PROXIES: %q is not a CIDR or an address", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		cfg.TrustedProxies = append(cfg.TrustedProxies, p)
	}
	for i, kv := range splitList(getenv("WEBHOOK_HEADERS")) {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			// The entry is not quoted: it may hold a secret value.
			return cfg, fmt.Errorf("WEBHOOK_HEADERS: entry %d is not Name=value", i+1)
		}
		if cfg.Headers == nil {
			cfg.Headers = map[string]string{}
		}
		cfg.Headers[strings.TrimSpace(name)] = strings.TrimSpace(value)
	}
	if getenv("WEBHOOK_JWS_KEY_FILE") != "" && getenv("WEBHOOK_JWE_KEY_FILE") == "" {
		return cfg, errors.New("WEBHOOK_JWS_KEY_FILE is set without WEBHOOK_JWE_KEY_FILE")
	}
	if f := getenv("WEBHOOK_JWE_KEY_FILE"); f != "" {
		priv, err := os.ReadFile(f)
		if err != nil {
			return cfg, fmt.Errorf("WEBHOOK_JWE_KEY_FILE: %w", err)
		}
		var pub []byte
		if pf := getenv("WEBHOOK_JWS_KEY_FILE"); pf != "" {
			if pub, err = os.ReadFile(pf); err != nil {
				return cfg, fmt.Errorf("WEBHOOK_JWS_KEY_FILE: %w", err)
			}
		}
		dec, err := webhook.NewJWEDecrypterFromPEM(priv, pub)
		if err != nil {
			return cfg, err
		}
		cfg.Decrypter = dec
		cfg.AcceptPlain = getenv("WEBHOOK_ACCEPT_PLAIN") == "1"
	}
	return cfg, nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
