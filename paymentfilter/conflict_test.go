package paymentfilter_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// TestConflictsAfterHandEdits: blocks removed by hand between fluent calls
// take their conflicts with them, clones extended from several goroutines
// keep their own (run with -race), and each conflict is worded from the
// block as it now stands.
func TestConflictsAfterHandEdits(t *testing.T) {
	base := pf.New().Hide(pf.Wallet, pf.NB, pf.Cash).Show(pf.NB)
	require.ErrorContains(t, base.Validate(), "Show(NB) conflicts")
	base.Options = base.Options[:1] // WALLET only; the array still has room for four.
	require.NoError(t, base.Validate(), "the conflicting block was cut, and its conflict with it")
	var wg sync.WaitGroup
	got := make([]error, 2)
	for i, t := range []pf.MethodType{pf.NB, pf.Cash} {
		f := base.Clone()
		wg.Go(func() { got[i] = f.Hide(t).Show(t).Validate() })
	}
	wg.Wait()
	require.ErrorContains(t, got[0], "payment_filter.options[1]: Show(NB) conflicts with the NB block, which hides NB as a whole (enable: false, ")
	require.ErrorContains(t, got[1], "payment_filter.options[1]: Show(CASH) conflicts with the CASH block, which hides CASH as a whole (enable: false, ")
	require.NoError(t, base.Validate())
}

// TestHidingListedMethodsOfAShownType (issue 29.4): one block cannot show a
// type and hide some of its methods; the conflict names the composition
// that does it, which builds, validates and is quiet under Lint.
func TestHidingListedMethodsOfAShownType(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build *pf.Filter
		want  string
		works *pf.Filter
	}{
		{"after Only", pf.Only(pf.UPI, pf.Card, pf.Wallet).HideMethods(pf.Wallet, "PAYTM"),
			`payment_filter.options[2]: HideMethods(WALLET, "PAYTM") conflicts with the WALLET block, which shows WALLET as a whole (enable: true, no paymentMethods): one block cannot also hide listed methods; to show WALLET but these methods, write New().Hide(NB, CONSUMER_FINANCE, REWARD, CASH).HideMethods(WALLET, "PAYTM") instead, or list the WALLET methods to show with ShowMethods(WALLET, …)`,
			pf.New().Hide(pf.NB, pf.ConsumerFinance, pf.Reward, pf.Cash).HideMethods(pf.Wallet, "PAYTM")},
		{"after New and Show", pf.New().Show(pf.Wallet).HideMandateMethods("JP_", pf.Wallet, "PAYTM"),
			`payment_filter.options[0]: HideMandateMethods("JP_", WALLET, "PAYTM") conflicts with the WALLET block, which shows WALLET as a whole (enable: true, no paymentMethods): one block cannot also hide listed methods; to show WALLET but these methods, write New().HideMandateMethods("JP_", WALLET, "PAYTM") instead, or list the WALLET methods to show with ShowMethods(WALLET, …)`,
			pf.New().HideMandateMethods("JP_", pf.Wallet, "PAYTM")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ve *validation.Error
			require.ErrorAs(t, tt.build.Validate(), &ve)
			require.Len(t, ve.Problems, 1)
			require.Equal(t, tt.want, ve.Problems[0].String())
			require.NoError(t, tt.works.Validate())
			require.Empty(t, tt.works.Lint())
		})
	}
}
