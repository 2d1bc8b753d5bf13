package otelcheckout_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/otelcheckout"
)

// The cost of the OpenTelemetry observer on a call, beside the same call
// without an observer, with no network (a transport that answers at once)
// and the SDK's real exporters replaced by in-memory ones:
//
//	go test -run '^$' -bench 'CreateSession' -count 6 .

const reply = `{"status":"NEW","id":"ordeh_1","order_id":"ord_1",` +
	`"payment_links":{"web":"https://sandbox.example.com/orders/ordeh_1/payment-page"},` +
	`"sdk_payload":{"requestId":"af2f666419a24155991764369ccaed86","service":"in.example.hyperpay","payload":{"amount":"10.00"}}}`

type canned struct{}

func (canned) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(reply))}},
		Body:          io.NopCloser(strings.NewReader(reply)),
		ContentLength: int64(len(reply)), Request: r}, nil
}

func benchCreateSession(b *testing.B, opts ...checkout.Option) {
	opts = append(opts, checkout.WithBaseURL("https://api.example.com"), checkout.WithHTTPClient(&http.Client{Transport: canned{}}))
	c, err := checkout.NewClient("shop", "test_key", opts...)
	if err != nil {
		b.Fatal(err)
	}
	req := &checkout.SessionRequest{OrderID: "ord_1", Amount: "10.00", CustomerID: "cust_1", CustomerPhone: "9876543210",
		CustomerEmail: "c@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage, ReturnURL: "https://shop.example/return"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CreateSession(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCreateSessionNoObserver(b *testing.B) { benchCreateSession(b) }

func BenchmarkCreateSessionOTel(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	obs, err := otelcheckout.New(tp, mp)
	if err != nil {
		b.Fatal(err)
	}
	benchCreateSession(b, checkout.WithObserver(obs))
}
