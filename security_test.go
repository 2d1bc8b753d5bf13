package checkout

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// The client never follows a redirect, whatever http.Client it is given: a
// redirect-following client would turn a refund POST into a GET that
// "succeeds" and carry Authorization to wherever Location points. A 3xx is
// an *APIError naming the status, and nothing reaches the other place.
func TestRedirectingClientDoesNotFollow(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte(`{"order_id":"o1","status":"CHARGED"}`))
	}))
	t.Cleanup(other.Close)
	for _, status := range []int{301, 302, 303, 307, 308} {
		srv := newRecorder(t, reply{status: status, header: map[string]string{"Location": other.URL + "/steal"}})
		c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{})) // the standard client follows redirects
		_, err := c.Refund(context.Background(), "o1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
		var ae *APIError
		require.ErrorAs(t, err, &ae, "status %d", status)
		require.Equal(t, status, ae.HTTPStatus)
		require.ErrorContains(t, err, "redirect", "status %d", status)
		require.EqualValues(t, 1, srv.count.Load())
	}
	require.Zero(t, elsewhere.Load(), "nothing was sent where Location points")
}
