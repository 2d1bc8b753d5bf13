package checkout

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// newAPIError builds the APIError of a non-2xx response that asked to
// wait retryAfter (see classify), the key of cred redacted before the body
// is cut (so no cut leaves a part of it).
func newAPIError(op string, status int, retryAfter time.Duration, body []byte, cred *credential) *APIError {
	e := &APIError{HTTPStatus: status, Operation: op, cred: cred, Body: body, RetryAfter: retryAfter}
	e.redact()
	body = e.Body
	if len(body) > maxErrorBody {
		body = body[:maxErrorBody]
	}
	e.Body = body
	e.fill(body)
	e.redact()
	return e
}

// maxRetryAfter caps APIError.RetryAfter, in either form of the header.
const maxRetryAfter = 24 * time.Hour

// parseRetryAfter reads a Retry-After header: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter), true
	}
	return 0, false
}

// errorBody is an error body as the service's endpoints write it: text
// as a number or boolean, status_id as text, error_info as "FILTERED".
type errorBody struct {
	Status       json.RawMessage   `json:"status"`
	StatusID     Int               `json:"status_id"`
	ErrorCode    json.RawMessage   `json:"error_code"`
	ErrorMessage string            `json:"error_message"` // text only, else error_info's
	UserMessage  string            `json:"user_message"`  // text only, else error_info's
	Info         object[errorInfo] `json:"error_info"`
	OrderID      json.RawMessage   `json:"order_id"`
}

// errorInfo is the error_info of an errorBody.
type errorInfo struct {
	Code             json.RawMessage `json:"code"`
	Category         json.RawMessage `json:"category"`
	RequestID        json.RawMessage `json:"request_id"`
	DeveloperMessage json.RawMessage `json:"developer_message"`
	UserMessage      json.RawMessage `json:"user_message"`
	Fields           []struct {
		FieldName json.RawMessage `json:"field_name"`
		Reason    json.RawMessage `json:"reason"`
	} `json:"fields"`
}

// fill sets e's fields from an error body. What fits no field is left out
// (encoding/json decodes the others); a body that is not JSON fills none.
func (e *APIError) fill(body []byte) {
	var w errorBody
	_ = json.Unmarshal(body, &w)
	e.Status, e.StatusID, e.ErrorCode, e.OrderID = textOf(w.Status), int(w.StatusID), textOf(w.ErrorCode), textOf(w.OrderID)
	e.ErrorMessage, e.UserMessage = w.ErrorMessage, w.UserMessage
	i := w.Info.v
	if i == nil { // absent, null or "FILTERED"
		return
	}
	e.Info = &ErrorInfo{Code: textOf(i.Code), Category: textOf(i.Category), RequestID: textOf(i.RequestID),
		DeveloperMessage: textOf(i.DeveloperMessage), UserMessage: textOf(i.UserMessage)}
	for _, f := range i.Fields {
		e.Info.Fields = append(e.Info.Fields, FieldError{FieldName: textOf(f.FieldName), Reason: textOf(f.Reason)})
	}
	if e.UserMessage == "" {
		e.UserMessage = e.Info.UserMessage
	}
	if e.ErrorMessage == "" {
		e.ErrorMessage = e.Info.DeveloperMessage
	}
}

// textOf reads a JSON string as its text and a number or boolean as its JSON
// text ("7", "false"); any other value is "".
func textOf(raw json.RawMessage) string {
	var v any
	switch _ = json.Unmarshal(raw, &v); v := v.(type) {
	case string:
		return v
	case float64, bool:
		return string(bytes.TrimSpace(raw))
	}
	return ""
}
