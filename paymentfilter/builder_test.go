package paymentfilter_test

import (
	"encoding/json"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// TestBuilderInPlace: a fluent call changes its receiver and returns it, so
// a call on its own line works; Clone gives a copy that shares nothing.
func TestBuilderInPlace(t *testing.T) {
	f := pf.New()
	f.HideCardTypes(pf.Credit)
	f.HideUPIHandles("@ybl")
	require.Same(t, f, f.Hide(pf.Wallet), "the receiver is returned")
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]}]},{"paymentMethodType":"WALLET","enable":false}]}`,
		wiretest.JSONString(t, f))

	// A half-built filter extended two ways: Clone first.
	base := pf.New().HideCardTypes(pf.Credit).HideUPIHandles("@ybl")
	before := wiretest.JSONString(t, base)
	a := base.Clone().HideCardTypes(pf.Debit).HideUPIHandles("@paytm")
	b := base.Clone().HideBINRanges(pf.BINRange{From: "459000", To: "460000"}).Hide(pf.Wallet)
	require.Equal(t, before, wiretest.JSONString(t, base))
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT","DEBIT"]}]},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl","@paytm"]}]}]}`,
		wiretest.JSONString(t, a))
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]},{"enable":false,"cardBins":["459000::460000"]}]},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]}]},{"paymentMethodType":"WALLET","enable":false}]}`,
		wiretest.JSONString(t, b))

	// Changing a copy made by Clone leaves the original alone.
	c := base.Clone()
	c.Options[0].CardFilters[0].CardTypes[0] = pf.Debit
	c.Options[1].UPIFilters[0].UPIMethods = append(c.Options[1].UPIFilters[0].UPIMethods, "@x")
	require.Equal(t, before, wiretest.JSONString(t, base))

	// Changing the caller's slice after the call leaves the filter alone.
	handles := []string{"@ybl"}
	d := pf.New().HideUPIHandles(handles...).HideMethods(pf.Wallet, handles...)
	handles[0] = "@changed"
	require.NotContains(t, wiretest.JSONString(t, d), `"@changed"`)
}

// TestBuilderConcurrent: clones of one filter extended from many goroutines
// (run with -race).
func TestBuilderConcurrent(t *testing.T) {
	base := pf.New().HideCardTypes(pf.Credit).EMI(emi.New().OnlyNoCost())
	var wg sync.WaitGroup
	out := make([]string, 16)
	for i := range out {
		f := base.Clone()
		wg.Go(func() {
			f.HideCardBrands("VISA")
			if f.Validate() == nil {
				b, _ := json.Marshal(f)
				out[i] = string(b)
			}
		})
	}
	wg.Wait()
	for _, o := range out {
		require.Equal(t, out[0], o)
	}
	require.Contains(t, out[0], `"cardBrands":["VISA"]`)
	require.NotContains(t, wiretest.JSONString(t, base), "VISA")
}

// TestBuilderNilReceiver: the fluent methods on a nil *Filter start from
// New().
func TestBuilderNilReceiver(t *testing.T) {
	var b *pf.Filter
	require.Equal(t, pf.New().Hide(pf.Cash), b.Hide(pf.Cash))
	require.Equal(t, pf.New().HideUPIApps("GPAY"), b.HideUPIApps("GPAY"))
	require.Equal(t, pf.New().EMI(emi.New()), b.EMI(emi.New()))
	require.Nil(t, b, "the nil pointer itself stays nil")
}

// TestBuilderLinear: building costs memory in proportion to what is
// built. Each call used to copy the whole filter, so the bytes allocated
// per call grew with the chain (quadratic in all); now a call allocates
// what it adds and the amortised growth of the lists, so a chain 16 times
// longer costs about the same per call.
func TestBuilderLinear(t *testing.T) {
	perCall := func(n int) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		chain(n)
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	perCall(100) // warm up
	small, large := perCall(1_000), perCall(16_000)
	require.Less(t, large, 2*small+64, "bytes per call: %.0f for 1,000 calls, %.0f for 16,000", small, large)
	require.Less(t, large, 400.0, "bytes per call")

	f := chain(10_000)
	require.Equal(t, 3, len(f.Options), "one block per type")
	require.Equal(t, 2_500, len(f.Options[0].PaymentMethods))
	require.Equal(t, 2, len(f.Options[1].CardFilters), "one card filter per criterion")
	require.Equal(t, 2_500, len(f.Options[1].CardFilters[0].CardBins))
	require.Equal(t, 2_500, len(f.Options[2].UPIFilters[0].UPIMethods))
	require.NoError(t, f.Validate())
}

// chain builds a filter with n fluent calls: method codes, BIN ranges, UPI
// apps and card brands in turn.
func chain(n int) *pf.Filter {
	f := pf.New()
	for i := range n {
		switch i % 4 {
		case 0:
			f.HideMethods(pf.Wallet, "W"+strconv.Itoa(i))
		case 1:
			f.HideBINRanges(pf.BINRange{From: "400000", To: strconv.Itoa(400000 + i)})
		case 2:
			f.HideUPIApps("APP" + strconv.Itoa(i))
		default:
			f.HideCardBrands("B" + strconv.Itoa(i))
		}
	}
	return f
}

// BenchmarkFilterChain builds filters by chains of 1,000 and 10,000 calls:
// the time per call stays flat.
func BenchmarkFilterChain(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				chain(n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		})
	}
}

// TestBuilderMerges: one option block per type; calls that one block can
// express together are merged into it, with no conflict.
func TestBuilderMerges(t *testing.T) {
	tests := []struct {
		name  string
		build *pf.Filter
		want  string
	}{
		{"hide twice", pf.New().Hide(pf.Cash, pf.Cash).Hide(pf.Cash),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":false}]}`},
		{"methods merge, each value as given", pf.New().HideMethods(pf.Wallet, "PAYTM").HideMethods(pf.Wallet, "SIMPL", "PAYTM"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","SIMPL","PAYTM"]}]}`},
		{"WALLETS, as decoded, is the WALLET block", decoded(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLETS","enable":false,"paymentMethods":["PAYTM"]}]}`).
			HideMethods(pf.Wallet, "SIMPL").Hide(pf.Cash),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLETS","enable":false,"paymentMethods":["PAYTM","SIMPL"]},{"paymentMethodType":"CASH","enable":false}]}`},
		{"only cards, but not credit", pf.Only(pf.Card).HideCardTypes(pf.Credit),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`},
		{"different criteria stay separate filters", pf.New().HideCardBrands("AMEX").HideCardBanks("SBI").HideCardBrands("DINERS"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBrands":["AMEX","DINERS"]},{"enable":false,"cardBanks":["SBI"]}]}]}`},
		{"show and hide card types stay separate", pf.Only(pf.Card).ShowCardTypes(pf.Debit).HideCardBrands("RUPAY"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":true,"cardTypes":["DEBIT"]},{"enable":false,"cardBrands":["RUPAY"]}]}]}`},
		{"show after card filters keeps one block", pf.New().HideCardTypes(pf.Credit).Show(pf.Card),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`},
		{"mandate codes merge", pf.Only().ShowMandateMethods("", pf.NB, "NB_HDFC").ShowMandateMethods("", pf.NB, "NB_SBI"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC","SVC_HDFC","NB_SBI","SVC_SBI"]}]}`},
		{"mandate codes of a deployment's prefix", pf.New().HideMandateMethods("JP_", pf.Wallet, "PAYTM").HideMandateMethods("JP_", pf.Wallet, "MOBIKWIK"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","JP_PAYTM","MOBIKWIK","JP_MOBIKWIK"]}]}`},
		{"UPI apps on only UPI", pf.Only(pf.UPI).HideUPIApps("GPAY"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":false,"upiMethods":["GPAY"]}]}]}`},
		{"EMI is replaced, not merged", pf.New().EMI(emi.New().OnlyEMI()).EMI(emi.New().Disable(emi.Standard)),
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{"enable":false}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.build.Validate())
			require.Equal(t, tt.want, wiretest.JSONString(t, tt.build))
		})
	}
}

// TestBuilderContradictions: a call that one option block cannot express
// together with the block of its type adds a second block of the type,
// which Validate reports at that block, saying what both blocks do: the
// builder records nothing, so the chain, its Clone and its JSON decoded
// report the same, and nothing is dropped.
func TestBuilderContradictions(t *testing.T) {
	tests := []struct {
		name    string
		build   *pf.Filter
		want    string             // the JSON
		problem validation.Problem // the one problem of Validate
	}{
		{"show after hide", pf.New().Hide(pf.Wallet).Show(pf.Wallet),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false},{"paymentMethodType":"WALLET","enable":true}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate WALLET block (the first is options[0]): this one shows WALLET as a whole (enable: true, no paymentMethods), the first hides WALLET as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both`}},
		{"hide after only", pf.Only(pf.UPI, pf.Wallet).Hide(pf.Wallet),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true},{"paymentMethodType":"WALLET","enable":true},{"paymentMethodType":"WALLET","enable":false}]}`,
			validation.Problem{Path: "payment_filter.options[2]", Message: `duplicate WALLET block (the first is options[1]): this one hides WALLET as a whole (enable: false, no paymentMethods), the first shows WALLET as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both`}},
		{"hide some after showing the whole type", pf.Only(pf.Wallet).HideMethods(pf.Wallet, "PAYTM"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"WALLET","enable":true},{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM"]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate WALLET block (the first is options[0]): this one hides the listed WALLET methods (enable: false, paymentMethods "PAYTM"), the first shows WALLET as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both; to show WALLET but these methods, write New().Hide(CARD, UPI, NB, CONSUMER_FINANCE, REWARD, CASH).HideMethods(WALLET, "PAYTM") instead, or list the WALLET methods to show with ShowMethods(WALLET, …)`}},
		{"methods after hiding the whole type", pf.New().Hide(pf.Wallet).HideMethods(pf.Wallet, "PAYTM"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false},{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM"]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate WALLET block (the first is options[0]): this one hides the listed WALLET methods (enable: false, paymentMethods "PAYTM"), the first hides WALLET as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both`}},
		{"show some after hiding some", pf.New().HideMandateMethods("", pf.Wallet, "PAYTM").ShowMethods(pf.Wallet, "SIMPL"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","SVC_PAYTM"]},{"paymentMethodType":"WALLET","enable":true,"paymentMethods":["SIMPL"]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate WALLET block (the first is options[0]): this one shows the listed WALLET methods (enable: true, paymentMethods "SIMPL"), the first hides the listed WALLET methods (enable: false, paymentMethods "PAYTM", "SVC_PAYTM"); the service honours only the first block of a type, and one block cannot do both`}},
		{"UPI apps on hidden UPI", pf.New().Hide(pf.UPI).HideUPIApps("PHONEPE", "GPAY"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":false},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":false,"upiMethods":["PHONEPE","GPAY"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate UPI block (the first is options[0]): this one keeps UPI enabled for its filters (enable: true, no paymentMethods, 1 upiFilter), the first hides UPI as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both: upiFilters need enable: true and no paymentMethods`}},
		{"card filters on hidden cards", pf.New().Hide(pf.Card).HideCardTypes(pf.Credit),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":false},{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate CARD block (the first is options[0]): this one keeps CARD enabled for its filters (enable: true, no paymentMethods, 1 cardFilter), the first hides CARD as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both: cardFilters need enable: true and no paymentMethods`}},
		{"hide after card filters", pf.New().HideBINRanges(pf.BINRange{From: "459000", To: "460000"}).Hide(pf.Card),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000::460000"]}]},{"paymentMethodType":"CARD","enable":false}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate CARD block (the first is options[0]): this one hides CARD as a whole (enable: false, no paymentMethods), the first keeps CARD enabled for its filters (enable: true, no paymentMethods, 1 cardFilter); the service honours only the first block of a type, and one block cannot do both`}},
		{"show some after showing the whole type", pf.Only(pf.NB).ShowMethods(pf.NB, "NB_HDFC"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true},{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC"]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate NB block (the first is options[0]): this one shows the listed NB methods (enable: true, paymentMethods "NB_HDFC"), the first shows NB as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both`}},
		{"a UPI filter on hidden UPI", pf.New().Hide(pf.UPI).AddUPIFilter(pf.UPIFilter{UPIType: pf.Collect}),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":false},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false}]}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate UPI block (the first is options[0]): this one keeps UPI enabled for its filters (enable: true, no paymentMethods, 1 upiFilter), the first hides UPI as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both: upiFilters need enable: true and no paymentMethods`}},
		{"an option of a type already present", pf.New().HideMethods(pf.NB, "NB_SBI").AddOption(pf.Option{PaymentMethodType: pf.NB}),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"NB","enable":false,"paymentMethods":["NB_SBI"]},{"paymentMethodType":"NB","enable":false}]}`,
			validation.Problem{Path: "payment_filter.options[1]", Message: `duplicate NB block (the first is options[0]): this one hides NB as a whole (enable: false, no paymentMethods), the first hides the listed NB methods (enable: false, paymentMethods "NB_SBI"); the service honours only the first block of a type, and one block cannot do both`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireConflict(t, tt.build, tt.want, tt.problem)

			// Decoded from its JSON, it is the same filter, with the same
			// problem: it is found from the blocks.
			var d pf.Filter
			require.NoError(t, json.Unmarshal([]byte(tt.want), &d))
			requireConflict(t, &d, tt.want, tt.problem)

			// With the second block removed by hand, there is no conflict
			// left to report. (In every case here it is the last.)
			fixed := tt.build.Clone()
			fixed.Options = fixed.Options[:len(fixed.Options)-1]
			if err := fixed.Validate(); err != nil {
				require.NotContains(t, err.Error(), "duplicate")
			}
		})
	}
}

// TestBuilderProblemsStayOnTheirBranch: a conflict made on a clone of a
// filter is not seen by the filter or another clone.
func TestBuilderProblemsStayOnTheirBranch(t *testing.T) {
	base := pf.New().Hide(pf.Wallet, pf.NB, pf.Cash).Show(pf.Wallet, pf.NB, pf.Cash)
	a := base.Clone().Hide(pf.UPI).Show(pf.UPI)
	b := base.Clone().Hide(pf.Card).HideCardTypes(pf.Debit)
	for f, want := range map[*pf.Filter]string{
		base: "duplicate CASH block (the first is options[2]): this one shows CASH as a whole",
		a:    "duplicate UPI block (the first is options[6]): this one shows UPI as a whole",
		b:    "duplicate CARD block (the first is options[6]): this one keeps CARD enabled for its filters",
	} {
		require.Contains(t, wiretest.LastProblem(t, f.Validate()), want)
	}
	require.NoError(t, pf.New().Hide(pf.Wallet).Validate())
}

// TestBuilderEMIProblems: the calls the emi.Options given to EMI could not
// carry out reach Validate under payment_filter.emiOptions; a later EMI
// call replaces them with the options.
func TestBuilderEMIProblems(t *testing.T) {
	b := pf.New().Hide(pf.Wallet).EMI(emi.New().Disable(emi.Plan(9)).Enable(emi.NoCost))
	want := []validation.Problem{{Path: "payment_filter.emiOptions", Message: "Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost"}}
	var ve *validation.Error
	require.ErrorAs(t, b.Validate(), &ve)
	require.Equal(t, want, ve.Problems)
	require.ErrorAs(t, b.Clone().Validate(), &ve)
	require.Equal(t, want, ve.Problems, "a clone carries them too")
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false}],"emiOptions":{"noCostEmi":{"enable":true}}}`,
		wiretest.JSONString(t, b))

	b.EMI(emi.New().Enable(emi.NoCost))
	require.NoError(t, b.Validate())
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false}],"emiOptions":{"noCostEmi":{"enable":true}}}`,
		wiretest.JSONString(t, b))
}

// TestMandateCodes: the doubled codes of mandate flows (spec §2.3), with
// the default SVC_ prefix or a deployment's own.
func TestMandateCodes(t *testing.T) {
	require.Equal(t, []string{"NB_HDFC", "SVC_HDFC", "NB_SBI", "SVC_SBI"}, pf.MandateCodes("", pf.NB, "NB_HDFC", "NB_SBI"))
	require.Equal(t, []string{"PAYTM", "SVC_PAYTM"}, pf.MandateCodes(pf.DefaultMandatePrefix, pf.Wallet, "PAYTM"))
	require.Equal(t, []string{"LAZYPAY", "SVC_LAZYPAY"}, pf.MandateCodes("", pf.ConsumerFinance, "LAZYPAY"))
	require.Equal(t, []string{"NB_HDFC", "JP_HDFC"}, pf.MandateCodes("JP_", pf.NB, "NB_HDFC"))
	require.Equal(t, []string{"PAYTM", "JP_PAYTM"}, pf.MandateCodes("JP_", pf.Wallet, "PAYTM"))
	require.Equal(t, []string{"HDFC", "SVC_HDFC"}, pf.MandateCodes("", pf.NB, "HDFC"), "a code is never rewritten")
	require.Empty(t, pf.MandateCodes("", pf.NB))

	f := pf.Only().ShowMandateMethods("JP_", pf.NB, "NB_HDFC")
	require.Equal(t, `{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC","JP_HDFC"]}]}`, wiretest.JSONString(t, f))
	require.NoError(t, f.Validate(), "any prefix passes")
}

// TestEnums: Valid accepts exactly the wire values; zero values are never
// valid.
func TestEnums(t *testing.T) {
	for _, m := range []pf.MethodType{pf.Card, pf.UPI, pf.Wallet, pf.NB, pf.ConsumerFinance, pf.Reward, pf.Cash} {
		require.True(t, m.Valid(), m)
	}
	require.Equal(t, []pf.MethodType{"CARD", "UPI", "WALLET", "NB", "CONSUMER_FINANCE", "REWARD", "CASH"},
		[]pf.MethodType{pf.Card, pf.UPI, pf.Wallet, pf.NB, pf.ConsumerFinance, pf.Reward, pf.Cash})
	for _, m := range []pf.MethodType{"", "card", "Card", "CONSUMERFINANCE", "NETBANKING"} {
		require.False(t, m.Valid(), m)
	}
	require.True(t, pf.Credit.Valid())
	require.True(t, pf.Debit.Valid())
	require.False(t, pf.CardType("").Valid())
	require.False(t, pf.CardType("credit").Valid())
	require.True(t, pf.Collect.Valid())
	require.True(t, pf.Intent.Valid())
	require.False(t, pf.UPIType("").Valid())
	require.False(t, pf.UPIType("Intent").Valid())
}

// The call sites of DESIGN.md §4, as code outside the package writes them:
// a chain is a *paymentfilter.Filter (or *emi.Options) and goes straight
// into a field of that type. These lines are checked by the compiler.
var (
	_ *pf.Filter   = pf.New().Hide(pf.Wallet)
	_ *pf.Filter   = pf.Only(pf.UPI)
	_ *emi.Options = emi.New().OnlyNoCost()
	_ pf.Filter    = pf.Filter{EMIOptions: emi.New().OnlyNoCost()}
)

var _ *pf.Filter = pf.New().HideCardTypes(pf.Credit).
	HideBINRanges(pf.BINRange{From: "459000", To: "460000"}).
	HideUPIApps("PHONEPE").HideUPIHandles("@ybl").
	HideMethods(pf.Wallet, "PAYTM").
	HideMandateMethods(pf.DefaultMandatePrefix, pf.NB, "NB_HDFC").
	EMI(emi.New().OnlyNoCost())

// The README's chain.
var _ *pf.Filter = pf.New().
	Hide(pf.Wallet).
	HideCardTypes(pf.Credit).
	EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit))

// TestDesignCallSites: the DESIGN.md call sites are values of the model and
// encode as such, with encoding/json directly (there is no finishing step).
func TestDesignCallSites(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"Only(UPI)", pf.Only(pf.UPI),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}]}`},
		{"New().Hide(Wallet)", pf.New().Hide(pf.Wallet),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false}]}`},
		{"New()", pf.New(), `{"allowDefaultOptions":true,"options":[]}`},
		{"Only()", pf.Only(), `{"allowDefaultOptions":false,"options":[]}`},
		{"struct literal with emi.New().OnlyNoCost()",
			pf.Filter{AllowDefaultOptions: true, EMIOptions: emi.New().OnlyNoCost()},
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}}`},
		{"emi.New().OnlyNoCost()", emi.New().OnlyNoCost(),
			`{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}`},
		{"in a struct field", struct {
			F *pf.Filter `json:"payment_filter"`
		}{pf.New().HideUPIHandles("@ybl")},
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
	f := pf.New()
	f.Hide(pf.Wallet)
	f.HideCardTypes(pf.Credit)
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false},{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`,
		wiretest.JSONString(t, f))
	require.NoError(t, f.Validate())
}

// TestFluentCallsOnHandWrittenFilter: a hand-written (or decoded) filter
// extends like any other, and its conflicts are found like any other's.
func TestFluentCallsOnHandWrittenFilter(t *testing.T) {
	hand := &pf.Filter{Options: []pf.Option{{PaymentMethodType: pf.NB, Enable: true}}}
	f := hand.HideCardTypes(pf.Credit)
	require.Equal(t, `{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true},{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`,
		wiretest.JSONString(t, f), "allowDefaultOptions stays as written")
	require.Same(t, hand, f, "the receiver is the filter extended")

	g := f.Hide(pf.NB)
	var ve *validation.Error
	require.ErrorAs(t, g.Validate(), &ve)
	require.Equal(t, []validation.Problem{{Path: "payment_filter.options[2]",
		Message: "duplicate NB block (the first is options[0]): this one hides NB as a whole (enable: false, no paymentMethods), the first shows NB as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both"}},
		ve.Problems)
}

// requireConflict checks that build encodes as want, and that it and the
// copy Clone makes report problem alone (the client validates before
// sending).
func requireConflict(t *testing.T, build *pf.Filter, want string, problem validation.Problem) {
	t.Helper()
	require.Equal(t, want, wiretest.JSONString(t, build))
	for _, f := range []*pf.Filter{build, build.Clone()} {
		var ve *validation.Error
		require.ErrorAs(t, f.Validate(), &ve)
		require.Equal(t, []validation.Problem{problem}, ve.Problems, "the conflict alone")
	}
}
