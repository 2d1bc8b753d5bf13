package checkout

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// UnmarshalText reads back what EncodeValues writes, so a fake of the
// service (checkouttest) reads the links with the SDK's own declaration of
// their keys, and refuses only what the type cannot hold.
func TestCollectionLinksUnmarshalText(t *testing.T) {
	in := &CollectionLinks{Links: []CollectionLink{
		{Method: CollectionPay, Expiry: 30 * time.Minute},
		{Method: CollectionQR},
		{Method: "UPI_LATER", Expiry: 5 * time.Minute}, // an unknown method: Lint's advice, kept as sent
	}}
	v := url.Values{}
	require.NoError(t, in.EncodeValues("payment_collection_link_details", &v))
	var out CollectionLinks
	require.NoError(t, out.UnmarshalText([]byte(v.Get("payment_collection_link_details"))))
	require.Equal(t, *in, out)

	for _, tt := range []struct{ text, path string }{
		{`{"supported_payment_methods":["QR"]`, ""},
		{`[]`, ""},
		{`{"supported_payment_methods":"QR"}`, "supported_payment_methods"},
		{`{"supported_payment_methods":["QR"],"expiry_details":[{"payment_method":"QR","expiry_in_mins":"1.5"}]}`, "expiry_details[0].expiry_in_mins"},
		{`{"supported_payment_methods":["QR"],"expiry_details":[{"payment_method":"QR","expiry_in_mins":"99999999999999999"}]}`, "expiry_details[0].expiry_in_mins"},
		{`{"supported_payment_methods":["QR"],"expiry_details":[{"payment_method":"QR","expiry_in_mins":"5"},{"payment_method":"QR","expiry_in_mins":"6"}]}`, "expiry_details[1].payment_method"},
	} {
		keep := out
		err := out.UnmarshalText([]byte(tt.text))
		var ve *ValidationError
		require.True(t, errors.As(err, &ve), "%s: %v", tt.text, err)
		require.Equal(t, tt.path, ve.Problems[0].Path, tt.text)
		require.Equal(t, keep, out, "a failed read leaves the links unchanged")
	}
}

// A nil *CollectionLinks asks for nothing when encoded and is an error, not
// a panic, when read into.
func TestCollectionLinksNil(t *testing.T) {
	var l *CollectionLinks
	v := url.Values{}
	require.NoError(t, l.EncodeValues("payment_collection_link_details", &v))
	require.Empty(t, v)
	require.Error(t, l.UnmarshalText([]byte(`{}`)))
}
