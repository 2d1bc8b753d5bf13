package e2e_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

const (
	merchantID = "e2e_shop"
	apiKey     = "e2e_key_9b41"
	hookUser   = "e2eshop"
	hookPass   = "e2e webhook password"
)

// fastRetry keeps retry waits tiny so the fault tests stay fast.
var fastRetry = checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 20 * time.Millisecond}

func newFake(t *testing.T, cfg checkouttest.Config) *checkouttest.Server {
	t.Helper()
	cfg.MerchantID, cfg.APIKey = merchantID, apiKey
	s := checkouttest.NewServer(cfg)
	t.Cleanup(s.Close)
	return s
}

func newClient(t *testing.T, s *checkouttest.Server, opts ...checkout.Option) *checkout.Client {
	t.Helper()
	c, err := checkout.NewClient(merchantID, apiKey, append([]checkout.Option{checkout.WithBaseURL(s.URL), checkout.WithRetry(fastRetry)}, opts...)...)
	require.NoError(t, err)
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func waitDeliveries(t *testing.T, s *checkouttest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	require.NoError(t, s.WaitDeliveries(ctx))
}

func session(orderID string, action checkout.Action) *checkout.SessionRequest {
	r := &checkout.SessionRequest{
		OrderID: orderID, Amount: checkout.AmountFromMinor(120050),
		CustomerID: "cust_7", CustomerPhone: "9876543210", CustomerEmail: "ravi@example.com",
		PaymentPageClientID: "e2eshop", Action: action,
	}
	if action == checkout.PaymentManagement {
		r.OrderID, r.Amount = "", ""
	}
	return r
}

func order(orderID string) *checkout.OrderRequest {
	return &checkout.OrderRequest{OrderID: orderID, Amount: checkout.AmountFromMinor(120050), Currency: "INR", CustomerID: "cust_7"}
}
