package checkout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An order created for a gateway that answers in its own block
// ("hyperpg": {client_auth_token, client_auth_token_expiry}) gets its
// token as if the service's block carried it, and prints it redacted.
func TestOrderGatewayClientAuth(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "order_gateway_client_auth.json"))
	require.NoError(t, err)
	c, _ := replyingClient(t, string(body))
	req := fullOrder()
	req.OrderID = "ord_hpg_1"
	o, err := c.CreateOrder(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, StatusNew, o.Status)
	require.Equal(t, "tkn_hpg_7c2e91", string(o.ClientAuthToken))
	require.Equal(t, time.Date(2025, 9, 1, 10, 15, 0, 0, time.UTC), o.ClientAuthTokenExpiry.Time)
	require.Equal(t, string(body), string(o.Raw))
	for _, verb := range []string{"%v", "%+v", "%s", "%#v"} {
		require.NotContains(t, fmt.Sprintf(verb, *o), "tkn_hpg_7c2e91", verb)
	}
}

// The service's own block wins over a gateway's; a gateway block is found
// whatever its key, first by key when there are several; a redacted or
// empty block, or one without a token, gives none.
func TestOrderClientAuthBlocks(t *testing.T) {
	for _, tt := range []struct{ body, token string }{
		{`{"order_id":"o","juspay":{"client_auth_token":"svc"},"hyperpg":{"client_auth_token":"gw"}}`, "svc"},
		{`{"order_id":"o","juspay":"FILTERED","hyperpg":{"client_auth_token":"gw"}}`, "gw"},
		{`{"order_id":"o","zeta_pg":{"client_auth_token":"z"},"alpha_pg":{"client_auth_token":"a"}}`, "a"},
		{`{"order_id":"o","juspay":{},"hyperpg":{"client_auth_token_expiry":"2025-09-01T10:15:00Z"}}`, ""},
		{`{"order_id":"o","hyperpg":{"client_auth_token":5},"payment_links":{"web":"https://p/client_auth_token"}}`, ""},
		{`{"order_id":"o","status":"NEW"}`, ""},
	} {
		o, err := decodeReply[Order]([]byte(tt.body))
		require.NoError(t, err, tt.body)
		require.Equal(t, tt.token, string(o.ClientAuthToken), tt.body)
	}
	o, err := decodeReply[Order]([]byte(`{"order_id":"o","juspay":{"client_auth_token_expiry":"2025-09-01T10:15:00Z"},"hyperpg":{}}`))
	require.NoError(t, err)
	require.Equal(t, time.Date(2025, 9, 1, 10, 15, 0, 0, time.UTC), o.ClientAuthTokenExpiry.Time, "the service's block is kept when no gateway's has a token")

	o = new(Order)
	require.NoError(t, o.UnmarshalJSON([]byte(`"FILTERED"`)))
	require.Equal(t, Order{}, *o, "a value that is not an object leaves the order unchanged")
}
