package checkout

import (
	"encoding/json"
	"testing"

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
