package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/webhook"
)

// ledger records what the merchant's handler processed.
type ledger struct {
	mu     sync.Mutex
	byKey  map[string]int // order id + event name → times processed
	events []*webhook.Event
}

func newLedger() *ledger { return &ledger{byKey: map[string]int{}} }

// record notes that ev, about the order with orderID, was processed.
func (l *ledger) record(orderID string, ev *webhook.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byKey[orderID+" "+ev.Name]++
	l.events = append(l.events, ev)
}

func (l *ledger) counts() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]int, len(l.byKey))
	for k, v := range l.byKey {
		out[k] = v
	}
	return out
}

func verifier(t *testing.T, password string) *webhook.Verifier {
	t.Helper()
	v, err := webhook.NewVerifier(webhook.Config{
		Username: hookUser, Password: password,
		Headers:        map[string]string{"X-Shop-Key": "k-42"},
		AllowAnySource: true, // the receiver runs on loopback in tests
	})
	require.NoError(t, err)
	return v
}

// swappable lets a test change the receiver's handler while deliveries run,
// as a merchant redeploying a fixed configuration would.
type swappable struct{ h atomic.Pointer[http.Handler] }

func (s *swappable) set(h http.Handler)                               { s.h.Store(&h) }
func (s *swappable) ServeHTTP(w http.ResponseWriter, r *http.Request) { (*s.h.Load()).ServeHTTP(w, r) }

func hookConfig(url, password string) checkouttest.WebhookConfig {
	return checkouttest.WebhookConfig{
		URL: url, Username: hookUser, Password: password,
		Headers: map[string]string{"X-Shop-Key": "k-42"},
		// Re-sent until a 200 however slow the machine: a test that needs
		// the deliveries to give up sets MaxAttempts itself.
		RetryInterval: 10 * time.Millisecond, MaxAttempts: 1 << 20,
	}
}

func TestWebhookReceiverWithVerifier(t *testing.T) {
	t.Parallel()
	l := newLedger()
	// Here the source check stays on, with the loopback addresses the fake
	// sends from in place of the service's allow-list (spec §5.6).
	v, err := webhook.NewVerifier(webhook.Config{
		Username: hookUser, Password: hookPass,
		Headers: map[string]string{"X-Shop-Key": "k-42"},
		Sources: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")},
	})
	require.NoError(t, err)
	rcv := httptest.NewServer(v.Handler(func(_ context.Context, ev *webhook.Event) error {
		l.record(ev.OrderID(), ev)
		return nil
	}))
	defer rcv.Close()
	s := newFake(t, checkouttest.Config{Webhook: hookConfig(rcv.URL, hookPass)})
	c := newClient(t, s)
	ctx := ctxT(t)

	_, err = c.CreateSession(ctx, session("ord_paid", checkout.PaymentPage))
	require.NoError(t, err)
	_, err = c.CreateOrder(ctx, order("ord_failed"))
	require.NoError(t, err)
	require.NoError(t, s.Pay("ord_paid"))
	require.NoError(t, s.Fail("ord_failed"))
	_, err = c.Refund(ctx, "ord_paid", &checkout.RefundRequest{UniqueRequestID: "rf_1", Amount: "100.00"})
	require.NoError(t, err)
	require.NoError(t, s.RefundCompleted("ord_paid", "rf_1"))
	waitDeliveries(t, s)

	require.Equal(t, map[string]int{
		"ord_paid ORDER_SUCCEEDED": 1,
		"ord_failed ORDER_FAILED":  1,
		"ord_paid ORDER_REFUNDED":  1,
	}, l.counts())
	sent := map[string]bool{}
	for _, d := range s.Deliveries() {
		require.True(t, d.Notified, d.EventName)
		require.Len(t, d.Attempts, 1)
		sent[d.EventID] = true
	}
	got := map[string]bool{}
	for _, ev := range l.events {
		got[ev.ID] = true
	}
	require.Equal(t, sent, got, "the receiver processed exactly the events the fake delivered")
	for _, ev := range l.events {
		switch ev.Name {
		case webhook.OrderSucceeded:
			require.Equal(t, "CHARGED", ev.Status())
		case webhook.OrderFailed:
			require.Equal(t, "AUTHORIZATION_FAILED", ev.Status())
		}
		require.False(t, ev.DateCreated.IsZero())
	}
}

// TestWrongCredentialsAreResentUntilFixed: a receiver that refuses the
// service's credentials (or headers) gets every event again once the
// configuration is fixed, on either side. Nothing is lost.
func TestWrongCredentialsAreResentUntilFixed(t *testing.T) {
	t.Parallel()
	fixes := map[string]func(t *testing.T, s *checkouttest.Server, h *swappable){
		"merchant fixes its verifier": func(t *testing.T, _ *checkouttest.Server, h *swappable) {},
		"dashboard credentials fixed": func(t *testing.T, s *checkouttest.Server, _ *swappable) {
			wh := s.Webhook()
			wh.Username, wh.Password = hookUser, hookPass
			require.NoError(t, s.SetWebhook(wh))
		},
	}
	for name, fix := range fixes {
		t.Run(name, func(t *testing.T) {
			l := newLedger()
			process := func(_ context.Context, ev *webhook.Event) error { l.record(ev.OrderID(), ev); return nil }
			h := &swappable{}
			dashboardPass := hookPass
			if name == "merchant fixes its verifier" {
				h.set(verifier(t, "an old password").Handler(process))
			} else {
				h.set(verifier(t, hookPass).Handler(process))
				dashboardPass = "a mistyped password"
			}
			rcv := httptest.NewServer(h)
			defer rcv.Close()
			s := newFake(t, checkouttest.Config{Webhook: hookConfig(rcv.URL, dashboardPass)})
			c := newClient(t, s)
			const n = 20
			for i := range n {
				_, err := c.CreateOrder(ctxT(t), order(fmt.Sprintf("ord_cred_%02d", i)))
				require.NoError(t, err)
				require.NoError(t, s.Pay(fmt.Sprintf("ord_cred_%02d", i)))
			}
			// Every delivery is refused at least twice before the fix.
			require.Eventually(t, func() bool {
				for _, d := range s.Deliveries() {
					if len(d.Attempts) < 2 {
						return false
					}
				}
				return true
			}, 30*time.Second, 5*time.Millisecond)
			require.Empty(t, l.counts())
			if name == "merchant fixes its verifier" {
				h.set(verifier(t, hookPass).Handler(process))
			}
			fix(t, s, h)
			waitDeliveries(t, s)

			counts := l.counts()
			require.Len(t, counts, n)
			for k, v := range counts {
				require.Equal(t, 1, v, k)
			}
			for _, d := range s.Deliveries() {
				require.True(t, d.Notified)
				require.Equal(t, http.StatusUnauthorized, d.Attempts[0].StatusCode)
				require.Equal(t, http.StatusOK, d.Attempts[len(d.Attempts)-1].StatusCode)
			}
		})
	}
}

func TestWrongCustomHeaderIsRefused(t *testing.T) {
	t.Parallel()
	rcv := httptest.NewServer(verifier(t, hookPass).Handler(func(context.Context, *webhook.Event) error { return nil }))
	defer rcv.Close()
	cfg := hookConfig(rcv.URL, hookPass)
	cfg.Headers = map[string]string{"X-Shop-Key": "k-43"}
	cfg.MaxAttempts = 2
	s := newFake(t, checkouttest.Config{Webhook: cfg})
	_, err := newClient(t, s).CreateOrder(ctxT(t), order("ord_hdr"))
	require.NoError(t, err)
	require.NoError(t, s.Pay("ord_hdr"))
	waitDeliveries(t, s)
	d := s.Deliveries()[0]
	require.False(t, d.Notified)
	require.Equal(t, []int{401, 401}, []int{d.Attempts[0].StatusCode, d.Attempts[1].StatusCode})
}

// TestConcurrentPaymentsExactlyOnce pays 2,000 orders at once; the fake sends
// every event twice (on purpose) and the merchant's function fails the first
// try of one event in ten. Every event must be processed exactly once.
func TestConcurrentPaymentsExactlyOnce(t *testing.T) {
	t.Parallel()
	const orders = 2000
	l := newLedger()
	var tries sync.Map // order id → *atomic.Int32
	var calls atomic.Int64
	v := verifier(t, hookPass)
	rcv := httptest.NewServer(v.Handler(func(_ context.Context, ev *webhook.Event) error {
		calls.Add(1)
		orderID := ev.OrderID()
		n, _ := tries.LoadOrStore(orderID, new(atomic.Int32))
		var id int
		_, _ = fmt.Sscanf(orderID, "ord_load_%d", &id)
		if n.(*atomic.Int32).Add(1) == 1 && id%10 == 0 {
			return fmt.Errorf("flaky database")
		}
		l.record(orderID, ev)
		return nil
	}))
	defer rcv.Close()
	cfg := hookConfig(rcv.URL, hookPass)
	cfg.Duplicates = 1
	cfg.RetryInterval = 5 * time.Millisecond
	s := newFake(t, checkouttest.Config{Webhook: cfg})
	c := newClient(t, s)
	ctx := ctxT(t)

	work := make(chan int)
	var wg sync.WaitGroup
	errs := make(chan error, orders)
	for range 16 {
		wg.Go(func() {
			for i := range work {
				id := fmt.Sprintf("ord_load_%04d", i)
				if _, err := c.CreateOrder(ctx, order(id)); err != nil {
					errs <- err
					continue
				}
				if err := s.Pay(id); err != nil {
					errs <- err
				}
			}
		})
	}
	for i := range orders {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	waitDeliveries(t, s)

	counts := l.counts()
	require.Len(t, counts, orders, "no event lost")
	for k, n := range counts {
		require.Equal(t, 1, n, "%s processed %d times", k, n)
	}
	ds := s.Deliveries()
	require.Len(t, ds, 2*orders)
	refused := 0
	for _, d := range ds {
		require.True(t, d.Notified, "%s %s: %s", d.OrderID, d.EventName, d.Err)
		for _, a := range d.Attempts {
			if a.StatusCode != 200 {
				refused++
			}
		}
	}
	require.GreaterOrEqual(t, refused, orders/10, "the failing first tries were answered non-200 and re-sent")
	require.GreaterOrEqual(t, calls.Load(), int64(orders+orders/10))
}
