package checkout

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBackoffFullJitter(t *testing.T) {
	const min, max = 10 * time.Millisecond, 200 * time.Millisecond
	for n, ceil := range []time.Duration{10, 20, 40, 80, 160, 200, 200} {
		ceil *= time.Millisecond
		var lo, hi time.Duration = time.Hour, 0
		for range 2000 {
			d := backoff(min, max, n, nil)
			require.GreaterOrEqual(t, d, time.Duration(0))
			require.LessOrEqual(t, d, ceil, "attempt %d", n)
			lo, hi = minDur(lo, d), maxDur(hi, d)
		}
		require.Less(t, lo, ceil/4, "full jitter reaches near zero")
		require.Greater(t, hi, ceil*3/4, "full jitter reaches near the ceiling")
	}
	require.Zero(t, backoff(0, 0, 3, nil))
	require.LessOrEqual(t, backoff(time.Second, 2*time.Second, 80, nil), 2*time.Second, "no overflow")

	for _, status := range []int{429, 503} {
		resp := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {"3"}}}
		require.Equal(t, 3*time.Second, backoff(min, 5*time.Second, 0, resp), "Retry-After is honoured")
		require.Equal(t, 3*time.Second, backoff(min, 5*time.Second, 4, resp), "on every retry")
		require.Equal(t, max, backoff(min, max, 0, resp), "capped at max")
		resp.Header.Set("Retry-After", "0")
		require.Equal(t, min, backoff(min, max, 0, resp), "never below min")
		resp.Header.Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
		require.Equal(t, max, backoff(min, max, 0, resp), "an HTTP date is capped at max too")
		resp.Header.Set("Retry-After", "soon")
		require.LessOrEqual(t, backoff(min, max, 0, resp), min, "an unreadable Retry-After falls back to jitter")
	}
	resp := &http.Response{StatusCode: 500, Header: http.Header{"Retry-After": {"3"}}}
	require.LessOrEqual(t, backoff(min, max, 0, resp), min, "Retry-After counts on 429 and 503 only")
}

func minDur(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// Zero waits take the defaults, negative waits are option errors, and a
// Retry-After shorter than MinWait waits MinWait.
func TestRetryPolicyDefaults(t *testing.T) {
	for _, tc := range []struct {
		in, want RetryPolicy
	}{
		{RetryPolicy{MaxRetries: 2}, DefaultRetryPolicy()},
		{RetryPolicy{}, RetryPolicy{MinWait: 200 * time.Millisecond, MaxWait: 5 * time.Second}},
		{RetryPolicy{MaxRetries: 1, MaxWait: time.Millisecond}, RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond}},
		{RetryPolicy{MaxRetries: 1, MaxWait: time.Second}, RetryPolicy{MaxRetries: 1, MinWait: 200 * time.Millisecond, MaxWait: time.Second}},
		{RetryPolicy{MaxRetries: 1, MinWait: 10 * time.Second}, RetryPolicy{MaxRetries: 1, MinWait: 10 * time.Second, MaxWait: 10 * time.Second}},
		{RetryPolicy{MaxRetries: 1, MinWait: time.Second}, RetryPolicy{MaxRetries: 1, MinWait: time.Second, MaxWait: 5 * time.Second}},
		{fastRetry, fastRetry},
	} {
		c, err := NewClient("m", "k", WithBaseURL("https://a.example"), WithRetry(tc.in))
		require.NoError(t, err)
		require.Equal(t, tc.want, c.retry, "%+v", tc.in)
		require.Equal(t, tc.want.MinWait, c.rc.RetryWaitMin)
		require.Equal(t, tc.want.MaxWait, c.rc.RetryWaitMax)
	}
	for _, p := range []RetryPolicy{{MaxRetries: 1, MinWait: -1}, {MaxRetries: 1, MaxWait: -time.Second}} {
		_, err := NewClient("m", "k", WithBaseURL("https://a.example"), WithRetry(p))
		require.ErrorIs(t, err, ErrInvalidOption)
		require.Contains(t, err.Error(), "negative")
	}

	resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"0"}}}
	require.Equal(t, 200*time.Millisecond, backoff(200*time.Millisecond, 5*time.Second, 0, resp), "Retry-After: 0 waits MinWait")
	resp.Header.Set("Retry-After", "3600")
	require.Equal(t, 5*time.Second, backoff(200*time.Millisecond, 5*time.Second, 0, resp), "capped at MaxWait")
	resp.Header.Set("Retry-After", "2")
	require.Equal(t, 2*time.Second, backoff(200*time.Millisecond, 5*time.Second, 0, resp))
}
