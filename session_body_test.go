package checkout

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	ps "github.com/payorch/checkout-go/productsummary"
)

// TestBodyOnePassSameBytes checks that the body encodeIn writes in one
// encoding/json pass (the summary's text made beforehand, see sessionBody)
// is byte for byte the body of the pass through summaryText.MarshalJSON,
// with text that encoding/json escapes in either layer.
func TestBodyOnePassSameBytes(t *testing.T) {
	tricky := "<b> & \"quoted\" \\ \u2028\u2029 \t ₹ é"
	for name, r := range map[string]*SessionRequest{
		"bench": benchRequest(),
		"tricky": func() *SessionRequest {
			r := benchRequest()
			r.Description = tricky
			s := ps.Summary{{ps.Text{Text: tricky, Color: "#FFF"}}, {ps.Image{URL: "https://x.example/?a=1&b=<2>"}}}
			r.ProductSummary = &s
			return r
		}(),
		"no summary": func() *SessionRequest { r := benchRequest(); r.ProductSummary = nil; return r }(),
		"empty summary": func() *SessionRequest {
			r := benchRequest()
			r.ProductSummary = new(ps.Summary)
			return r
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			w := r.wire()
			want, err := marshalNoEscape(&w)
			require.NoError(t, err)
			got, err := r.marshalBody()
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		})
	}
	t.Run("summary that cannot be encoded", func(t *testing.T) {
		r := benchRequest()
		s := ps.Summary{{ps.Space{Weight: math.NaN()}}}
		r.ProductSummary = &s
		w := r.wire()
		_, want := marshalNoEscape(&w)
		require.Error(t, want)
		_, got := r.marshalBody()
		require.EqualError(t, got, want.Error())
	})
}
