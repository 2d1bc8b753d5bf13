package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/httpfield"
	"github.com/payorch/checkout-go/validation"
)

const fakeHelp = `Usage: checkout fake [flags]

Runs the SDK's fake of the payment service (package checkouttest) as a
standalone HTTP server until Ctrl-C or SIGTERM, then shuts down gracefully:
requests being served finish, webhook deliveries stop.

Point any client at it: the base URL is printed when it starts (a loopback
one when it listens on every interface, with a warning). It serves only
requests whose Host is a loopback name, an address it listens on, or a name
given with --host (how other machines reach it: --host fake.test,10.0.0.7),
so that a web page on a DNS name rebound to it reaches nothing. Requests need
"Authorization: Basic base64(<api key>:)" and "x-merchantid"; every reply
carries "X-Checkout-Fake: 1". Orders are
paid, failed or refunded with "checkout trigger" (or the fake-only endpoints
under /__checkouttest/), and the webhook goes to the order's
metadata.webhook_url, else to --webhook-url, with the Basic credentials
--webhook-user/--webhook-password. Webhook URLs must be https, or http on a
loopback address.

The payment_links (web, mobile, iframe) of every session and order open the
fake's payment page: the options the session's payment_filter and sdk_udf
leave visible (see "checkout filter --preview"), the product summary, and a
form to pay with success, failure or pending. The order moves, the webhook
is sent, and the browser is redirected to return_url, signed with
--response-key (the result is shown on the page without one).

The fake also serves the JWE+JWS mode (/v4/session, /v4/order-status,
/v4/orders/{order_id}/refunds) with a key pair of its own, made at start.
--jwe-keys-dir DIR writes what a client of that mode needs into DIR:
merchant_private.pem (the merchant's private key, PKCS#8), service_public.pem
(the service's public key, PKIX) and key_id (the key id); the key id is
printed too.

Flags:
`

func fakeCommand() command {
	return command{name: "fake", help: fakeHelp, setup: func(fs *flag.FlagSet, env func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		ef := newEnvFlags(fs, env)
		addr := ef.String("addr", "CHECKOUT_FAKE_ADDR", "127.0.0.1:8080", "`host:port` to listen on")
		merchantID := ef.String("merchant-id", checkout.EnvMerchantID, "", "merchant id every request must carry in x-merchantid (required)")
		apiKey := ef.String("api-key", "CHECKOUT_FAKE_API_KEY", "", "API key of the Basic Authorization header (required; not CHECKOUT_API_KEY, the production clients' variable)")
		hookURL := ef.String("webhook-url", "CHECKOUT_WEBHOOK_URL", "", "`URL` receiving the webhooks of orders without their own metadata.webhook_url")
		hookUser := ef.String("webhook-user", "CHECKOUT_WEBHOOK_USER", "", "username of the Basic credentials sent with webhooks")
		hookPass := ef.String("webhook-password", "CHECKOUT_WEBHOOK_PASSWORD", "", "password of the Basic credentials sent with webhooks")
		hookHeaders := ef.String("webhook-headers", "CHECKOUT_WEBHOOK_HEADERS", "", "custom webhook headers, `Name=value,Other=value`")
		responseKey := ef.String("response-key", "CHECKOUT_RESPONSE_KEY", "", "response key signing the redirects to return_url (checkout.VerifyReturn)")
		hosts := ef.String("host", "CHECKOUT_FAKE_HOSTS", "", "other Host `names` to serve, comma-separated (loopback names and the addresses it listens on are served)")
		jweDir := ef.String("jwe-keys-dir", "CHECKOUT_FAKE_JWE_KEYS_DIR", "", "`directory` to write the JWE+JWS mode's keys and key id into (made if missing)")
		orderExpiry := ef.String("order-expiry", "CHECKOUT_FAKE_ORDER_EXPIRY", "", "how long an order takes payments, its order_expiry after creation (a `duration` like 15m; default "+checkouttest.DefaultOrderExpiry.String()+")")
		return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			if err := ef.apply(); err != nil {
				return usageError(fs, stderr, "%v", err)
			}
			if len(args) > 0 {
				return usageError(fs, stderr, "unexpected argument %q", args[0])
			}
			headers, err := parseHeaders(*hookHeaders)
			if err != nil {
				return usageError(fs, stderr, "%s: %v", ef.source("webhook-headers"), err)
			}
			var life time.Duration
			if *orderExpiry != "" {
				if life, err = time.ParseDuration(*orderExpiry); err != nil || life <= 0 {
					return usageError(fs, stderr, "%s %.32q is not a positive duration, like 15m or 90s", ef.source("order-expiry"), *orderExpiry)
				}
			}
			cfg := checkouttest.Config{
				MerchantID: *merchantID, APIKey: *apiKey, ResponseKey: *responseKey, Hosts: list(*hosts), OrderExpiry: life,
				Webhook: checkouttest.WebhookConfig{URL: *hookURL, Username: *hookUser, Password: *hookPass, Headers: headers},
			}
			if err := cfg.Validate(); err != nil {
				return usageError(fs, stderr, "%s", configProblems(err, ef.source))
			}
			if _, port, err := net.SplitHostPort(*addr); err != nil || !isPort(port) {
				return usageError(fs, stderr, "%s %.64q is not host:port, like 127.0.0.1:8080", ef.source("addr"), *addr)
			}
			l, err := net.Listen("tcp", *addr)
			if err != nil {
				fmt.Fprintf(stderr, "checkout fake: %v\n", err)
				return exitFail
			}
			if ta, ok := l.Addr().(*net.TCPAddr); !ok || !ta.IP.IsLoopback() {
				fmt.Fprintf(stderr, "checkout fake: warning: listening on %s, beyond loopback: whoever reaches it can pay orders on its pages; "+
					"Host names served: loopback ones, the addresses it listens on and --host\n", l.Addr())
			}
			// No connection is taken before the key files (with
			// --jwe-keys-dir) are written and the startup lines printed: a
			// script that waits for the port finds both.
			gate := &gatedListener{Listener: l, open: make(chan struct{})}
			cfg.Listener = gate
			fake := checkouttest.NewServer(cfg)
			var kid string
			if *jweDir != "" {
				if kid, err = writeJWEKeys(*jweDir, fake.JWE()); err != nil {
					fake.Close()
					fmt.Fprintf(stderr, "checkout fake: --jwe-keys-dir: %v\n", err)
					return exitFail
				}
			}
			fmt.Fprintf(stdout, "checkout fake: serving merchant %s at %s\n", cfg.MerchantID, fake.URL)
			fmt.Fprintf(stdout, "  base URL:  %s (%s)\n", fake.URL, checkout.EnvBaseURL)
			if cfg.Webhook.URL != "" {
				fmt.Fprintf(stdout, "  webhooks:  %s\n", checkouttest.RedactURL(cfg.Webhook.URL))
			} else {
				fmt.Fprintf(stdout, "  webhooks:  to each order's metadata.webhook_url only (no --webhook-url)\n")
			}
			if kid != "" {
				fmt.Fprintf(stdout, "  JWE+JWS:   key id %s, keys in %s (%s, %s)\n", kid, *jweDir, merchantKeyFile, serviceKeyFile)
			}
			fmt.Fprintf(stdout, "  pay page:  payment_links.web of each session and order (%s/orders/{id}/payment-page)\n", fake.URL)
			fmt.Fprintf(stdout, "  control:   checkout trigger pay|fail|refund --order ID --fake %s\n", fake.URL)
			fmt.Fprintf(stdout, "  stop with Ctrl-C\n")
			gate.Open()
			<-ctx.Done()
			fmt.Fprintf(stdout, "checkout fake: shutting down\n")
			fake.Close()
			return exitOK
		}
	}}
}

// isPort reports whether s is a port number, 0 to 65535.
func isPort(s string) bool {
	n, err := strconv.ParseUint(s, 10, 16)
	return err == nil && strconv.FormatUint(n, 10) == s
}

// gatedListener takes no connection until Open (or Close) is called.
type gatedListener struct {
	net.Listener
	open chan struct{}
	once sync.Once
}

// Open lets connections in.
func (g *gatedListener) Open() { g.once.Do(func() { close(g.open) }) }

// Accept waits for Open, then accepts as the listener does.
func (g *gatedListener) Accept() (net.Conn, error) {
	<-g.open
	return g.Listener.Accept()
}

// Close opens the gate, so that a waiting Accept returns, and closes the
// listener.
func (g *gatedListener) Close() error {
	g.Open()
	return g.Listener.Close()
}

// The files --jwe-keys-dir writes.
const (
	merchantKeyFile = "merchant_private.pem"
	serviceKeyFile  = "service_public.pem"
	keyIDFile       = "key_id"
)

// writeJWEKeys writes the fake's JWE+JWS keys into dir, the private key
// readable by the owner only, and returns the key id.
func writeJWEKeys(dir string, k checkouttest.JWEKeys) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{merchantKeyFile, k.MerchantKeyPEM, 0o600},
		{serviceKeyFile, k.ServiceKeyPEM, 0o644},
		{keyIDFile, []byte(k.KeyID + "\n"), 0o644},
	} {
		path := filepath.Join(dir, f.name)
		// A file that exists keeps its mode through WriteFile: set it first,
		// so the private key is never readable by others.
		if err := os.Chmod(path, f.mode); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if err := os.WriteFile(path, f.data, f.mode); err != nil {
			return "", err
		}
	}
	return k.KeyID, nil
}

// parseHeaders reads "Name=value,Other=value". A malformed item is named
// by its position, and by its header name when it is "Name:value", never
// quoted: it holds a secret value, or is the tail of one that held a comma.
func parseHeaders(s string) (map[string]string, error) {
	items := list(s)
	if len(items) == 0 {
		return nil, nil
	}
	h := make(map[string]string, len(items))
	for i, it := range items {
		name, value, ok := strings.Cut(it, "=")
		if !ok || strings.TrimSpace(name) == "" {
			which := "item " + strconv.Itoa(i+1)
			if name, _, ok := strings.Cut(it, ":"); ok && httpfield.ValidName(strings.TrimSpace(name)) {
				which += " (" + strings.TrimSpace(name) + ")"
			}
			return nil, errors.New(which + " is not Name=value")
		}
		h[strings.TrimSpace(name)] = value
	}
	return h, nil
}

// configProblems words the problems of a checkouttest.Config with the
// flags behind its fields, or the environment variables when the values
// came from there (source says which), so the message names what the user
// wrote.
func configProblems(err error, source func(flag string) string) string {
	var ve *validation.Error
	if !errors.As(err, &ve) {
		return err.Error()
	}
	flags := strings.NewReplacer(
		"MerchantID", source("merchant-id"), "APIKey", source("api-key"),
		"Webhook.URL", source("webhook-url"), "Webhook.Username", source("webhook-user"),
		"Webhook.Password", source("webhook-password"), "Webhook.Headers", source("webhook-headers"),
		"Hosts", source("host"),
	)
	var b strings.Builder
	for i, p := range ve.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(flags.Replace(p.Path) + " " + p.Message)
	}
	return b.String()
}
