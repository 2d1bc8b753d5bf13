package paymentfilter_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// The call sites of DESIGN.md §4, as code outside the package writes them:
// a chain is a *paymentfilter.Filter (or *emi.Options) and goes straight
// into a field of that type. These lines are checked by the compiler.
var (
	_ *paymentfilter.Filter = paymentfilter.New().Hide(paymentfilter.Wallet)
	_ *paymentfilter.Filter = paymentfilter.Only(paymentfilter.UPI)
	_ *emi.Options          = emi.New().OnlyNoCost()
	_ paymentfilter.Filter  = paymentfilter.Filter{EMIOptions: emi.New().OnlyNoCost()}
)

var _ *paymentfilter.Filter = paymentfilter.New().HideCardTypes(paymentfilter.Credit).
	HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"}).
	HideUPIApps("PHONEPE").HideUPIHandles("@ybl").
	HideMethods(paymentfilter.Wallet, "PAYTM").
	HideMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.NB, "NB_HDFC").
	EMI(emi.New().OnlyNoCost())

// The README's chain.
var _ *paymentfilter.Filter = paymentfilter.New().
	Hide(paymentfilter.Wallet).
	HideCardTypes(paymentfilter.Credit).
	EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit))

// TestDesignCallSites: the DESIGN.md call sites are values of the model and
// encode as such, with encoding/json directly (there is no finishing step).
func TestDesignCallSites(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"Only(UPI)", paymentfilter.Only(paymentfilter.UPI),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}]}`},
		{"New().Hide(Wallet)", paymentfilter.New().Hide(paymentfilter.Wallet),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false}]}`},
		{"New()", paymentfilter.New(), `{"allowDefaultOptions":true,"options":[]}`},
		{"Only()", paymentfilter.Only(), `{"allowDefaultOptions":false,"options":[]}`},
		{"struct literal with emi.New().OnlyNoCost()",
			paymentfilter.Filter{AllowDefaultOptions: true, EMIOptions: emi.New().OnlyNoCost()},
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}}`},
		{"emi.New().OnlyNoCost()", emi.New().OnlyNoCost(),
			`{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}`},
		{"in a struct field", struct {
			F *paymentfilter.Filter `json:"payment_filter"`
		}{paymentfilter.New().HideUPIHandles("@ybl")},
			`{"payment_filter":{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]}]}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(tt.v)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(out))
		})
	}
	// A call on its own line is not lost (it used to return a changed
	// copy and leave f alone).
	f := paymentfilter.New()
	f.Hide(paymentfilter.Wallet)
	f.HideCardTypes(paymentfilter.Credit)
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false},{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`,
		wiretest.JSONString(t, f))
	require.NoError(t, f.Validate())
}

// TestFluentCallsOnHandWrittenFilter: a hand-written (or decoded) filter
// extends like any other; a conflict with a block no fluent call added is
// worded from that block's state, like any other.
func TestFluentCallsOnHandWrittenFilter(t *testing.T) {
	hand := &paymentfilter.Filter{Options: []paymentfilter.Option{{PaymentMethodType: paymentfilter.NB, Enable: true}}}
	f := hand.HideCardTypes(paymentfilter.Credit)
	require.Equal(t, `{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true},{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`,
		wiretest.JSONString(t, f), "allowDefaultOptions stays as written")
	require.Same(t, hand, f, "the receiver is the filter extended")

	g := f.Hide(paymentfilter.NB)
	var ve *validation.Error
	require.ErrorAs(t, g.Validate(), &ve)
	require.Equal(t, []validation.Problem{{Path: "payment_filter.options[0]",
		Message: "Hide(NB) conflicts with the NB block, which shows NB as a whole (enable: true, no paymentMethods): one block cannot also hide NB as a whole"}},
		ve.Problems)
}

// TestConflictsAfterHandEdits: blocks removed by hand between fluent calls
// take their conflicts with them, clones extended from several goroutines
// keep their own (run with -race), and each conflict is worded from the
// block as it now stands.
func TestConflictsAfterHandEdits(t *testing.T) {
	base := paymentfilter.New().Hide(paymentfilter.Wallet, paymentfilter.NB, paymentfilter.Cash).Show(paymentfilter.NB)
	require.ErrorContains(t, base.Validate(), "Show(NB) conflicts")
	base.Options = base.Options[:1] // WALLET only; the array still has room for four.
	require.NoError(t, base.Validate(), "the conflicting block was cut, and its conflict with it")
	var wg sync.WaitGroup
	got := make([]error, 2)
	for i, t := range []paymentfilter.MethodType{paymentfilter.NB, paymentfilter.Cash} {
		f := base.Clone()
		wg.Go(func() { got[i] = f.Hide(t).Show(t).Validate() })
	}
	wg.Wait()
	require.ErrorContains(t, got[0], "payment_filter.options[1]: Show(NB) conflicts with the NB block, which hides NB as a whole (enable: false, ")
	require.ErrorContains(t, got[1], "payment_filter.options[1]: Show(CASH) conflicts with the CASH block, which hides CASH as a whole (enable: false, ")
	require.NoError(t, base.Validate())
}
