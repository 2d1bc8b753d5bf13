package checkout

import (
	"encoding/json"
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
