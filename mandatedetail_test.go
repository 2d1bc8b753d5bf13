package checkout

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A mandate's payment_info is typed; redacted ("FILTERED", as the service's
// webhooks send it), it is zero, and decoding it is only a type error
// that leaves the rest decoded, as the webhook package reads it.
func TestMandatePaymentInfoTyped(t *testing.T) {
	var m MandateDetail
	require.NoError(t, json.Unmarshal([]byte(`{"mandate_id":"m1","payment_info":{"payment_method_type":"UPI",`+
		`"payment_method":"COLLECT","upi":{"payer_vpa":"asha@okhdfc","payer_app":"PHONEPE"},"bank_name":"HDFC"}}`), &m))
	require.Equal(t, "UPI", m.PaymentInfo.PaymentMethodType)
	require.Equal(t, "COLLECT", m.PaymentInfo.PaymentMethod)
	require.Equal(t, "asha@okhdfc", m.PaymentInfo.UPI.PayerVPA)
	require.Equal(t, "PHONEPE", m.PaymentInfo.UPI.PayerApp)
	var redacted MandateDetail
	require.NoError(t, decodeLenient([]byte(`{"mandate_id":"m1","payment_info":"FILTERED","max_amount":"10"}`), &redacted))
	require.Zero(t, redacted.PaymentInfo)
	require.Equal(t, MandateDetail{MandateID: "m1", MaxAmount: "10.00"}, redacted)
	var card MandateDetail
	require.NoError(t, json.Unmarshal([]byte(`{"payment_info":{"payment_method_type":"CARD","card":{"card_brand":"VISA"}}}`), &card))
	require.Equal(t, "VISA", card.PaymentInfo.Card.Brand)
}

// A mandate debit's order status: the mandate's registration answer
// (pg_response, zero when "FILTERED") and the beneficiary of its account,
// the order's source object, and the pre-debit notification it carries.
func TestStatusMandateNotification(t *testing.T) {
	st := fixture(t, "status_mandate_notification.json")
	m := st.Mandate
	require.Equal(t, MandatePGResponse{ResponseCode: "00", ResponseMessage: "Mandate registered"}, m.PGResponse)
	require.Equal(t, BankDetails{AccountNumber: "XXXXXX9012", IFSC: "ICIC0000042", BeneficiaryName: "Shop Pvt Ltd"}, m.BankDetails)
	require.Equal(t, "MANDATE", st.SourceObject)
	require.Equal(t, "mnd_77", st.SourceObjectID)
	require.Equal(t, Notification{ID: "24307401", Object: "notification", ObjectReferenceID: "ntf_ref_9",
		NotificationType: "SMS", Status: "SUCCESS", ProviderName: "BILLDESK", SourceObject: "MANDATE",
		ProviderResponse: TextMap{"provider_ref_id": "IN0DF815118772"},
		SourceInfo:       NotificationSource{Amount: "499.00", TxnDate: Timestamp{time.Unix(1756800000, 0).UTC()}},
		DateCreated:      Timestamp{time.Date(2025, 9, 1, 9, 0, 0, 0, time.UTC)},
		LastUpdated:      Timestamp{time.Unix(1756717200, 0).UTC()}}, st.Notification)

	st, err := decodeReply[OrderStatus]([]byte(`{"order_id":"o","mandate":{"mandate_id":"m","pg_response":"FILTERED"},` +
		`"notification":{"id":"n1","provider_response":"FILTERED","provider_name":"FILTERED"}}`))
	require.NoError(t, err)
	require.Equal(t, MandateDetail{MandateID: "m"}, st.Mandate)
	require.Equal(t, Notification{ID: "n1", ProviderName: "FILTERED"}, st.Notification, "redacted text stays as sent, a redacted block is zero")
}
