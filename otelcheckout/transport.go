package otelcheckout

import (
	"net/http"

	"go.opentelemetry.io/otel/propagation"
)

// Transport returns a RoundTripper that sends each request through base
// (http.DefaultTransport when nil) with the trace context of its span in
// the request's headers (traceparent, tracestate), as p writes it
// (otel.GetTextMapPropagator()). The client's observer makes the spans;
// give the client this transport when the service's side should join your
// traces. It makes no span of its own: nothing is counted twice.
func Transport(base http.RoundTripper, p propagation.TextMapPropagator) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	if p == nil {
		p = propagation.TraceContext{}
	}
	return &transport{base: base, prop: p}
}

type transport struct {
	base http.RoundTripper
	prop propagation.TextMapPropagator
}

// RoundTrip injects the trace context into a copy of r's headers.
func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	t.prop.Inject(r.Context(), propagation.HeaderCarrier(r2.Header))
	return t.base.RoundTrip(r2)
}

// CloseIdleConnections closes base's idle connections, when it can.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
