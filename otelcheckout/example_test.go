package otelcheckout_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/otelcheckout"
	"github.com/payorch/checkout-go/webhook"
)

// Every call of the client as a span with a child per request, and every
// webhook delivery as a span, counted by outcome: one observer for both.
// In a service, pass the providers you already have.
func Example() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	mp := sdkmetric.NewMeterProvider()

	obs, err := otelcheckout.New(tp, mp)
	if err != nil {
		panic(err)
	}
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL),
		checkout.WithObserver(obs))
	if err != nil {
		panic(err)
	}
	verifier, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret",
		Sources: webhook.ProductionSources, Observer: obs})
	if err != nil {
		panic(err)
	}
	_ = verifier // serve verifier.Handler(…) as your webhook endpoint

	_, _ = client.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_1", Amount: "10.00"})
	for _, s := range spans.GetSpans() {
		fmt.Println(s.Name)
	}
	// Output:
	// POST /orders
	// checkout.CreateOrder
}

// A complete setup exporting traces and metrics over OTLP/HTTP to a
// collector (Jaeger, Tempo, Prometheus through the collector…): the
// endpoint comes from OTEL_EXPORTER_OTLP_ENDPOINT, as the OpenTelemetry
// SDKs read it. Transport sends traceparent so the service's side can
// join the trace; do not also wrap the transport in otelhttp (see the
// README).
func Example_otlp() {
	ctx := context.Background()
	traces, err := otlptracehttp.New(ctx)
	if err != nil {
		log.Fatal(err)
	}
	metrics, err := otlpmetrichttp.New(ctx)
	if err != nil {
		log.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(traces))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(metrics)))
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tp.Shutdown(ctx)
		_ = mp.Shutdown(ctx)
	}()
	otel.SetTracerProvider(tp)
	otel.SetMeterProvider(mp)
	otel.SetTextMapPropagator(propagation.TraceContext{})

	obs, err := otelcheckout.New(tp, mp)
	if err != nil {
		log.Fatal(err)
	}
	client, err := checkout.NewClientFromEnv(checkout.WithObserver(obs),
		checkout.WithHTTPClient(&http.Client{Transport: otelcheckout.Transport(nil, otel.GetTextMapPropagator())}))
	if err != nil {
		log.Fatal(err)
	}
	_ = client
}
