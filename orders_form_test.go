package checkout

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
)

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

// The keys an order request owns are exactly the keys a request with every
// field set sends, apart from Extra and the gateway metadata entries.
func TestOrderOwnsTheKeysItSends(t *testing.T) {
	r := fullOrder()
	v, err := r.form(DefaultNamespace)
	require.NoError(t, err)
	sent := map[string]bool{}
	for k := range v {
		sent[k] = true
	}
	for k := range r.Extra {
		delete(sent, k)
	}
	for _, m := range r.GatewayMetadata {
		delete(sent, "metadata."+m.Gateway+":"+m.Key)
	}
	require.Len(t, sent, 37, "every typed field of fullOrder is set")
	for k := range sent {
		require.True(t, ownsOrderKey(k, DefaultNamespace), k)
	}
	require.True(t, ownsOrderKey("udf10", DefaultNamespace))
	for _, k := range []string{"udf11", "udf0", "metadata.PAYU:offer_key", "billing_address_zip", "billing_address", "metadata.JUSPAY:gateway_reference_id"} {
		require.False(t, ownsOrderKey(k, DefaultNamespace), k)
	}
	require.True(t, ownsOrderKey("metadata.JUSPAY:gateway_reference_id", "JUSPAY"))
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
