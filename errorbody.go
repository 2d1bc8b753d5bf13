package checkout

import (
	"cmp"
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

// fill sets e's fields from an error body, decoded into e itself: a value
// of the wrong JSON type for its field is left out (encoding/json decodes
// the others; Body keeps it), and a body that is not JSON fills none. An
// absent error_message or user_message is taken from error_info, else from
// the older body some endpoints still write ({"error": true,
// "errorMessage", "userMessage"}).
func (e *APIError) fill(body []byte) {
	if kindOf(body) != "object" {
		return
	}
	if decodeLenient(body, e) != nil {
		return // not JSON: json.Unmarshal checks the whole body before it sets a field
	}
	var older struct {
		ErrorMessage string `json:"errorMessage"`
		UserMessage  string `json:"userMessage"`
	}
	_ = decodeLenient(body, &older) // body decoded above
	e.ErrorMessage = cmp.Or(e.ErrorMessage, e.Info.DeveloperMessage, older.ErrorMessage)
	e.UserMessage = cmp.Or(e.UserMessage, e.Info.UserMessage, older.UserMessage)
}
