package otelcheckout_test

import (
	"context"
	"fmt"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/otelcheckout"
	"github.com/payorch/checkout-go/webhook"
)

// Every call of the client as a span with a child per attempt, and every
// webhook delivery counted by outcome. In a service, pass the providers you
// already have (otel.GetTracerProvider(), otel.GetMeterProvider()).
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
	deliveries, err := otelcheckout.NewWebhookObserver(mp)
	if err != nil {
		panic(err)
	}
	verifier, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret",
		Sources: webhook.ProductionSources, Observer: deliveries})
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
