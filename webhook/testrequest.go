package webhook

import (
	"bytes"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
)

// NewTestRequest builds the request the service would send to a receiver
// configured with cfg, carrying body: a JSON POST with cfg's Basic
// credentials and custom headers, from the first of cfg.Sources
// (192.0.2.1 when there are none), for a merchant's tests:
//
//	rec := httptest.NewRecorder()
//	h.ServeHTTP(rec, webhook.NewTestRequest(cfg, body))
//
// Seal builds an encrypted body.
func NewTestRequest(cfg Config, body []byte) *http.Request {
	r := &http.Request{
		Method:        http.MethodPost,
		URL:           &url.URL{Path: "/webhooks"},
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        make(http.Header),
		Body:          http.NoBody,
		ContentLength: int64(len(body)),
		Host:          "merchant.example",
		RequestURI:    "/webhooks",
		RemoteAddr:    "192.0.2.1:40000",
	}
	if len(body) > 0 {
		b := bytes.Clone(body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", BasicAuthorization(cfg.Username, cfg.Password))
	for _, k := range slices.Sorted(maps.Keys(cfg.Headers)) {
		r.Header.Set(k, cfg.Headers[k])
	}
	if len(cfg.Sources) > 0 {
		if p, ok := normalizePrefix(cfg.Sources[0]); ok {
			r.RemoteAddr = net.JoinHostPort(p.Addr().String(), strconv.Itoa(40000))
		}
	}
	return r
}
