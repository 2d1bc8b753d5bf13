package checkout

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
)

// Extra values with invalid UTF-8 anywhere inside, and keys that are not
// valid UTF-8 or that a typed field owns, are refused by Validate and
// MarshalJSON; keys that are empty or hold control characters can be sent
// and only Lint reports them.
func TestSessionExtraChecked(t *testing.T) {
	for _, tc := range []struct {
		extra map[string]any
		path  string
		msg   string
	}{
		{map[string]any{"udf1": "a\xffb"}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": map[string]any{"x": []any{"ok", "\xfe"}}}, "udf1.x[1]", "not valid UTF-8"},
		{map[string]any{"udf1": map[string]string{"\xff": "v"}}, `udf1."\xff"`, "not valid UTF-8"},
		{map[string]any{"udf1": []string{"a", "b\xc0"}}, "udf1[1]", "not valid UTF-8"},
		{map[string]any{"udf1": json.RawMessage("\"\xff\"")}, "udf1", "not valid UTF-8"},
		{map[string]any{"udf1": &struct{ Name string }{"\xff"}}, "udf1", "not valid UTF-8"},
		{map[string]any{"\xffkey": "v"}, `"\xffkey"`, "not valid UTF-8"},
		{map[string]any{"order_id": "v"}, "order_id", "typed field"},
		{map[string]any{"metadata.SERVICE:gateway_reference_id": "v"}, "metadata.SERVICE:gateway_reference_id", "typed field"},
		// Values JSON cannot hold are refused by Validate as by encoding.
		{map[string]any{"x": math.Inf(1)}, "x", "not a finite number"},
		{map[string]any{"x": []any{1.0, math.NaN()}}, "x[1]", "not a finite number"},
		{map[string]any{"x": make(chan int)}, "x", "cannot be encoded as JSON"},
		{map[string]any{"x": json.RawMessage(`{"a":`)}, "x", "not valid JSON"},
		{map[string]any{"x": json.Number("12abc")}, "x", "cannot be encoded as JSON"},
	} {
		r := baseSession()
		r.Extra = tc.extra
		for _, err := range []error{r.Validate(), func() error { _, err := json.Marshal(r); return err }()} {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve, "%q", tc.extra)
			require.Len(t, ve.Problems, 1, "%v", ve)
			require.Equal(t, tc.path, ve.Problems[0].Path)
			require.Contains(t, ve.Problems[0].Message, tc.msg)
		}
	}
	for _, tc := range []struct {
		extra map[string]any
		path  string
		msg   string
	}{
		{map[string]any{"bad\x00key": "v"}, `"bad\x00key"`, "control characters"},
		{map[string]any{"bad\nkey": "v"}, `"bad\nkey"`, "control characters"},
		{map[string]any{"": "v"}, "", "empty key"},
	} {
		r := baseSession()
		r.Extra = tc.extra
		require.NoError(t, r.Validate())
		body, err := json.Marshal(r)
		require.NoError(t, err)
		require.Equal(t, "v", wiretest.Object(t, body)[slices.Sorted(maps.Keys(tc.extra))[0]], "sent as given")
		lint := r.Lint()
		require.Len(t, lint, 1, "%v", lint)
		require.Equal(t, tc.path, lint[0].Path)
		require.Contains(t, lint[0].Message, tc.msg)
	}
	r := baseSession()
	r.Extra = map[string]any{"udf1": map[string]any{"x": []any{"ok", json.Number("1")}}, "udf2": "ü"}
	require.NoError(t, r.Validate())
	require.Nil(t, r.Lint())
}

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

func TestOrderExtraChecked(t *testing.T) {
	for _, tc := range []struct {
		extra map[string]string
		path  string
		msg   string
		lint  bool // advice only: Validate passes
	}{
		{map[string]string{"udf1": "a\xffb"}, "udf1", "not valid UTF-8", false},
		{map[string]string{"\xff": "v"}, `"\xff"`, "not valid UTF-8", false},
		{map[string]string{"amount": "5"}, "amount", "typed field", false},
		{map[string]string{"udf\x001": "v"}, `"udf\x001"`, "control characters", true},
		{map[string]string{"udf\x7f": "v"}, `"udf\x7f"`, "control characters", true},
		{map[string]string{"": "v"}, "", "empty key", true},
	} {
		r := fullOrder()
		r.Extra = tc.extra
		got := r.Lint()
		if !tc.lint {
			var ve *ValidationError
			require.ErrorAs(t, r.Validate(), &ve)
			_, err := r.Values()
			require.ErrorAs(t, err, &ve)
			got = ve.Problems
		} else {
			require.NoError(t, r.Validate())
		}
		require.Len(t, got, 1, "%v", got)
		require.Equal(t, tc.path, got[0].Path)
		require.Contains(t, got[0].Message, tc.msg)
	}
}
