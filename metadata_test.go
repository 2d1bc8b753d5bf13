package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// MarshalJSON refuses the gateway entries Validate refuses: one that would
// shadow the typed reference, one given twice (here by Extra too), text
// that is not valid UTF-8, a gateway that would read back as another.
func TestSessionMarshalChecksGatewayMetadata(t *testing.T) {
	for _, tc := range []struct {
		meta  GatewayMetadataList
		extra map[string]any
		path  string
	}{
		{GatewayMetadataList{{Gateway: "SERVICE", Key: "gateway_reference_id", Value: "shadow"}}, nil, "metadata.SERVICE:gateway_reference_id"},
		{GatewayMetadataList{{Gateway: "PAYU", Key: "k", Value: "bad\xff"}}, nil, "metadata[0]"},
		{GatewayMetadataList{{Gateway: "A:B", Key: "c", Value: "v"}}, nil, "metadata[0].Gateway"},
		{GatewayMetadataList{{Gateway: "PAYU", Key: "k", Value: "v"}}, map[string]any{"metadata.PAYU:k": "dup"}, "metadata.PAYU:k"},
	} {
		r := baseSession()
		r.GatewayReferenceID = "typed"
		r.GatewayMetadata, r.Extra = tc.meta, tc.extra
		_, err := json.Marshal(r)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, "%v", tc.meta)
		require.Len(t, ve.Problems, 1, "%v", ve)
		require.Equal(t, tc.path, ve.Problems[0].Path)
		require.Error(t, r.Validate())
	}
}

// A session body with gateway-specific metadata (metadata.<GATEWAY>:<key>
// of a gateway other than the client's namespace) goes out of
// CreateSession with those keys and values unchanged: only the client's
// namespace maps to GatewayReferenceID.
func TestSessionGatewayMetadataSentAsGiven(t *testing.T) {
	body := `{"order_id":"o1","amount":"10.00","customer_id":"c1","customer_phone":"9876543210",
		"payment_page_client_id":"shop","action":"paymentPage",
		"metadata.AMAZONPAY:gateway_reference_id":"amzn_ref","metadata.SIMPL:merchant_ref":"simpl_1",
		"metadata.SERVICE:gateway_reference_id":"payu_test","metadata.expiryInMins":"15"}`
	r := SessionRequest{OrderID: "o1", Amount: "10.00", CustomerID: "c1", CustomerPhone: "9876543210",
		PaymentPageClientID: "shop", Action: PaymentPage, GatewayReferenceID: "payu_test",
		GatewayMetadata: GatewayMetadataList{
			{Gateway: "AMAZONPAY", Key: "gateway_reference_id", Value: "amzn_ref"},
			{Gateway: "SIMPL", Key: "merchant_ref", Value: "simpl_1"},
		},
		Extra: map[string]any{"metadata.expiryInMins": "15"}}

	c, srv := replyingClient(t, `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{"requestId":"r"}}`)
	_, err := c.CreateSession(context.Background(), &r)
	require.NoError(t, err)
	requireSameSession(t, []byte(body), srv.last(t).Body)

	// In a client whose namespace is JUSPAY, the reference goes under
	// JUSPAY and the other gateways' entries are still sent as given.
	c, srv = replyingClient(t, `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{"requestId":"r"}}`, WithNamespace("JUSPAY"))
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
		require.NoError(t, json.Unmarshal([]byte(`{"`+key+`":"`+value+`"}`), &o.UDFs))
		v, err := o.Values()
		require.NoError(t, err)
		require.Equal(t, value, v.Get(key))
	}
}

// udfKey returns the key of the user-defined field i, from 0: udf1…udf10.
func udfKey(i int) string { return "udf" + strconv.Itoa(i+1) }
