package checkouttest_test

import (
	"fmt"
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
	for i := range 40 {
		id := fmt.Sprint("o-", i)
		require.Equal(t, 200, postOrder(t, s, orderForm(id)).status)
		require.NoError(t, s.Pay(id))
	}
	wait(t, s)
	lost := s.Dropped() - dropped
	require.Equal(t, len(s.Deliveries())-dropped-lost, len(rc.requests()), "what is not dropped is delivered")
	require.InDelta(t, 40, lost, 25, "about half of 80 deliveries")
	require.NoError(t, s.DropWebhooks(0))
}
