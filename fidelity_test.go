package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// A session body with gateway-specific metadata (metadata.<GATEWAY>:<key>
// of a gateway other than the client's namespace) goes out of
// CreateSession with those keys and values unchanged: only the client's
// namespace maps to GatewayReferenceID.
func TestSessionGatewayMetadataSentAsGiven(t *testing.T) {
	body := `{"order_id":"o1","amount":"10.00","customer_id":"c1","customer_phone":"9876543210",
		"payment_page_client_id":"shop","action":"paymentPage",
		"metadata.AMAZONPAY:gateway_reference_id":"amzn_ref","metadata.SIMPL:merchant_ref":"simpl_1",
		"metadata.SERVICE:gateway_reference_id":"payu_test","metadata.expiryInMins":"15"}`
	var r SessionRequest
	require.NoError(t, json.Unmarshal([]byte(body), &r))
	require.Equal(t, "payu_test", r.GatewayReferenceID)
	require.Equal(t, GatewayMetadataList{
		{Gateway: "AMAZONPAY", Key: "gateway_reference_id", Value: "amzn_ref"},
		{Gateway: "SIMPL", Key: "merchant_ref", Value: "simpl_1"},
	}, r.GatewayMetadata)
	require.Equal(t, map[string]any{"metadata.expiryInMins": "15"}, r.Extra)

	c, srv := replyingClient(t, `{"status":"NEW","sdk_payload":{"requestId":"r"}}`)
	_, err := c.CreateSession(context.Background(), &r)
	require.NoError(t, err)
	requireSameSession(t, []byte(body), srv.last(t).Body)

	// In a client whose namespace is JUSPAY, the reference goes under
	// JUSPAY and the other gateways' entries are still sent as given.
	c, srv = replyingClient(t, `{"status":"NEW","sdk_payload":{"requestId":"r"}}`, WithNamespace("JUSPAY"))
	_, err = c.CreateSession(context.Background(), &r)
	require.NoError(t, err)
	var sent map[string]any
	require.NoError(t, json.Unmarshal(srv.last(t).Body, &sent))
	require.Equal(t, "payu_test", sent["metadata.JUSPAY:gateway_reference_id"])
	require.Equal(t, "amzn_ref", sent["metadata.AMAZONPAY:gateway_reference_id"])
	require.Equal(t, "simpl_1", sent["metadata.SIMPL:merchant_ref"])
	require.NotContains(t, sent, "metadata.SERVICE:gateway_reference_id")

	// An entry that writes the key GatewayReferenceID owns, or one given
	// twice, is refused as in an order request.
	r.GatewayMetadata = append(r.GatewayMetadata, GatewayMetadata{Gateway: "SERVICE", Key: "gateway_reference_id", Value: "x"},
		GatewayMetadata{Gateway: "SIMPL", Key: "merchant_ref", Value: "again"})
	requireProblemPaths(t, r.Validate(), []string{"metadata.SERVICE:gateway_reference_id", "metadata.SIMPL:merchant_ref"})
}

// The UPI links: a session asks for them with UPIDeepLinks (sent as the
// service's own bodies send it) and reads payment_links.deep_link; an
// order created with a UPI transaction carries deep_link and
// base64_encoded_qr at the top level.
func TestUPILinksAreTyped(t *testing.T) {
	body := conformance.Files(t, "session", "session_request_get_upi_deep_links.json")[0].Data
	var r SessionRequest
	require.NoError(t, json.Unmarshal(body, &r))
	require.True(t, r.UPIDeepLinks)
	require.Nil(t, r.Extra)
	out, err := json.Marshal(&r)
	require.NoError(t, err)
	require.Contains(t, string(out), `"options.get_upi_deep_links":"true"`)
	requireSameSession(t, body, out)
	require.NoError(t, json.Unmarshal([]byte(`{"options.get_upi_deep_links":true}`), &r))
	require.True(t, r.UPIDeepLinks)
	var ve *ValidationError
	require.ErrorAs(t, json.Unmarshal([]byte(`{"options.get_upi_deep_links":"yes"}`), &r), &ve)
	require.True(t, ve.Has("options.get_upi_deep_links"))

	s, err := decodeReply[Session]([]byte(`{"status":"NEW","order_id":"o1","payment_links":{"web":"https://p/w",` +
		`"deep_link":"upi://pay?pa=shop@ybl&am=1.00"},"order_expiry":"2023-12-15T11:09:52Z","sdk_payload":{"a":1}}`))
	require.NoError(t, err)
	require.Equal(t, "upi://pay?pa=shop@ybl&am=1.00", s.PaymentLinks.DeepLink)
	require.Equal(t, time.Date(2023, 12, 15, 11, 9, 52, 0, time.UTC), s.OrderExpiry.Time)

	qr := conformance.Files(t, "orders", "order_create_upi_qr_response.json")[0].Data
	o, err := decodeReply[Order](qr)
	require.NoError(t, err)
	require.Equal(t, "qr-image-in-bas64-encoded-for,at", o.Base64EncodedQR)
	require.Equal(t, "upi://pay?tr=mandate_juspay-orderIdIs67267-1&mc=5816&pa=STAGEONLINE@ybl&pn=Stage&am=2.00&cu=INR", o.DeepLink)

	dl := conformance.Files(t, "orders", "order_create_upi_deep_link_response.json")[0].Data
	o, err = decodeReply[Order](dl)
	require.NoError(t, err)
	require.NotEmpty(t, o.DeepLink)
	require.Empty(t, o.Base64EncodedQR)
	require.Equal(t, time.Date(2023, 12, 15, 11, 9, 52, 0, time.UTC), o.OrderExpiry.Time)
}

// The order-create reply is typed beyond its ids.
func TestOrderReplyTyped(t *testing.T) {
	o, err := decodeReply[Order](conformance.Files(t, "orders", "order_create_upi_qr_response.json")[0].Data)
	require.NoError(t, err)
	require.Equal(t, Amount("1.00"), o.Amount)
	require.Equal(t, Amount("0.00"), o.AmountRefunded)
	require.False(t, bool(o.Refunded))
	require.Equal(t, "INR", o.Currency)
	require.Equal(t, "cth_w2gbGjGi8BUkLgCo", o.CustomerID)
	require.Equal(t, "krishna.gprasad@juspay.in", o.CustomerEmail)
	require.Equal(t, "7093125824", o.CustomerPhone)
	require.Equal(t, "5", o.ProductID)
	require.Equal(t, "http://www.google.com/", o.ReturnURL)
	require.Equal(t, "azharamin", o.MerchantID)
	require.Equal(t, "RiderQR", o.UDF10)
	require.Empty(t, o.UDF1)
	require.Equal(t, time.Date(2024, 2, 12, 7, 44, 57, 150265000, time.UTC), o.DateCreated.Time)
	require.EqualValues(t, "tkn_b25bae8cd5cc4f4c9ec28b5a5ffb2db5", o.ClientAuthToken)
}

// currency and udf1…udf10 are typed on session and order requests; while
// their field is empty, Extra may still carry them (as it did before they
// were typed), and setting both is refused.
func TestCurrencyAndUDFsTyped(t *testing.T) {
	r := baseSession()
	r.Currency, r.UDF3 = "INR", "campaign"
	out, err := json.Marshal(r)
	require.NoError(t, err)
	require.Contains(t, string(out), `"currency":"INR"`)
	require.Contains(t, string(out), `"udf3":"campaign"`)

	r.Extra = map[string]any{"udf4": "via extra"}
	require.NoError(t, r.Validate(), "udf4's field is empty")
	r.Extra = map[string]any{"udf3": "twice", "currency": "USD"}
	requireProblemPaths(t, r.Validate(), []string{"currency", "udf3"})

	o := fullOrder()
	o.UDF1, o.UDF10 = "rider", "RiderQR"
	o.Extra = nil
	v, err := o.Values()
	require.NoError(t, err)
	require.Equal(t, "rider", v.Get("udf1"))
	require.Equal(t, "RiderQR", v.Get("udf10"))
	o.Extra = map[string]string{"udf1": "again"}
	requireProblemPaths(t, o.Validate(), []string{"udf1"})
	o.Extra = map[string]string{"udf2": "ok"}
	require.NoError(t, o.Validate())
}

// partialCharged is an order paid in part by UPI, the rest to be charged
// by card, as an ORDER_PARTIAL_CHARGED webhook and the order status carry
// it (the service's naming; no published sample holds it).
const partialCharged = `{"order_id":"ord_split","id":"ordeh_split","status":"PARTIAL_CHARGED","status_id":37,"amount":1500,
 "txn_id":"shop-ord_split-2","emi_bank":"HDFC","emi_tenure":6,
 "upi":{"payer_vpa":"asha@okhdfc","txn_flow_type":"INTENT","payer_app":"GPAY"},
 "card":{"card_brand":"VISA","card_type":"CREDIT","last_four_digits":"1111","using_token":true,"token_created":true,
  "tokenization_user_consent":true,"card_issuer_country":"INDIA","extended_card_type":"PREPAID",
  "token":{"provider":"VISA","provider_category":"NETWORK_TOKEN","par":"V0010013018209",
   "last_four_digits":"4321","tokenization_status":"ACTIVE"}},
 "offers":[{"offer_id":"off_1","offer_code":"NEWUSER","status":"AVAILED",
  "benefits":[{"type":"DISCOUNT","amount":100,"calculation_rule":"ABSOLUTE","value":"100"}]}],
 "txn_list":[
  {"txn_id":"shop-ord_split-1","status":"CHARGED","payment_method_type":"UPI","payment_method":"GPAY",
   "txn_detail":{"txn_id":"shop-ord_split-1","status":"CHARGED","txn_amount":"500"}},
  {"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED","payment_method_type":"CARD","payment_method":"VISA",
   "txn_detail":{"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED","txn_amount":1000}}]}`

// An order paid by several transactions: the list, both statuses with
// their ids, the card's tokenisation fields, the EMI plan, the UPI app and
// the offer's benefits are typed.
func TestPartialChargedOrderTyped(t *testing.T) {
	st, err := decodeReply[OrderStatus]([]byte(partialCharged))
	require.NoError(t, err)
	require.Equal(t, StatusPartialCharged, st.Status)
	require.EqualValues(t, 37, StatusPartialCharged.ID())
	require.EqualValues(t, 38, StatusToBeCharged.ID())
	require.True(t, StatusToBeCharged.Known())
	require.False(t, st.IsPaid(), "a partly paid order is not paid")
	require.False(t, st.IsFinal())
	require.ErrorIs(t, st.CheckPaid("1500.00"), ErrNotPaid)
	require.Len(t, st.TxnList, 2)
	require.Equal(t, StatusCharged, st.TxnList[0].Status)
	require.Equal(t, "UPI", st.TxnList[0].PaymentMethodType)
	require.Equal(t, Amount("500.00"), st.TxnList[0].TxnDetail.TxnAmount)
	require.Equal(t, StatusToBeCharged, st.TxnList[1].Status)
	require.Equal(t, "VISA", st.TxnList[1].PaymentMethod)
	require.Equal(t, Amount("1000.00"), st.TxnList[1].TxnDetail.TxnAmount)
	require.Equal(t, "GPAY", st.UPI.PayerApp)
	require.Equal(t, "HDFC", st.EMIBank)
	require.Equal(t, Int(6), st.EMITenure)
	c := st.Card
	require.True(t, bool(c.UsingToken))
	require.True(t, c.TokenCreated.Created)
	require.True(t, bool(c.TokenizationUserConsent))
	require.Equal(t, "INDIA", c.IssuerCountry)
	require.Equal(t, "PREPAID", c.ExtendedType)
	require.Equal(t, "NETWORK_TOKEN", c.Token.ProviderCategory)
	require.Equal(t, "V0010013018209", c.Token.PAR)
	require.Contains(t, st.Raw.String(), `"tokenization_status":"ACTIVE"`, "what is not typed stays in Raw")
	require.Equal(t, []OfferBenefit{{Type: "DISCOUNT", Amount: "100.00",
		OfferCalculation: OfferCalculation{CalculationRule: "ABSOLUTE", Value: "100.00"}}}, st.Offers[0].Benefits)
}

// A mandate's payment_info is typed; redacted ("FILTERED", as the service's
// webhooks send it), it is nil.
func TestMandatePaymentInfoTyped(t *testing.T) {
	var m MandateDetail
	require.NoError(t, json.Unmarshal([]byte(`{"mandate_id":"m1","payment_info":{"payment_method_type":"UPI",`+
		`"payment_method":"COLLECT","upi":{"payer_vpa":"asha@okhdfc","payer_app":"PHONEPE"},"bank_name":"HDFC"}}`), &m))
	require.Equal(t, "UPI", m.PaymentInfo.PaymentMethodType)
	require.Equal(t, "COLLECT", m.PaymentInfo.PaymentMethod)
	require.Equal(t, "asha@okhdfc", m.PaymentInfo.UPI.PayerVPA)
	require.Equal(t, "PHONEPE", m.PaymentInfo.UPI.PayerApp)
	require.NoError(t, json.Unmarshal([]byte(`{"mandate_id":"m1","payment_info":"FILTERED"}`), &m))
	require.Nil(t, m.PaymentInfo)
	var card MandateDetail
	require.NoError(t, json.Unmarshal([]byte(`{"payment_info":{"payment_method_type":"CARD","card":{"card_brand":"VISA"}}}`), &card))
	require.Equal(t, "VISA", card.PaymentInfo.Card.Brand)
}

// Each of udf1…udf10 lands in its own field of UDFs, whether a session
// body is decoded or an order form is encoded, and goes out under its key.
func TestUDFsEveryKey(t *testing.T) {
	for i := range 10 {
		key, value := udfKey(i), fmt.Sprintf("value %d", i+1)
		var r SessionRequest
		body := `{"order_id":"o1","amount":"1.00","customer_id":"c","payment_page_client_id":"p","action":"paymentPage","` +
			key + `":"` + value + `"}`
		require.NoError(t, json.Unmarshal([]byte(body), &r), key)
		list := r.UDFs.list()
		for j, got := range list {
			if j == i {
				require.Equal(t, value, got, key)
			} else {
				require.Empty(t, got, "%s set %s", key, udfKey(j))
			}
		}
		require.Empty(t, r.Extra, key)
		out, err := json.Marshal(&r)
		require.NoError(t, err)
		require.Contains(t, string(out), `"`+key+`":"`+value+`"`)

		o := fullOrder()
		o.Extra = nil
		*o.UDFs.field(i) = value
		v, err := o.Values()
		require.NoError(t, err)
		require.Equal(t, value, v.Get(key))
	}
}
