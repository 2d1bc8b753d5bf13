package checkout

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

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
		{"collection links: only a fraction of a minute is refused", func(r *OrderRequest) {
			r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{
				{Method: "INTENT"}, {Method: CollectionQR, Expiry: 90 * time.Second}, {Method: CollectionQR},
				{Method: CollectionPay, Expiry: -time.Minute},
			}}
		}, []string{"payment_collection_link_details.expiry_details[0].expiry_in_mins"}},
		{"extra takes a typed key left empty", func(r *OrderRequest) {
			r.BillingAddress, r.CollectionLinks = nil, nil
			r.Extra = map[string]string{"billing_address_city": "x", "options.get_payment_collection_link": "0"}
		}, []string{"billing_address_city", "options.get_payment_collection_link"}},
		{"extra collides", func(r *OrderRequest) {
			r.Extra = map[string]string{"billing_address_city": "x", "options.get_client_auth_token": "false", "metadata.PAYU:offer_key": "y"}
		}, []string{"billing_address_city", "metadata.PAYU:offer_key", "options.get_client_auth_token"}},
	}, validatePaths)
}

// The advice of OrderRequest.Lint, on requests Validate lets through.
func TestOrderLint(t *testing.T) {
	require.Nil(t, fullOrder().Lint())
	require.Nil(t, (*OrderRequest)(nil).Lint())
	runRequestCases(t, fullOrder, []requestCase[OrderRequest]{
		{"amounts", func(r *OrderRequest) { r.Amount, r.SubventionAmount = "1499", "05.5" },
			[]string{"amount", "metadata.subvention_amount", "metadata.subvention_amount"}},
		{"order id", func(r *OrderRequest) { r.OrderID = " order-with-a-long-name-1 " }, []string{"order_id", "order_id"}},
		{"customer", func(r *OrderRequest) { r.CustomerEmail, r.CustomerPhone = "asha.example.com", "+91 98765 43210" },
			[]string{"customer_email", "customer_phone"}},
		{"return url", func(r *OrderRequest) { r.ReturnURL = "http://shop.example.com/r" }, []string{"return_url"}},
		{"relative return url", func(r *OrderRequest) { r.ReturnURL = "/r" }, []string{"return_url"}},
		{"return url with user", func(r *OrderRequest) { r.ReturnURL = "https://u:p@shop.example.com/r" }, []string{"return_url"}},
		{"metadata spaces", func(r *OrderRequest) { r.GatewayMetadata[1].Gateway = "RAZORPAY " }, []string{"metadata[1]"}},
		{"collection links", func(r *OrderRequest) {
			r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{
				{Method: "INTENT"}, {Method: CollectionQR}, {Method: CollectionQR}, {Method: CollectionPay, Expiry: -time.Minute},
			}}
		}, []string{
			"payment_collection_link_details.supported_payment_methods[0]",
			"payment_collection_link_details.supported_payment_methods[2]",
			"payment_collection_link_details.expiry_details[0].expiry_in_mins",
		}},
		{"no collection link", func(r *OrderRequest) { r.CollectionLinks = &CollectionLinks{} },
			[]string{"payment_collection_link_details.supported_payment_methods"}},
	}, requireLintPaths)
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

// Validation and advice are linear in the size of the request: 100,000
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
	require.Nil(t, r.Lint())

	r.GatewayMetadata = append(r.GatewayMetadata, GatewayMetadata{Gateway: "PAYU", Key: "k0", Value: "again"})
	requireProblemPaths(t, r.Validate(), []string{"metadata.PAYU:k0"})
}
