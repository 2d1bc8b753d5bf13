package checkouttest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
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
	require.ErrorContains(t, s.InjectFault(checkouttest.Fault{Path: "/orders", Delay: time.Second, AfterProcessing: true}),
		"loses no reply after processing", "after processing, a fault must lose the reply")
}

// A fault after processing serves the request, so the write takes effect,
// and then loses the reply: a 502 instead of it, or the connection closed.
func TestFaultAfterProcessing(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 502, AfterProcessing: true}))
	r := postOrder(t, s, orderForm("ord_ap1"))
	require.Equal(t, 502, r.status)
	require.Equal(t, "bad_gateway", r.json["error_code"])
	o, err := s.Order("ord_ap1")
	require.NoError(t, err, "the order was made though the client saw a 502")
	require.Equal(t, checkouttest.StatusCreated, o.Status)

	require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Drop: true, AfterProcessing: true}))
	req, err := http.NewRequest(http.MethodPost, s.URL+"/orders", strings.NewReader(orderForm("ord_ap2").Encode()))
	require.NoError(t, err)
	req.Header = authHeaders()
	req.Header.Set("version", "2023-06-30")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	_, err = (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	require.Error(t, err, "no reply")
	_, err = s.Order("ord_ap2")
	require.NoError(t, err, "the order was made though the connection closed")

	// Without AfterProcessing the same faults act instead of the request.
	require.NoError(t, s.InjectFault(checkouttest.Fault{Method: "POST", Path: "/orders", Status: 502}))
	require.Equal(t, 502, postOrder(t, s, orderForm("ord_ap3")).status)
	_, err = s.Order("ord_ap3")
	require.ErrorIs(t, err, checkouttest.ErrUnknownOrder)

	var faults []string
	for _, r := range s.Requests() {
		faults = append(faults, r.Fault)
	}
	require.Equal(t, []string{"status 502 after processing", "drop after processing", "status 502"}, faults)
}

// The write the fault hid is settled, not repeated: CreateOrder reads the
// order it cannot know was made, finds the same one and returns it
// Replayed; the order was sent once (issue 40).
func TestFaultAfterProcessingReplaysCreateOrder(t *testing.T) {
	for name, f := range map[string]checkouttest.Fault{
		"502":  {Method: "POST", Path: "/orders", Status: 502, AfterProcessing: true},
		"drop": {Method: "POST", Path: "/orders", Drop: true, AfterProcessing: true},
	} {
		t.Run(name, func(t *testing.T) {
			s := newServer(t, checkouttest.Config{})
			c := newClient(t, s)
			require.NoError(t, s.InjectFault(f))
			order, err := c.CreateOrder(ctxT(t), &checkout.OrderRequest{OrderID: "ord_rp", Amount: "10.00", CustomerID: "cust_1"})
			require.NoError(t, err)
			require.True(t, order.Replayed, "found by reading the order")
			require.Equal(t, "ord_rp", order.OrderID)
			require.Equal(t, 1, s.Count(http.MethodPost, "/orders"), "sent once, never blindly again")
			require.Positive(t, s.Count(http.MethodGet, "/orders/ord_rp"))
		})
	}
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
