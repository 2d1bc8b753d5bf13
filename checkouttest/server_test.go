package checkouttest_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

func TestCloseLeavesNoGoroutines(t *testing.T) {
	base := runtime.NumGoroutine()
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) }))
	cfg := webhookConfig(rc.URL)
	cfg.MaxAttempts = 1 << 20 // still re-sending when Close comes, however slow the machine
	cfg.RetryInterval = 2 * time.Millisecond
	cfg.Duplicates = 3
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey, Webhook: cfg})
	client := &http.Client{Transport: &http.Transport{}}
	for i := range 20 {
		id := fmt.Sprintf("ord_leak_%d", i)
		h := authHeaders()
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		h.Set("version", version)
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/orders", strings.NewReader(orderForm(id).Encode()))
		req.Header = h
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.NoError(t, s.Pay(id))
	}
	require.Greater(t, runtime.NumGoroutine(), base+20, "deliveries are running")
	s.Close()
	rc.Close()
	client.CloseIdleConnections()
	deadline := time.Now().Add(30 * time.Second) // generous: the loop ends as soon as they are gone
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines: %d before, %d after Close:\n%s", base, n, buf[:runtime.Stack(buf, true)])
	}
}

func TestNewServerLikeHTTPTest(t *testing.T) {
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: "m", APIKey: "k"})
	defer s.Close()
	require.True(t, strings.HasPrefix(s.URL, "http://127.0.0.1:"), s.URL)

	// A bad configuration is a programming error: NewServer panics with an
	// error naming the field, as httptest.NewServer panics when it cannot
	// listen; Config.Validate returns the same error first.
	bad := checkouttest.Config{MerchantID: "m"}
	err := bad.Validate()
	require.ErrorContains(t, err, "APIKey")
	require.True(t, strings.HasPrefix(err.Error(), "checkouttest: config: "), err.Error())
	require.PanicsWithError(t, err.Error(), func() { checkouttest.NewServer(bad) })
	require.NoError(t, checkouttest.Config{MerchantID: "m", APIKey: "k"}.Validate())
}

// TestConcurrentUse hammers one server from many goroutines (run with
// -race): the same order created over and over, paid once, refunded up to
// its amount and read, beside orders of each goroutine's own, while the
// recorded state is inspected.
func TestConcurrentUse(t *testing.T) {
	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	const workers = 32
	type result struct {
		id     string // the order's id as POST /orders answered it
		payErr error
		refund int // status of POST /orders/{id}/refunds
		get    int // status of GET /orders/{id}
		err    error
	}
	results := make(chan result, workers)
	formHeader := func() http.Header {
		h := authHeaders()
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		h.Set("version", version)
		return h
	}
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			var res result
			defer func() { results <- res }()
			r, err := do(http.MethodPost, s.URL+"/orders", formHeader(), []byte(orderForm("ord_cc").Encode())) // 25.50
			if res.err = err; err != nil {
				return
			}
			res.id, _ = r.json["id"].(string)
			// An order of its own too, so that creates also run side by side.
			own := fmt.Sprintf("ord_cc_%d", i)
			if _, res.err = do(http.MethodPost, s.URL+"/orders", formHeader(), []byte(orderForm(own).Encode())); res.err != nil {
				return
			}
			if res.err = s.Pay(own); res.err != nil {
				return
			}
			res.payErr = s.Pay("ord_cc")
			_, _ = s.Deliveries(), s.Requests()
			refund := url.Values{"unique_request_id": {fmt.Sprintf("rf_%d", i)}, "amount": {"1.00"}}
			if r, res.err = do(http.MethodPost, s.URL+"/orders/ord_cc/refunds", formHeader(), []byte(refund.Encode())); res.err != nil {
				return
			}
			res.refund = r.status
			if r, res.err = do(http.MethodGet, s.URL+"/orders/ord_cc", authHeaders(), nil); res.err != nil {
				return
			}
			res.get = r.status
		})
	}
	wg.Wait()
	close(results)
	var ids []string
	paid, accepted := 0, 0
	for res := range results {
		require.NoError(t, res.err)
		ids = append(ids, res.id)
		if res.payErr == nil {
			paid++
		} else {
			require.ErrorIs(t, res.payErr, checkouttest.ErrInvalidTransition)
		}
		if res.refund == 200 {
			accepted++
		} else {
			require.Equal(t, 400, res.refund)
		}
		require.Equal(t, 200, res.get)
	}
	require.Len(t, ids, workers)
	for _, id := range ids {
		require.Equal(t, ids[0], id, "one order, whoever created it")
	}
	require.Equal(t, 1, paid, "paid exactly once")
	o, err := s.Order("ord_cc")
	require.NoError(t, err)
	require.Equal(t, "CHARGED", o.Status)
	require.Len(t, o.Refunds, accepted, "every accepted refund is recorded, no other")
	// Each worker refunds after its Pay returned, so the order is CHARGED
	// by then: 25.50 allows exactly 25 refunds of 1.00, never more.
	require.Equal(t, 25, accepted)
	require.Equal(t, fmt.Sprintf("%d.00", accepted), o.AmountRefunded)
	for i := range workers {
		own, err := s.Order(fmt.Sprintf("ord_cc_%d", i))
		require.NoError(t, err)
		require.Equal(t, "CHARGED", own.Status)
	}
	wait(t, s)
	require.Len(t, s.Deliveries(), 1+workers, "one ORDER_SUCCEEDED per payment")
	require.Len(t, s.Requests(), 4*workers)
}

// TestParallelServers: servers share nothing, so parallel tests may use the
// same order ids and credentials.
func TestParallelServers(t *testing.T) {
	for i := range 3 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			s := newServer(t, checkouttest.Config{})
			require.Equal(t, 200, postOrder(t, s, orderForm("ord_same")).status)
			require.NoError(t, s.Pay("ord_same"), "each server has its own ord_same")
			require.Len(t, s.Requests(), 1)
		})
	}
}

// TestZeroServer: a nil or zero Server neither panics nor pretends to work.
func TestZeroServer(t *testing.T) {
	for name, s := range map[string]*checkouttest.Server{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) {
			require.NotPanics(t, func() {
				require.ErrorIs(t, s.Pay("o"), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.Fail("o"), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.PayWith("o", checkouttest.Payment{}), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.RefundCompleted("o", "r"), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.RefundFailed("o", "r"), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.Resend("e"), checkouttest.ErrNotStarted)
				_, err := s.Order("o")
				require.ErrorIs(t, err, checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.AddGateway(checkouttest.Gateway{Name: "PAYU", ReferenceID: "a"}), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.SetWebhook(checkouttest.WebhookConfig{}), checkouttest.ErrNotStarted)
				require.Zero(t, s.Webhook())
				_, err = s.ReturnURL("o")
				require.ErrorIs(t, err, checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.InjectFault(checkouttest.Fault{Path: "/orders", Status: 503}), checkouttest.ErrNotStarted)
				require.ErrorIs(t, s.WaitDeliveries(context.Background()), checkouttest.ErrNotStarted)
				require.Nil(t, s.Requests())
				require.Nil(t, s.Deliveries())
				require.Zero(t, s.Count("GET", "/"))
				_ = fmt.Sprint(s)
				s.Close()
			})
		})
	}
}

// A fake on a listener of the caller's (the checkout command's --addr)
// serves there, and Close closes that listener.
func TestNewServerOnListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey, Listener: l})
	require.Equal(t, "http://"+addr, s.URL)
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_start")).status)
	s.Close()
	require.ErrorIs(t, s.Pay("ord_start"), checkouttest.ErrClosed)
	_, err = net.Dial("tcp", addr)
	require.Error(t, err, "the listener is closed")
	l2, err := net.Listen("tcp", addr)
	require.NoError(t, err, "the address is free again")
	require.NoError(t, l2.Close())
}
