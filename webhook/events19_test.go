package webhook

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
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

// An ORDER_PARTIAL_CHARGED event: the order and its TxnList, both
// statuses with their ids; Transaction gives the txn_detail the service
// names latest, as documented.
func TestPartialChargedEvent(t *testing.T) {
	body := `{"id":"evt_split","event_name":"ORDER_PARTIAL_CHARGED","content":{"order":{"order_id":"ord_split",
		"status":"PARTIAL_CHARGED","status_id":37,"amount":1500,
		"txn_detail":{"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED"},
		"txn_list":[{"txn_id":"shop-ord_split-1","status":"CHARGED","payment_method_type":"UPI","txn_amount":500},
			{"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED","payment_method_type":"CARD","txn_amount":1000}]}}}`
	ev, err := ParseEvent([]byte(body))
	require.NoError(t, err)
	require.Equal(t, OrderPartialCharged, ev.Name)
	o, err := ev.Order()
	require.NoError(t, err)
	require.Equal(t, checkout.StatusPartialCharged, o.Status)
	require.Equal(t, 37, o.Status.ID())
	require.False(t, o.IsPaid())
	require.Len(t, o.TxnList, 2)
	require.Equal(t, checkout.StatusCharged, o.TxnList[0].Status)
	require.Equal(t, checkout.StatusToBeCharged, o.TxnList[1].Status)
	require.Equal(t, 38, o.TxnList[1].Status.ID())
	txn, err := ev.Transaction()
	require.NoError(t, err)
	require.Equal(t, "shop-ord_split-2", txn.TxnID, "txn_detail, the one the service names latest")
}

// Every event the service documents has its constant.
func TestDocumentedEventNames(t *testing.T) {
	for name, c := range map[string]string{
		"TXN_CHARGED": TxnCharged, "MANDATE_REVOKED": MandateRevoked, "ORDER_PARTIAL_CHARGED": OrderPartialCharged,
		"REFUND_MANUAL_REVIEW_NEEDED": RefundManualReviewNeeded, "ORDER_SUCCEEDED": OrderSucceeded,
		"NOTIFICATION_FAILED": NotificationFailed, "TXN_CREATED": TxnCreated, "MANDATE_PAUSED": MandatePaused,
	} {
		require.Equal(t, name, c)
	}
}
