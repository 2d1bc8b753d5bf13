package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/webhook"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromEnv(t *testing.T) {
	cfg, err := configFromEnv(env(map[string]string{
		"WEBHOOK_USERNAME": "shop", "WEBHOOK_PASSWORD": "pw", "WEBHOOK_ENV": "sandbox",
		"WEBHOOK_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1", "WEBHOOK_HEADERS": "X-Shop=abc, X-Env = prod",
	}))
	require.NoError(t, err)
	require.Equal(t, webhook.SandboxSources, cfg.Sources)
	require.Len(t, cfg.TrustedProxies, 2)
	require.Equal(t, "192.0.2.1/32", cfg.TrustedProxies[1].String())
	require.Equal(t, map[string]string{"X-Shop": "abc", "X-Env": "prod"}, cfg.Headers)

	cfg, err = configFromEnv(env(map[string]string{"WEBHOOK_USERNAME": "shop", "WEBHOOK_PASSWORD": "pw"}))
	require.NoError(t, err)
	require.Equal(t, webhook.ProductionSources, cfg.Sources)

	for name, m := range map[string]map[string]string{
		"bad env":         {"WEBHOOK_ENV": "staging"},
		"bad proxy":       {"WEBHOOK_TRUSTED_PROXIES": "nope"},
		"bad header":      {"WEBHOOK_HEADERS": "X-Token:supersecret"},
		"missing key":     {"WEBHOOK_JWE_KEY_FILE": "/nonexistent/key.pem"},
		"jws without jwe": {"WEBHOOK_JWS_KEY_FILE": "/x.pem"},
	} {
		_, err := configFromEnv(env(m))
		require.Error(t, err, name)
		require.NotContains(t, err.Error(), "supersecret")
	}

	// Without credentials the server refuses to start (fail closed).
	cfg, err = configFromEnv(env(nil))
	require.NoError(t, err)
	_, _, err = newMux(cfg, slog.New(slog.DiscardHandler))
	require.Error(t, err)
}

func TestServerEndToEnd(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	keyFile := filepath.Join(t.TempDir(), "merchant.pem")
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600))

	cfg, err := configFromEnv(env(map[string]string{
		"WEBHOOK_USERNAME": "shop", "WEBHOOK_PASSWORD": "pw", "WEBHOOK_HEADERS": "X-Shop=hdr-secret-9", "WEBHOOK_JWE_KEY_FILE": keyFile,
	}))
	require.NoError(t, err)
	var logs bytes.Buffer
	mux, _, err := newMux(cfg, slog.New(slog.NewJSONHandler(&logs, nil)))
	require.NoError(t, err)

	body := []byte(`{"id":"evt_1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_1","status":"CHARGED"}}}`)
	token, err := webhook.Seal([]byte(strings.Replace(string(body), "evt_1", "evt_2", 1)), webhook.SealOptions{Recipient: &key.PublicKey})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, webhook.NewTestRequest(cfg, []byte(`{"JWT":"`+token+`"}`)))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, 1, strings.Count(logs.String(), "order paid"))

	// With a JWE key, plain JSON is refused (500: re-sent) unless
	// WEBHOOK_ACCEPT_PLAIN=1 says the switch-over is under way.
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, webhook.NewTestRequest(cfg, body))
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	cfg, err = configFromEnv(env(map[string]string{
		"WEBHOOK_USERNAME": "shop", "WEBHOOK_PASSWORD": "pw", "WEBHOOK_HEADERS": "X-Shop=hdr-secret-9", "WEBHOOK_JWE_KEY_FILE": keyFile,
		"WEBHOOK_ACCEPT_PLAIN": "1",
	}))
	require.NoError(t, err)
	mux, _, err = newMux(cfg, slog.New(slog.NewJSONHandler(&logs, nil)))
	require.NoError(t, err)
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, webhook.NewTestRequest(cfg, body))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, logs.String(), `"msg":"order paid","order_id":"ord_1"`)
	require.Equal(t, 2, strings.Count(logs.String(), "order paid"))

	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	require.Equal(t, "ok\n", rec.Body.String())

	r := webhook.NewTestRequest(cfg, body)
	r.Header.Del("X-Shop")
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, r)
	require.Equal(t, http.StatusUnauthorized, rec.Code)
	require.NotContains(t, logs.String(), "hdr-secret-9")
}

// blockingServer serves a webhook endpoint on a loopback listener whose
// function signals started and waits for release.
func blockingServer(t *testing.T) (cfg webhook.Config, ln net.Listener, h http.Handler, started, release chan struct{}, calls *atomic.Int32) {
	t.Helper()
	cfg = webhook.Config{Username: "shop", Password: "pw", Sources: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	v, err := webhook.NewVerifier(cfg)
	require.NoError(t, err)
	started, release = make(chan struct{}), make(chan struct{})
	calls = new(atomic.Int32)
	h = v.Handler(func(context.Context, *webhook.Event) error {
		calls.Add(1)
		close(started)
		<-release
		return nil
	})
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	return cfg, ln, h, started, release, calls
}

// post delivers body to addr the way the service does and returns the
// status, or the transport error.
func post(cfg webhook.Config, addr string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/webhooks", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", webhook.BasicAuthorization(cfg.Username, cfg.Password))
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// startServing runs serve in the background; cancel plays the signal.
func startServing(t *testing.T, h http.Handler, ln net.Listener, grace time.Duration) (cancel context.CancelFunc, served <-chan error) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	errc := make(chan error, 1)
	go func() { errc <- serve(ctx, newServer(h, slog.New(slog.DiscardHandler)), ln, grace) }()
	return cancel, errc
}

// TestGracefulShutdown: on the signal the listener closes, and the delivery
// in progress runs to its 200 before serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	cfg, ln, h, started, release, calls := blockingServer(t)
	addr := ln.Addr().String()
	cancel, served := startServing(t, h, ln, 10*time.Second)

	status := make(chan int, 1)
	go func() {
		code, err := post(cfg, addr, []byte(`{"id":"evt_1","event_name":"ORDER_SUCCEEDED"}`))
		if err != nil {
			t.Errorf("in-flight delivery: %v", err)
		}
		status <- code
	}()
	<-started
	cancel() // SIGTERM

	// New connections are refused while the delivery is still running.
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err != nil
	}, 5*time.Second, 5*time.Millisecond, "listener still open after the signal")
	select {
	case err := <-served:
		t.Fatalf("serve returned (%v) before the delivery in progress finished", err)
	default:
	}

	close(release)
	require.Equal(t, http.StatusOK, <-status, "the delivery in progress is answered")
	require.NoError(t, <-served)
	require.Equal(t, int32(1), calls.Load())
}

// TestShutdownGraceExpires: a delivery still running after the grace is cut
// (no 200, so the service re-sends it) and serve reports the timeout.
func TestShutdownGraceExpires(t *testing.T) {
	cfg, ln, h, started, release, _ := blockingServer(t)
	defer close(release)
	cancel, served := startServing(t, h, ln, 50*time.Millisecond)

	result := make(chan error, 1)
	go func() {
		code, err := post(cfg, ln.Addr().String(), []byte(`{"id":"evt_2","event_name":"ORDER_SUCCEEDED"}`))
		if err == nil {
			err = fmt.Errorf("status %d", code)
		}
		result <- err
	}()
	<-started
	cancel()
	err := <-served
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Error(t, <-result, "the cut delivery gets no reply")
}

// TestServeReturnsListenerErrors: a listener that fails is reported, not
// mistaken for a clean stop.
func TestServeReturnsListenerErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ln.Close()
	err = serve(context.Background(), newServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler)), ln, time.Second)
	require.Error(t, err)
	require.NotErrorIs(t, err, http.ErrServerClosed)
}

// TestProcessReadsTypedContent: each event kind is read through its typed
// accessor; content that is missing is logged and acknowledged.
func TestProcessReadsTypedContent(t *testing.T) {
	var logs bytes.Buffer
	fn := process(slog.New(slog.NewJSONHandler(&logs, nil)))
	for _, tc := range []struct{ body, want string }{
		{`{"event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"o1","status":"CHARGED","amount":"10.00","payment_method_type":"UPI"}}}`,
			`"msg":"order paid","order_id":"o1","status":"CHARGED","amount":"10.00","method":"UPI"`},
		{`{"event_name":"ORDER_FAILED","content":{"order":{"order_id":"o2","status":"AUTHORIZATION_FAILED","bank_error_message":"declined"}}}`,
			`"msg":"payment failed","order_id":"o2","status":"AUTHORIZATION_FAILED","bank_error":"declined"`},
		{`{"event_name":"TXN_FAILED","content":{"txn":{"order_id":"o3","txn_id":"m-o3-1","status":"AUTHENTICATION_FAILED","error_message":"no OTP"}}}`,
			`"msg":"payment failed","order_id":"o3","status":"AUTHENTICATION_FAILED","txn_id":"m-o3-1","error":"no OTP"`},
		{`{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"o4","refunds":[{"unique_request_id":"rf_4","status":"SUCCESS","amount":"5.00"}]}}}`,
			`"msg":"refund","order_id":"o4","unique_request_id":"rf_4","status":"SUCCESS","amount":"5.00"`},
		{`{"event_name":"MANDATE_PAUSED","content":{"mandate":{"mandate_id":"m1"}}}`,
			`"msg":"event","name":"MANDATE_PAUSED","kind":"mandate"`},
		{`{"event_name":"ORDER_SUCCEEDED","content":{"txn":{"order_id":"o5"}}}`,
			`"msg":"event content unreadable; confirm the order with GetOrder","name":"ORDER_SUCCEEDED","order_id":"o5","error":"checkout: read webhook content: ORDER_SUCCEEDED event carries no order (its content holds \"txn\")"`},
	} {
		ev, err := webhook.ParseEvent([]byte(tc.body))
		require.NoError(t, err)
		require.NoError(t, fn(context.Background(), ev), "acknowledged")
		require.Contains(t, logs.String(), tc.want)
	}
}
