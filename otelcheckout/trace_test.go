package otelcheckout_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/otelcheckout"
)

// A Do call is named by its route: the conventions' method, the route with
// ids as {id}, never "GET " with an empty template; a method the
// conventions do not know is "_OTHER" (span "HTTP …").
func TestDoSpansNameTheRoute(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	_, c := fakeClient(t, false, checkout.WithObserver(obs))
	ctx := context.Background()
	_, err = c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_7", Amount: "10.00"})
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, c.Do(ctx, "GET", "/orders/ord_7", nil, &st, checkout.WithAPIVersion("2023-06-30")))
	_ = c.Do(ctx, "PROPFIND", "/orders/ord_7", nil, nil)
	require.NoError(t, c.Do(ctx, "GET", "/orders/ord_7", nil, &st, checkout.WithRouteTemplate("/orders/{order_id}"),
		checkout.WithAPIVersion("2023-06-30")))

	get := spansNamed(exp, "GET /orders/{id}")
	require.Len(t, get, 1)
	a := attrs(get[0].Attributes)
	require.Equal(t, "/orders/{id}", a["url.template"].AsString())
	require.Equal(t, "GET", a["http.request.method"].AsString())
	other := spansNamed(exp, "HTTP /orders/{id}")
	require.Len(t, other, 1)
	require.Equal(t, "_OTHER", attrs(other[0].Attributes)["http.request.method"].AsString())
	require.Equal(t, "PROPFIND", attrs(other[0].Attributes)["http.request.method_original"].AsString())
	require.Len(t, spansNamed(exp, "GET /orders/{order_id}"), 1, "a given route template names it")
	requireNowhere(t, exp, "ord_7")
}

// A create whose reply was lost and which the settle read found, and one
// refused with a 500 then sent again, are each one story: the operation
// ends as the call ended (no error), its requests are its children, the
// settle read marked as such, the resend with its resend count; a failed
// request's status has no description where its status code says it.
func TestWriteSettledIsOneStory(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	t.Cleanup(fake.Close)
	lossy := &losingTransport{}
	lossy.lose.Store(1)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL), checkout.WithObserver(obs),
		checkout.WithHTTPClient(&http.Client{Transport: lossy}),
		checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	require.NoError(t, err)

	o, err := c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_lost", Amount: "10.00"})
	require.NoError(t, err)
	require.True(t, o.Replayed)
	op := spansNamed(exp, "checkout.CreateOrder")
	require.Len(t, op, 1)
	require.Equal(t, codes.Unset, op[0].Status.Code, "the call succeeded")
	require.True(t, attrs(op[0].Attributes)["checkout.replayed"].AsBool())
	send, settle := spansNamed(exp, "POST /orders"), spansNamed(exp, "GET /orders/{order_id}")
	require.Len(t, send, 1)
	require.Len(t, settle, 1)
	require.Equal(t, "settle", attrs(settle[0].Attributes)["checkout.attempt.kind"].AsString())
	for _, s := range append(send, settle...) {
		require.Equal(t, op[0].SpanContext.SpanID(), s.Parent.SpanID(), "children of the operation")
	}

	exp.Reset()
	require.NoError(t, fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 500}))
	_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_500", Amount: "10.00"})
	require.NoError(t, err)
	send, settle = spansNamed(exp, "POST /orders"), spansNamed(exp, "GET /orders/{order_id}")
	require.Len(t, send, 2)
	require.Len(t, settle, 1)
	require.Equal(t, codes.Error, send[0].Status.Code)
	require.Empty(t, send[0].Status.Description, "the status code says it")
	require.Equal(t, "500", attrs(send[0].Attributes)["error.type"].AsString())
	require.Equal(t, int64(1), attrs(send[1].Attributes)["http.request.resend_count"].AsInt64(), "the resend")
	require.Equal(t, codes.Unset, settle[0].Status.Code, "not found is the answer a settle read expects")
	require.Equal(t, codes.Unset, spansNamed(exp, "checkout.CreateOrder")[0].Status.Code)
}

// losingTransport loses the reply of the first lose POSTs: the service
// acted, the client never heard.
type losingTransport struct{ lose atomic.Int32 }

func (l *losingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || r.Method != http.MethodPost || l.lose.Add(-1) < 0 {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return nil, errors.New("connection reset by peer")
}

// url.full names the route (the path only with WithOrderID, never the
// query), network.protocol.version the reply's HTTP version, and the
// instrumentation scope carries the SDK's version.
func TestURLProtocolAndScope(t *testing.T) {
	for _, optIn := range []bool{false, true} {
		tp, exp, mp, _ := providers(t)
		var opts []otelcheckout.Option
		if optIn {
			opts = append(opts, otelcheckout.WithOrderID())
		}
		obs, err := otelcheckout.New(tp, mp, opts...)
		require.NoError(t, err)
		fake, c := fakeClient(t, false, checkout.WithObserver(obs))
		_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_u", Amount: "10.00"})
		require.NoError(t, err)
		_, _ = c.GetCustomer(context.Background(), "cst_secret", &checkout.CustomerQuery{ClientAuthToken: true}) // unknown: its span is what counts
		get := spansNamed(exp, "POST /orders")
		require.Len(t, get, 1)
		a := attrs(get[0].Attributes)
		require.Equal(t, fake.URL+"/orders", a["url.full"].AsString())
		require.Equal(t, "1.1", a["network.protocol.version"].AsString())
		require.Equal(t, checkout.SDKVersion, get[0].InstrumentationScope.Version)
		cust := spansNamed(exp, "GET /customers/{customer_id}")
		require.Len(t, cust, 1)
		require.Equal(t, fake.URL+"/customers/{customer_id}", attrs(cust[0].Attributes)["url.full"].AsString(),
			"no customer id, no query, even opted in")
		_, err = c.GetOrder(context.Background(), "ord_u")
		require.NoError(t, err)
		want := fake.URL + "/orders/{order_id}"
		if optIn {
			want = fake.URL + "/orders/ord_u"
		}
		require.Equal(t, want, attrs(spansNamed(exp, "GET /orders/{order_id}")[0].Attributes)["url.full"].AsString())
		requireNowhere(t, exp, "cst_secret", "get_client_auth_token")
	}
}

// AwaitFinal is a span of its own with its polls inside: without a parent
// of the caller's, the polls are one trace.
func TestAwaitFinalIsOneTrace(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	fake, c := fakeClient(t, false, checkout.WithObserver(obs))
	_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_a", Amount: "10.00"})
	require.NoError(t, err)
	require.NoError(t, fake.Pay("ord_a"))
	_, err = c.AwaitFinal(context.Background(), "ord_a", checkout.WithPollIntervals(10*time.Millisecond))
	require.NoError(t, err)
	await := spansNamed(exp, "checkout.AwaitFinal")
	require.Len(t, await, 1)
	polls := spansNamed(exp, "checkout.GetOrder")
	require.NotEmpty(t, polls)
	for _, p := range polls {
		require.Equal(t, await[0].SpanContext.TraceID(), p.SpanContext.TraceID())
		require.Equal(t, await[0].SpanContext.SpanID(), p.Parent.SpanID())
	}
	require.Equal(t, "CHARGED", attrs(await[0].Attributes)["checkout.order_status"].AsString())
}

// Transport sends the trace context of each request's own span, so the
// service's side can join the trace, and makes no span of its own.
func TestTransportPropagates(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Traceparent"))
		_, _ = io.WriteString(w, `{"order_id":"o1","status":"NEW"}`)
	}))
	t.Cleanup(srv.Close)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithObserver(obs),
		checkout.WithHTTPClient(&http.Client{Transport: otelcheckout.Transport(nil, propagation.TraceContext{})}))
	require.NoError(t, err)
	_, err = c.GetOrder(context.Background(), "o1")
	require.NoError(t, err)
	spans := exp.GetSpans()
	require.Len(t, spans, 2, "the operation and its request: no span of the transport's")
	req := spansNamed(exp, "GET /orders/{order_id}")[0]
	tp2 := got.Load().(string)
	require.Contains(t, tp2, req.SpanContext.TraceID().String())
	require.Contains(t, tp2, req.SpanContext.SpanID().String(), "the request's own span is the parent")
}
