package webhook

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
)

// NewTestRequest builds the request the service would send to a receiver
// configured with cfg, carrying body: a POST with Content-Type
// application/json, the Basic credentials of cfg, every custom
// header of cfg, and a RemoteAddr inside the first of cfg.Sources
// (192.0.2.1, a documentation address, when there are none). Give it to a
// Handler through httptest.NewRecorder, or to Verify, in a merchant's tests:
//
//	rec := httptest.NewRecorder()
//	h.ServeHTTP(rec, webhook.NewTestRequest(cfg, body))
//
// Use Seal to build an encrypted body. It never fails: the request is built
// field by field, nothing is parsed.
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
	names := make([]string, 0, len(cfg.Headers))
	for k := range cfg.Headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		r.Header.Set(k, cfg.Headers[k])
	}
	if len(cfg.Sources) > 0 {
		if p, ok := normalizePrefix(cfg.Sources[0]); ok {
			r.RemoteAddr = net.JoinHostPort(p.Addr().String(), strconv.Itoa(40000))
		}
	}
	return r
}
