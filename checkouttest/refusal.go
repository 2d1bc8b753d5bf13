package checkouttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// The fake refuses a request exactly when package checkout's own decoding
// or Validate refuses it; this file words that refusal as the service's
// 400 reply. A problem at a key the body does not hold is a missing field
// ("Mandatory fields are missing"); any other is an invalid value
// (INVALID_REQUEST).

// refuse adds the problems of err, the error of decoding or validating a
// request, to p. body is the request as sent, a JSON value decoded with
// numbers kept as text (jsonDoc) or a form (formDoc), for telling a missing
// field from a wrong one. An error that is not a *validation.Error is a
// problem with the body as a whole.
func (p *problems) refuse(err error, body any) {
	var ve *validation.Error
	if !errors.As(err, &ve) {
		p.bad("body", err.Error())
		return
	}
	for _, pr := range ve.Problems {
		switch {
		case pr.Path == "":
			p.bad("body", pr.Message)
		case holds(body, pr.Path):
			p.bad(pr.Path, pr.Message)
		default:
			p.miss(pr.Path)
		}
	}
}

// jsonDoc decodes a JSON body for holds; nil when it is not JSON.
func jsonDoc(body []byte) any {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// formDoc is a form as holds reads it: an object of its first values.
func formDoc(form url.Values) any {
	m := make(map[string]any, len(form))
	for k, vs := range form {
		if len(vs) > 0 {
			m[k] = vs[0]
		}
	}
	return m
}

// holds reports whether doc holds something at path, a problem's path
// such as "payment_filter.options[0].enable" or "mandate.max_amount" (a
// top-level key with a dot in it). Text that holds JSON (product_summary,
// payment_collection_link_details) is looked into. A path that goes on
// below a scalar is held: the scalar is there, only wrong.
func holds(doc any, path string) bool {
	if unq, err := strconv.Unquote(path); err == nil {
		path = unq // a key that is not valid UTF-8 is named quoted
	}
	for path != "" {
		switch v := doc.(type) {
		case map[string]any:
			best := ""
			for k := range v {
				if len(k) > len(best) && (path == k || strings.HasPrefix(path, k+".") || strings.HasPrefix(path, k+"[")) {
					best = k
				}
			}
			if best == "" {
				return false
			}
			doc, path = v[best], strings.TrimPrefix(path[len(best):], ".")
		case []any:
			if path[0] != '[' {
				return true // a path below the array that names no element: the array is there
			}
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return false
			}
			i, err := strconv.Atoi(path[1:end])
			if err != nil || i < 0 || i >= len(v) {
				return false
			}
			doc, path = v[i], strings.TrimPrefix(path[end+1:], ".")
		case string:
			inner := jsonDoc([]byte(v))
			if inner == nil {
				return true
			}
			doc = inner
		default:
			return true
		}
	}
	return true
}
