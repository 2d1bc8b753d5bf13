package checkout

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
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

// goldenForm compares an encoded form body with a golden file holding one
// key=value pair per line (as encoded, in order); the body is those lines
// joined with "&".
func goldenForm(t *testing.T, name, body string) {
	t.Helper()
	wiretest.Golden(t, name, []byte(strings.ReplaceAll(body, "&", "\n")+"\n"))
}

func TestOrderFormGolden(t *testing.T) {
	tests := []struct {
		golden string
		req    *OrderRequest
	}{
		{"order_full.form", fullOrder()},
		{"order_minimal.form", &OrderRequest{OrderID: "14183944763", Amount: "1.00"}},
		{"order_qr_only.form", &OrderRequest{OrderID: "o-qr", Amount: "2.00", Currency: "INR",
			CollectionLinks: &CollectionLinks{Links: []CollectionLink{{Method: CollectionQR}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			require.NoError(t, tt.req.Validate())
			v, err := tt.req.form(DefaultNamespace)
			require.NoError(t, err)
			goldenForm(t, tt.golden, v.Encode())
		})
	}
}

func TestOrderFormCollectionDetails(t *testing.T) {
	v, err := fullOrder().form(DefaultNamespace)
	require.NoError(t, err)
	require.Equal(t, "1", v.Get("options.get_payment_collection_link"))
	require.Equal(t, `{"supported_payment_methods":["PAY","QR"],"expiry_details":[`+
		`{"payment_method":"PAY","expiry_in_mins":"30"},{"payment_method":"QR","expiry_in_mins":"15"}]}`,
		v.Get("payment_collection_link_details"))
	require.Equal(t, "true", v.Get("options.get_client_auth_token"))
	require.Equal(t, "OFF10", v.Get("metadata.PAYU:offer_key"))
	require.Equal(t, "a&b=c", v.Get("metadata.RAZORPAY:notes"))
	require.Equal(t, "payu_test", v.Get("metadata.SERVICE:gateway_reference_id"))
	require.Equal(t, "50.00", v.Get("metadata.subvention_amount"))
	for _, p := range []string{"billing_address_", "shipping_address_"} {
		for _, k := range []string{"first_name", "last_name", "line1", "line2", "line3", "city", "state", "country",
			"postal_code", "phone", "country_code_iso"} {
			require.NotEmpty(t, v.Get(p+k), p+k)
		}
	}
}

// With a namespace, the gateway reference travels under it, and gateway
// metadata naming the same key in that namespace is refused while the
// default namespace's key is then an ordinary gateway entry.
func TestOrderNamespace(t *testing.T) {
	r := fullOrder()
	v, err := r.form("JUSPAY")
	require.NoError(t, err)
	require.Equal(t, "payu_test", v.Get("metadata.JUSPAY:gateway_reference_id"))
	_, stale := v["metadata.SERVICE:gateway_reference_id"]
	require.False(t, stale)
	def, err := r.form(DefaultNamespace)
	require.NoError(t, err)
	require.Len(t, v, len(def), "one key renamed, none added or lost")

	r.GatewayMetadata = []GatewayMetadata{{Gateway: "JUSPAY", Key: "gateway_reference_id", Value: "x"}}
	requireProblemPaths(t, r.validate("JUSPAY"), []string{"metadata.JUSPAY:gateway_reference_id"})
	require.NoError(t, r.Validate(), "in the default namespace it is an ordinary gateway entry")
	r.GatewayMetadata = []GatewayMetadata{{Gateway: "SERVICE", Key: "gateway_reference_id", Value: "x"}}
	require.NoError(t, r.validate("JUSPAY"))
	// Sent as given, beside the reference, which alone moves to the
	// client's namespace.
	both, err := r.form("JUSPAY")
	require.NoError(t, err)
	require.Equal(t, []string{"payu_test"}, both["metadata.JUSPAY:gateway_reference_id"])
	require.Equal(t, []string{"x"}, both["metadata.SERVICE:gateway_reference_id"])
	r.GatewayMetadata = nil
	r.Extra = map[string]string{"metadata.JUSPAY:gateway_reference_id": "y"}
	requireProblemPaths(t, r.validate("JUSPAY"), []string{"metadata.JUSPAY:gateway_reference_id"})

	c, srv := replyingClient(t, `{"status":"NEW","order_id":"HD-1707740261"}`, WithNamespace("JUSPAY"))
	require.Equal(t, "JUSPAY", c.Namespace())
	_, err = c.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	sent, err := url.ParseQuery(string(srv.last(t).Body))
	require.NoError(t, err)
	require.Equal(t, v, sent)
}

func TestOrderFormValuesRoundTrip(t *testing.T) {
	v, err := fullOrder().form(DefaultNamespace)
	require.NoError(t, err)
	back, err := url.ParseQuery(v.Encode())
	require.NoError(t, err)
	require.Equal(t, v, back)
	require.Equal(t, "Order #1 — 2 items", back.Get("description"))
}

// Extra may not set a key a typed field writes (both set is refused),
// and may set one whose field is empty.
func TestOrderExtraAgainstTypedKeys(t *testing.T) {
	typed, err := fullOrder().typedForm(DefaultNamespace)
	require.NoError(t, err)
	require.Len(t, typed, 37, "every typed field of fullOrder is set")
	for k := range typed {
		r := fullOrder()
		r.Extra = map[string]string{k: "x"}
		requireProblemPaths(t, r.Validate(), []string{k})
	}
	r := &OrderRequest{OrderID: "o", Amount: "1.00", Extra: map[string]string{"billing_address_city": "Pune", "udf1": "a"}}
	require.NoError(t, r.Validate())
}

// go-querystring encodes an order request through the field types'
// EncodeValues, as CreateOrder sends it.
func TestOrderEncodeValues(t *testing.T) {
	v, err := query.Values(&OrderRequest{OrderID: "o", Amount: "1.00",
		ShippingAddress: &Address{City: "Pune"},
		GatewayMetadata: []GatewayMetadata{{Gateway: "PAYU", Key: "k", Value: "v"}},
		CollectionLinks: &CollectionLinks{Links: []CollectionLink{{Method: CollectionQR}}}})
	require.NoError(t, err)
	require.Equal(t, url.Values{
		"order_id": {"o"}, "amount": {"1.00"}, "shipping_address_city": {"Pune"}, "metadata.PAYU:k": {"v"},
		"options.get_payment_collection_link": {"1"},
		"payment_collection_link_details":     {`{"supported_payment_methods":["QR"]}`},
	}, v)
}

func TestOrderValidate(t *testing.T) {
	runRequestCases(t, fullOrder, []requestCase[OrderRequest]{
		{"valid", func(*OrderRequest) {}, nil},
		{"empty", func(r *OrderRequest) { *r = OrderRequest{} }, []string{"order_id", "amount"}},
		{"bad amounts", func(r *OrderRequest) { r.Amount, r.SubventionAmount = "1499.005", "-5.50" },
			[]string{"amount", "metadata.subvention_amount"}},
		{"amounts the service takes", func(r *OrderRequest) { r.Amount, r.SubventionAmount = "1499", "5.5" }, nil},
		{"metadata with spaces is sent as given", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Gateway: " PAYU", Key: "k ", Value: "v"}}
		}, nil},
		{"http webhook", func(r *OrderRequest) { r.WebhookURL = "http://example.com/h" }, []string{"metadata.webhook_url"}},
		{"metadata without gateway", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Key: "k", Value: "v"}, {Gateway: "PAYU", Key: "a:b"}}
		}, []string{"metadata[0].Gateway", "metadata[1].Key"}},
		{"metadata duplicate", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Gateway: "PAYU", Key: "k"}, {Gateway: "PAYU", Key: "k"}}
		}, []string{"metadata.PAYU:k"}},
		{"metadata shadows typed gateway reference", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Gateway: "SERVICE", Key: "gateway_reference_id", Value: "x"}}
		}, []string{"metadata.SERVICE:gateway_reference_id"}},
		{"collection links empty are sent", func(r *OrderRequest) { r.CollectionLinks = &CollectionLinks{} }, nil},
		{"collection links: only a fraction of a minute or a negative lifetime is refused", func(r *OrderRequest) {
			r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{
				{Method: "INTENT"}, {Method: CollectionQR, Expiry: 90 * time.Second}, {Method: CollectionQR},
				{Method: CollectionPay, Expiry: -time.Minute},
			}}
		}, []string{"payment_collection_link_details.expiry_details[0].expiry_in_mins", "payment_collection_link_details.expiry_details[1].expiry_in_mins"}},
		{"extra may carry a typed key whose field is empty", func(r *OrderRequest) {
			r.BillingAddress, r.CollectionLinks = nil, nil
			r.Extra = map[string]string{"billing_address_city": "x", "options.get_payment_collection_link": "0"}
		}, nil},
		{"extra collides", func(r *OrderRequest) {
			r.Extra = map[string]string{"billing_address_city": "x", "options.get_client_auth_token": "false", "metadata.PAYU:offer_key": "y"}
		}, []string{"billing_address_city", "metadata.PAYU:offer_key", "options.get_client_auth_token"}},
	}, validatePaths)
}

func TestCreateOrderValidationSendsNothing(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	r := fullOrder()
	r.Amount = "1499.999"
	r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{{Method: "INTENT", Expiry: 30 * time.Second}}}
	_, err := c.CreateOrder(context.Background(), r)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("amount"))
	require.True(t, ve.Has("payment_collection_link_details.expiry_details[0].expiry_in_mins"))
	_, err = c.CreateOrder(context.Background(), nil)
	require.ErrorAs(t, err, &ve)
	require.Zero(t, srv.count.Load())
}

// Validation is linear in the size of the request: 100,000
// gateway metadata entries and Extra keys take well under a second (a
// quadratic check would run for minutes; the test catches that without a
// timer), and a duplicate at the very end is still found.
func TestOrderValidateLinear(t *testing.T) {
	const n = 100_000
	r := fullOrder()
	r.Extra = make(map[string]string, n)
	for i := range n {
		k := "k" + strconv.Itoa(i)
		r.GatewayMetadata = append(r.GatewayMetadata, GatewayMetadata{Gateway: "PAYU", Key: k, Value: "v"})
		r.Extra["udf_"+k] = "v"
	}
	require.NoError(t, r.Validate())

	r.GatewayMetadata = append(r.GatewayMetadata, GatewayMetadata{Gateway: "PAYU", Key: "k0", Value: "again"})
	requireProblemPaths(t, r.Validate(), []string{"metadata.PAYU:k0"})
}

// Values is the form CreateOrder sends.
func TestOrderRequestValues(t *testing.T) {
	r := fullOrder()
	v, err := r.Values()
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/order_full.form")
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(strings.TrimSpace(string(want)), "\n", "&"), v.Encode())

	_, err = (&OrderRequest{}).Values()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve, "an invalid request has no form")
}

func TestCreateOrderWire(t *testing.T) {
	const body = `{"status":"NEW","status_id":10,"id":"ordeh_1","order_id":"HD-1707740261",
		"payment_links":{"web":"https://pay.example/w","mobile":"https://pay.example/m","iframe":"https://pay.example/i"},
		"links":{"payment_collection_links":{"QR":"https://pay.example/qr","INTENT":"https://pay.example/intent"}},
		"juspay":{"client_auth_token":"tkn_1","client_auth_token_expiry":"2024-02-12T07:59:57Z"}}`
	c, srv := replyingClient(t, body)
	o, err := c.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	require.Equal(t, StatusNew, o.Status)
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

// The UPI links: a session asks for them with UPIDeepLinks (sent as the
// service's own bodies send it) and reads payment_links.deep_link; an
// order created with a UPI transaction carries deep_link and
// base64_encoded_qr at the top level.
func TestUPILinksAreTyped(t *testing.T) {
	r := baseSession()
	r.UPIDeepLinks = true
	out, err := json.Marshal(r)
	require.NoError(t, err)
	require.Contains(t, string(out), `"options.get_upi_deep_links":"true"`, "as the service's own bodies send it")

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
