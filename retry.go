package checkout

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"
)

// RetryPolicy says how often and how long the client retries a call that
// can safely be retried (see the package doc). The zero value disables
// retries and replays. A zero MinWait or MaxWait takes the default of
// [DefaultRetryPolicy] (200 ms, 5 s), bent to fit the other when only one
// is set; a negative one is an option error ([ErrInvalidOption]).
type RetryPolicy struct {
	// MaxRetries is the number of requests after the first (0–10): retries
	// of a read, and for a write every retry or replayed send together, so
	// one write is sent at most MaxRetries+1 times.
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

// outcome is the client's one answer about a request that failed, or got a
// reply: whether it reached the service, whether it may have taken effect,
// and whether sending it again is safe, after which wait. The retries, the
// settle step of a write, the Observer, [TransportError.MaybeDelivered],
// [APIError.RetryAfter] and [Client.AwaitFinal] all read it.
type outcome struct {
	reached bool          // the request may have reached the service
	effect  bool          // it failed after the service may have acted on it: a write's outcome is unknown
	retry   bool          // sending it again is safe and may succeed
	wait    time.Duration // the wait the service asked for (Retry-After, at most 24 h)
	asked   bool          // the service asked for wait (a readable Retry-After on a 429 or 503)
}

// classify is the outcome of one request, a write or not, that ended with
// the reply status (0 when none came) and err: the exchange's failure, or
// the failure to read, open, decode or trust a reply (an [*APIError] for a
// non-2xx one). sent says whether the request got a connection or wrote
// its headers; header holds the reply's headers.
func classify(write, sent bool, status int, header http.Header, err error) outcome {
	switch {
	case status == 0: // no reply: the exchange failed
		if err == nil || permanent(err) {
			return outcome{reached: sent}
		}
		return outcome{reached: sent, effect: sent, retry: !sent || !write}
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		// The service refused without acting, and says when to come back.
		o := outcome{reached: true, retry: true}
		o.wait, o.asked = parseRetryAfter(header.Get("Retry-After"), time.Now())
		return o
	case status == http.StatusInternalServerError || status == http.StatusBadGateway || status == http.StatusGatewayTimeout:
		// The service, or a gateway before it, may have acted before failing.
		return outcome{reached: true, effect: true, retry: !write}
	case status >= 200 && status <= 299:
		// A reply that could not be read, opened or trusted: the service
		// answered, so it may have acted; a read is not sent again.
		return outcome{reached: true, effect: err != nil}
	case status >= 500 && !write:
		// Any other server error: a read may succeed later.
		return outcome{reached: true, retry: true}
	}
	var ae *APIError
	return outcome{reached: true, effect: errors.As(err, &ae) && ae.exists()}
}

// outcomeOf classifies an error a call returned, as classify did when the
// call ended.
func outcomeOf(write bool, err error) outcome {
	var te *TransportError
	var ae *APIError
	switch {
	case err == nil:
		return outcome{reached: true}
	case errors.As(err, &ae) && ae != nil:
		o := classify(write, true, ae.HTTPStatus, nil, ae)
		o.wait, o.asked = ae.RetryAfter, ae.RetryAfter > 0
		return o
	case errors.As(err, &te) && te != nil:
		retry := (!te.MaybeDelivered || !write) && !permanent(te.Err)
		return outcome{reached: te.MaybeDelivered, effect: te.MaybeDelivered, retry: retry}
	}
	return outcome{}
}

// Retryable reports whether a read that failed with err may succeed when
// made again later, as [Client.AwaitFinal] decides: no reply came (and not
// for a reason that lasts, such as a certificate refused), or the service
// was away, overloaded or rate limited (429 or any 5xx). An unknown order,
// a refused request or bad credentials are not. A write is another matter:
// see [TransportError.MaybeDelivered].
func Retryable(err error) bool { return err != nil && outcomeOf(false, err).retry }

// permanent reports transport errors that no retry can fix.
func permanent(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		verify           *tls.CertificateVerificationError
	)
	if err == nil {
		return false
	}
	if errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &verify) {
		return true
	}
	// net/http has no typed errors for these two: the URL's scheme and a
	// header value it will not send.
	msg := err.Error()
	return strings.Contains(msg, "unsupported protocol scheme") || strings.Contains(msg, "invalid header")
}

// beforeSending reports errors that come before a request is sent: the
// name lookup, the dial (a refused or unreachable connection), the TLS
// handshake. It decides for a transport that does not report to httptrace.
func beforeSending(err error) bool {
	var (
		dns *net.DNSError
		op  *net.OpError
		rec tls.RecordHeaderError
		cv  *tls.CertificateVerificationError
	)
	switch {
	case errors.As(err, &dns), errors.As(err, &rec), errors.As(err, &cv):
		return true
	case errors.As(err, &op):
		return op.Op == "dial" || op.Op == "proxyconnect"
	}
	return false
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

// waitCeiling is the Retry-After wait the service asked for (asked), or
// the ceiling of the jittered backoff before retry n.
func waitCeiling(min, max time.Duration, n int, resp *http.Response) (d time.Duration, asked bool) {
	if resp != nil {
		if o := classify(false, true, resp.StatusCode, resp.Header, nil); o.asked {
			return minMax(o.wait, min, max), true
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
