package checkout

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRetryServiceUnavailableThenSuccess(t *testing.T) {
	srv := newRecorder(t,
		reply{status: 503, body: `{"status":"ERROR"}`},
		reply{status: 503, body: `{"status":"ERROR"}`},
		reply{status: 200, body: `{"status":"NEW","sdk_payload":{"requestId":"r"}}`})
	c := newTestClient(t, srv.URL)
	s, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.Equal(t, "NEW", s.Status)
	all := srv.all()
	require.Len(t, all, 3)
	for _, r := range all[1:] {
		require.Equal(t, string(all[0].Body), string(r.Body), "the body is replayed unchanged")
		require.Equal(t, all[0].Header.Get("Authorization"), r.Header.Get("Authorization"))
	}
}

func TestRetryExhaustedReturnsLastAPIError(t *testing.T) {
	srv := newRecorder(t, reply{status: 503, header: map[string]string{"Retry-After": "0"}, body: `{"status":"ERROR","error_message":"maintenance"}`})
	c := newTestClient(t, srv.URL)
	_, err := c.CreateOrder(context.Background(), fullOrder())
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrServer)
	require.Equal(t, 503, ae.HTTPStatus)
	require.Equal(t, "maintenance", ae.ErrorMessage)
	require.EqualValues(t, fastRetry.MaxRetries+1, srv.count.Load())
}

// Ambiguous failures of writes are never retried; the same failures of
// GetOrder are.
func TestAmbiguousStatusRetriedOnlyForGetOrder(t *testing.T) {
	for _, status := range []int{500, 502, 504} {
		srv := newRecorder(t, reply{status: status, body: `{"status":"ERROR"}`})
		c := newTestClient(t, srv.URL)
		ctx := context.Background()

		_, err := c.CreateSession(ctx, baseSession())
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 1, srv.count.Load(), "create session after %d", status)

		_, err = c.CreateOrder(ctx, fullOrder())
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 2, srv.count.Load(), "create order after %d", status)

		_, err = c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"})
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 3, srv.count.Load(), "refund after %d", status)

		_, err = c.GetOrder(ctx, "o")
		require.ErrorIs(t, err, ErrServer)
		require.EqualValues(t, 3+fastRetry.MaxRetries+1, srv.count.Load(), "get order after %d", status)
	}
}

// go-retryablehttp logs nothing of its own (its Logger is nil): the
// standard logger stays silent through retries and failures.
func TestRetryablehttpDoesNotLog(t *testing.T) {
	var buf bytes.Buffer
	prev, flags := log.Writer(), log.Flags()
	log.SetOutput(&buf)
	t.Cleanup(func() { log.SetOutput(prev); log.SetFlags(flags) })

	srv := newRecorder(t, reply{status: 503, body: `{}`})
	c := newTestClient(t, srv.URL)
	_, err := c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	d := &refusingDialer{refuse: 100}
	c = newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
	_, err = c.GetOrder(context.Background(), "o")
	require.Error(t, err)
	require.Empty(t, buf.String())
}

// Concurrent calls keep their own attempt state: each call's first attempt
// gets 503 and its second succeeds, whatever the others do meanwhile.
func TestConcurrentRetriesKeepTheirOwnState(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		first := hits[r.URL.Path] == 1
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, `{"order_id":%q,"status":"CHARGED"}`, strings.TrimPrefix(r.URL.Path, "/orders/"))
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("o-%d", i)
			st, err := c.GetOrder(context.Background(), id)
			if assert.NoError(t, err) {
				assert.Equal(t, id, st.OrderID)
			}
		}()
	}
	wg.Wait()
	require.Len(t, hits, 32)
	for p, n := range hits {
		require.Equal(t, 2, n, p)
	}
}
