package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/payorch/checkout-go/webhook"
	"github.com/stretchr/testify/require"
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
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, webhook.NewTestRequest(cfg, body))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, logs.String(), `"msg":"order paid","order_id":"ord_1"`)

	token, err := webhook.Seal([]byte(strings.Replace(string(body), "evt_1", "evt_2", 1)), webhook.SealOptions{Recipient: &key.PublicKey})
	require.NoError(t, err)
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, webhook.NewTestRequest(cfg, []byte(`{"JWT":"`+token+`"}`)))
	require.Equal(t, http.StatusOK, rec.Code)
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
