package checkout

import (
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// EncodeValues writes the links as the form's JSON text, the methods in
// order and the expiry of each timed one in whole minutes as text, with
// the flag that turns collection links on.
func TestCollectionLinksEncodeValues(t *testing.T) {
	in := &CollectionLinks{Links: []CollectionLink{
		{Method: CollectionPay, Expiry: 30 * time.Minute},
		{Method: CollectionQR},
		{Method: "UPI_LATER", Expiry: 5 * time.Minute}, // an unknown method: Lint's advice, sent as given
	}}
	v := url.Values{}
	require.NoError(t, in.EncodeValues("payment_collection_link_details", &v))
	require.Equal(t, url.Values{
		"options.get_payment_collection_link": {"1"},
		"payment_collection_link_details": {`{"supported_payment_methods":["PAY","QR","UPI_LATER"],"expiry_details":[` +
			`{"payment_method":"PAY","expiry_in_mins":"30"},{"payment_method":"UPI_LATER","expiry_in_mins":"5"}]}`},
	}, v)
}

// A nil *CollectionLinks asks for nothing when encoded.
func TestCollectionLinksNil(t *testing.T) {
	var l *CollectionLinks
	v := url.Values{}
	require.NoError(t, l.EncodeValues("payment_collection_link_details", &v))
	require.Empty(t, v)
}
