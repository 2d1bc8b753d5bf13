package checkout

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A 429 with Retry-After: 1 on a POST is retried after about a second: not
// after the jittered backoff (at most MinWait, 1 ms, here) and not after
// MaxWait (30 s).
func TestRetryAfterIsHonoured(t *testing.T) {
	srv := newRecorder(t,
		reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: `{}`},
		reply{status: 200, body: `{"status":"NEW","sdk_payload":{}}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 30 * time.Second}))
	_, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.EqualValues(t, 2, srv.count.Load())
	gap := srv.gap(t)
	require.GreaterOrEqual(t, gap, time.Second-50*time.Millisecond, "waited %s", gap)
	require.Less(t, gap, 5*time.Second, "waited %s: Retry-After 1 is about a second", gap)
}

// A Retry-After of an hour, on 429 and on 503, is cut to MaxWait: the retry
// comes after MaxWait (so the header was read: the jittered backoff would
// wait at most MinWait), and long before the hour.
func TestRetryAfterIsCappedByMaxWait(t *testing.T) {
	const maxWait = 50 * time.Millisecond
	for _, status := range []int{429, 503} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := newRecorder(t,
				reply{status: status, header: map[string]string{"Retry-After": "3600"}, body: `{}`},
				reply{status: 200, body: `{"status":"NEW","sdk_payload":{}}`})
			c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: maxWait}))
			// An uncapped wait fails here at once instead of hanging the test.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := c.CreateSession(ctx, baseSession())
			require.NoError(t, err)
			require.EqualValues(t, 2, srv.count.Load())
			gap := srv.gap(t)
			require.GreaterOrEqual(t, gap, maxWait, "waited %s", gap)
			require.Less(t, gap, 5*time.Second, "waited %s: a 3600 s Retry-After must be capped at MaxWait", gap)
		})
	}
}

func TestRateLimitedAfterRetries(t *testing.T) {
	srv := newRecorder(t, reply{status: 429, header: map[string]string{"Retry-After": "2"}, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MaxWait: time.Millisecond}))
	_, err := c.GetOrder(context.Background(), "o")
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrRateLimited)
	require.Equal(t, 2*time.Second, ae.RetryAfter)
	require.EqualValues(t, 2, srv.count.Load())
}

// RetryPolicy{MaxRetries: 2} with a server answering "Retry-After: 0" waits
// between attempts instead of spinning.
func TestRetryAfterZeroDoesNotSpin(t *testing.T) {
	srv := newRecorder(t, reply{status: 503, header: map[string]string{"Retry-After": "0"}, body: `{}`})
	c := newTestClient(t, srv.URL, WithRetry(RetryPolicy{MaxRetries: 1, MaxWait: 50 * time.Millisecond}))
	start := time.Now()
	_, err := c.GetOrder(context.Background(), "o")
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 2, srv.count.Load())
	require.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "MinWait (here min(200 ms, MaxWait)) is waited")
}
