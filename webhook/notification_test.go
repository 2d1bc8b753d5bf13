package webhook

import (
	"testing"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/stretchr/testify/require"
)

// The notification events' content is typed: the published samples decode
// into Notification with their values, dates given as Unix seconds in text
// and redacted fields left zero (the event's Raw keeps them).
func TestNotificationContentTyped(t *testing.T) {
	s := conformance.Files(t, "webhooks", "webhook_notification_succeeded.json")[0]
	ev, err := ParseEvent(s.Data)
	require.NoError(t, err)
	require.Equal(t, NotificationSucceeded, ev.Name)
	n, err := ev.Notification()
	require.NoError(t, err)
	require.Equal(t, "24307339", n.ID)
	require.Equal(t, "notification", n.Object)
	require.Equal(t, "SUCCESS", n.Status)
	require.Equal(t, "MANDATE", n.SourceObject)
	require.Equal(t, "ii76ncZXa2tceXdeyCFqaM", n.Mandate.MandateID)
	require.Equal(t, "sCh7ihFFGLJKayCW", n.ObjectReferenceID)
	require.Equal(t, checkout.Amount("1.00"), n.SourceInfo.Amount)
	require.Equal(t, time.Unix(1691818137, 0).UTC(), n.SourceInfo.TxnDate.Time)
	require.Equal(t, time.Unix(1691662587, 0).UTC(), n.DateCreated.Time)
	require.Equal(t, "FILTERED", n.ProviderName, "a redacted text stays as the service wrote it")
	require.Contains(t, string(ev.Raw), `"provider_response": "FILTERED"`, "the event's Raw keeps what Notification does not type")

	for _, s := range conformance.Files(t, "webhooks", "*notification*") {
		if !s.ValidJSON() {
			continue
		}
		ev, err := ParseEvent(s.Data)
		require.NoError(t, err, s.Name)
		n, err := ev.Notification()
		require.NoError(t, err, s.Name)
		require.NotEmpty(t, n.ID, s.Name)
		require.NotEmpty(t, n.Status, s.Name)
	}
	ev, err = ParseEvent([]byte(`{"event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"o1"}}}`))
	require.NoError(t, err)
	_, err = ev.Notification()
	require.ErrorIs(t, err, ErrNoContent)
}
