package checkout

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

func fullOrder() *OrderRequest {
	return &OrderRequest{
		OrderID:       "HD-1707740261",
		Amount:        "1499.00",
		Currency:      "INR",
		CustomerID:    "cust_42",
		CustomerEmail: "asha@example.com",
		CustomerPhone: "9876543210",
		ProductID:     "sku-5",
		ReturnURL:     "https://shop.example.com/return?o=HD-1707740261&x=1",
		Description:   "Order #1 — 2 items",
		BillingAddress: &Address{
			FirstName: "Asha", LastName: "Rao", Line1: "12 MG Road", Line2: "Floor 3", Line3: "Near the park",
			City: "Bengaluru", State: "Karnataka", Country: "India", PostalCode: "560001", Phone: "9876543210",
			CountryCodeISO: "IND",
		},
		ShippingAddress: &Address{
			FirstName: "Ravi", LastName: "Rao", Line1: "4 Park St", Line2: "Block B", Line3: "Gate 2",
			City: "Kolkata", State: "West Bengal", Country: "India", PostalCode: "700016", Phone: "9123456780",
			CountryCodeISO: "IND",
		},
		GatewayMetadata: []GatewayMetadata{
			{Gateway: "PAYU", Key: "offer_key", Value: "OFF10"},
			{Gateway: "RAZORPAY", Key: "notes", Value: "a&b=c"},
		},
		SubventionAmount:   "50.00",
		GatewayReferenceID: "payu_test",
		WebhookURL:         "https://shop.example.com/webhooks",
		ClientAuthToken:    true,
		CollectionLinks: &CollectionLinks{Links: []CollectionLink{
			{Method: CollectionPay, Expiry: 30 * time.Minute},
			{Method: CollectionQR, Expiry: 15 * time.Minute},
		}},
		Extra: map[string]string{"udf1": "rider", "udf10": "RiderQR"},
	}
}

func TestCreateOrderWire(t *testing.T) {
	const body = `{"status":"NEW","status_id":10,"id":"ordeh_1","order_id":"HD-1707740261",
		"payment_links":{"web":"https://pay.example/w","mobile":"https://pay.example/m","iframe":"https://pay.example/i"},
		"links":{"payment_collection_links":{"QR":"https://pay.example/qr","INTENT":"https://pay.example/intent"}},
		"juspay":{"client_auth_token":"tkn_1","client_auth_token_expiry":"2024-02-12T07:59:57Z"}}`
	c, srv := replyingClient(t, body)
	o, err := c.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	require.Equal(t, "NEW", o.Status)
	require.EqualValues(t, 10, o.StatusID)
	require.Equal(t, "ordeh_1", o.ID)
	require.Equal(t, "HD-1707740261", o.OrderID)
	require.Equal(t, "https://pay.example/qr", o.CollectionLinks.QR)
	require.Equal(t, "https://pay.example/intent", o.CollectionLinks.Intent)
	require.Equal(t, "https://pay.example/m", o.PaymentLinks.Mobile)
	require.EqualValues(t, "tkn_1", o.ClientAuthToken)
	require.Equal(t, time.Date(2024, 2, 12, 7, 59, 57, 0, time.UTC), o.ClientAuthTokenExpiry.Time)
	require.Equal(t, body, string(o.Raw), "Raw is the body as sent")

	got := srv.last(t)
	require.Equal(t, "POST", got.Method)
	require.Equal(t, "/orders", got.RequestURI)
	require.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	require.Equal(t, DefaultAPIVersion, got.Header.Get("Version"))
	require.Equal(t, testAuth, got.Header.Get("Authorization"))
	want, err := fullOrder().form(DefaultNamespace)
	require.NoError(t, err)
	require.Equal(t, want.Encode(), string(got.Body))

	// The version header: per client, then per call.
	c2 := newTestClient(t, srv.URL, WithAPIVersion("2024-02-01"))
	_, err = c2.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	require.Equal(t, "2024-02-01", srv.last(t).Header.Get("Version"))
	_, err = c2.CreateOrder(context.Background(), fullOrder(), WithAPIVersion("2025-01-31"))
	require.NoError(t, err)
	require.Equal(t, "2025-01-31", srv.last(t).Header.Get("Version"))
}

func TestGetOrderEscapesID(t *testing.T) {
	c, srv := replyingClient(t, `{"order_id":"a/b?c d#e","status":"CHARGED","amount":1}`)
	st, err := c.GetOrder(context.Background(), "a/b?c d#e")
	require.NoError(t, err)
	require.Equal(t, StatusCharged, st.Status)
	got := srv.last(t)
	require.Equal(t, "GET", got.Method)
	require.Equal(t, "/orders/a%2Fb%3Fc%20d%23e", got.RequestURI)
	require.Equal(t, DefaultAPIVersion, got.Header.Get("Version"))
	require.Empty(t, got.Body)

	for _, id := range []string{"", " ", ".", ".."} {
		_, err := c.GetOrder(context.Background(), id)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, "%q", id)
		require.True(t, ve.Has("order_id"))
	}
	require.EqualValues(t, 1, srv.count.Load())
}

func TestRefundWire(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{"order_id":"o/1","status":"CHARGED","refunded":true,
		"amount_refunded":"1.0","refunds":[{"unique_request_id":"r1","status":"PENDING","amount":1}]}`})
	c := newTestClient(t, srv.URL)
	st, err := c.Refund(context.Background(), "o/1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
	require.NoError(t, err)
	require.True(t, bool(st.Refunded))
	require.Equal(t, Amount("1.00"), st.AmountRefunded)
	require.Len(t, st.Refunds, 1)
	require.Equal(t, RefundPending, st.Refunds[0].Status)
	require.Equal(t, Amount("1.00"), st.Refunds[0].Amount)
	got := srv.last(t)
	require.Equal(t, "POST", got.Method)
	require.Equal(t, "/orders/o%2F1/refunds", got.RequestURI)
	require.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	require.Equal(t, "amount=1.00&unique_request_id=r1", string(got.Body))

	for _, tt := range []struct {
		id    string
		req   *RefundRequest
		paths []string
	}{
		{"o1", &RefundRequest{}, []string{"unique_request_id"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "0.00"}, []string{"amount"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "0"}, []string{"amount"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "-1.00"}, []string{"amount"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "1.005"}, []string{"amount"}},
		{"", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"}, []string{"order_id"}},
		{"", nil, []string{"order_id", ""}},
	} {
		_, err := c.Refund(context.Background(), tt.id, tt.req)
		requireProblemPaths(t, err, tt.paths)
	}
	require.EqualValues(t, 1, srv.count.Load())
}

// A reply whose nested parts are mistyped still decodes leniently: before
// the order's own fields were reached through a pointer, and the lenient
// second decode failed on it.
func TestOrderDecodeLenientNested(t *testing.T) {
	o, err := decodeReply[Order]([]byte(`{"order_id":"o","status_id":10,"juspay":"FILTERED",` +
		`"links":{"payment_collection_links":{"QR":"FILTERED","INTENT":"upi://pay"}}}`))
	require.NoError(t, err)
	require.Equal(t, "o", o.OrderID)
	require.EqualValues(t, 10, o.StatusID)
	require.Empty(t, o.ClientAuthToken)
	require.Equal(t, CollectionLinkURLs{QR: "FILTERED", Intent: "upi://pay"}, o.CollectionLinks)
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
