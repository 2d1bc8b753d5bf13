package main

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/stretchr/testify/require"
)

// A client not written in Go reads the fake's JWE+JWS keys from files;
// here the SDK's own PEM readers stand in for it, and a session and an
// order status go through the /v4 calls of the standalone fake.
func TestFakeWritesJWEKeys(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	base, _, out, _ := startFake(t, []string{"CHECKOUT_MERCHANT_ID=jwe_shop", "CHECKOUT_FAKE_API_KEY=jwe_key"}, "--jwe-keys-dir", dir)

	kid, err := os.ReadFile(filepath.Join(dir, "key_id"))
	require.NoError(t, err)
	keyID := strings.TrimSpace(string(kid))
	require.True(t, strings.HasPrefix(keyID, "key_"), keyID)
	require.Contains(t, out.String(), "JWE+JWS:   key id "+keyID+", keys in "+dir)
	priv, err := os.ReadFile(filepath.Join(dir, "merchant_private.pem"))
	require.NoError(t, err)
	fi, err := os.Stat(filepath.Join(dir, "merchant_private.pem"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the private key is the owner's alone")
	pub, err := os.ReadFile(filepath.Join(dir, "service_public.pem"))
	require.NoError(t, err)

	merchantKey, err := checkout.ParseRSAPrivateKeyPEM(priv)
	require.NoError(t, err)
	serviceKey, err := checkout.ParseRSAPublicKeyPEM(pub)
	require.NoError(t, err)
	c, err := checkout.NewClient("jwe_shop", "jwe_key", checkout.WithBaseURL(base), checkout.WithJWE(keyID, merchantKey, serviceKey))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := c.CreateSession(ctx, &checkout.SessionRequest{OrderID: "ord_jwe", Amount: "1.0", CustomerID: "c1",
		CustomerPhone: "9876543210", CustomerEmail: "a@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage})
	require.NoError(t, err)
	require.Equal(t, "ord_jwe", sess.OrderID)
	st, err := c.GetOrder(ctx, "ord_jwe")
	require.NoError(t, err)
	require.Equal(t, checkout.Amount("1.00"), st.Amount)

	// A key from elsewhere is refused by the same fake.
	other, err := checkout.NewClient("jwe_shop", "jwe_key", checkout.WithBaseURL(base), checkout.WithJWE("key_other", merchantKey, serviceKey))
	require.NoError(t, err)
	_, err = other.GetOrder(ctx, "ord_jwe")
	require.ErrorIs(t, err, checkout.ErrUnauthorized)

	// A directory that cannot be made: status 1, nothing served.
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	r := cli(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, "fake", "--addr", freeAddr(t), "--jwe-keys-dir", filepath.Join(file, "keys"))
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "--jwe-keys-dir")
}

func TestFakeStopsOnInterruptAndReportsBusyPort(t *testing.T) {
	env := []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}
	_, fake, _, _ := startFake(t, env)
	require.NoError(t, fake.Process.Signal(os.Interrupt))
	require.NoError(t, fake.Wait(), "exit status 0 after Ctrl-C")

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	r := cli(t, env, "fake", "--addr", l.Addr().String())
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "address already in use")
}

// A fake put on every interface says so, and prints a base URL that
// checkout.WithBaseURL takes (http://[::]:port is not one).
func TestFakeOnEveryInterface(t *testing.T) {
	_, port, err := net.SplitHostPort(freeAddr(t))
	require.NoError(t, err)
	base, _, out, errOut := startFake(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, "--addr", "0.0.0.0:"+port)
	require.Regexp(t, `checkout fake: warning: listening on \S+:`+port+`, beyond loopback`, errOut.String())
	require.Contains(t, out.String(), "base URL:  http://127.0.0.1:"+port+" ")
	_, err = checkout.NewClient("m", "k", checkout.WithBaseURL("http://127.0.0.1:"+port))
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:"+port, base)

	_, _, _, quiet := startFake(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"})
	require.NotContains(t, quiet.String(), "warning", "loopback: nothing to warn of")
}

// Beyond loopback the fake keeps its Host check: --host names the names
// other machines use, a rebound name is refused, and a --host that no
// Host header could match is a usage error naming the flag.
func TestFakeHostFlag(t *testing.T) {
	_, port, err := net.SplitHostPort(freeAddr(t))
	require.NoError(t, err)
	env := []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}
	base, _, _, _ := startFake(t, env, "--addr", "0.0.0.0:"+port, "--host", "fake.test, 203.0.113.10")
	status := func(host string) int {
		req, err := http.NewRequest(http.MethodGet, base+"/__checkouttest/health", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	for host, want := range map[string]int{
		"fake.test:" + port: 200, "203.0.113.10:" + port: 200, "localhost:" + port: 200,
		"rebind.evil.example:" + port: 421, "[::ffff:7f00:1]:" + port + ".evil.example": 421, "fake.test:" + port + ".evil": 421,
	} {
		require.Equal(t, want, status(host), host)
	}

	r := cli(t, env, "fake", "--addr", freeAddr(t), "--host", "fake.test:8080")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "--host[0] is not a host name or IP address")
	r = cli(t, append(env, "CHECKOUT_FAKE_HOSTS=ok.test,http://x"), "fake", "--addr", freeAddr(t))
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "CHECKOUT_FAKE_HOSTS[1] is not a host name")
}

// A malformed --webhook-headers item is named by its position (and its
// header name, when it has one), never echoed: its value is a secret, and
// an item without "=" may be the tail of a value holding a comma.
func TestMalformedWebhookHeaderIsNotEchoed(t *testing.T) {
	for item, want := range map[string]string{
		"X-Shop-Key:hdr-secret-1":     `--webhook-headers: item 2 (X-Shop-Key) is not Name=value`,
		"hdr-secret-2":                `--webhook-headers: item 2 is not Name=value`,
		"=hdr-secret-3":               `--webhook-headers: item 2 is not Name=value`,
		"X Shop:hdr-secret-4":         `--webhook-headers: item 2 is not Name=value`,
		" X-Shop-Key : hdr-secret-5 ": `--webhook-headers: item 2 (X-Shop-Key) is not Name=value`,
	} {
		r := cli(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, "fake", "--webhook-headers", "X-Env=prod,"+item)
		require.Equal(t, 2, r.code, r.stderr)
		require.Contains(t, r.stderr, want, item)
		require.NotContains(t, r.stderr, "hdr-secret", item)
	}
}

// --order-expiry sets how long an order takes payments: its order_expiry is
// its creation plus that.
func TestFakeOrderExpiry(t *testing.T) {
	base, _, _, _ := startFake(t, []string{"CHECKOUT_MERCHANT_ID=cli_shop", "CHECKOUT_FAKE_API_KEY=cli_key"}, "--order-expiry", "90s")
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"exp_1"}, "amount": {"10.00"}})
	st := call(t, http.MethodGet, base+"/orders/exp_1", nil)
	created, err := time.Parse(time.RFC3339, st["date_created"].(string))
	require.NoError(t, err)
	expiry, err := time.Parse(time.RFC3339, st["order_expiry"].(string))
	require.NoError(t, err)
	require.Equal(t, 90*time.Second, expiry.Sub(created))
}
