package checkout

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// RetryPolicy says how often and how long the client retries a call that
// can safely be retried (see the package doc). The zero value disables
// retries. A zero MinWait or MaxWait takes the default of
// [DefaultRetryPolicy] (200 ms, 5 s), bent to fit the other when only one
// is set; a negative one is an option error ([ErrInvalidOption]).
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt (0–10).
	MaxRetries int
	// MinWait is the base of the backoff: before retry n (from 0) the
	// client waits a random time up to min(MaxWait, MinWait·2ⁿ), and never
	// less than MinWait when the service sends a Retry-After.
	MinWait time.Duration
	// MaxWait caps every wait, a Retry-After included.
	MaxWait time.Duration
}

// DefaultRetryPolicy is the policy of a client built without [WithRetry]:
// two retries, waits between 200 ms and 5 s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 2, MinWait: 200 * time.Millisecond, MaxWait: 5 * time.Second}
}

// resolved checks p and fills a zero MinWait or MaxWait.
func (p RetryPolicy) resolved() (RetryPolicy, error) {
	switch {
	case p.MaxRetries < 0 || p.MaxRetries > 10:
		return p, optErr("retry: MaxRetries %d is outside 0–10", p.MaxRetries)
	case p.MinWait < 0:
		return p, optErr("retry: MinWait %s is negative", p.MinWait)
	case p.MaxWait < 0:
		return p, optErr("retry: MaxWait %s is negative", p.MaxWait)
	case p.MinWait > 0 && p.MaxWait > 0 && p.MaxWait < p.MinWait:
		return p, optErr("retry: MaxWait %s is less than MinWait %s", p.MaxWait, p.MinWait)
	}
	def := DefaultRetryPolicy()
	if p.MinWait == 0 {
		p.MinWait = def.MinWait
		if p.MaxWait > 0 && p.MaxWait < p.MinWait {
			p.MinWait = p.MaxWait
		}
	}
	if p.MaxWait == 0 {
		p.MaxWait = max(def.MaxWait, p.MinWait)
	}
	return p, nil
}

// newRetryClient returns the one go-retryablehttp client of c.
func (c *Client) newRetryClient() *retryablehttp.Client {
	hc := *c.hc
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	// The wrapper hides CloseIdleConnections, which go-retryablehttp calls
	// when it gives up: one failing call must not drop the pool.
	hc.Transport = attemptTransport{rt}
	// Never follow a redirect, whatever client was given: a followed 303
	// turns a refund POST into a GET, and carries Authorization elsewhere.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.hc = &hc
	return &retryablehttp.Client{
		HTTPClient:   c.hc,
		RetryMax:     c.retry.MaxRetries,
		RetryWaitMin: c.retry.MinWait,
		RetryWaitMax: c.retry.MaxWait,
		CheckRetry:   checkRetry,
		Backoff:      backoff,
		ErrorHandler: giveUp,
	}
}

// attemptTransport starts each attempt of a call: it counts it, resets
// what the call's trace saw, and tells the Observer.
type attemptTransport struct{ rt http.RoundTripper }

func (t attemptTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	cl, ok := r.Context().Value(callKey{}).(*call)
	if !ok {
		return t.rt.RoundTrip(r)
	}
	cl.n++
	cl.sent.Store(false)
	cl.attempt = time.Now()
	if o := cl.c.observer; o != nil { // the attempt's context reaches the transport below
		cl.actx = o.StartAttempt(r.Context(), cl.obs, cl.n)
		r = r.WithContext(cl.actx)
	}
	return t.rt.RoundTrip(r)
}

// endAttempt tells the Observer that the current attempt ended.
func (cl *call) endAttempt(resp *http.Response, err error) {
	o := cl.c.observer
	if o == nil || cl.actx == nil {
		return
	}
	if err != nil {
		err = &TransportError{Err: err}
	}
	a := Attempt{Number: cl.n, ErrorKind: errorKind(err), MaybeDelivered: cl.sent.Load(), Duration: time.Since(cl.attempt)}
	if resp != nil {
		a.HTTPStatus = resp.StatusCode
		if err == nil && (a.HTTPStatus < 200 || a.HTTPStatus > 299) {
			a.ErrorKind = ErrorKindHTTP
		}
		a.MaybeDelivered = err != nil || a.HTTPStatus != http.StatusTooManyRequests && a.HTTPStatus != http.StatusServiceUnavailable
	}
	o.EndAttempt(cl.actx, cl.obs, a)
	cl.actx = nil
}

// checkRetry is the retry rule of the package doc. It logs the attempt,
// notes whether it may have been delivered, and gives up when the longest
// wait before the next attempt would reach the context's deadline.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	cl, ok := ctx.Value(callKey{}).(*call)
	if !ok {
		return false, errors.New("request without call state")
	}
	cl.log(ctx, resp, err)
	if resp != nil && err == nil {
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			cl.delivered = true
		}
	} else if cl.sent.Load() {
		cl.delivered = true
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	retry := cl.retryable(resp, err)
	p := cl.c.retry
	if !retry || cl.n > p.MaxRetries {
		return retry, nil // no retry, or none left: go-retryablehttp stops without waiting
	}
	if deadline, ok := ctx.Deadline(); ok {
		if left, wait := time.Until(deadline), longestWait(p.MinWait, p.MaxWait, cl.n-1, resp); wait >= left {
			cl.logGiveUp(ctx, wait, left)
			return false, nil
		}
	}
	cl.endAttempt(resp, err)
	return true, nil
}

// retryable is the retry rule of checkRetry, without the deadline.
func (cl *call) retryable(resp *http.Response, err error) bool {
	if err != nil {
		if permanent(err) {
			return false
		}
		return cl.idempotent || !cl.sent.Load()
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return cl.idempotent
	}
	return false
}

// permanent reports transport errors that no retry can fix.
func permanent(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		verify           *tls.CertificateVerificationError
	)
	if errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &verify) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "unsupported protocol scheme") ||
		strings.Contains(msg, "stopped after") && strings.Contains(msg, "redirects") ||
		strings.Contains(msg, "invalid header")
}

// giveUp hands back the last response (its body becomes an *APIError) or
// the last transport error.
func giveUp(resp *http.Response, err error, _ int) (*http.Response, error) {
	if err == nil && resp != nil {
		return resp, nil
	}
	if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
		resp.Body.Close()
	}
	if err == nil {
		err = errors.New("request failed")
	}
	return nil, err
}

// backoff is a 429's or 503's Retry-After held within [min, max], else a
// random time in [0, min(max, min·2ⁿ)] (full jitter).
func backoff(min, max time.Duration, n int, resp *http.Response) time.Duration {
	d, asked := waitCeiling(min, max, n, resp)
	if asked || d <= 0 {
		return d
	}
	return rand.N(d + 1)
}

// longestWait is the longest wait backoff may choose before retry n.
func longestWait(min, max time.Duration, n int, resp *http.Response) time.Duration {
	d, _ := waitCeiling(min, max, n, resp)
	return d
}

// waitCeiling is the Retry-After wait the service asked for (asked), or
// the ceiling of the jittered backoff.
func waitCeiling(min, max time.Duration, n int, resp *http.Response) (d time.Duration, asked bool) {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return minMax(d, min, max), true
		}
	}
	ceil := max
	if n < 62 && min > 0 {
		if exp := min << uint(n); exp > 0 && exp < max {
			ceil = exp
		}
	}
	return ceil, false
}

func minMax(d, lo, hi time.Duration) time.Duration { return min(max(d, lo), hi) }
