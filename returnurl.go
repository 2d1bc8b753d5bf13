package checkout

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Errors of VerifyReturn; match them with errors.Is. Their messages never
// hold the response key.
const (
	// ErrReturnSignatureMissing: the redirect has no signature parameter,
	// so nothing in it can be trusted.
	ErrReturnSignatureMissing = sentinel("checkout: verify return: the redirect has no signature")
	// ErrReturnAlgorithmUnknown: signature_algorithm is missing or is not
	// HMAC-SHA256, the only algorithm the service signs redirects with.
	ErrReturnAlgorithmUnknown = sentinel("checkout: verify return: unknown signature algorithm")
	// ErrReturnSignatureMismatch: the signature is not the one the response
	// key gives for these parameters: the redirect was altered, forged, or
	// checked with another merchant's (or environment's) key.
	ErrReturnSignatureMismatch = sentinel("checkout: verify return: signature does not match")
)

// ReturnAlgorithm is the signature_algorithm of the redirects VerifyReturn
// accepts.
const ReturnAlgorithm = "HMAC-SHA256"

// ReturnRedirect is what VerifyReturn read from a redirect whose signature
// it checked.
type ReturnRedirect struct {
	// OrderID is order_id, the merchant's order id.
	OrderID string
	// Status is status, for example "CHARGED" or "AUTHORIZATION_FAILED".
	Status string
	// StatusID is status_id (21 for CHARGED); 0 when it is absent or not
	// a number.
	StatusID int
	// Params are all the signed parameters: everything in the query but
	// signature and signature_algorithm, including any the merchant put in
	// its own return_url.
	Params url.Values
}

// VerifyReturn checks the signature of the redirect that brings the
// customer's browser back to your return_url after a payment
// (return_url?order_id=…&status=CHARGED&status_id=21&signature=…&signature_algorithm=HMAC-SHA256)
// and returns its order id and status. Pass r.URL.Query() and the response
// key from the service's dashboard. The signature is recomputed as the
// service computes it (HMAC-SHA256 over the other parameters, sorted and
// query-escaped) and compared in constant time. A redirect without a
// signature, with another algorithm, a wrong signature or a parameter given
// twice is refused (ErrReturnSignatureMissing, ErrReturnAlgorithmUnknown,
// ErrReturnSignatureMismatch).
//
// The redirect is only a hint for what to show the customer: it passes
// through the browser and a valid one can be replayed. Decide fulfilment
// with [Client.GetOrder] or the webhook.
func VerifyReturn(query url.Values, responseKey string) (ReturnRedirect, error) {
	if responseKey == "" {
		return ReturnRedirect{}, errors.New("checkout: verify return: the response key is empty")
	}
	sigs := query[returnSignatureParam]
	if len(sigs) == 0 || sigs[0] == "" {
		return ReturnRedirect{}, ErrReturnSignatureMissing
	}
	algs := query[returnAlgorithmParam]
	if len(algs) != 1 || !strings.EqualFold(algs[0], ReturnAlgorithm) {
		if len(algs) == 0 || algs[0] == "" {
			return ReturnRedirect{}, fmt.Errorf("%w: signature_algorithm is missing", ErrReturnAlgorithmUnknown)
		}
		return ReturnRedirect{}, fmt.Errorf("%w: %.40q (want %s)", ErrReturnAlgorithmUnknown, strings.Join(algs, ","), ReturnAlgorithm)
	}
	if len(sigs) > 1 {
		return ReturnRedirect{}, fmt.Errorf("%w: signature is given %d times", ErrReturnSignatureMismatch, len(sigs))
	}
	params := make(url.Values, len(query))
	for k, v := range query {
		if k == returnSignatureParam || k == returnAlgorithmParam {
			continue
		}
		if len(v) != 1 {
			// Signed once, read twice: a handler reading the other value
			// would trust what the signature does not cover.
			return ReturnRedirect{}, fmt.Errorf("%w: parameter %.40q is given %d times", ErrReturnSignatureMismatch, k, len(v))
		}
		params[k] = []string{v[0]}
	}
	if !signatureMatches(sigs[0], returnMAC(params, responseKey)) {
		return ReturnRedirect{}, ErrReturnSignatureMismatch
	}
	r := ReturnRedirect{OrderID: params.Get("order_id"), Status: params.Get("status"), Params: params}
	if id, err := strconv.Atoi(params.Get("status_id")); err == nil {
		r.StatusID = id
	}
	return r, nil
}

// signatureMatches compares the received signature with mac in constant
// time. The service escapes it once more than the other parameters, and a
// framework may unescape it again or turn "+" into spaces: each reading is
// tried, and only the MAC accepts.
func signatureMatches(got string, mac []byte) bool {
	candidates := [3]string{got, strings.ReplaceAll(got, " ", "+")}
	if u, err := url.QueryUnescape(got); err == nil {
		candidates[2] = u
	}
	ok := false
	for _, c := range candidates {
		// Strictly: the service writes canonical base64, and a lenient
		// decoder would take other spellings of the same bytes (non-zero
		// trailing bits, CR or LF anywhere) as the signature too.
		if c == "" || strings.ContainsAny(c, "\r\n") {
			continue
		}
		b, err := base64.StdEncoding.Strict().DecodeString(c)
		if err != nil {
			continue
		}
		if hmac.Equal(b, mac) {
			ok = true
		}
	}
	return ok
}

// The query parameters that carry a redirect's signature; every other
// parameter is signed.
const (
	returnSignatureParam = "signature"
	returnAlgorithmParam = "signature_algorithm"
)

// returnMessage is the text a redirect's signature covers: the signed
// parameters sorted by key, QueryEscape(key)=QueryEscape(value) joined
// with "&", the whole query-escaped once more; the first value of each.
func returnMessage(params url.Values) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		if k != returnSignatureParam && k != returnAlgorithmParam {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k))
		b.WriteByte('=')
		if v := params[k]; len(v) > 0 {
			b.WriteString(url.QueryEscape(v[0]))
		}
	}
	return url.QueryEscape(b.String())
}

// returnMAC returns the HMAC-SHA256 of returnMessage(params) under key.
func returnMAC(params url.Values, key string) []byte {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(returnMessage(params)))
	return m.Sum(nil)
}

// SignReturn returns the query string of a redirect signed as the service
// signs it under responseKey, for tests of your return handler: params
// (order_id, status, status_id, …, the first value of each) plus signature
// and signature_algorithm. [VerifyReturn] accepts it. params is not changed.
//
//	q := checkout.SignReturn(url.Values{"order_id": {"ord_1"}, "status": {"CHARGED"}}, key)
//	req := httptest.NewRequest(http.MethodGet, "/return?"+q, nil)
func SignReturn(params url.Values, responseKey string) string {
	q := make(url.Values, len(params)+2)
	for k, v := range params {
		if len(v) > 0 {
			q.Set(k, v[0])
		}
	}
	q.Set(returnSignatureParam, url.QueryEscape(base64.StdEncoding.EncodeToString(returnMAC(params, responseKey))))
	q.Set(returnAlgorithmParam, ReturnAlgorithm)
	return q.Encode()
}
