package checkout

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
)

// Do calls an endpoint the SDK does not model, through the same path as
// every other call: auth, headers, retries, errors, [Observer] and
// [WithResponseMeta]. method is upper case ("GET"); path is below the base
// URL ("/merchants/x/offers", a query allowed). body is sent as a form when
// it is url.Values (as the query of a GET), as is when it is []byte or
// json.RawMessage, else as JSON; nil sends none. A 2xx reply's JSON is
// decoded into out, a non-nil pointer, unless out is nil. GET and HEAD
// are reads, other methods writes (see the package doc's retries). In the
// JWE+JWS mode a path under /v4/ is a sealed POST of a JSON body, a write;
// another method, a query or a form there is refused. Name the route for
// the Observer with [WithRouteTemplate]; without it, id-like path
// segments are named "{id}".
func (c *Client) Do(ctx context.Context, method, path string, body, out any, opts ...RequestOption) error {
	const op = "do"
	p, q, _ := strings.Cut(path, "?")
	if err := checkDoPath(method, p, q, out); err != nil {
		return invalid(op, err)
	}
	cl := &call{op: op, name: "Do", method: method, route: routeOf(p), path: p, query: q,
		write: method != http.MethodGet && method != http.MethodHead}
	switch b := body.(type) {
	case nil:
	case url.Values:
		if cl.write {
			cl.body, cl.form = []byte(b.Encode()), true
		} else {
			cl.query = strings.TrimPrefix(q+"&"+b.Encode(), "&")
		}
	case []byte:
		cl.body = b
	case json.RawMessage:
		cl.body = b
	case string, io.Reader:
		return invalid(op, optErr("body of type %T: pass []byte or json.RawMessage for JSON text, url.Values for a form, else a value to encode", body))
	default:
		data, err := json.Marshal(body)
		if err != nil {
			return invalid(op, err)
		}
		cl.body = data
	}
	if c != nil && c.jwe != nil && strings.HasPrefix(p, "/v4/") {
		switch {
		case method != http.MethodPost:
			return invalid(op, optErr("%s %s: a /v4/ call is a sealed POST in the JWE+JWS mode", short(method), routeOf(p)))
		case cl.query != "" || cl.form || !json.Valid(cl.body):
			return invalid(op, optErr("%s: a /v4/ call carries a sealed JSON body only: no query, no form", routeOf(p)))
		}
		cl.v4 = &v4Call{route: cl.route, path: p}
	}
	rc, err := requestOptions(opts, "Do")
	if rc.route != "" {
		cl.route = rc.route
		if cl.v4 != nil {
			cl.v4.route = rc.route
		}
	}
	return c.run(ctx, cl, rc, anyReply{out}, err)
}

// WithRouteTemplate names the route of a [Client.Do] call for the
// Observer, logs and errors ("/offers/{offer_id}"), instead of its path
// with id-like segments named "{id}". The template must start with "/" and
// be at most 200 bytes of printable ASCII without "?" or "#".
func WithRouteTemplate(template string) RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		if !strings.HasPrefix(template, "/") || len(template) > 200 || strings.ContainsAny(template, "?#") ||
			strings.ContainsFunc(template, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
			return optErr("route template %q must be a path: \"/\", printable ASCII, at most 200 bytes", short(template))
		}
		r.route = template
		return nil
	})
}

// checkDoPath refuses a method, path or query that would leave the base
// URL or be sent other than as given, and an out no reply can be read into.
func checkDoPath(method, p, q string, out any) error {
	switch {
	case method == "" || strings.ContainsFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }):
		return optErr("method %q is not an upper-case token (\"GET\", \"POST\")", short(method))
	case !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//"):
		return optErr("path %q must start with one \"/\" (no scheme or host)", short(routeOf(p)))
	case strings.ContainsAny(p, "\\#\x00\r\n\t ") || strings.Contains(p, "://"):
		return optErr("path %q holds a character a path may not", short(routeOf(p)))
	case out != nil && (reflect.ValueOf(out).Kind() != reflect.Pointer || reflect.ValueOf(out).IsNil()):
		return optErr("out is not a non-nil pointer: the reply could not be read")
	}
	if _, err := url.ParseQuery(q); err != nil || strings.ContainsAny(q, "#\x00\r\n\t ") {
		return optErr("the query of %s is not a valid URL query", routeOf(p))
	}
	for seg := range strings.SplitSeq(p, "/") {
		if u, err := url.PathUnescape(seg); err != nil || u == "." || u == ".." || strings.Contains(u, "/") {
			return optErr("path %s holds a segment that is not a name", routeOf(p))
		}
	}
	return nil
}

// routeOf is path p with every segment that may be an id (digits, "@",
// escapes, anything but lower-case words and versions like "v4") named
// "{id}", so that no id or email reaches a log, an error or a span.
func routeOf(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s != "" && !routeWord(s) {
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "/")
}

// routeWord reports a path segment that names a resource, not an instance.
func routeWord(s string) bool {
	if len(s) > 32 {
		return false
	}
	if v, ok := strings.CutPrefix(s, "v"); ok && v != "" && strings.Trim(v, "0123456789") == "" {
		return true
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz-_") == "" && strings.Trim(s, "-_") != ""
}
