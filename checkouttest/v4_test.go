package checkouttest_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/jose"
)

// startV4 starts a fake for the JWE+JWS tests; NewServer is the
// constructor every version of the package keeps.
func startV4(t *testing.T) (*checkouttest.Server, checkouttest.JWEKeys) {
	t.Helper()
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey})
	t.Cleanup(s.Close)
	return s, s.JWE()
}

func jweSession(orderID string) *checkout.SessionRequest {
	return &checkout.SessionRequest{
		OrderID: orderID, Amount: "25.00", CustomerID: "cust_1", CustomerPhone: "9876543210",
		CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage,
		Description: "Blue mug <b>&</b> வணக்கம்",
	}
}

// A session, an order status and a refund round-trip through the fake in
// the JWE+JWS mode, and the fake's state is the one the Basic calls see.
func TestV4RoundTrip(t *testing.T) {
	fake, keys := startV4(t)
	ctx := context.Background()
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(fake.URL),
		checkout.WithJWE(keys.KeyID, keys.MerchantKey, keys.ServiceKey))
	require.NoError(t, err)

	sess, err := c.CreateSession(ctx, jweSession("ord/jwe-1"))
	require.NoError(t, err)
	require.Equal(t, "NEW", string(sess.Status))
	require.Equal(t, "ord/jwe-1", sess.OrderID)
	require.True(t, json.Valid(sess.SDKPayload))
	require.True(t, bytes.Contains(sess.Raw, sess.SDKPayload), "sdk_payload is a slice of the reply's bytes")
	var sdk struct {
		RequestID string `json:"requestId"`
		Payload   struct {
			OrderID     string `json:"orderId"`
			Description string `json:"description"`
		} `json:"payload"`
	}
	require.NoError(t, json.Unmarshal(sess.SDKPayload, &sdk))
	require.Equal(t, "ord/jwe-1", sdk.Payload.OrderID)
	require.Equal(t, "Blue mug <b>&</b> வணக்கம்", sdk.Payload.Description)
	require.NotEmpty(t, sdk.RequestID)

	st, err := c.GetOrder(ctx, "ord/jwe-1")
	require.NoError(t, err)
	require.Equal(t, "NEW", string(st.Status))
	require.Equal(t, "25.00", string(st.Amount))

	require.NoError(t, fake.Pay("ord/jwe-1"))
	st, err = c.GetOrder(ctx, "ord/jwe-1")
	require.NoError(t, err)
	require.Equal(t, "CHARGED", string(st.Status))

	st, err = c.Refund(ctx, "ord/jwe-1", &checkout.RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.NoError(t, err)
	require.Len(t, st.Refunds, 1)
	require.Equal(t, "rf-1", st.Refunds[0].UniqueRequestID)
	require.Equal(t, "10.00", string(st.Refunds[0].Amount))

	// The fake's refusals come back as plain JSON errors.
	_, err = c.GetOrder(ctx, "ord-unknown")
	require.ErrorIs(t, err, checkout.ErrNotFound)
	_, err = c.Refund(ctx, "ord/jwe-1", &checkout.RefundRequest{UniqueRequestID: "rf-1", Amount: "1.00"})
	require.ErrorIs(t, err, checkout.ErrInvalidRequest)
	require.ErrorContains(t, err, "already exists")

	// A Basic client of the same account sees the same order.
	basicClient, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(fake.URL))
	require.NoError(t, err)
	st, err = basicClient.GetOrder(ctx, "ord/jwe-1")
	require.NoError(t, err)
	require.Len(t, st.Refunds, 1)

	var paths []string
	for _, r := range fake.Requests() {
		paths = append(paths, r.Method+" "+r.Path)
		if strings.HasPrefix(r.Path, "/v4/") {
			require.Empty(t, r.Header.Values("Authorization"))
			require.NotContains(t, string(r.Body), "ord/jwe-1", "the body is sealed")
			require.NotContains(t, string(r.Body), "rf-1")
		}
	}
	require.Equal(t, []string{
		"POST /v4/session", "POST /v4/order-status", "POST /v4/order-status",
		"POST /v4/orders/ord/jwe-1/refunds", "POST /v4/order-status", "POST /v4/orders/ord/jwe-1/refunds",
		"POST /v4/order-status", // the replay of the refund that exists reads the order (checkout.ConflictError)
		"GET /orders/ord/jwe-1",
	}, paths)
}

// v4Post sends body to the fake's path with the headers of a sealed call
// (edit changes them) and returns the reply; a 2xx reply is opened with
// the merchant's keys.
func v4Post(t *testing.T, fake *checkouttest.Server, keys checkouttest.JWEKeys, method, path string, body []byte, edit func(http.Header)) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, fake.URL+path, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("X-Merchantid", merchantID)
	req.Header.Set("Content-Type", "application/json")
	if edit != nil {
		edit(req.Header)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode/100 == 2 {
		out, err = jose.Open(out, keys.MerchantKey, keys.ServiceKey, keys.KeyID)
		require.NoError(t, err, "a 2xx reply is sealed to the merchant and signed by the service")
	} else {
		require.True(t, json.Valid(out), "error replies are plain JSON: %s", out)
		require.False(t, jose.IsEnvelope(out))
	}
	return resp.StatusCode, out
}

// The fake opens only what the merchant's key signed and the service's
// key can decrypt, under the key id it handed out; inside, the Basic
// calls' checks apply.
func TestV4Refusals(t *testing.T) {
	fake, keys := startV4(t)
	stranger, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	seal := func(payload string) []byte {
		b, err := jose.Seal([]byte(payload), keys.MerchantKey, keys.ServiceKey, keys.KeyID)
		require.NoError(t, err)
		return b
	}
	session := `{"order_id":"ord_v4","amount":"5.00","customer_id":"c","customer_phone":"9876543210",` +
		`"customer_email":"a@example.com","payment_page_client_id":"shop","action":"paymentPage"}`
	status, out := v4Post(t, fake, keys, "POST", "/v4/session", seal(session), nil)
	require.Equal(t, 200, status, "%s", out)
	require.Contains(t, string(out), `"sdk_payload"`)
	require.NoError(t, fake.Pay("ord_v4"))

	mustSeal := func(b []byte, err error) []byte { require.NoError(t, err); return b }
	tests := []struct {
		name, method, path string
		body               []byte
		edit               func(http.Header)
		status             int
		want               string
	}{
		{"signed by a stranger", "POST", "/v4/order-status",
			mustSeal(jose.Seal([]byte(`{"order_id":"ord_v4"}`), stranger, keys.ServiceKey, keys.KeyID)), nil, 401, "signature does not verify"},
		{"encrypted to a stranger", "POST", "/v4/order-status",
			mustSeal(jose.Seal([]byte(`{"order_id":"ord_v4"}`), keys.MerchantKey, &stranger.PublicKey, keys.KeyID)), nil, 401, "does not decrypt"},
		{"another key id", "POST", "/v4/order-status",
			mustSeal(jose.Seal([]byte(`{"order_id":"ord_v4"}`), keys.MerchantKey, keys.ServiceKey, "key_other")), nil, 401, "not the configured key id"},
		{"plain JSON", "POST", "/v4/order-status", []byte(`{"order_id":"ord_v4"}`), nil, 401, "not an encrypted envelope"},
		{"no merchant id", "POST", "/v4/order-status", seal(`{"order_id":"ord_v4"}`), func(h http.Header) { h.Del("X-Merchantid") }, 401, "merchant id"},
		{"wrong Basic header", "POST", "/v4/order-status", seal(`{"order_id":"ord_v4"}`), func(h http.Header) { h.Set("Authorization", "Basic eDo=") }, 401, "API Key"},
		{"GET", "GET", "/v4/order-status", nil, nil, 405, "use POST"},
		{"form content type", "POST", "/v4/order-status", seal(`{"order_id":"ord_v4"}`),
			func(h http.Header) { h.Set("Content-Type", "application/x-www-form-urlencoded") }, 400, "Content-Type"},
		{"unknown call", "POST", "/v4/orders", seal(`{}`), nil, 404, "no such endpoint"},
		{"order status without order_id", "POST", "/v4/order-status", seal(`{}`), nil, 400, "Mandatory fields are missing: order_id"},
		{"order status with a number", "POST", "/v4/order-status", seal(`{"order_id":5}`), nil, 400, "order_id"},
		{"order status of an unknown order", "POST", "/v4/order-status", seal(`{"order_id":"nope"}`), nil, 400, "NOT_FOUND"},
		{"session without customer_id", "POST", "/v4/session", seal(strings.Replace(session, `"customer_id":"c",`, "", 1)), nil, 400, "customer_id"},
		{"refund amount as an object", "POST", "/v4/orders/ord_v4/refunds", seal(`{"unique_request_id":"r9","amount":{}}`), nil, 400, "amount"},
		{"refund without unique_request_id", "POST", "/v4/orders/ord_v4/refunds", seal(`{"amount":"1.00"}`), nil, 400, "unique_request_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := v4Post(t, fake, keys, tt.method, tt.path, tt.body, tt.edit)
			require.Equal(t, tt.status, status, "%s", out)
			require.Contains(t, string(out), tt.want)
		})
	}

	// What passes: a refund whose amount is a JSON number, and a correct
	// Basic header beside the signature (some of the service's SDKs send it).
	status, out = v4Post(t, fake, keys, "POST", "/v4/orders/ord_v4/refunds", seal(`{"unique_request_id":"r1","amount":2.5}`), nil)
	require.Equal(t, 200, status, "%s", out)
	require.Contains(t, string(out), `"unique_request_id":"r1"`)
	status, out = v4Post(t, fake, keys, "POST", "/v4/order-status", seal(`{"order_id":"ord_v4"}`),
		func(h http.Header) { h.Set("Authorization", basic(apiKey+":")) })
	require.Equal(t, 200, status, "%s", out)
	require.Contains(t, string(out), `"status":"CHARGED"`)
}

// The keys are made once per fake, the PEM blocks are the same keys, and
// printing them shows no private key.
func TestJWEKeys(t *testing.T) {
	fake, keys := startV4(t)
	require.True(t, strings.HasPrefix(keys.KeyID, "key_"))
	again := fake.JWE()
	require.Equal(t, keys.KeyID, again.KeyID)
	require.True(t, keys.MerchantKey.Equal(again.MerchantKey))
	require.True(t, keys.ServiceKey.Equal(again.ServiceKey))
	require.False(t, keys.MerchantKey.PublicKey.Equal(keys.ServiceKey), "two key pairs")

	priv, err := checkout.ParseRSAPrivateKeyPEM(keys.MerchantKeyPEM)
	require.NoError(t, err)
	require.True(t, priv.Equal(keys.MerchantKey))
	pub, err := checkout.ParseRSAPublicKeyPEM(keys.ServiceKeyPEM)
	require.NoError(t, err)
	require.True(t, pub.Equal(keys.ServiceKey))
	require.Contains(t, string(keys.MerchantKeyPEM), "-----BEGIN PRIVATE KEY-----")
	require.Contains(t, string(keys.ServiceKeyPEM), "-----BEGIN PUBLIC KEY-----")
	keys.MerchantKeyPEM[40] ^= 1
	require.NotEqual(t, keys.MerchantKeyPEM, fake.JWE().MerchantKeyPEM, "each call returns its own copy")

	other := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey})
	t.Cleanup(other.Close)
	require.NotEqual(t, keys.KeyID, other.JWE().KeyID, "each fake has its own keys")

	secret := keys.MerchantKey.D.String()[:24]
	pemLine := strings.Split(string(again.MerchantKeyPEM), "\n")[2]
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(verb, keys)
		require.NotContains(t, out, secret)
		require.NotContains(t, out, pemLine)
		require.Equal(t, fmt.Sprintf("checkouttest.JWEKeys{KeyID: %q, MerchantKey: RSA-2048 [redacted], ServiceKey: RSA-2048}", keys.KeyID), out)
	}
	var zero *checkouttest.Server
	require.Equal(t, checkouttest.JWEKeys{}, zero.JWE())
}

// Concurrent first use of the keys and concurrent sealed calls (run with
// -race).
func TestV4Concurrent(t *testing.T) {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey})
	t.Cleanup(fake.Close)
	var wg sync.WaitGroup
	kids := make([]string, 4)
	for i := range kids {
		wg.Go(func() { kids[i] = fake.JWE().KeyID })
	}
	wg.Wait()
	for _, k := range kids {
		require.Equal(t, kids[0], k)
	}
	keys := fake.JWE()
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(fake.URL), checkout.WithJWE(keys.KeyID, keys.MerchantKey, keys.ServiceKey))
	require.NoError(t, err)
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			id := fmt.Sprintf("ord_c%d", i)
			if _, err := c.CreateSession(context.Background(), jweSession(id)); err != nil {
				errs[i] = err
				return
			}
			st, err := c.GetOrder(context.Background(), id)
			if err == nil && st.OrderID != id {
				err = fmt.Errorf("got order %q", st.OrderID)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}
