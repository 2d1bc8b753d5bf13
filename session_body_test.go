package checkout

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/paymentfilter"
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
		"large filter": withFilter(paymentfilter.New().Hide(paymentfilter.Wallet, paymentfilter.Cash).
			HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"}).HideCardTypes(paymentfilter.Credit).
			HideUPIHandles("@ybl").HideUPIApps("PHONEPE").HideMethods(paymentfilter.NB, "NB_SBI").
			EMI(emi.New().OnlyNoCost().RemoveIssuers(emi.NoCost, emi.Credit, "HDFC").
				RemoveTenures(emi.NoCost, emi.Credit, "ICICI", emi.TenureRange{From: 3, To: 6}))),
		"filter with Extra below": withFilter(func() *paymentfilter.Filter {
			f := paymentfilter.New().Hide(paymentfilter.Wallet)
			f.Options[0].Extra = map[string]json.RawMessage{"note": json.RawMessage(`"<x>"`)}
			return f
		}()),
		"filter with Extra": withFilter(func() *paymentfilter.Filter {
			f := paymentfilter.New().Hide(paymentfilter.Wallet)
			f.Extra = map[string]json.RawMessage{"zz": json.RawMessage(`1`)}
			return f
		}()),
		"filter with <>&":           withFilter(paymentfilter.New().HideMethods(paymentfilter.Wallet, "A&B", "<C>")),
		"filter without options":    withFilter(paymentfilter.New()),
		"filter with empty options": withFilter(&paymentfilter.Filter{Options: []paymentfilter.Option{}}),
		"no filter":                 withFilter(nil),
	} {
		t.Run(name, func(t *testing.T) {
			w := r.wire()
			want, err := marshalNoEscape(&w)
			require.NoError(t, err)
			got, err := r.marshalBody()
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
			view, ok := bodyPlain().View(&sessionBody{sessionFields: (*sessionFields)(r)})
			switch name {
			case "bench", "large filter":
				require.True(t, ok && tagjson.HTMLFree(r.PaymentFilter), "the one-pass path is taken")
			case "filter with Extra below":
				require.False(t, ok, "Extra below the filter's top is found")
			case "filter with <>&":
				require.True(t, ok)
				require.False(t, tagjson.HTMLFree(r.PaymentFilter))
				plain, err := marshalNoEscape(view)
				require.NoError(t, err)
				require.NotEqual(t, string(want), string(plain), "the guard keeps the filter's escaping")
			}
		})
	}
	t.Run("mandate dates", func(t *testing.T) {
		r := benchRequest()
		r.Mandate = &Mandate{Option: MandateRequired, MaxAmount: "100.00",
			StartDate: time.Time{}.In(time.FixedZone("IST", 19800)), EndDate: time.Unix(1644420442, 0)}
		body, err := r.marshalBody()
		require.NoError(t, err)
		require.NotContains(t, string(body), "mandate.start_date", "a zero time with a location is not sent")
		require.Contains(t, string(body), `"mandate.end_date":"1644420442"`)
	})
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

// withFilter is the bench request with filter f.
func withFilter(f *paymentfilter.Filter) *SessionRequest {
	r := benchRequest()
	r.PaymentFilter = f
	return r
}
