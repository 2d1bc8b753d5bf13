package checkout

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/paymentfilter"
	ps "github.com/payorch/checkout-go/productsummary"
)

func shopSession() *SessionRequest {
	return &SessionRequest{
		OrderID: "ord_1001", Amount: AmountFromMinor(149900), CustomerID: "cust_42", CustomerPhone: "9876543210",
		CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: PaymentPage,
	}
}

// Session bodies built with the sub-packages' builders, against
// hand-written bodies that follow spec §2.4 and §2.5.
func TestSessionEncodeGoldenBuilders(t *testing.T) {
	tests := []struct {
		golden string
		build  func(r *SessionRequest)
	}{
		{"session_hide_wallet.json", func(r *SessionRequest) {
			r.PaymentFilter = paymentfilter.New().Hide(paymentfilter.Wallet) // DESIGN §4: the chain is the model
		}},
		{"session_only_upi_nocost_emi.json", func(r *SessionRequest) {
			r.PaymentFilter = paymentfilter.Only(paymentfilter.UPI).EMI(emi.New().OnlyNoCost())
			r.EMI = emi.Show
		}},
		{"session_card_upi_locks_mandate.json", func(r *SessionRequest) {
			bins, err := paymentfilter.ParseBINRange("459000::460000")
			require.NoError(t, err)
			r.PaymentFilter = paymentfilter.New().
				HideCardTypes(paymentfilter.Credit).
				HideBINRanges(bins).
				HideUPIHandles("@ybl").
				HideUPIApps("com.phonepe.app").
				HideMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.NB, "NB_HDFC")
			r.ProductSummary = ps.New().EmptyLine().Divider(1, "#E0E0E0")
			r.Mandate = &Mandate{
				Option:    MandateOptional,
				MaxAmount: "5000.00",
				StartDate: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
				EndDate:   time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			r := shopSession()
			tt.build(r)
			require.NoError(t, r.Validate())
			body, err := r.encode(DefaultNamespace)
			require.NoError(t, err)
			wiretest.GoldenIndented(t, tt.golden, body)
		})
	}
}

// Problems found by the sub-packages come back with their full paths,
// beside the session's own, in one *ValidationError.
func TestSessionValidateMergesSubPackageProblems(t *testing.T) {
	r := shopSession()
	r.CustomerEmail = ""
	r.PaymentFilter = &paymentfilter.Filter{
		AllowDefaultOptions: true,
		Options: []paymentfilter.Option{
			{PaymentMethodType: paymentfilter.Card, Enable: true,
				CardFilters: []paymentfilter.CardFilter{{CardTypes: []paymentfilter.CardType{"credit"}}}},
		},
	}
	r.EMI = "showemi"
	r.ProductSummary = new(ps.Summary{ps.Line{ps.Text{Text: "x", Color: "red"}}})
	err := r.Validate()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("sdk_udf"), "%v", ve.Problems)
	var pf, psum bool
	for _, p := range ve.Problems {
		pf = pf || len(p.Path) > len("payment_filter.options[0]") && p.Path[:len("payment_filter.options[0]")] == "payment_filter.options[0]"
		psum = psum || len(p.Path) > len("product_summary[0][0]") && p.Path[:len("product_summary[0][0]")] == "product_summary[0][0]"
	}
	require.True(t, pf, "payment filter problems keep their paths: %v", ve.Problems)
	require.True(t, psum, "product summary problems keep their paths: %v", ve.Problems)
}

// The problems of the fluent calls travel with the filter: the client's
// validation before sending reports a conflicting call and a rejected EMI
// call, naming the calls, and sends nothing.
func TestSessionValidateReportsFluentCallProblems(t *testing.T) {
	r := shopSession()
	r.PaymentFilter = paymentfilter.New().Hide(paymentfilter.Wallet).Show(paymentfilter.Wallet).
		EMI(emi.New().Enable(emi.NoCost).Disable(emi.Plan(9)))
	err := r.Validate()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.Equal(t, []Problem{
		{Path: "payment_filter.options[0]", Message: "Show(WALLET) conflicts with the WALLET block, which hides WALLET as a whole (enable: false, no paymentMethods): one block cannot also show WALLET as a whole"},
		{Path: "payment_filter.emiOptions", Message: "Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost"},
	}, ve.Problems)
}
