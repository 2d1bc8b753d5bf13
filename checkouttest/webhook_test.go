package checkouttest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// receiver records webhook requests and answers with reply(n) for the n-th
// (from 1).
type receiver struct {
	*httptest.Server
	mu    sync.Mutex
	got   []received
	calls atomic.Int64
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, reply func(n int64, r *http.Request) int) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n := rc.calls.Add(1)
		rc.mu.Lock()
		rc.got = append(rc.got, received{r.Header.Clone(), body})
		rc.mu.Unlock()
		w.WriteHeader(reply(n, r))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func always(code int) func(int64, *http.Request) int {
	return func(int64, *http.Request) int { return code }
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func wait(t *testing.T, s *checkouttest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	require.NoError(t, s.WaitDeliveries(ctx))
}

// payAndWait creates orderID with POST /orders, pays it and waits for the
// deliveries to end; it returns the first delivery.
func payAndWait(t *testing.T, s *checkouttest.Server, orderID string) checkouttest.Delivery {
	t.Helper()
	require.Equal(t, 200, postOrder(t, s, orderForm(orderID)).status)
	require.NoError(t, s.Pay(orderID))
	wait(t, s)
	return s.Deliveries()[0]
}

// statusCodes lists the receiver's reply to each attempt of d.
func statusCodes(d checkouttest.Delivery) []int {
	var codes []int
	for _, a := range d.Attempts {
		codes = append(codes, a.StatusCode)
	}
	return codes
}

func webhookConfig(url string) checkouttest.WebhookConfig {
	return checkouttest.WebhookConfig{
		URL: url, Username: "shopuser", Password: "s3cret pass",
		Headers: map[string]string{"X-Shop": "blue"}, RetryInterval: 5 * time.Millisecond,
	}
}

func TestWebhookDelivery(t *testing.T) {
	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_w1")).status)
	require.NoError(t, s.Pay("ord_w1"))
	wait(t, s)

	got := rc.requests()
	require.Len(t, got, 1)
	h := got[0].header
	require.Equal(t, basic("shopuser:s3cret pass"), h.Get("Authorization"))
	require.Equal(t, "blue", h.Get("X-Shop"))
	require.Equal(t, "application/json", h.Get("Content-Type"))
	var ev struct {
		ID          string `json:"id"`
		EventName   string `json:"event_name"`
		DateCreated string `json:"date_created"`
		Content     struct {
			Order map[string]any `json:"order"`
		} `json:"content"`
	}
	require.NoError(t, json.Unmarshal(got[0].body, &ev))
	require.Regexp(t, `^evt_V2_[0-9a-f]{32}$`, ev.ID)
	require.Equal(t, "ORDER_SUCCEEDED", ev.EventName)
	_, err := time.Parse(time.RFC3339, ev.DateCreated)
	require.NoError(t, err)
	require.Equal(t, "ord_w1", ev.Content.Order["order_id"])
	require.Equal(t, "CHARGED", ev.Content.Order["status"])
	require.Equal(t, 21.0, ev.Content.Order["status_id"])

	ds := s.Deliveries()
	require.Len(t, ds, 1)
	require.Equal(t, ev.ID, ds[0].EventID)
	require.Equal(t, "ord_w1", ds[0].OrderID)
	require.True(t, ds[0].Notified)
	require.True(t, ds[0].Done)
	require.Len(t, ds[0].Attempts, 1)
	require.Equal(t, 200, ds[0].Attempts[0].StatusCode)
	require.Equal(t, got[0].body, ds[0].Body)
}

func TestWebhookPerOrderURLKeepsConfiguredCredentials(t *testing.T) {
	dashboard := newReceiver(t, always(200))
	perOrder := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(dashboard.URL)})
	body := sessionBody("ord_w2")
	body["metadata.webhook_url"] = perOrder.URL + "/hooks/ord_w2"
	require.Equal(t, 200, postSession(t, s, body).status)
	form := orderForm("ord_w3")
	form.Set("metadata.webhook_url", perOrder.URL+"/hooks/ord_w3")
	require.Equal(t, 200, postOrder(t, s, form).status)
	require.NoError(t, s.Fail("ord_w2"))
	require.NoError(t, s.Pay("ord_w3"))
	wait(t, s)
	require.Empty(t, dashboard.requests())
	got := perOrder.requests()
	require.Len(t, got, 2)
	for _, r := range got {
		require.Equal(t, basic("shopuser:s3cret pass"), r.header.Get("Authorization"), "spec §5.5")
		require.Equal(t, "blue", r.header.Get("X-Shop"))
	}
	names := map[string]string{}
	for _, d := range s.Deliveries() {
		names[d.OrderID] = d.EventName
	}
	require.Equal(t, map[string]string{"ord_w2": "ORDER_FAILED", "ord_w3": "ORDER_SUCCEEDED"}, names)
}

func TestWebhookRetriesUntil200(t *testing.T) {
	rc := newReceiver(t, func(n int64, _ *http.Request) int {
		if n <= 2 {
			return 500
		}
		return 200
	})
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	d := payAndWait(t, s, "ord_w4")
	require.True(t, d.Notified)
	require.Equal(t, []int{500, 500, 200}, statusCodes(d))
	require.Len(t, rc.requests(), 3)
	require.Equal(t, rc.requests()[0].body, rc.requests()[2].body, "a re-send carries the same event")
}

// TestWebhookOnlyExactly200Notifies: spec §6.1.4 asks for HTTP 200; any
// other reply, a 204 or a redirect included (not followed), is re-sent.
func TestWebhookOnlyExactly200Notifies(t *testing.T) {
	replies := []int{http.StatusNoContent, http.StatusMovedPermanently, http.StatusAccepted, http.StatusOK}
	rc := newReceiver(t, func(n int64, _ *http.Request) int { return replies[min(int(n), len(replies))-1] })
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	d := payAndWait(t, s, "ord_200")
	require.True(t, d.Notified)
	require.Equal(t, replies, statusCodes(d))
}

// TestWebhookRetryInterval: re-sends are spaced by at least the configured
// interval. Only the lower bound is checked; a loaded machine may wait longer.
func TestWebhookRetryInterval(t *testing.T) {
	rc := newReceiver(t, func(n int64, _ *http.Request) int {
		if n <= 3 {
			return 502
		}
		return 200
	})
	cfg := webhookConfig(rc.URL)
	cfg.RetryInterval = 60 * time.Millisecond
	s := newServer(t, checkouttest.Config{Webhook: cfg})
	d := payAndWait(t, s, "ord_ri")
	require.True(t, d.Notified)
	require.Len(t, d.Attempts, 4)
	for i := 1; i < len(d.Attempts); i++ {
		require.GreaterOrEqual(t, d.Attempts[i].Time.Sub(d.Attempts[i-1].Time), cfg.RetryInterval, "attempt %d", i)
	}
}

func TestWebhookGivesUpAfterMaxAttempts(t *testing.T) {
	rc := newReceiver(t, always(503))
	cfg := webhookConfig(rc.URL)
	cfg.MaxAttempts = 3
	s := newServer(t, checkouttest.Config{Webhook: cfg})
	d := payAndWait(t, s, "ord_w5")
	require.False(t, d.Notified)
	require.True(t, d.Done)
	require.Len(t, d.Attempts, 3)
	require.Equal(t, "gave up after 3 attempts", d.Err)
	require.EqualValues(t, 3, rc.calls.Load())
}

func TestWebhookOnlyEnabledEvents(t *testing.T) {
	rc := newReceiver(t, always(200))
	cfg := webhookConfig(rc.URL)
	cfg.Events = []string{checkouttest.EventOrderFailed, checkouttest.EventTxnCreated}
	s := newServer(t, checkouttest.Config{Webhook: cfg})
	for _, id := range []string{"ord_e1", "ord_e2"} {
		require.Equal(t, 200, postOrder(t, s, orderForm(id)).status)
	}
	require.NoError(t, s.Pay("ord_e1"))
	require.NoError(t, s.Fail("ord_e2"))
	wait(t, s)
	var got []string
	for _, d := range s.Deliveries() {
		got = append(got, d.OrderID+" "+d.EventName)
	}
	require.Equal(t, []string{"ord_e1 TXN_CREATED", "ord_e2 TXN_CREATED", "ord_e2 ORDER_FAILED"}, got)

	none := webhookConfig(rc.URL)
	none.Events = []string{}
	s2 := newServer(t, checkouttest.Config{Webhook: none})
	require.Equal(t, 200, postOrder(t, s2, orderForm("ord_e3")).status)
	require.NoError(t, s2.Pay("ord_e3"))
	require.Empty(t, s2.Deliveries())
}

func TestWebhookDuplicatesAndResend(t *testing.T) {
	rc := newReceiver(t, always(200))
	cfg := webhookConfig(rc.URL)
	cfg.Duplicates = 2
	s := newServer(t, checkouttest.Config{Webhook: cfg})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_d1")).status)
	require.NoError(t, s.Pay("ord_d1"))
	wait(t, s)
	ds := s.Deliveries()
	require.Len(t, ds, 3)
	for _, d := range ds {
		require.Equal(t, ds[0].EventID, d.EventID)
		require.Equal(t, ds[0].Body, d.Body)
		require.True(t, d.Notified)
	}
	require.NoError(t, s.Resend(ds[0].EventID))
	wait(t, s)
	require.Equal(t, 4, len(s.Deliveries()), "Resend sends one more delivery")
	require.Equal(t, 4, len(rc.requests()))
	require.ErrorIs(t, s.Resend("evt_nope"), checkouttest.ErrUnknownEvent)
}

func TestWebhookWithoutURL(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_n1")).status)
	require.NoError(t, s.Pay("ord_n1"))
	ds := s.Deliveries()
	require.Len(t, ds, 1)
	require.True(t, ds[0].Done)
	require.Empty(t, ds[0].Attempts)
	require.Contains(t, ds[0].Err, "no webhook URL")
}

// A failed send is recorded without the URL's user or query, which may be
// tokens (the HTTP client's own error keeps both).
func TestWebhookSendErrorHidesTheURL(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	hook := strings.Replace(closed.URL, "http://", "http://tok-user-1@", 1) + "/h?token=q-secret-9"
	s := newServer(t, checkouttest.Config{Webhook: checkouttest.WebhookConfig{URL: hook, MaxAttempts: 1}})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_e1")).status)
	require.NoError(t, s.Pay("ord_e1"))
	wait(t, s)
	d := s.Deliveries()[0]
	require.Len(t, d.Attempts, 1)
	require.Contains(t, d.Attempts[0].Err, "POST <webhook url>: ")
	for _, text := range []string{d.Attempts[0].Err, d.Err} {
		require.NotContains(t, text, "tok-user-1")
		require.NotContains(t, text, "q-secret-9")
	}
}

func TestWebhookCredentialsFixedInDashboard(t *testing.T) {
	rc := newReceiver(t, func(_ int64, r *http.Request) int {
		if u, p, ok := r.BasicAuth(); ok && u == "shopuser" && p == "right" {
			return 200
		}
		return 401
	})
	cfg := webhookConfig(rc.URL)
	cfg.Password = "wrong"
	cfg.RetryInterval = 20 * time.Millisecond
	cfg.MaxAttempts = 1 << 20 // keeps re-sending until the fix, however slow the machine
	s := newServer(t, checkouttest.Config{Webhook: cfg})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_c1")).status)
	require.NoError(t, s.Pay("ord_c1"))
	require.Eventually(t, func() bool { return rc.calls.Load() >= 2 }, 30*time.Second, time.Millisecond)
	fixed := s.Webhook()
	require.Equal(t, "wrong", fixed.Password)
	fixed.Username, fixed.Password = "shopuser", "right"
	require.NoError(t, s.SetWebhook(fixed))
	wait(t, s)
	d := s.Deliveries()[0]
	require.True(t, d.Notified)
	require.Equal(t, 401, d.Attempts[0].StatusCode)
	require.Equal(t, 200, d.Attempts[len(d.Attempts)-1].StatusCode)
	fixed.Username = "shop.user"
	require.ErrorContains(t, s.SetWebhook(fixed), "Username", "a character the dashboard refuses")
	require.Equal(t, "shopuser", s.Webhook().Username, "a refused configuration changes nothing")
}

func TestCloseStopsDeliveries(t *testing.T) {
	rc := newReceiver(t, always(500))
	cfg := webhookConfig(rc.URL)
	cfg.MaxAttempts = 1 << 20 // still re-sending when Close comes, however slow the machine
	cfg.RetryInterval = time.Millisecond
	s := checkouttest.NewServer(checkouttest.Config{MerchantID: merchantID, APIKey: apiKey, Webhook: cfg})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_x1")).status)
	require.NoError(t, s.Pay("ord_x1"))
	require.Eventually(t, func() bool { return rc.calls.Load() >= 3 }, 30*time.Second, time.Millisecond)
	s.Close()
	d := s.Deliveries()[0]
	// After Close no attempt is made: every request the receiver sees was
	// recorded as an attempt, except at most the one in flight when Close
	// cancelled it. A delivery still running would exceed that bound within
	// milliseconds (1ms retry interval); the check has no upper time limit
	// that a slow machine could break.
	time.Sleep(50 * time.Millisecond)
	require.LessOrEqual(t, rc.calls.Load(), int64(len(d.Attempts)+1), "no webhook is sent after Close returns")
	require.Equal(t, d.Attempts, s.Deliveries()[0].Attempts, "no attempt is recorded after Close returns")
	require.True(t, d.Done)
	require.False(t, d.Notified)
	require.Equal(t, "stopped by Close", d.Err)
	require.ErrorIs(t, s.Pay("ord_x1"), checkouttest.ErrClosed)
	require.NoError(t, s.WaitDeliveries(context.Background()))
	s.Close() // twice is fine
}

func TestGatewayReferences(t *testing.T) {
	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{
		Webhook:  webhookConfig(rc.URL),
		Gateways: []checkouttest.Gateway{{Name: "RAZORPAY", ID: 23, ReferenceID: "shop_a"}, {Name: "PAYU", ReferenceID: "shop_a"}},
	})
	require.ErrorIs(t, s.AddGateway(checkouttest.Gateway{Name: "RAZORPAY", ReferenceID: "shop_a"}), checkouttest.ErrDuplicateReference)
	err := s.AddGateway(checkouttest.Gateway{Name: "RAZORPAY"})
	require.ErrorContains(t, err, "checkout: add gateway: invalid request: Gateway.ReferenceID: ")
	var ve *checkout.ValidationError
	require.ErrorAs(t, err, &ve)

	form := orderForm("ord_g1")
	form.Set("metadata.SERVICE:gateway_reference_id", "shop_a")
	require.Equal(t, 200, postOrder(t, s, form).status)
	require.NoError(t, s.Pay("ord_g1"))
	r := getOrder(t, s, "ord_g1")
	require.Equal(t, "CHARGED", r.json["status"])
	require.Equal(t, "shop_a", r.json["gateway_reference_id"])
	require.Equal(t, 23.0, r.json["gateway_id"])
	require.Equal(t, "shop_a", r.json["metadata"].(map[string]any)["RAZORPAY:gateway_reference_id"])

	// A reference no configuration holds: created, but the payment stays STARTED.
	form = orderForm("ord_g2")
	form.Set("metadata.SERVICE:gateway_reference_id", "Shop_A")
	require.Equal(t, 200, postOrder(t, s, form).status)
	require.NoError(t, s.Pay("ord_g2"))
	r = getOrder(t, s, "ord_g2")
	require.Equal(t, "STARTED", r.json["status"])
	require.Equal(t, 20.0, r.json["status_id"])
	require.Equal(t, "STARTED", r.json["txn_detail"].(map[string]any)["status"])
	wait(t, s)
	for _, d := range s.Deliveries() {
		require.NotEqual(t, "ord_g2", d.OrderID, "no ORDER_* event for a STARTED transaction")
	}
	// Once the console holds it, paying again succeeds.
	require.NoError(t, s.AddGateway(checkouttest.Gateway{Name: "PAYU", ReferenceID: "Shop_A"}))
	require.NoError(t, s.Pay("ord_g2"))
	o, err := s.Order("ord_g2")
	require.NoError(t, err)
	require.Equal(t, "CHARGED", o.Status)
	require.Equal(t, "PAYU", o.Gateway)
	require.Equal(t, "example-ord_g2-2", "example-"+o.TxnID[len(merchantID)+1:])
	require.ErrorIs(t, s.Pay("ord_g2"), checkouttest.ErrInvalidTransition)
	require.ErrorIs(t, s.Pay("ord_none"), checkouttest.ErrUnknownOrder)
}

// Pay can settle another amount than the order's, for a merchant to try an
// underpaid or overpaid order: the order status and the webhook carry it,
// and CheckPaid against the amount asked for refuses it.
func TestPayAnotherAmount(t *testing.T) {
	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	ctx := context.Background()
	for id, paid := range map[string]checkout.Amount{"ord_under": "20.00", "ord_over": "30.5"} {
		require.Equal(t, 200, postOrder(t, s, orderForm(id)).status) // 25.50
		require.NoError(t, s.PayWith(id, checkouttest.Payment{MethodType: "UPI", Amount: paid}))
		st, err := c.GetOrder(ctx, id)
		require.NoError(t, err)
		require.True(t, st.IsPaid())
		require.ErrorIs(t, st.CheckPaid("25.50"), checkout.ErrNotPaid, id)
		require.NoError(t, st.CheckPaid(paid), id)
		require.NoError(t, (&checkout.OrderStatus{Status: st.Status, Amount: st.EffectiveAmount}).CheckPaid(paid), "effective_amount too")
		o, err := s.Order(id)
		require.NoError(t, err)
		require.Contains(t, string(o.Raw), `"txn_amount":`+map[string]string{"ord_under": "20,", "ord_over": "30.5,"}[id])
	}
	wait(t, s)
	var ev struct {
		Content struct {
			Order struct {
				Amount json.Number `json:"amount"`
			} `json:"order"`
		} `json:"content"`
	}
	require.NoError(t, json.Unmarshal(rc.requests()[0].body, &ev))
	require.NotEqual(t, "25.50", ev.Content.Order.Amount.String(), "the webhook carries the amount paid")

	require.Equal(t, 200, postOrder(t, s, orderForm("ord_bad")).status)
	for _, bad := range []checkout.Amount{"0.00", "-1", "1.005", "ten"} {
		err := s.PayWith("ord_bad", checkouttest.Payment{Amount: bad})
		require.ErrorContains(t, err, "checkouttest: pay: Payment.Amount", bad)
	}
	o, err := s.Order("ord_bad")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusCreated, o.Status, "a refused amount moves nothing")
	require.Equal(t, "25.50", o.Amount)

	status, body := control(t, s, http.MethodPost, "orders/ord_bad/pay?amount=12.00")
	require.Equal(t, 200, status, body)
	o, _ = s.Order("ord_bad")
	require.Equal(t, "12.00", o.Amount)
	status, _ = control(t, s, http.MethodPost, "orders/ord_bad/fail?amount=12.00")
	require.Equal(t, 400, status, "amount goes with pay only")
}
