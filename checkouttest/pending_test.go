package checkouttest_test

import (
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

func TestHoldStaysPendingUntilPaid(t *testing.T) {
	rc := newReceiver(t, always(http.StatusOK))
	s := newServer(t, checkouttest.Config{Webhook: checkouttest.WebhookConfig{URL: rc.URL}})
	require.Equal(t, 200, postOrder(t, s, orderForm("o-1")).status)
	require.NoError(t, s.Hold("o-1"))
	o, err := s.Order("o-1")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusPendingVBV, o.Status)
	wait(t, s)
	for _, d := range s.Deliveries() {
		require.NotEqual(t, checkouttest.EventOrderSucceeded, d.EventName, "no final event while pending")
	}

	require.NoError(t, s.Pay("o-1"))
	o, _ = s.Order("o-1")
	require.Equal(t, checkouttest.StatusCharged, o.Status)
	require.ErrorIs(t, s.Hold("nope"), checkouttest.ErrUnknownOrder)
}

func TestPayLaterCompletesOnItsOwn(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("o-1")).status)
	require.NoError(t, s.PayLater("o-1", 50*time.Millisecond))
	o, _ := s.Order("o-1")
	require.Equal(t, checkouttest.StatusPendingVBV, o.Status)
	require.Eventually(t, func() bool {
		o, _ := s.Order("o-1")
		return o.Status == checkouttest.StatusCharged
	}, 5*time.Second, 5*time.Millisecond)
}

func TestDropWebhooks(t *testing.T) {
	rc := newReceiver(t, always(http.StatusOK))
	s := newServer(t, checkouttest.Config{Webhook: checkouttest.WebhookConfig{URL: rc.URL}})
	require.Error(t, s.DropWebhooks(1.5))

	require.Equal(t, 200, postOrder(t, s, orderForm("lost")).status)
	require.NoError(t, s.DropWebhooksFor("lost"))
	require.NoError(t, s.Pay("lost"))
	wait(t, s)
	require.Empty(t, rc.requests(), "every delivery of the order is lost")
	for _, d := range s.Deliveries() {
		require.True(t, d.Done)
		require.Equal(t, "dropped on purpose", d.Err)
		require.Empty(t, d.Attempts)
	}
	dropped := s.Dropped()
	require.Positive(t, dropped)

	require.NoError(t, s.DropWebhooks(0.5))
	before := len(s.Deliveries())
	for i := range 40 {
		id := fmt.Sprint("o-", i)
		require.Equal(t, 200, postOrder(t, s, orderForm(id)).status)
		require.NoError(t, s.Pay(id))
	}
	wait(t, s)
	started := s.Deliveries()[before:]
	require.Len(t, started, 40, "one ORDER_SUCCEEDED per order")
	for i, d := range started {
		if i%2 == 1 {
			require.Equal(t, "dropped on purpose", d.Err, "0.5 drops every second delivery: #%d", i+1)
			require.Empty(t, d.Attempts)
		} else {
			require.True(t, d.Notified, "#%d is delivered", i+1)
		}
	}
	require.Equal(t, dropped+20, s.Dropped(), "exactly half of 40")
	require.Len(t, rc.requests(), 20, "what is not dropped is delivered")

	require.NoError(t, s.DropWebhooks(0.25), "a new share counts afresh")
	before = len(s.Deliveries())
	for i := range 8 {
		id := fmt.Sprint("q-", i)
		require.Equal(t, 200, postOrder(t, s, orderForm(id)).status)
		require.NoError(t, s.Pay(id))
	}
	wait(t, s)
	var lost []int
	for i, d := range s.Deliveries()[before:] {
		if d.Err == "dropped on purpose" {
			lost = append(lost, i+1)
		}
	}
	require.Equal(t, []int{4, 8}, lost, "0.25 drops every fourth")
	require.NoError(t, s.DropWebhooks(0))
	require.Error(t, s.DropWebhooks(math.NaN()))
}
