package checkout

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
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

// ValidationError lists every problem found in a request before anything was
// sent; it matches [ErrInvalidRequest]. Each [Problem]'s Path is the JSON path of the field as the service
// spells it ("mandate.max_amount", "payment_filter.options[0].cardFilters[1]").
// It is the same type for every package of the SDK, so one errors.As catches
// the problems of a session request and of the filters inside it.
type ValidationError = validation.Error

// Problem is one entry of a [ValidationError]: a JSON path and what is wrong
// there.
type Problem = validation.Problem

// sentinel is the type of the package's sentinel errors: constants, so no
// importer can reassign one for the whole process.
type sentinel string

// Error returns the sentinel's message.
func (s sentinel) Error() string { return string(s) }

// Sentinel errors to match with errors.Is. An [*APIError] matches one of the
// first six by its HTTP status and the service's own status field; a
// [*ValidationError] matches [ErrInvalidRequest].
const (
	// ErrUnauthorized matches HTTP 401: the API key or merchant id was refused.
	ErrUnauthorized = sentinel("checkout: unauthorized")
	// ErrForbidden matches HTTP 403.
	ErrForbidden = sentinel("checkout: forbidden")
	// ErrNotFound matches HTTP 404 and any 4xx error whose status is
	// "NOT_FOUND" or whose status_id is 40 (the service reports an unknown
	// order as HTTP 400 with that status; [APIError.OrderID] names the
	// order). Other missing things inside a known order, such as a
	// transaction (a 400 whose error_info.code is RESOURCE_NOT_FOUND), are
	// ErrInvalidRequest: the order itself exists.
	ErrNotFound = sentinel("checkout: not found")
	// ErrInvalidRequest matches the other 4xx responses except 429: the
	// service refused the request's content. A [*ValidationError] (a
	// request refused before it was sent) matches it too.
	ErrInvalidRequest = validation.ErrInvalidRequest
	// ErrRateLimited matches HTTP 429.
	ErrRateLimited = sentinel("checkout: rate limited")
	// ErrServer matches HTTP 5xx.
	ErrServer = sentinel("checkout: server error")
	// ErrInvalidOption is matched by every error about a client [Option] or
	// a per-call [RequestOption] ([NewClient] and the calls return it; none
	// panics).
	ErrInvalidOption = sentinel("checkout: invalid option")
	// ErrInvalidClient is matched by the error every method of a nil
	// *Client, or of a [Client] not made by [NewClient] (the zero value),
	// returns instead of panicking. Nothing is sent.
	ErrInvalidClient = sentinel("checkout: client is nil or not made by NewClient")
)

// maxErrorBody bounds APIError.Body.
const maxErrorBody = 64 << 10

// maxMessage bounds the service messages quoted by APIError.Error.
const maxMessage = 200

// APIError is a non-2xx reply of the service. The body shapes it decodes are
// those of the service's published error samples:
//
//	{"status": "ERROR", "status_id": -1, "error_code": "INVALID_REQUEST",
//	 "error_message": "…", "error_info": {"code": "…", "user_message": "…", "fields": […]}}
//
// Every field is optional and holds the service's text unchanged; a body
// that is not JSON (a proxy's HTML page) leaves them empty and is kept in
// Body. Error() and %#v never show the client's API key (see
// [APIError.Error]). Match kinds of failure with errors.Is and the sentinels
// ([ErrNotFound], [ErrRateLimited], …).
type APIError struct {
	// HTTPStatus is the response status code.
	HTTPStatus int `json:"-"`
	// Status is the body's status ("ERROR", "Bad Request", "NOT_FOUND", …).
	Status string `json:"status,omitempty"`
	// StatusID is the body's status_id, 0 when absent. The service sends
	// it as a number or as text ("-1"); both are read.
	StatusID int `json:"status_id,omitempty"`
	// ErrorCode is the body's error_code.
	ErrorCode string `json:"error_code,omitempty"`
	// ErrorMessage is the body's error_message (or, when absent, the
	// developer message of error_info).
	ErrorMessage string `json:"error_message,omitempty"`
	// UserMessage is a message meant for the customer: user_message of the
	// body or of error_info.
	UserMessage string `json:"user_message,omitempty"`
	// Info is the body's error_info, nil when absent or not an object.
	Info *ErrorInfo `json:"error_info,omitempty"`
	// OrderID is the order the error is about: the body's order_id (the
	// service names the order in its order-not-found reply), else the
	// order id the call was made with ([Client.GetOrder], [Client.Refund],
	// [Client.RefundTransaction] by order); empty for calls about no one
	// order.
	OrderID string `json:"order_id,omitempty"`
	// RetryAfter is the delay the service asked for with a Retry-After header
	// (429, 503), zero when none.
	RetryAfter time.Duration `json:"-"`
	// Operation names the call that failed as its error string does:
	// "create session", "get order", "refund", "refund transaction", ….
	Operation string `json:"-"`
	// Body is the response body as received (at most 64 KiB). It is never
	// part of Error().
	Body []byte `json:"-"`

	// cred is the credential of the client that received the reply, whose
	// key redact replaces; nil for an APIError built by hand.
	cred *credential
}

// ErrorInfo is the error_info object of an error body: the service's
// details, such as the request id to quote to its support and the request
// fields it refused.
type ErrorInfo struct {
	// Code is error_info.code, for example "INVALID_INPUT" or "UNAUTHORIZED".
	Code string `json:"code,omitempty"`
	// Category is error_info.category, for example "USER_ERROR".
	Category string `json:"category,omitempty"`
	// RequestID is error_info.request_id: quote it to the service's support.
	RequestID string `json:"request_id,omitempty"`
	// DeveloperMessage is error_info.developer_message.
	DeveloperMessage string `json:"developer_message,omitempty"`
	// UserMessage is error_info.user_message.
	UserMessage string `json:"user_message,omitempty"`
	// Fields lists the request fields the service refused.
	Fields []FieldError `json:"fields,omitempty"`
}

// FieldError is one element of error_info.fields.
type FieldError struct {
	// FieldName is field_name, the request key the service refused.
	FieldName string `json:"field_name,omitempty"`
	// Reason is why.
	Reason string `json:"reason,omitempty"`
}

// minSecretLen is the shortest API key that is redacted from an error
// reply. A shorter "key" (such as "k" or "key" in a test) is no secret, and
// replacing its text would garble ordinary words.
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
	if i := e.Info; i != nil {
		for _, s := range []*string{&i.Code, &i.Category, &i.RequestID, &i.DeveloperMessage, &i.UserMessage} {
			scrub(s)
		}
		for j := range i.Fields {
			scrub(&i.Fields[j].FieldName)
			scrub(&i.Fields[j].Reason)
		}
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
// code and message (shortened, control characters removed). It never holds
// the response body or the request. Should the service echo the client's
// credentials, every field of the error, Body included, holds "[REDACTED]"
// in place of the API key and of its base64 form (the Authorization value),
// for keys of at least 8 bytes, as shorter ones are no real secret. A nil
// *APIError says so instead of panicking.
func (e *APIError) Error() string {
	if e == nil {
		return "checkout: <nil *APIError>"
	}
	return e.message()
}

// Format prints the error for every verb: %#v as GoString, %q as the
// quoted Error(), and every other verb (%v, %+v, %s, %d, %x…) as Error(),
// so that no verb prints the Body or a field not meant for a log line.
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

// MarshalJSON encodes the fields the error body had, under the service's
// keys (the API key redacted, see [APIError.Error]). HTTPStatus,
// RetryAfter, Operation and Body are left out, as they are not part of
// the body.
func (e APIError) MarshalJSON() ([]byte, error) {
	type plain APIError
	return marshalNoEscape(plain(e))
}

// GoString is what %#v prints: the fields, with the body shown by its
// length only.
func (e *APIError) GoString() string {
	if e == nil {
		return "(*checkout.APIError)(nil)"
	}
	q := strconv.Quote
	var b strings.Builder
	fmt.Fprintf(&b, "&checkout.APIError{HTTPStatus:%d, Status:%s, StatusID:%d, ErrorCode:%s, ErrorMessage:%s, UserMessage:%s",
		e.HTTPStatus, q(e.Status), e.StatusID, q(e.ErrorCode), q(e.ErrorMessage), q(e.UserMessage))
	if i := e.Info; i != nil {
		fmt.Fprintf(&b, ", Info:&checkout.ErrorInfo{Code:%s, Category:%s, RequestID:%s, DeveloperMessage:%s, UserMessage:%s, Fields:%d}",
			q(i.Code), q(i.Category), q(i.RequestID), q(i.DeveloperMessage), q(i.UserMessage), len(i.Fields))
	}
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
	if msg == "" && e.Info != nil {
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
	if e.Info != nil && e.Info.RequestID != "" {
		b.WriteString(" (request_id ")
		b.WriteString(line(e.Info.RequestID, 64))
		b.WriteString(")")
	}
	return b.String()
}

// Is matches the sentinel errors: see ErrUnauthorized and the others.
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

// aboutOrder gives an *APIError returned by a call about the order
// orderID that order id, unless its body named one.
func aboutOrder(err error, orderID string) error {
	var e *APIError
	if errors.As(err, &e) && e.OrderID == "" {
		e.OrderID = orderID
	}
	return err
}

// normStatus upper-cases a status and turns spaces into underscores, so that
// "Not Found", "not_found" and "NOT_FOUND" compare equal.
func normStatus(s string) string {
	return strings.ReplaceAll(strings.ToUpper(strings.TrimSpace(s)), " ", "_")
}

// oneLine makes a service-supplied message safe for a one-line error: control
// characters become spaces, runs of spaces collapse, and the text is cut at
// max runes.
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
