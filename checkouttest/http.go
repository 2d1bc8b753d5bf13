package checkouttest

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// maxBody bounds request bodies; the service does not publish its limits.
const maxBody = 1 << 20

// Request is one request the fake received, recorded before it was checked.
type Request struct {
	// Time is when the request arrived.
	Time time.Time
	// Method is the request's HTTP method, for example "POST".
	Method string
	// Path is the request's unescaped URL path, for example
	// "/orders/ord_1/refunds".
	Path string
	// Query is the raw, still escaped URL query without the "?"; "" when
	// there is none.
	Query string
	// Header is a copy of the request headers; the Authorization value is
	// replaced by "REDACTED" (or "REDACTED (malformed)").
	Header http.Header
	// Body is the request body.
	Body []byte
	// Fault describes the injected fault applied to this request ("" for
	// none), for example "status 503" or "drop".
	Fault string
}

// Form parses Body as a form, for the form-encoded calls.
func (r Request) Form() (url.Values, error) { return url.ParseQuery(string(r.Body)) }

// Requests returns copies of the recorded requests, oldest first.
func (s *Server) Requests() []Request {
	if !s.started() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		r.Header = r.Header.Clone()
		r.Body = append([]byte(nil), r.Body...)
		out[i] = r
	}
	return out
}

// Count returns how many recorded requests had this method and path.
func (s *Server) Count(method, path string) int {
	if !s.started() {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(FakeHeader, "1")
	if !s.hostAllowed(r.Host) {
		http.Error(w, fmt.Sprintf("checkouttest: Host %.64q is not served: the fake serves loopback names, the addresses it "+
			"listens on and the names given to it (checkout fake --host, Config.Hosts), so that a DNS name rebound to it reaches nothing",
			r.Host), http.StatusMisdirectedRequest)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), ControlPrefix); ok {
		parts, ok := splitPath(rest)
		if !ok {
			writeJSON(w, http.StatusBadRequest, controlError{"malformed path"})
			return
		}
		s.serveControl(w, r, parts)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, errBody{Status: "Bad Request", ErrorCode: "INVALID_REQUEST", ErrorMessage: "could not read the request body"})
		return
	}
	rec := Request{Time: s.now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: redact(r.Header), Body: body}
	f := s.takeFault(r.Method, r.URL.Path)
	if f != nil {
		rec.Fault = f.String()
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	serve := func(w http.ResponseWriter) {
		if len(body) > maxBody {
			writeError(w, http.StatusRequestEntityTooLarge, errBody{Status: "Bad Request", ErrorCode: "INVALID_REQUEST", ErrorMessage: "request body too large"})
			return
		}
		s.route(w, r, body)
	}
	if f != nil && s.applyFault(w, r, f, serve) {
		return
	}
	serve(w)
}

func redact(h http.Header) http.Header {
	c := h.Clone()
	if v := c.Values("Authorization"); len(v) > 0 {
		if _, _, ok := parseBasic(v[0]); ok && len(v) == 1 {
			c["Authorization"] = []string{"REDACTED"}
		} else {
			c["Authorization"] = []string{"REDACTED (malformed)"}
		}
	}
	return c
}

// route dispatches a checked-in request to the service's calls: /session,
// /orders, /orders/{order_id} (GET the status, POST an update),
// /orders/{order_id}/refunds, /refunds, /customers and /customers/{id}
// (GET, POST an update), and the older /order/create, /order/status and
// /order/refund. The payment page and collection links the fake
// hands out are served without auth, as a browser would load them.
func (s *Server) route(w http.ResponseWriter, r *http.Request, body []byte) {
	parts, ok := splitPath(strings.TrimPrefix(r.URL.EscapedPath(), "/"))
	if !ok {
		writeError(w, http.StatusBadRequest, errBody{Status: "Bad Request", ErrorCode: "INVALID_REQUEST", ErrorMessage: "malformed path"})
		return
	}
	if len(parts) == 3 && parts[0] == "orders" && parts[2] == "payment-page" {
		s.servePaymentPage(w, r, body, parts[1])
		return
	}
	if len(parts) == 3 && parts[0] == "links" {
		s.serveLinkPage(w, r, parts)
		return
	}
	if len(parts) > 1 && parts[0] == "v4" { // the JWE+JWS calls (v4.go)
		s.serveV4(w, r, body, parts[1:])
		return
	}
	type handler = func(http.ResponseWriter, *http.Request, []byte, string)
	var methods map[string]handler
	id := ""
	switch {
	case len(parts) == 1 && parts[0] == "session":
		methods = map[string]handler{http.MethodPost: s.handleSession}
	case len(parts) == 1 && parts[0] == "orders":
		methods = map[string]handler{http.MethodPost: s.handleCreateOrder}
	case len(parts) == 2 && parts[0] == "orders" && parts[1] != "":
		methods, id = map[string]handler{http.MethodGet: s.handleGetOrder, http.MethodPost: s.handleUpdateOrder}, parts[1]
	case len(parts) == 3 && parts[0] == "orders" && parts[1] != "" && parts[2] == "refunds":
		methods, id = map[string]handler{http.MethodPost: s.handleRefund}, parts[1]
	case len(parts) == 2 && parts[0] == "order" && parts[1] == "create": // the older paths of the PHP and Python SDKs
		methods = map[string]handler{http.MethodPost: s.handleOrderCreate}
	case len(parts) == 2 && parts[0] == "order" && parts[1] == "status":
		methods = map[string]handler{http.MethodGet: s.handleOrderStatus}
	case len(parts) == 2 && parts[0] == "order" && parts[1] == "refund":
		methods = map[string]handler{http.MethodPost: s.handleOrderRefund}
	case len(parts) == 1 && parts[0] == "refunds":
		methods = map[string]handler{http.MethodPost: s.handleTxnRefund}
	case len(parts) == 1 && parts[0] == "customers":
		methods = map[string]handler{http.MethodPost: s.handleCreateCustomer}
	case len(parts) == 2 && parts[0] == "customers" && parts[1] != "":
		methods, id = map[string]handler{http.MethodGet: s.handleGetCustomer, http.MethodPost: s.handleUpdateCustomer}, parts[1]
	default:
		writeError(w, http.StatusNotFound, errBody{Status: "error", ErrorCode: "not_found", ErrorMessage: "no such endpoint: " + r.URL.Path})
		return
	}
	if !s.authorized(w, r) {
		return
	}
	handle := methods[r.Method]
	if handle == nil {
		allow := strings.Join(slices.Sorted(maps.Keys(methods)), ", ")
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, errBody{Status: "error", ErrorCode: "method_not_allowed", ErrorMessage: r.Method + " is not allowed here; use " + allow})
		return
	}
	handle(w, r, body, id)
}

// splitPath splits an escaped path at "/" and unescapes each segment, so
// that an order id holding "/" (sent as %2F) stays one segment.
func splitPath(escaped string) ([]string, bool) {
	parts := strings.Split(escaped, "/")
	for i, p := range parts {
		u, err := url.PathUnescape(p)
		if err != nil {
			return nil, false
		}
		parts[i] = u
	}
	return parts, true
}

// authorized checks Authorization (Basic with the API key as the
// user; with or without the trailing colon) and x-merchantid, both in
// constant time, and answers 401 like the service when either is wrong.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	vals := r.Header.Values("Authorization")
	okKey := false
	if len(vals) == 1 {
		if user, pass, ok := parseBasic(vals[0]); ok && pass == "" {
			okKey = subtle.ConstantTimeCompare([]byte(user), []byte(s.apiKey)) == 1
		}
	}
	if !okKey {
		writeUnauthorized(w, "Invalid API Key. Please pass a valid and active api key.")
		return false
	}
	mids := r.Header.Values("X-Merchantid")
	if len(mids) != 1 || subtle.ConstantTimeCompare([]byte(mids[0]), []byte(s.merchantID)) != 1 {
		writeUnauthorized(w, "Invalid merchant id. Please pass the x-merchantid header of the API key's merchant.")
		return false
	}
	return true
}

// parseBasic decodes "Basic base64(user[:pass])". The scheme is
// case-insensitive (RFC 7617); a value without a colon is the user alone,
// which is how the service's documentation writes the API key header.
func parseBasic(h string) (user, pass string, ok bool) {
	scheme, cred, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
	if err != nil {
		return "", "", false
	}
	user, pass, _ = strings.Cut(string(raw), ":")
	return user, pass, true
}

// mediaType returns the lower-cased media type of the Content-Type header,
// or "" when it is missing or malformed.
func mediaType(r *http.Request) string {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// errBody is the service's error body (conformance/errors/): status,
// error_code, error_message, status_id and error_info.
type errBody struct {
	Status       string     `json:"status"`
	ErrorCode    string     `json:"error_code"`
	ErrorMessage string     `json:"error_message,omitempty"`
	StatusID     *int       `json:"status_id,omitempty"`
	OrderID      string     `json:"order_id,omitempty"`
	ErrorInfo    *errorInfo `json:"error_info,omitempty"`
}

type errorInfo struct {
	Category         string       `json:"category,omitempty"`
	RequestID        string       `json:"request_id"`
	DeveloperMessage string       `json:"developer_message"`
	UserMessage      string       `json:"user_message"`
	Code             string       `json:"code"`
	Fields           []errorField `json:"fields,omitempty"`
}

type errorField struct {
	FieldName string `json:"field_name"`
	Reason    string `json:"reason"`
}

func writeError(w http.ResponseWriter, status int, b errBody) {
	if b.ErrorInfo == nil {
		b.ErrorInfo = &errorInfo{DeveloperMessage: b.ErrorMessage, UserMessage: b.ErrorMessage, Code: b.ErrorCode}
	}
	b.ErrorInfo.RequestID = uuid.NewString()
	writeJSON(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "checkouttest: encode response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// writeUnauthorized answers like conformance/errors/session_error_response_401.json.
func writeUnauthorized(w http.ResponseWriter, developerMessage string) {
	writeError(w, http.StatusUnauthorized, errBody{
		Status:    "error",
		ErrorCode: "access_denied",
		ErrorInfo: &errorInfo{Category: "USER_ERROR", DeveloperMessage: developerMessage, UserMessage: "Unauthorized.", Code: "UNAUTHORIZED"},
	})
}

// problem is one offending field of a request.
type problem struct{ path, reason string }

// problems collects what is wrong with a request: missing mandatory fields
// and invalid values, answered with the two 400 shapes of
// conformance/errors/.
type problems struct {
	missing []problem
	invalid []problem
}

func (p *problems) miss(path string) {
	p.missing = append(p.missing, problem{path, "Mandatory fields are missing"})
}

func (p *problems) bad(path, reason string) { p.invalid = append(p.invalid, problem{path, reason}) }

func (p *problems) empty() bool { return len(p.missing) == 0 && len(p.invalid) == 0 }

// write answers 400: "Mandatory fields are missing" when a required field
// is absent (session_error_response_400.json), else INVALID_REQUEST naming
// the first bad field (session_error_400_amount_high.json). Every offending
// path is listed in error_info.fields.
func (p *problems) write(w http.ResponseWriter) {
	if len(p.missing) > 0 {
		writeError(w, http.StatusBadRequest, errBody{
			Status:       "Bad Request",
			ErrorCode:    "Mandatory fields are missing",
			ErrorMessage: "Mandatory fields are missing: " + joinPaths(p.missing),
			ErrorInfo: &errorInfo{DeveloperMessage: "Invalid input data", UserMessage: "Invalid input data", Code: "INVALID_INPUT",
				Fields: fields(append(append([]problem(nil), p.missing...), p.invalid...))},
		})
		return
	}
	first := p.invalid[0]
	msg := first.path + ": " + first.reason
	if len(p.invalid) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(p.invalid)-1)
	}
	minus1 := -1
	writeError(w, http.StatusBadRequest, errBody{
		Status:       "ERROR",
		ErrorCode:    "INVALID_REQUEST",
		ErrorMessage: msg,
		StatusID:     &minus1,
		ErrorInfo: &errorInfo{Category: "USER_ERROR", DeveloperMessage: msg, UserMessage: "INVALID_REQUEST", Code: "INVALID_INPUT",
			Fields: fields(p.invalid)},
	})
}

func joinPaths(ps []problem) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.path
	}
	return strings.Join(names, ", ")
}

func fields(ps []problem) []errorField {
	out := make([]errorField, len(ps))
	for i, p := range ps {
		out[i] = errorField{FieldName: p.path, Reason: p.reason}
	}
	return out
}

// writeNotFound answers an unknown order the service's way: HTTP 400
// with status NOT_FOUND, status_id 40 and the order's id.
func writeNotFound(w http.ResponseWriter, orderID string) {
	notFound := statusIDNotFound
	msg := fmt.Sprintf("Order with id = %q does not exist", orderID)
	writeError(w, http.StatusBadRequest, errBody{
		Status:       "NOT_FOUND",
		ErrorCode:    "NOT_FOUND",
		ErrorMessage: msg,
		StatusID:     &notFound,
		OrderID:      orderID,
		ErrorInfo:    &errorInfo{Category: "USER_ERROR", DeveloperMessage: msg, UserMessage: "Order not found.", Code: "RESOURCE_NOT_FOUND"},
	})
}

// statusIDNotFound is the status_id of the service's order-not-found
// reply.
const statusIDNotFound = 40
