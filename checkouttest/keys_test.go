package checkouttest_test

import (
	"context"
	"crypto/rsa"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/webhook"
)

// With the merchant key reachable only as crypto.Signer and
// crypto.Decrypter, the JWE+JWS calls work against the fake, and a JWE
// webhook to that key opens.
func TestMerchantKeyHandle(t *testing.T) {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	h := fake.MerchantKeyHandle()
	_, raw := h.(*rsa.PrivateKey)
	require.False(t, raw, "the private key is not reachable")
	k := fake.JWE()
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL),
		checkout.WithJWEKeys(k.KeyID, h, h, k.ServiceKey))
	require.NoError(t, err)
	ctx := context.Background()
	_, err = c.CreateSession(ctx, &checkout.SessionRequest{OrderID: "ord_hsm", Amount: "25.00", CustomerID: "c1",
		CustomerPhone: "9876543210", CustomerEmail: "a@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage})
	require.NoError(t, err)
	st, err := c.GetOrder(ctx, "ord_hsm")
	require.NoError(t, err)
	require.Equal(t, "NEW", string(st.Status))
	require.NoError(t, fake.Pay("ord_hsm"))
	st, err = c.Refund(ctx, "ord_hsm", &checkout.RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.NoError(t, err)
	require.Len(t, st.Refunds, 1)
	for _, r := range fake.Requests() {
		require.Contains(t, r.Path, "/v4/")
	}

	tok, err := webhook.Seal([]byte(`{"id":"evt_1","event_name":"ORDER_SUCCEEDED"}`),
		webhook.SealOptions{Recipient: &k.MerchantKey.PublicKey, RecipientKeyID: k.KeyID})
	require.NoError(t, err)
	d, err := webhook.NewJWEDecrypter(webhook.JWEConfig{Decrypter: h, KeyID: k.KeyID})
	require.NoError(t, err)
	plain, err := d.Decrypt(tok)
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"evt_1","event_name":"ORDER_SUCCEEDED"}`, string(plain))
	require.NotContains(t, d.String(), k.MerchantKey.D.String()[:20])
}
