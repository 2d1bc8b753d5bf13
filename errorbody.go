package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// decodeAPIError is newAPIError without a key to redact.
func decodeAPIError(op string, status int, header http.Header, body []byte, now time.Time) *APIError {
	return newAPIError(op, status, header, body, now, nil)
}

// newAPIError builds the APIError of a non-2xx response, the key of cred
// redacted before the body is cut (so no cut leaves a part of it).
func newAPIError(op string, status int, header http.Header, body []byte, now time.Time, cred *credential) *APIError {
	e := &APIError{HTTPStatus: status, Operation: op, cred: cred, Body: body}
	e.redact()
	body = e.Body
	if len(body) > maxErrorBody {
		body = body[:maxErrorBody]
	}
	e.Body = body
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		if d, ok := parseRetryAfter(header.Get("Retry-After"), now); ok {
			e.RetryAfter = d
		}
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return e
	}
	_ = json.Unmarshal(body, e) // redacts what it decodes
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

// UnmarshalJSON reads the service's error bodies, whose endpoints write
// text as numbers, status_id as text and error_info as "FILTERED": what
// fits no field is left out; only malformed JSON is an error.
func (e *APIError) UnmarshalJSON(data []byte) error {
	if e == nil {
		return errors.New("checkout: APIError.UnmarshalJSON on nil pointer")
	}
	var w struct {
		Status       looseText       `json:"status"`
		StatusID     looseInt        `json:"status_id"`
		ErrorCode    looseText       `json:"error_code"`
		ErrorMessage onlyText        `json:"error_message"`
		UserMessage  onlyText        `json:"user_message"`
		Info         json.RawMessage `json:"error_info"`
		OrderID      looseText       `json:"order_id"`
	}
	if ok, err := readErrorObject(data, &w); !ok {
		return err
	}
	e.Status, e.StatusID, e.ErrorCode = string(w.Status), int(w.StatusID), string(w.ErrorCode)
	e.ErrorMessage, e.UserMessage, e.Info, e.OrderID = string(w.ErrorMessage), string(w.UserMessage), nil, string(w.OrderID)
	if replyKind(w.Info) == "an object" { // else absent, null or "FILTERED"
		e.Info = new(ErrorInfo)
		_ = json.Unmarshal(w.Info, e.Info)
		if e.UserMessage == "" {
			e.UserMessage = e.Info.UserMessage
		}
		if e.ErrorMessage == "" {
			e.ErrorMessage = e.Info.DeveloperMessage
		}
	}
	e.redact()
	return nil
}

// looseText is a string, or a number or boolean read as its text.
type looseText string

func (t *looseText) UnmarshalJSON(data []byte) error {
	switch replyKind(data) {
	case "a JSON string":
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*t = looseText(s)
	case "a JSON number", "a JSON boolean":
		*t = looseText(bytes.TrimSpace(data))
	}
	return nil
}

// onlyText is text only from a JSON string (else error_info's is used).
type onlyText string

func (t *onlyText) UnmarshalJSON(data []byte) error {
	if replyKind(data) != "a JSON string" {
		return nil
	}
	return json.Unmarshal(data, (*string)(t))
}

// looseInt is a JSON number or text holding one ("-1").
type looseInt int

func (n *looseInt) UnmarshalJSON(data []byte) error {
	text := string(bytes.TrimSpace(data))
	if replyKind(data) == "a JSON string" && json.Unmarshal(data, &text) != nil {
		return nil
	}
	text = strings.TrimSpace(text)
	if v, err := strconv.Atoi(text); err == nil {
		*n = looseInt(v)
	} else if f, err := strconv.ParseFloat(text, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
		*n = looseInt(f)
	}
	return nil
}

// UnmarshalJSON reads error_info as the service's endpoints write it: a
// number or boolean where text is expected is read as its text. A value
// that is not an object leaves i unchanged.
func (i *ErrorInfo) UnmarshalJSON(data []byte) error {
	if i == nil {
		return errors.New("checkout: ErrorInfo.UnmarshalJSON on nil pointer")
	}
	var w struct {
		Code             looseText    `json:"code"`
		Category         looseText    `json:"category"`
		RequestID        looseText    `json:"request_id"`
		DeveloperMessage looseText    `json:"developer_message"`
		UserMessage      looseText    `json:"user_message"`
		Fields           []FieldError `json:"fields"`
	}
	if ok, err := readErrorObject(data, &w); !ok {
		return err
	}
	*i = ErrorInfo{Code: string(w.Code), Category: string(w.Category), RequestID: string(w.RequestID),
		DeveloperMessage: string(w.DeveloperMessage), UserMessage: string(w.UserMessage), Fields: w.Fields}
	return nil
}

// UnmarshalJSON reads one refused field, its text given as text or as a
// number or boolean. A value that is not an object leaves f unchanged.
func (f *FieldError) UnmarshalJSON(data []byte) error {
	if f == nil {
		return errors.New("checkout: FieldError.UnmarshalJSON on nil pointer")
	}
	var w struct {
		FieldName looseText `json:"field_name"`
		Reason    looseText `json:"reason"`
	}
	if ok, err := readErrorObject(data, &w); !ok {
		return err
	}
	*f = FieldError{FieldName: string(w.FieldName), Reason: string(w.Reason)}
	return nil
}

// readErrorObject decodes data into w when it is a JSON object, leaving out
// a value that fits no field; any other value decodes nothing.
func readErrorObject(data []byte, w any) (bool, error) {
	if replyKind(data) != "an object" {
		return false, nil
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(data, w); err != nil && !errors.As(err, &te) {
		return false, err
	}
	return true, nil
}
