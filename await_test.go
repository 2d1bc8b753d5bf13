package checkout

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock records the waits AwaitFinal asks for and ends each at once.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (f *fakeClock) option() RequestOption {
	return requestOptionFunc(func(r *requestConfig) error {
		r.clock.nowFunc = func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
		r.clock.sleepFunc = func(ctx context.Context, d time.Duration) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.waits = append(f.waits, d)
			f.now = f.now.Add(d)
			return ctx.Err()
		}
		return nil
	})
}

// statusServer answers GET /orders/o-1 with replies[i] on poll i (the
// last repeating) and counts the polls.
func statusServer(t *testing.T, replies ...func(w http.ResponseWriter)) (*Client, *int) {
	t.Helper()
	var mu sync.Mutex
	polls := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := min(*polls, len(replies)-1)
		*polls++
		mu.Unlock()
		replies[i](w)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient("m", "key", WithBaseURL(srv.URL), WithRetry(RetryPolicy{}))
	require.NoError(t, err)
	return c, polls
}

func status(s string, extra string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"order_id":"o-1","status":%q%s}`, s, extra)
	}
}

func TestAwaitFinalChargedAfterThreePolls(t *testing.T) {
	c, polls := statusServer(t, status("NEW", ""), status("PENDING_VBV", ""), status("CHARGED", ""))
	clk := &fakeClock{now: time.Now()}
	st, err := c.AwaitFinal(context.Background(), "o-1", clk.option())
	require.NoError(t, err)
	require.Equal(t, StatusCharged, st.Status)
	require.Equal(t, 3, *polls)
	require.Len(t, clk.waits, 2)
	require.InDelta(t, float64(5*time.Second), float64(clk.waits[0]), float64(500*time.Millisecond), "the default schedule, jittered by at most 10%")
}

func TestAwaitFinalCancelledContextReturnsAtOnce(t *testing.T) {
	c, polls := statusServer(t, status("NEW", ""))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := c.AwaitFinal(ctx, "o-1")
	require.Nil(t, st)
	var ae *AwaitError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 0, *polls)

	// Cancelled during a long wait: it returns with the last status seen.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	st, err = c.AwaitFinal(ctx, "o-1", WithPollIntervals(time.Hour))
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), time.Second)
	require.Equal(t, Status("NEW"), st.Status)
	require.ErrorAs(t, err, &ae)
	require.Same(t, st, ae.Last)
}

func TestAwaitFinalHonoursRetryAfter(t *testing.T) {
	limited := func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
	}
	c, polls := statusServer(t, limited, status("CHARGED", ""))
	clk := &fakeClock{now: time.Now()}
	st, err := c.AwaitFinal(context.Background(), "o-1", WithPollIntervals(10*time.Millisecond), clk.option())
	require.NoError(t, err)
	require.True(t, st.IsPaid())
	require.Equal(t, 2, *polls)
	require.Equal(t, []time.Duration{2 * time.Second}, clk.waits, "the next poll waits the 2 s the service asked for")
}

func TestAwaitFinalBacksOffAfterErrors(t *testing.T) {
	down := func(w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) }
	c, _ := statusServer(t, down, down, down, status("CHARGED", ""))
	clk := &fakeClock{now: time.Now()}
	_, err := c.AwaitFinal(context.Background(), "o-1", WithPollIntervals(time.Second), clk.option())
	require.NoError(t, err)
	require.Len(t, clk.waits, 3)
	require.Greater(t, clk.waits[2], clk.waits[0]+time.Second, "the waits grow while the service fails")
}

func TestAwaitFinalGivesUp(t *testing.T) {
	t.Run("unknown order", func(t *testing.T) {
		c, polls := statusServer(t, func(w http.ResponseWriter) { w.WriteHeader(http.StatusNotFound) })
		_, err := c.AwaitFinal(context.Background(), "o-1", (&fakeClock{}).option())
		require.ErrorIs(t, err, ErrNotFound)
		require.Equal(t, 1, *polls)
		require.Contains(t, err.Error(), `checkout: await final: order "o-1" (last status none read): get order: `)
		require.Equal(t, 1, strings.Count(err.Error(), "checkout:"), err.Error())
	})
	t.Run("bad option", func(t *testing.T) {
		c, polls := statusServer(t, status("CHARGED", ""))
		_, err := c.AwaitFinal(context.Background(), "o-1", WithPollIntervals(-1))
		require.ErrorIs(t, err, ErrInvalidOption)
		require.Zero(t, *polls)
		require.Equal(t, 1, strings.Count(err.Error(), "checkout:"), err.Error())
		require.Contains(t, err.Error(), `checkout: await final: order "o-1" (last status none read): options: `)
	})
	t.Run("certificate refused", func(t *testing.T) {
		srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		t.Cleanup(srv.Close)
		c, err := NewClient("m", "key", WithBaseURL(srv.URL), WithRetry(RetryPolicy{}))
		require.NoError(t, err)
		clk := &fakeClock{now: time.Now()}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err = c.AwaitFinal(ctx, "o-1", clk.option())
		var te *TransportError
		require.ErrorAs(t, err, &te, "an untrusted certificate is no reason to wait")
		require.Empty(t, clk.waits, "no poll after the first")
	})
	t.Run("order expired", func(t *testing.T) {
		exp := time.Now().Add(30 * time.Second).UTC().Format(time.RFC3339)
		c, polls := statusServer(t, status("NEW", `,"order_expiry":"`+exp+`"`))
		clk := &fakeClock{now: time.Now()}
		st, err := c.AwaitFinal(context.Background(), "o-1", WithPollIntervals(10*time.Second), clk.option())
		require.ErrorIs(t, err, ErrOrderExpired)
		require.Equal(t, Status("NEW"), st.Status)
		require.InDelta(t, 4, *polls, 1, "polled until the expiry, not after")
		var ae *AwaitError
		require.True(t, errors.As(err, &ae))
		require.Contains(t, ae.Error(), `checkout: await final: order "o-1" (last status NEW)`)
	})
}

func TestPollInterval(t *testing.T) {
	s := []time.Duration{time.Second, 10 * time.Second}
	for n, want := range []time.Duration{time.Second, 10 * time.Second, 10 * time.Second} {
		got := PollInterval(s, n)
		require.InDelta(t, float64(want), float64(got), float64(want/10))
	}
	require.InDelta(t, float64(5*time.Second), float64(PollInterval(nil, 0)), float64(time.Second/2))
	require.GreaterOrEqual(t, PollInterval([]time.Duration{0}, 3), 9*time.Millisecond, "never a tight loop")
}

// A poll reply that names no order is no status of this order: AwaitFinal
// stops with the error instead of reading it as one.
func TestAwaitFinalRefusesReplyWithoutOrder(t *testing.T) {
	c, polls := statusServer(t, func(w http.ResponseWriter) { fmt.Fprint(w, `{"status":"CHARGED"}`) })
	st, err := c.AwaitFinal(context.Background(), "o-1", (&fakeClock{}).option())
	require.Nil(t, st)
	require.ErrorContains(t, err, "the reply names no order")
	require.Equal(t, 1, *polls)
}

// The schedule is a request option of AwaitFinal: one out of bounds is
// refused where it is set, another call refuses it, and PollInterval holds
// any interval within bounds, so no wait overflows into a hot loop.
func TestPollIntervalsBounded(t *testing.T) {
	c, polls := statusServer(t, status("CHARGED", ""))
	for _, d := range []time.Duration{0, -time.Second, time.Duration(1<<63 - 1), 25 * time.Hour} {
		_, err := c.AwaitFinal(context.Background(), "o-1", WithPollIntervals(d))
		require.ErrorIs(t, err, ErrInvalidOption, d)
	}
	_, err := c.GetOrder(context.Background(), "o-1", WithPollIntervals(time.Second))
	require.ErrorContains(t, err, "WithPollIntervals is an option of AwaitFinal")
	require.Zero(t, *polls)
	for _, d := range []time.Duration{time.Duration(1<<63 - 1), -time.Hour} {
		got := PollInterval([]time.Duration{d}, 0)
		require.Positive(t, got)
		require.LessOrEqual(t, got, maxPollInterval+maxPollInterval/10)
	}
}

// Every option but the schedule applies to each poll, and an Observer
// hears AwaitFinal as one operation with its polls inside.
func TestAwaitFinalOptionsAndObserver(t *testing.T) {
	var mu sync.Mutex
	var routing []string
	polls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		routing = append(routing, r.Header.Get("X-Routing-Id"))
		polls++
		n := polls
		mu.Unlock()
		s := "NEW"
		if n == 2 {
			s = "CHARGED"
		}
		fmt.Fprintf(w, `{"order_id":"o-1","status":%q}`, s)
	}))
	t.Cleanup(srv.Close)
	obs := &nestObserver{}
	c, err := NewClient("m", "key", WithBaseURL(srv.URL), WithObserver(obs))
	require.NoError(t, err)
	var m ResponseMeta
	st, err := c.AwaitFinal(context.Background(), "o-1", WithRoutingID("cust-1"), WithResponseMeta(&m), (&fakeClock{}).option())
	require.NoError(t, err)
	require.True(t, st.IsPaid())
	require.Equal(t, []string{"cust-1", "cust-1"}, routing)
	require.Equal(t, 200, m.HTTPStatus)
	require.Equal(t, []string{"AwaitFinal", "AwaitFinal/GetOrder", "AwaitFinal/GetOrder"}, obs.started)
	require.Equal(t, 2, obs.ended["AwaitFinal"].Attempts, "two polls")
	require.Equal(t, StatusCharged, obs.ended["AwaitFinal"].OrderStatus)
}

// nestObserver records each operation with the operation it runs in.
type nestObserver struct {
	NopObserver
	started []string
	ended   map[string]OperationResult
}

type parentKey struct{}

func (o *nestObserver) StartOperation(ctx context.Context, op Operation) context.Context {
	name := op.Name
	if p, ok := ctx.Value(parentKey{}).(string); ok {
		name = p + "/" + name
	}
	o.started = append(o.started, name)
	return context.WithValue(ctx, parentKey{}, name)
}

func (o *nestObserver) EndOperation(_ context.Context, op Operation, r OperationResult) {
	if o.ended == nil {
		o.ended = map[string]OperationResult{}
	}
	o.ended[op.Name] = r
}
