package otelcheckout_test

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/otelcheckout"
)

// The Client's real calls, against the fake, through the observer.

func TestCreateSessionRetriedIsOneOperationWithTwoAttempts(t *testing.T) {
	tp, exp, mp, reader := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	fake, c := fakeClient(t, false, checkout.WithObserver(obs))
	require.NoError(t, fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/session", Status: 503, RetryAfter: "0"}))

	ctx, parent := tp.Tracer("test").Start(context.Background(), "checkout page")
	_, err = c.CreateSession(ctx, &checkout.SessionRequest{OrderID: "ord_1", Amount: "10.00",
		CustomerID: "cust_1", CustomerPhone: "9876543210", CustomerEmail: "c@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage, ReturnURL: "https://shop.example/return"})
	require.NoError(t, err)
	parent.End()

	ops := spansNamed(exp, "checkout.CreateSession")
	require.Len(t, ops, 1)
	require.Equal(t, parent.SpanContext().SpanID(), ops[0].Parent.SpanID())
	tries := spansNamed(exp, "POST /session")
	require.Len(t, tries, 2)
	require.Equal(t, int64(503), attrs(tries[0].Attributes)["http.response.status_code"].AsInt64())
	require.Equal(t, int64(1), attrs(tries[1].Attributes)["http.request.resend_count"].AsInt64())
	for _, s := range tries {
		require.Equal(t, ops[0].SpanContext.SpanID(), s.Parent.SpanID())
		require.Equal(t, "/session", attrs(s.Attributes)["url.template"].AsString())
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	require.Len(t, findHistogram(t, rm, "http.client.request.duration").DataPoints, 2)
}

func TestGetOrderRouteHasNoOrderID(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	fake, c := fakeClient(t, false, checkout.WithObserver(obs))
	ctx := context.Background()
	_, err = c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_1", Amount: "10.00"})
	require.NoError(t, err)
	require.NoError(t, fake.Pay("ord_1"))
	st, err := c.GetOrder(ctx, "ord_1")
	require.NoError(t, err)
	require.Equal(t, checkout.StatusCharged, st.Status)

	get := spansNamed(exp, "GET /orders/{order_id}")
	require.Len(t, get, 1)
	require.Equal(t, "/orders/{order_id}", attrs(get[0].Attributes)["url.template"].AsString())
	op := spansNamed(exp, "checkout.GetOrder")
	require.Len(t, op, 1)
	require.Equal(t, "CHARGED", attrs(op[0].Attributes)["checkout.order_status"].AsString())
	requireNowhere(t, exp, "ord_1", "test_key")
}

func TestJWECallHoldsNoKeyMaterial(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp, otelcheckout.WithOrderID())
	require.NoError(t, err)
	fake, c := fakeClient(t, true, checkout.WithObserver(obs))
	keys := fake.JWE()
	_, err = c.CreateSession(context.Background(), &checkout.SessionRequest{OrderID: "ord_2", Amount: "10.00",
		CustomerID: "cust_1", CustomerPhone: "9876543210", CustomerEmail: "c@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage, ReturnURL: "https://shop.example/return"})
	require.NoError(t, err)

	op := spansNamed(exp, "checkout.CreateSession")
	require.Len(t, op, 1)
	a := attrs(op[0].Attributes)
	require.True(t, a["checkout.jwe"].AsBool())
	require.Equal(t, "ord_2", a["checkout.order_id"].AsString(), "opted in")
	require.Len(t, spansNamed(exp, "POST /v4/session"), 1)
	requireNowhere(t, exp, "test_key", keyText(&keys.MerchantKey.PublicKey), keys.MerchantKey.D.Text(16)[:32])
}

// fakeClient starts the fake and a client of it with opts, and the fake's
// JWE keys when jwe is set.
func fakeClient(t *testing.T, jwe bool, opts ...checkout.Option) (*checkouttest.Server, *checkout.Client) {
	t.Helper()
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	t.Cleanup(fake.Close)
	if jwe {
		k := fake.JWE()
		opts = append(opts, checkout.WithJWE(k.KeyID, k.MerchantKey, k.ServiceKey))
	}
	c, err := checkout.NewClient("shop", "test_key", append(opts, checkout.WithBaseURL(fake.URL))...)
	require.NoError(t, err)
	return fake, c
}

// keyText is the start of a key's modulus in hex, as it would show if a
// key were rendered into an attribute.
func keyText(k *rsa.PublicKey) string { return k.N.Text(16)[:32] }

func spansNamed(exp *tracetest.InMemoryExporter, name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// requireNowhere checks that no span name, attribute or status holds any
// of the secrets.
func requireNowhere(t *testing.T, exp *tracetest.InMemoryExporter, secrets ...string) {
	t.Helper()
	for _, s := range exp.GetSpans() {
		b, err := json.Marshal(struct {
			Name   string
			Attrs  any
			Status any
			Events any
		}{s.Name, s.Attributes, s.Status, s.Events})
		require.NoError(t, err)
		for _, secret := range secrets {
			require.False(t, strings.Contains(string(b), secret), "span %s holds %q", s.Name, secret)
		}
	}
}
