// Package otelcheckout reports the calls of a [checkout.Client] and the
// deliveries of a [webhook.Verifier] to OpenTelemetry.
//
// Each call is a span named for its operation ("checkout.CreateSession"),
// parented on the caller's context, with a child span per HTTP attempt that
// follows the HTTP client semantic conventions (url.template, never the raw
// path, so that order ids do not become span names). Each attempt also
// records the http.client.request.duration histogram. Each webhook delivery
// adds one to the checkout.webhook.deliveries counter, labelled by outcome.
//
// No attribute holds a credential, a header value or a body. The merchant's
// order id is recorded only with [WithOrderID].
//
//	obs, err := otelcheckout.New(otel.GetTracerProvider(), otel.GetMeterProvider())
//	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithObserver(obs))
//
// The package is a Go module of its own, so that merchants who do not use
// OpenTelemetry do not download it.
package otelcheckout

import (
	"context"
	"errors"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/webhook"
)

// instrumentation is the name of the tracer and meter, as the OpenTelemetry
// conventions ask: the import path of the instrumenting package.
const instrumentation = "github.com/payorch/checkout-go/otelcheckout"

// Option changes what an observer records.
type Option func(*config)

type config struct{ orderID bool }

// WithOrderID records the merchant's order id of each call
// (checkout.order_id). It is off by default: an order id can identify a
// customer's purchase, and as a metric label it has no bound.
func WithOrderID() Option { return func(c *config) { c.orderID = true } }

// observer is the [checkout.Observer] that New returns.
type observer struct {
	checkout.NopObserver
	tracer   trace.Tracer
	duration metric.Float64Histogram
	cfg      config
}

// New returns an observer that traces with tp and measures with mp; give it
// to [checkout.WithObserver]. A nil provider is an error.
func New(tp trace.TracerProvider, mp metric.MeterProvider, opts ...Option) (checkout.Observer, error) {
	if tp == nil || mp == nil {
		return nil, errors.New("checkout: otelcheckout: new: a tracer provider and a meter provider are required")
	}
	o := &observer{tracer: tp.Tracer(instrumentation)}
	for _, opt := range opts {
		opt(&o.cfg)
	}
	var err error
	o.duration, err = mp.Meter(instrumentation).Float64Histogram("http.client.request.duration",
		metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."),
		metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10))
	if err != nil {
		return nil, errors.Join(errors.New("checkout: otelcheckout: new: histogram"), err)
	}
	return o, nil
}

// StartOperation starts the operation's span as a child of ctx's span.
func (o *observer) StartOperation(ctx context.Context, op checkout.Operation) context.Context {
	attrs := []attribute.KeyValue{
		attribute.String("checkout.operation", op.Name),
		attribute.Bool("checkout.jwe", op.JWE),
	}
	if o.cfg.orderID && op.OrderID != "" {
		attrs = append(attrs, attribute.String("checkout.order_id", op.OrderID))
	}
	ctx, _ = o.tracer.Start(ctx, "checkout."+op.Name,
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx
}

// StartAttempt starts an attempt's span as a child of the operation's.
func (o *observer) StartAttempt(ctx context.Context, op checkout.Operation, a checkout.Attempt) context.Context {
	attrs := append(requestAttrs(op, a), attribute.Bool("checkout.jwe", op.JWE))
	if a.Number > 1 {
		attrs = append(attrs, attribute.Int("http.request.resend_count", a.Number-1))
	}
	ctx, _ = o.tracer.Start(ctx, a.Method+" "+a.Route,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// EndAttempt ends the attempt's span and records its duration.
func (o *observer) EndAttempt(ctx context.Context, op checkout.Operation, a checkout.Attempt) {
	attrs := requestAttrs(op, a)
	if a.HTTPStatus != 0 {
		attrs = append(attrs, attribute.Int("http.response.status_code", a.HTTPStatus))
	}
	if et := errorType(a.ErrorKind, a.HTTPStatus); et != "" {
		attrs = append(attrs, attribute.String("error.type", et))
	}
	o.duration.Record(ctx, a.Duration.Seconds(), metric.WithAttributes(attrs...))
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attrs...)
	span.SetAttributes(attribute.Bool("checkout.maybe_delivered", a.MaybeDelivered))
	if a.ErrorKind != "" {
		span.SetStatus(codes.Error, string(a.ErrorKind))
	}
	span.End()
}

// EndOperation ends the operation's span with its outcome.
func (o *observer) EndOperation(ctx context.Context, _ checkout.Operation, r checkout.OperationResult) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(
		attribute.Int("checkout.attempts", r.Attempts),
		attribute.Bool("checkout.maybe_delivered", r.MaybeDelivered))
	if r.HTTPStatus != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", r.HTTPStatus))
	}
	if r.OrderStatus != "" {
		span.SetAttributes(attribute.String("checkout.order_status", string(r.OrderStatus)))
	}
	if et := errorType(r.ErrorKind, r.HTTPStatus); et != "" {
		span.SetAttributes(attribute.String("error.type", et))
		// The kind, not r.Err's text: an error may quote reply data.
		span.SetStatus(codes.Error, string(r.ErrorKind))
	}
	span.End()
}

// requestAttrs are the HTTP client attributes of an attempt, in the
// semantic conventions' names.
func requestAttrs(op checkout.Operation, a checkout.Attempt) []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String("http.request.method", a.Method),
		attribute.String("server.address", op.ServerAddress),
		attribute.Int("server.port", op.ServerPort),
		attribute.String("url.template", a.Route),
	}
}

// errorType is error.type as the conventions write it: the status code
// for an error reply, else the kind of failure; "" on success.
func errorType(kind checkout.ErrorKind, status int) string {
	switch {
	case kind == "":
		return ""
	case kind == checkout.ErrorKindHTTP && status != 0:
		return strconv.Itoa(status)
	default:
		return string(kind)
	}
}

// webhookObserver is the [webhook.Observer] that NewWebhookObserver returns.
type webhookObserver struct {
	deliveries metric.Int64Counter
	duration   metric.Float64Histogram
}

// NewWebhookObserver returns a webhook observer that counts deliveries by
// outcome (checkout.webhook.deliveries) and records their duration
// (checkout.webhook.delivery.duration) with mp; set it as the webhook
// Config's Observer.
func NewWebhookObserver(mp metric.MeterProvider) (webhook.Observer, error) {
	if mp == nil {
		return nil, errors.New("checkout: otelcheckout: new webhook observer: a meter provider is required")
	}
	m := mp.Meter(instrumentation)
	deliveries, err1 := m.Int64Counter("checkout.webhook.deliveries",
		metric.WithUnit("{delivery}"), metric.WithDescription("Webhook deliveries answered, by outcome."))
	duration, err2 := m.Float64Histogram("checkout.webhook.delivery.duration",
		metric.WithUnit("s"), metric.WithDescription("Time to answer a webhook delivery."))
	if err := errors.Join(err1, err2); err != nil {
		return nil, errors.Join(errors.New("checkout: otelcheckout: new webhook observer: instruments"), err)
	}
	return &webhookObserver{deliveries: deliveries, duration: duration}, nil
}

// ObserveDelivery counts one delivery and records its duration.
func (w *webhookObserver) ObserveDelivery(ctx context.Context, d webhook.Delivery) {
	attrs := metric.WithAttributes(attribute.String("checkout.webhook.outcome", string(d.Outcome)))
	w.deliveries.Add(ctx, 1, attrs)
	w.duration.Record(ctx, d.Duration.Seconds(), attrs)
}
