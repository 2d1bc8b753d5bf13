package checkouttest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

func TestFaults(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Times: 2, Status: 503, RetryAfter: "1"}))
	for range 2 {
		r := postOrder(t, s, orderForm("ord_f1"))
		require.Equal(t, 503, r.status)
		require.Equal(t, "1", r.header.Get("Retry-After"))
		require.Equal(t, "service_unavailable", r.json["error_code"])
	}
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_f1")).status, "the fault is used up")

	// A pattern, a method filter, and one status per request.
	require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "GET", Path: "/orders/*", Status: 429}))
	for range 2 {
		require.Equal(t, 400, postRefund(t, s, "ord_f1", "x", "1.00").status, "a POST is not matched by a GET fault: the unpaid order is refused as usual")
	}
	require.Equal(t, 429, getOrder(t, s, "ord_f1").status)
	require.Equal(t, 200, getOrder(t, s, "ord_f1").status)

	// Drop: the client sees the connection closed without a reply.
	require.NoError(t, s.InjectFault(checkouttest.Fault{Path: "/orders/ord_f1", Drop: true}))
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/orders/ord_f1", nil)
	_, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	require.Error(t, err)

	// Delay: held, then served; cut short when the client gives up (here
	// once the fake has the request, so that no timing is involved).
	require.NoError(t, s.InjectFault(checkouttest.Fault{Path: "/orders/ord_f1", Delay: 50 * time.Millisecond}))
	start := time.Now()
	require.Equal(t, 200, getOrder(t, s, "ord_f1").status)
	require.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)
	require.NoError(t, s.InjectFault(checkouttest.Fault{Path: "/orders/ord_f1", Delay: time.Minute}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/orders/ord_f1", nil)
	seen := len(s.Requests())
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	require.Eventually(t, func() bool { return len(s.Requests()) > seen }, 30*time.Second, time.Millisecond)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)

	var faults []string
	for _, r := range s.Requests() {
		if r.Fault != "" {
			faults = append(faults, r.Method+" "+r.Path+": "+r.Fault)
		}
	}
	require.Equal(t, []string{
		"POST /orders: status 503 retry-after 1",
		"POST /orders: status 503 retry-after 1",
		"GET /orders/ord_f1: status 429",
		"POST /orders/ord_f1: drop",
		"GET /orders/ord_f1: delay 50ms",
		"GET /orders/ord_f1: delay 1m0s",
	}, faults)

	require.Error(t, s.InjectFault(checkouttest.Fault{Path: "/orders"}), "a fault that does nothing")
	require.Error(t, s.InjectFault(checkouttest.Fault{Path: "[", Status: 500}))
	require.Error(t, s.InjectFault(checkouttest.Fault{Path: "/orders", Status: 42}))
}

func TestCloseEndsInjectedDelay(t *testing.T) {
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey})
	require.NoError(t, s.InjectFault(checkouttest.Fault{Path: "/orders/*", Delay: time.Hour}))
	done := make(chan int)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/orders/x", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	require.Eventually(t, func() bool { return len(s.Requests()) == 1 }, 30*time.Second, time.Millisecond)
	start := time.Now()
	s.Close()
	require.Less(t, time.Since(start), 30*time.Second, "Close ends an hour-long injected delay")
	require.Contains(t, []int{0, 503}, <-done)
}
