package checkout

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Values is the form CreateOrder sends; MarshalJSON is the same form as a
// flat JSON object of strings.
func TestOrderRequestValuesAndJSON(t *testing.T) {
	r := fullOrder()
	v, err := r.Values()
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/order_full.form")
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(strings.TrimSpace(string(want)), "\n", "&"), v.Encode())

	out, err := json.Marshal(r)
	require.NoError(t, err)
	var flat map[string]string
	require.NoError(t, json.Unmarshal(out, &flat))
	require.Len(t, flat, len(v))
	for k := range v {
		require.Equal(t, v.Get(k), flat[k], k)
	}
	require.Equal(t, "HD-1707740261", flat["order_id"])
	require.Equal(t, "OFF10", flat["metadata.PAYU:offer_key"])
	require.NotContains(t, string(out), "OrderID")

	_, err = json.Marshal(&OrderRequest{})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve, "an invalid request does not encode")
}
