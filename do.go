package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Do calls an endpoint the SDK does not model, through the same path as
// every other call: auth, headers, retries, errors, [Observer] and
// [WithResponseMeta]. path is below the base URL ("/merchants/x/offers",
// a query allowed). body is sent as a form when it is url.Values (as the
// query of a GET), as is when it is []byte or json.RawMessage, else as
// JSON; nil sends none. A 2xx reply's JSON is decoded into out unless out
// is nil. GET and HEAD are retried after ambiguous failures, other methods
// only when nothing can have reached the service. In the JWE+JWS mode a
// path under /v4/ is sealed and its reply opened; others use Basic auth.
func (c *Client) Do(ctx context.Context, method, path string, body, out any, opts ...RequestOption) error {
	const op = "do"
	p, q, _ := strings.Cut(path, "?")
	if err := checkDoPath(method, p); err != nil {
		return invalid(op, err)
	}
	cl := &call{op: op, method: method, path: p, query: q,
		idempotent: method == http.MethodGet || method == http.MethodHead}
	switch b := body.(type) {
	case nil:
	case url.Values:
		if method == http.MethodGet || method == http.MethodHead {
			cl.query = strings.TrimPrefix(q+"&"+b.Encode(), "&")
		} else {
			cl.body, cl.contentType = []byte(b.Encode()), contentForm
		}
	case []byte:
		cl.body, cl.contentType = b, contentJSON
	case json.RawMessage:
		cl.body, cl.contentType = b, contentJSON
	default:
		data, err := json.Marshal(body)
		if err != nil {
			return invalid(op, err)
		}
		cl.body, cl.contentType = data, contentJSON
	}
	if strings.HasPrefix(p, "/v4/") {
		cl.jwePath = p
		if cl.contentType == contentForm {
			cl.jwePath = "" // only JSON is sealed
		}
	}
	err := c.send(ctx, cl, opts, out)
	var iue *json.InvalidUnmarshalError
	if errors.As(err, &iue) {
		// Said plainly, so that nobody sends a write again that took effect.
		return fmt.Errorf("checkout: do: the service accepted the request, but out is not a non-nil pointer, so its reply was not read: %w", iue)
	}
	return err
}

// checkDoPath refuses a method or path that would leave the base URL.
func checkDoPath(method, p string) error {
	switch {
	case method == "" || strings.ContainsAny(method, " \t\r\n/:"):
		return optErr("method %q is not a token", short(method))
	case !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//"):
		return optErr("path %q must start with one \"/\" (no scheme or host)", short(p))
	case strings.ContainsAny(p, "\\#\x00\r\n\t ") || strings.Contains(p, "://"):
		return optErr("path %q holds a character a path may not", short(p))
	}
	for seg := range strings.SplitSeq(p, "/") {
		if u, err := url.PathUnescape(seg); err != nil || u == "." || u == ".." || strings.Contains(u, "/") {
			return optErr("path %q holds a %q segment", short(p), seg)
		}
	}
	return nil
}
