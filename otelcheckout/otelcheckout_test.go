package otelcheckout_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/otelcheckout"
)

// providers returns an SDK tracer provider writing to an in-memory
// exporter and a meter provider read by hand.
func providers(t *testing.T) (*sdktrace.TracerProvider, *tracetest.InMemoryExporter, *sdkmetric.MeterProvider, *sdkmetric.ManualReader) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	return tp, exp, mp, reader
}

func attrs(kv []attribute.KeyValue) map[string]attribute.Value {
	m := make(map[string]attribute.Value, len(kv))
	for _, a := range kv {
		m[string(a.Key)] = a.Value
	}
	return m
}

// TestObserverSpans drives the observer as the Client does for a call that
// succeeds on its second attempt, under a parent span of the caller's.
func TestObserverSpans(t *testing.T) {
	tp, exp, mp, reader := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)

	ctx, parent := tp.Tracer("test").Start(context.Background(), "handler")
	op := checkout.Operation{Name: "GetOrder", Method: "GET", Route: "/orders/{order_id}",
		ServerAddress: "api.example.com", ServerPort: 443, OrderID: "ord_1"}
	opCtx := obs.StartOperation(ctx, op)
	try1 := checkout.Attempt{Number: 1, Kind: checkout.AttemptSend, Method: op.Method, Route: op.Route}
	a1 := obs.StartAttempt(opCtx, op, try1)
	try1.HTTPStatus, try1.ErrorKind, try1.Duration = 503, checkout.ErrorKindHTTP, 20*time.Millisecond
	obs.EndAttempt(a1, op, try1)
	try2 := checkout.Attempt{Number: 2, Kind: checkout.AttemptSend, Method: op.Method, Route: op.Route}
	a2 := obs.StartAttempt(opCtx, op, try2)
	try2.HTTPStatus, try2.Duration = 200, 10*time.Millisecond
	obs.EndAttempt(a2, op, try2)
	obs.EndOperation(opCtx, op, checkout.OperationResult{Attempts: 2, HTTPStatus: 200, OrderStatus: checkout.StatusCharged})
	parent.End()

	spans := exp.GetSpans()
	require.Len(t, spans, 4)
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
	}
	opSpan := byName["checkout.GetOrder"]
	require.Len(t, opSpan, 1)
	require.Equal(t, parent.SpanContext().SpanID(), opSpan[0].Parent.SpanID(), "operation span is the caller's child")
	require.Equal(t, "CHARGED", attrs(opSpan[0].Attributes)["checkout.order_status"].AsString())
	require.Equal(t, int64(2), attrs(opSpan[0].Attributes)["checkout.attempts"].AsInt64())

	tries := byName["GET /orders/{order_id}"]
	require.Len(t, tries, 2)
	for _, s := range tries {
		require.Equal(t, opSpan[0].SpanContext.SpanID(), s.Parent.SpanID(), "attempt spans are the operation's children")
		a := attrs(s.Attributes)
		require.Equal(t, "/orders/{order_id}", a["url.template"].AsString())
		require.Equal(t, "api.example.com", a["server.address"].AsString())
		require.Equal(t, int64(443), a["server.port"].AsInt64())
	}
	first, second := attrs(tries[0].Attributes), attrs(tries[1].Attributes)
	require.Equal(t, "503", first["error.type"].AsString())
	require.Equal(t, codes.Error, tries[0].Status.Code)
	_, resent := first["http.request.resend_count"]
	require.False(t, resent, "the first attempt is no resend")
	require.Equal(t, int64(1), second["http.request.resend_count"].AsInt64())
	require.Equal(t, int64(200), second["http.response.status_code"].AsInt64())

	for _, s := range spans {
		for _, kv := range s.Attributes {
			require.NotContains(t, kv.Value.String(), "ord_1", "the order id is recorded only on opt-in (%s on %s)", kv.Key, s.Name)
		}
	}

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	hist := findHistogram(t, rm, "http.client.request.duration")
	require.Len(t, hist.DataPoints, 2, "one series for the 503, one for the 200")
	var count uint64
	for _, dp := range hist.DataPoints {
		count += dp.Count
	}
	require.Equal(t, uint64(2), count)
}

func TestObserverOrderIDOptIn(t *testing.T) {
	tp, exp, mp, _ := providers(t)
	obs, err := otelcheckout.New(tp, mp, otelcheckout.WithOrderID())
	require.NoError(t, err)
	op := checkout.Operation{Name: "GetOrder", Method: "GET", Route: "/orders/{order_id}", OrderID: "ord_1"}
	ctx := obs.StartOperation(context.Background(), op)
	obs.EndOperation(ctx, op, checkout.OperationResult{ErrorKind: checkout.ErrorKindTimeout, Err: errors.New("checkout: get order: secret-ish text"), MaybeDelivered: true})
	spans := exp.GetSpans()
	require.Len(t, spans, 1)
	a := attrs(spans[0].Attributes)
	require.Equal(t, "ord_1", a["checkout.order_id"].AsString())
	require.Equal(t, "timeout", a["error.type"].AsString())
	require.True(t, a["checkout.maybe_delivered"].AsBool())
	require.Equal(t, "timeout", spans[0].Status.Description, "the status says the kind, never the error's text")
}

func TestNewRefusesNil(t *testing.T) {
	_, err := otelcheckout.New(nil, nil)
	require.ErrorContains(t, err, "checkout: otelcheckout: new: ")
}

// One observer serves the webhook handler too: each delivery is counted by
// outcome, timed in a histogram whose buckets are seconds (a 30 ms
// delivery is not in the first), and traced as a span of its own.
func TestWebhookDeliveries(t *testing.T) {
	tp, exp, mp, reader := providers(t)
	obs, err := otelcheckout.New(tp, mp)
	require.NoError(t, err)
	ctx := context.Background()
	obs.ObserveDelivery(ctx, checkout.Delivery{Outcome: checkout.DeliveryProcessed, HTTPStatus: 200, EventName: "ORDER_SUCCEEDED", Duration: 30 * time.Millisecond})
	obs.ObserveDelivery(ctx, checkout.Delivery{Outcome: checkout.DeliveryDuplicate, HTTPStatus: 200, Duration: 2 * time.Second})
	obs.ObserveDelivery(ctx, checkout.Delivery{Outcome: checkout.DeliveryHandlerError, HTTPStatus: 500, Duration: time.Millisecond})

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	require.Equal(t, map[string]int64{"processed": 1, "duplicate": 1, "handler_error": 1}, deliveries(t, rm))
	hist := findHistogram(t, rm, "checkout.webhook.delivery.duration")
	for _, dp := range hist.DataPoints {
		v, _ := dp.Attributes.Value("checkout.webhook.outcome")
		if v.AsString() != "processed" {
			continue
		}
		require.Equal(t, 0.005, dp.Bounds[0], "second-sized buckets")
		require.Zero(t, dp.BucketCounts[0]+dp.BucketCounts[1]+dp.BucketCounts[2], "30 ms is past 25 ms")
		require.EqualValues(t, 1, dp.BucketCounts[3], "and within 50 ms")
	}
	spans := spansNamed(exp, "checkout.webhook.delivery")
	require.Len(t, spans, 3)
	require.Equal(t, "ORDER_SUCCEEDED", attrs(spans[0].Attributes)["checkout.webhook.event"].AsString())
	require.InDelta(t, 30*time.Millisecond, spans[0].EndTime.Sub(spans[0].StartTime), float64(time.Millisecond))
	require.Equal(t, codes.Error, spans[2].Status.Code, "a 500 answer is an error")
	require.Equal(t, codes.Unset, spans[0].Status.Code)
}

func findHistogram(t *testing.T, rm metricdata.ResourceMetrics, name string) metricdata.Histogram[float64] {
	t.Helper()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				h, ok := m.Data.(metricdata.Histogram[float64])
				require.True(t, ok, "%s is a float64 histogram", name)
				return h
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return metricdata.Histogram[float64]{}
}

// deliveries reads the webhook deliveries counter by outcome.
func deliveries(t *testing.T, rm metricdata.ResourceMetrics) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "checkout.webhook.deliveries" {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok)
			for _, dp := range sum.DataPoints {
				v, _ := dp.Attributes.Value("checkout.webhook.outcome")
				out[v.AsString()] += dp.Value
			}
		}
	}
	return out
}
