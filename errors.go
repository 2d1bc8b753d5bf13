package checkout

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/payorch/checkout-go/validation"
)

// ValidationError lists every problem found in a request before anything
// was sent, each under the JSON path the service spells ("mandate.max_amount");
// it matches [ErrInvalidRequest] and is the same type in every package.
type ValidationError = validation.Error

// Problem is one entry of a [ValidationError].
type Problem = validation.Problem

// sentinel is the type of the package's sentinel errors: constants, so no
// importer can reassign one.
type sentinel string

// Error returns the sentinel's message.
func (s sentinel) Error() string { return string(s) }

// Sentinel errors to match with errors.Is: an [*APIError] matches the first
// six by its HTTP status and the service's status field.
const (
	// ErrUnauthorized matches HTTP 401: the API key or merchant id was refused.
	ErrUnauthorized = sentinel("checkout: unauthorized")
	// ErrForbidden matches HTTP 403.
	ErrForbidden = sentinel("checkout: forbidden")
	// ErrNotFound matches HTTP 404 and a 4xx whose status is "NOT_FOUND"
	// or status_id 40 (the service's unknown order; [APIError.OrderID]
	// names it). A missing transaction of a known order is ErrInvalidRequest.
	ErrNotFound = sentinel("checkout: not found")
	// ErrInvalidRequest matches the other 4xx responses except 429, and a
	// [*ValidationError].
	ErrInvalidRequest = validation.ErrInvalidRequest
	// ErrRateLimited matches HTTP 429.
	ErrRateLimited = sentinel("checkout: rate limited")
	// ErrServer matches HTTP 5xx.
	ErrServer = sentinel("checkout: server error")
	// ErrInvalidOption matches every error about an [Option] or [RequestOption].
	ErrInvalidOption = sentinel("checkout: invalid option")
	// ErrInvalidClient matches a call on a nil or zero [Client]; nothing is sent.
	ErrInvalidClient = sentinel("checkout: client is nil or not made by NewClient")
)

// maxErrorBody bounds APIError.Body.
const maxErrorBody = 64 << 10

// maxMessage bounds the service messages quoted by APIError.Error.
const maxMessage = 200

// APIError is a non-2xx reply of the service, its body decoded into it
// ({"status", "status_id", "error_code", "error_message", "error_info"},
// or the older {"error": true, "errorMessage", "userMessage"}); a body that
// is not JSON (a proxy's page) leaves them empty. No field holds the
// client's API key. Match it with errors.Is and the sentinels.
type APIError struct {
	HTTPStatus   int       `json:"-"`
	Status       string    `json:"status,omitempty"`        // "ERROR", "Bad Request", "NOT_FOUND"…
	StatusID     Int       `json:"status_id,omitempty"`     // a number or text ("-1") on the wire
	ErrorCode    string    `json:"error_code,omitempty"`    // "INVALID_REQUEST"…
	ErrorMessage string    `json:"error_message,omitempty"` // else error_info's developer_message, else errorMessage
	UserMessage  string    `json:"user_message,omitempty"`  // for the customer; else error_info's, else userMessage
	Info         ErrorInfo `json:"error_info,omitzero"`     // zero when absent or not an object
	// OrderID is the body's order_id, else the order the call named.
	OrderID    string        `json:"order_id,omitempty"`
	RetryAfter time.Duration `json:"-"` // Retry-After of a 429 or 503, at most 24 h
	Operation  string        `json:"-"` // the call, as its error string names it: "get order"
	Body       []byte        `json:"-"` // as received, at most 64 KiB; never in Error()

	cred *credential // whose key redact replaces; nil for one built by hand
}

// ErrorInfo is the error_info object of an error body.
type ErrorInfo struct {
	Code             string       `json:"code,omitempty"`       // "INVALID_INPUT", "UNAUTHORIZED"…
	Category         string       `json:"category,omitempty"`   // "USER_ERROR"…
	RequestID        string       `json:"request_id,omitempty"` // quote it to the service's support
	DeveloperMessage string       `json:"developer_message,omitempty"`
	UserMessage      string       `json:"user_message,omitempty"`
	Fields           []FieldError `json:"fields,omitempty"` // the request fields refused
}

// FieldError is one element of error_info.fields.
type FieldError struct {
	FieldName string `json:"field_name,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// minSecretLen is the shortest API key redacted from an error reply: a
// shorter one is no secret, and replacing it would garble words.
const minSecretLen = 8

// redacted replaces an API key echoed by the service.
const redacted = "[REDACTED]"

// redact replaces the client's API key in every form the service may echo
// it (as is, base64 in the Authorization value, URL-escaped, or escaped in
// any way inside a JSON string) with "[REDACTED]" in every field, Body
// included, for keys of at least minSecretLen bytes.
func (e *APIError) redact() {
	c := e.cred
	if c == nil || len(c.key) < minSecretLen {
		return
	}
	forms := []string{base64.StdEncoding.EncodeToString([]byte(c.key + ":")), c.key,
		url.QueryEscape(c.key), url.PathEscape(c.key)}
	scrub := func(s *string) {
		for _, f := range forms {
			*s = strings.ReplaceAll(*s, f, redacted)
		}
	}
	for _, s := range []*string{&e.Status, &e.ErrorCode, &e.ErrorMessage, &e.UserMessage, &e.OrderID} {
		scrub(s)
	}
	i := &e.Info
	for _, s := range []*string{&i.Code, &i.Category, &i.RequestID, &i.DeveloperMessage, &i.UserMessage} {
		scrub(s)
	}
	for j := range i.Fields {
		scrub(&i.Fields[j].FieldName)
		scrub(&i.Fields[j].Reason)
	}
	if len(e.Body) == 0 {
		return
	}
	body := string(e.Body)
	scrub(&body)
	e.Body = scrubJSONStrings([]byte(body), scrub)
}

// scrubJSONStrings applies scrub to the decoded text of every JSON string
// literal of body that holds an escape, so that an escaped form of a
// secret ("\u0041BC…") is found as well as a plain one.
func scrubJSONStrings(body []byte, scrub func(*string)) []byte {
	if bytes.IndexByte(body, '\\') < 0 {
		return body
	}
	var out []byte
	last := 0
	for i := 0; i < len(body); i++ {
		if body[i] != '"' {
			continue
		}
		end, esc := i+1, false
		for ; end < len(body) && body[end] != '"'; end++ {
			if body[end] == '\\' {
				esc = true
				end++
			}
		}
		if end >= len(body) {
			break
		}
		var text string
		if esc && json.Unmarshal(body[i:end+1], &text) == nil {
			was := text
			if scrub(&text); text != was {
				enc, _ := json.Marshal(text)
				out = append(append(out, body[last:i]...), enc...)
				last = end + 1
			}
		}
		i = end
	}
	if out == nil {
		return body
	}
	return append(out, body[last:]...)
}

// Error returns one line: the operation, the HTTP status and the service's
// code and message, shortened, without the body or the request.
func (e *APIError) Error() string {
	if e == nil {
		return "checkout: <nil *APIError>"
	}
	return e.message()
}

// Format prints Error() for every verb (%q quoted, %#v as GoString), never
// the Body.
func (e APIError) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		_, _ = io.WriteString(f, e.GoString())
	case verb == 'q':
		_, _ = io.WriteString(f, strconv.Quote(e.Error()))
	default:
		_, _ = io.WriteString(f, e.Error())
	}
}

// GoString is what %#v prints: the fields, the body by its length only.
func (e *APIError) GoString() string {
	if e == nil {
		return "(*checkout.APIError)(nil)"
	}
	q := strconv.Quote
	var b strings.Builder
	fmt.Fprintf(&b, "&checkout.APIError{HTTPStatus:%d, Status:%s, StatusID:%d, ErrorCode:%s, ErrorMessage:%s, UserMessage:%s",
		e.HTTPStatus, q(e.Status), e.StatusID, q(e.ErrorCode), q(e.ErrorMessage), q(e.UserMessage))
	i := e.Info
	fmt.Fprintf(&b, ", Info:checkout.ErrorInfo{Code:%s, Category:%s, RequestID:%s, DeveloperMessage:%s, UserMessage:%s, Fields:%d}",
		q(i.Code), q(i.Category), q(i.RequestID), q(i.DeveloperMessage), q(i.UserMessage), len(i.Fields))
	fmt.Fprintf(&b, ", OrderID:%s, RetryAfter:%s, Operation:%s, Body:%d bytes}", q(e.OrderID), e.RetryAfter, q(e.Operation), len(e.Body))
	return b.String()
}

// message builds Error(), each service field on one line and shortened.
func (e *APIError) message() string {
	line := oneLine
	var b strings.Builder
	b.WriteString("checkout: ")
	if e.Operation != "" {
		b.WriteString(e.Operation)
		b.WriteString(": ")
	}
	b.WriteString("HTTP ")
	b.WriteString(strconv.Itoa(e.HTTPStatus))
	if e.Status != "" {
		b.WriteString(" ")
		b.WriteString(line(e.Status, 40))
	}
	if e.ErrorCode != "" {
		b.WriteString(" [")
		b.WriteString(line(e.ErrorCode, 60))
		b.WriteString("]")
	}
	msg := e.ErrorMessage
	if msg == "" {
		msg = e.UserMessage
	}
	if msg == "" {
		msg = e.Info.Code
	}
	if msg == "" && e.OrderID != "" && e.notFound() {
		msg = "no order " + strconv.Quote(e.OrderID)
	}
	if msg == "" && e.HTTPStatus >= 300 && e.HTTPStatus <= 399 {
		msg = "the service answered with a redirect, which the client does not follow"
	}
	if msg == "" {
		msg = http.StatusText(e.HTTPStatus)
	}
	if msg != "" {
		b.WriteString(": ")
		b.WriteString(line(msg, maxMessage))
	}
	if e.Info.RequestID != "" {
		b.WriteString(" (request_id ")
		b.WriteString(line(e.Info.RequestID, 64))
		b.WriteString(")")
	}
	return b.String()
}

// Is matches the sentinel errors.
func (e *APIError) Is(target error) bool {
	if e == nil {
		return false
	}
	switch target {
	case ErrUnauthorized:
		return e.HTTPStatus == http.StatusUnauthorized
	case ErrForbidden:
		return e.HTTPStatus == http.StatusForbidden
	case ErrNotFound:
		return e.notFound()
	case ErrRateLimited:
		return e.HTTPStatus == http.StatusTooManyRequests
	case ErrServer:
		return e.HTTPStatus >= 500 && e.HTTPStatus <= 599
	case ErrInvalidRequest:
		switch e.HTTPStatus {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
			return false
		}
		return e.HTTPStatus >= 400 && e.HTTPStatus <= 499 && !e.notFound()
	}
	return false
}

// statusIDNotFound is the status_id of an order the service does not know.
const statusIDNotFound = 40

func (e *APIError) notFound() bool {
	if e.HTTPStatus == http.StatusNotFound {
		return true
	}
	return e.HTTPStatus >= 400 && e.HTTPStatus <= 499 &&
		(normStatus(e.Status) == "NOT_FOUND" || e.StatusID == statusIDNotFound)
}

// exists reports the service's answer that what a write would create
// (an order, a refund) exists already: its outcome is to be settled.
func (e *APIError) exists() bool {
	return e.HTTPStatus >= 400 && e.HTTPStatus <= 499 &&
		strings.Contains(strings.ToLower(e.ErrorMessage+" "+e.UserMessage), "already exist")
}

// normStatus makes "Not Found", "not_found" and "NOT_FOUND" equal.
func normStatus(s string) string {
	return strings.ReplaceAll(strings.ToUpper(strings.TrimSpace(s)), " ", "_")
}

// oneLine makes a message one line: control characters and runs of spaces
// become one space, and the text is cut at max runes.
func oneLine(s string, max int) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			if !space && b.Len() > 0 {
				space = true
			}
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= max {
			b.WriteString("…")
			return b.String()
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
