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

// RetryPolicy says how often and how long the client retries a call that can
// safely be retried: one whose request cannot have reached the service, one
// the service answered with 429 or 503, and any failure of [Client.GetOrder]
// (see [Client]). The zero value disables retries.
//
// A zero MinWait or MaxWait stands for the value of [DefaultRetryPolicy] (200 ms
// and 5 s), so RetryPolicy{MaxRetries: 2} waits between attempts like the
// default policy instead of retrying in a tight loop. When only one of them
// is set, the default of the other is bent to fit: a zero MinWait becomes
// min(200 ms, MaxWait) and a zero MaxWait becomes max(5 s, MinWait). A
// negative wait is an option error ([ErrInvalidOption]). To retry with almost
// no wait, as tests do, set tiny positive values such as time.Millisecond.
//
// The client never starts a wait that cannot end before the context's
// deadline: when the wait before the next attempt (a Retry-After capped at
// MaxWait, or the jittered backoff) would reach the deadline, it makes no
// further attempt and returns the last result at once. For a 429 or 503
// that is the [*APIError], matching [ErrRateLimited] or [ErrServer], with
// RetryAfter as the service sent it, so the caller can schedule the retry
// itself; after a transport failure it is that [*TransportError]. The wait is chosen
// before it starts, so a call with a deadline ends by then with the
// service's answer instead of context.DeadlineExceeded.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt (0–10).
	MaxRetries int
	// MinWait is the base of the exponential backoff: before retry n (from 0)
	// the client waits a random time between 0 and min(MaxWait, MinWait·2ⁿ)
	// ("full jitter"). It is also the least the client waits when the
	// service sends a shorter Retry-After (such as "0"). Zero means 200 ms
	// (see RetryPolicy); negative is an error.
	MinWait time.Duration
	// MaxWait caps every wait, including a Retry-After the service asks for
	// (a longer Retry-After is cut to MaxWait). Zero means 5 s (see
	// RetryPolicy); negative is an error.
	MaxWait time.Duration
}

// DefaultRetryPolicy is the policy of a client built without [WithRetry]:
// two retries, waits between 200 ms and 5 s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 2, MinWait: 200 * time.Millisecond, MaxWait: 5 * time.Second}
}

// resolved checks p and replaces a zero MinWait or MaxWait by its default
// as RetryPolicy documents.
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

// newRetryClient returns the go-retryablehttp client shared by every call
// of c, with our retry policy, backoff and error handler and no logger of
// its own.
func (c *Client) newRetryClient() *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   c.hc,
		RetryMax:     c.retry.MaxRetries,
		RetryWaitMin: c.retry.MinWait,
		RetryWaitMax: c.retry.MaxWait,
		RequestLogHook: func(_ retryablehttp.Logger, r *http.Request, i int) {
			if at, ok := r.Context().Value(attemptKey{}).(*attempt); ok {
				at.n = i + 1
				at.gotConn.Store(false)
				at.wrote.Store(false)
				at.start = time.Now()
			}
		},
		CheckRetry:   checkRetry,
		Backoff:      backoff,
		ErrorHandler: giveUp,
	}
}

// checkRetry is the retry policy of Client's doc: retry what cannot have taken
// effect (no connection was made: dial or TLS handshake failed), what the
// service asks to be retried (429, 503), and, for idempotent calls only,
// ambiguous failures (a transport error after the request was sent, 500, 502,
// 504). It also logs the attempt.
//
// When a retry follows, checkRetry chooses the wait before it (backoff) and
// gives up instead when that wait would reach the context's deadline (see
// RetryPolicy): go-retryablehttp then returns the last reply or error at
// once rather than sleeping into context.DeadlineExceeded.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	at, ok := ctx.Value(attemptKey{}).(*attempt)
	if !ok {
		return false, errors.New("request without call state")
	}
	at.log(ctx, resp, err)
	at.noteDelivery(resp, err)
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	retry := retryable(at, resp, err)
	if !retry || at.n > at.c.retry.MaxRetries {
		// No retry, or none left: go-retryablehttp stops without waiting.
		return retry, nil
	}
	at.wait = backoff(at.c.retry.MinWait, at.c.retry.MaxWait, at.n-1, resp)
	if deadline, ok := ctx.Deadline(); ok {
		if left := time.Until(deadline); at.wait >= left {
			at.logGiveUp(ctx, left)
			return false, nil
		}
	}
	return true, nil
}

// chosenWait is the Backoff of a call: the wait checkRetry chose.
func (at *attempt) chosenWait(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
	return at.wait
}

// retryable is the retry rule of checkRetry, without the deadline.
func retryable(at *attempt, resp *http.Response, err error) bool {
	if err != nil {
		if permanent(err) {
			return false
		}
		if at.call.idempotent {
			return true
		}
		// Nothing can have reached the service when no connection was
		// obtained and no header was written.
		return !at.mayHaveSent()
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return at.call.idempotent
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

// giveUp is the ErrorHandler: after the last attempt it hands back the last
// response (so its body becomes an *APIError) or the last transport error,
// which do wraps in a *TransportError with the number of attempts.
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

// backoff waits as the service asks with Retry-After on 429 and 503, but
// never less than min (a "Retry-After: 0" must not make a tight loop) nor
// longer than max; else a random time in [0, min(max, min·2ⁿ)] (full
// jitter).
func backoff(min, max time.Duration, n int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			if d < min {
				d = min
			}
			if d > max {
				d = max
			}
			return d
		}
	}
	ceil := max
	if n < 62 && min > 0 {
		if exp := min << uint(n); exp > 0 && exp < max {
			ceil = exp
		}
	}
	if ceil <= 0 {
		return 0
	}
	return rand.N(ceil + 1)
}
