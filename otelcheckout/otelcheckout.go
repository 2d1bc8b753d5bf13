// Package otelcheckout reports the calls of a [checkout.Client] and the
// deliveries of a [webhook.Verifier] to OpenTelemetry, following the HTTP
// client semantic conventions.
//
// Each call is a span named for its operation ("checkout.CreateSession"),
// parented on the caller's context, with a child span per HTTP request
// ("POST /orders"): its attempts, a write's settle read
// (checkout.attempt.kind "settle") and a write sent again
// (http.request.resend_count). Each request records the
// http.client.request.duration histogram. [checkout.Client.AwaitFinal] is
// a span of its own with its polls inside. Each webhook delivery is a span
// ("checkout.webhook.delivery"), counted in checkout.webhook.deliveries by
// outcome and timed in checkout.webhook.delivery.duration.
//
// No attribute holds a credential, a header value, a query or a body;
// url.full and url.template name the route ("/orders/{order_id}"), the
// merchant's order id only with [WithOrderID]. Every value the service
// chose is bounded: an unknown order status is "_OTHER".
//
//	obs, err := otelcheckout.New(otel.GetTracerProvider(), otel.GetMeterProvider())
//	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithObserver(obs))
//	v, err := webhook.NewVerifier(webhook.Config{…, Observer: obs})
//
// The package is a Go module of its own, so that merchants who do not use
// OpenTelemetry do not download it.
package otelcheckout

import (
	"context"
	"errors"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	checkout "github.com/payorch/checkout-go"
)

// instrumentation is the name of the tracer and meter, as the OpenTelemetry
// conventions ask: the import path of the instrumenting package.
const instrumentation = "github.com/payorch/checkout-go/otelcheckout"

// secondsBuckets are the histogram boundaries of the HTTP conventions, in
// seconds, for both durations.
func secondsBuckets() []float64 {
	return []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
}

// Option changes what an observer records.
type Option func(*config)

type config struct{ orderID bool }

// WithOrderID records the merchant's order id of each call
// (checkout.order_id, and in url.full). It is off by default: an order id
// can identify a customer's purchase, and as a label it has no bound.
func WithOrderID() Option { return func(c *config) { c.orderID = true } }

// observer is the [checkout.Observer] that New returns.
type observer struct {
	tracer           trace.Tracer
	duration         metric.Float64Histogram
	deliveries       metric.Int64Counter
	deliveryDuration metric.Float64Histogram
	cfg              config
}

// New returns an observer that traces with tp and measures with mp; give it
// to [checkout.WithObserver] and to the webhook Config's Observer. A nil
// provider is an error.
func New(tp trace.TracerProvider, mp metric.MeterProvider, opts ...Option) (checkout.Observer, error) {
	if tp == nil || mp == nil {
		return nil, errors.New("checkout: otelcheckout: new: a tracer provider and a meter provider are required")
	}
	o := &observer{tracer: tp.Tracer(instrumentation, trace.WithInstrumentationVersion(checkout.SDKVersion))}
	for _, opt := range opts {
		opt(&o.cfg)
	}
	m := mp.Meter(instrumentation, metric.WithInstrumentationVersion(checkout.SDKVersion))
	var err1, err2, err3 error
	o.duration, err1 = m.Float64Histogram("http.client.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."), metric.WithExplicitBucketBoundaries(secondsBuckets()...))
	o.deliveries, err2 = m.Int64Counter("checkout.webhook.deliveries",
		metric.WithUnit("{delivery}"), metric.WithDescription("Webhook deliveries answered, by outcome."))
	o.deliveryDuration, err3 = m.Float64Histogram("checkout.webhook.delivery.duration", metric.WithUnit("s"),
		metric.WithDescription("Time to answer a webhook delivery."), metric.WithExplicitBucketBoundaries(secondsBuckets()...))
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, errors.Join(errors.New("checkout: otelcheckout: new: instruments"), err)
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

// StartAttempt starts a request's span as a child of the operation's.
func (o *observer) StartAttempt(ctx context.Context, op checkout.Operation, a checkout.Attempt) context.Context {
	method, known := httpMethod(a.Method)
	attrs := append(requestAttrs(op, a),
		attribute.String("url.full", o.url(op, a)),
		attribute.String("checkout.attempt.kind", string(a.Kind)),
		attribute.Bool("checkout.jwe", op.JWE))
	if !known {
		attrs = append(attrs, attribute.String("http.request.method_original", a.Method))
	}
	if a.Number > 1 {
		attrs = append(attrs, attribute.Int("http.request.resend_count", a.Number-1))
	}
	name := method
	if !known {
		name = "HTTP"
	}
	if a.Route != "" {
		name += " " + a.Route
	}
	ctx, _ = o.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// EndAttempt ends the request's span and records its duration.
func (o *observer) EndAttempt(ctx context.Context, op checkout.Operation, a checkout.Attempt) {
	attrs := requestAttrs(op, a)
	if a.HTTPStatus != 0 {
		attrs = append(attrs, attribute.Int("http.response.status_code", a.HTTPStatus))
	}
	if a.Protocol != "" {
		attrs = append(attrs, attribute.String("network.protocol.version", a.Protocol))
	}
	if et := errorType(a.ErrorKind, a.HTTPStatus); et != "" {
		attrs = append(attrs, attribute.String("error.type", et))
	}
	o.duration.Record(ctx, a.Duration.Seconds(), metric.WithAttributes(attrs...))
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attrs...)
	span.SetAttributes(attribute.Bool("checkout.maybe_delivered", a.MaybeDelivered))
	setStatus(span, a.ErrorKind, a.HTTPStatus)
	span.End()
}

// EndOperation ends the operation's span with the call's outcome.
func (o *observer) EndOperation(ctx context.Context, _ checkout.Operation, r checkout.OperationResult) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(
		attribute.Int("checkout.attempts", r.Attempts),
		attribute.Bool("checkout.maybe_delivered", r.MaybeDelivered),
		attribute.Bool("checkout.replayed", r.Replayed))
	if r.HTTPStatus != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", r.HTTPStatus))
	}
	if r.OrderStatus != "" {
		span.SetAttributes(attribute.String("checkout.order_status", string(r.OrderStatus)))
	}
	if et := errorType(r.ErrorKind, r.HTTPStatus); et != "" {
		span.SetAttributes(attribute.String("error.type", et))
	}
	setStatus(span, r.ErrorKind, r.HTTPStatus)
	span.End()
}

// ObserveDelivery records one webhook delivery: a span of its duration
// (a child of the request's span, when the server traces), a count and a
// duration labelled by outcome.
func (o *observer) ObserveDelivery(ctx context.Context, d checkout.Delivery) {
	outcome := attribute.String("checkout.webhook.outcome", string(d.Outcome))
	o.deliveries.Add(ctx, 1, metric.WithAttributes(outcome))
	o.deliveryDuration.Record(ctx, d.Duration.Seconds(), metric.WithAttributes(outcome))
	end := time.Now()
	attrs := []attribute.KeyValue{outcome, attribute.Int("http.response.status_code", d.HTTPStatus)}
	if d.EventName != "" {
		attrs = append(attrs, attribute.String("checkout.webhook.event", d.EventName))
	}
	_, span := o.tracer.Start(ctx, "checkout.webhook.delivery", trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(end.Add(-d.Duration)), trace.WithAttributes(attrs...))
	if d.HTTPStatus >= 500 {
		span.SetStatus(codes.Error, string(d.Outcome))
	}
	span.End(trace.WithTimestamp(end))
}

// url is url.full: the base URL and the route, or with WithOrderID the
// path as sent (a call about an order names it there). Never a query.
func (o *observer) url(op checkout.Operation, a checkout.Attempt) string {
	if o.cfg.orderID && a.Path != "" {
		return op.BaseURL + a.Path
	}
	return op.BaseURL + a.Route
}

// requestAttrs are the HTTP client attributes of a request, in the
// semantic conventions' names.
func requestAttrs(op checkout.Operation, a checkout.Attempt) []attribute.KeyValue {
	method, _ := httpMethod(a.Method)
	return []attribute.KeyValue{
		attribute.String("http.request.method", method),
		attribute.String("server.address", op.ServerAddress),
		attribute.Int("server.port", op.ServerPort),
		attribute.String("url.template", a.Route),
	}
}

// httpMethod is http.request.method as the conventions write it: a known
// method as it is, any other "_OTHER".
func httpMethod(m string) (string, bool) {
	switch m {
	case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY":
		return m, true
	}
	return "_OTHER", false
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

// setStatus marks a failed span: without a description when the status
// code says what failed (as the conventions ask), else with the kind;
// never the error's text, which may quote reply data.
func setStatus(span trace.Span, kind checkout.ErrorKind, status int) {
	switch {
	case kind == "":
	case kind == checkout.ErrorKindHTTP && status != 0:
		span.SetStatus(codes.Error, "")
	default:
		span.SetStatus(codes.Error, string(kind))
	}
}
