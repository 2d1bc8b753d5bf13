package paymentfilter_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

func marshal(t *testing.T, f *pf.Filter) string {
	t.Helper()
	b, err := json.Marshal(f)
	require.NoError(t, err)
	return string(b)
}

// TestBuilderImmutable: a half-built builder shared by two extensions is
// not changed by either, and a returned Filter does not alias the builder.
func TestBuilderImmutable(t *testing.T) {
	base := pf.New().HideCardTypes(pf.Credit).HideUPIHandles("@ybl")
	before := marshal(t, base.Filter())

	a := base.HideCardTypes(pf.Debit).HideUPIHandles("@paytm")
	b := base.HideBINRanges(pf.BINRange{From: "459000", To: "460000"}).Hide(pf.Wallet)

	require.Equal(t, before, marshal(t, base.Filter()))
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT","DEBIT"]}]},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl","@paytm"]}]}]}`,
		marshal(t, a.Filter()))
	require.Equal(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]},{"enable":false,"cardBins":["459000::460000"]}]},{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl"]}]},{"paymentMethodType":"WALLET","enable":false}]}`,
		marshal(t, b.Filter()))

	// Changing a returned Filter leaves the builder alone.
	f := base.Filter()
	f.Options[0].CardFilters[0].CardTypes[0] = pf.Debit
	f.Options[1].UPIFilters[0].UPIMethods = append(f.Options[1].UPIFilters[0].UPIMethods, "@x")
	require.Equal(t, before, marshal(t, base.Filter()))

	// Changing the caller's slice after the call leaves the builder alone.
	handles := []string{"@ybl"}
	c := pf.New().HideUPIHandles(handles...)
	handles[0] = "@changed"
	require.Contains(t, marshal(t, c.Filter()), `"@ybl"`)
}

// TestBuilderConcurrent: one builder extended from many goroutines (run with
// -race).
func TestBuilderConcurrent(t *testing.T) {
	base := pf.New().HideCardTypes(pf.Credit).EMI(emi.New().OnlyNoCost())
	var wg sync.WaitGroup
	out := make([]string, 16)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := base.HideCardBrands("VISA").Build()
			if err == nil {
				b, _ := json.Marshal(f)
				out[i] = string(b)
			}
		}()
	}
	wg.Wait()
	for _, o := range out {
		require.Equal(t, out[0], o)
	}
	require.Contains(t, out[0], `"cardBrands":["VISA"]`)
}

// TestBuilderZeroValue: the zero Builder is New().
func TestBuilderZeroValue(t *testing.T) {
	var b pf.Builder
	require.Equal(t, marshal(t, pf.New().Hide(pf.Cash).Filter()), marshal(t, b.Hide(pf.Cash).Filter()))
	require.Equal(t, `{"allowDefaultOptions":true,"options":[]}`, marshal(t, b.Filter()))
}

// TestBuilderMerges: one option block per type; compatible calls merge.
func TestBuilderMerges(t *testing.T) {
	tests := []struct {
		name  string
		build pf.Builder
		want  string
	}{
		{"hide twice", pf.New().Hide(pf.Cash, pf.Cash).Hide(pf.Cash),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CASH","enable":false}]}`},
		{"methods merge without repeats", pf.New().HideMethods(pf.Wallet, "PAYTM").HideMethods(pf.Wallet, "SIMPL", "PAYTM"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","SIMPL"]}]}`},
		{"only cards, but not credit", pf.Only(pf.Card).HideCardTypes(pf.Credit),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`},
		{"different criteria stay separate filters", pf.New().HideCardBrands("AMEX").HideCardBanks("SBI").HideCardBrands("DINERS"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBrands":["AMEX","DINERS"]},{"enable":false,"cardBanks":["SBI"]}]}]}`},
		{"show and hide card types stay separate", pf.Only(pf.Card).ShowCardTypes(pf.Debit).HideCardBrands("RUPAY"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":true,"cardTypes":["DEBIT"]},{"enable":false,"cardBrands":["RUPAY"]}]}]}`},
		{"show after card filters keeps one block", pf.New().HideCardTypes(pf.Credit).Show(pf.Card),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`},
		{"mandate codes merge", pf.Only().ShowMandateMethods(pf.NB, "NB_HDFC").ShowMandateMethods(pf.NB, "NB_SBI"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC","SVC_HDFC","NB_SBI","SVC_SBI"]}]}`},
		{"EMI is replaced, not merged", pf.New().EMI(emi.New().ShowOnlyEMI()).EMI(emi.New().Disable(emi.Standard)),
			`{"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{"enable":false}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.build.Build()
			require.NoError(t, err)
			require.Equal(t, tt.want, marshal(t, f))
		})
	}
}

// TestBuilderContradictions: a call that contradicts its type's block adds a
// second block; Build reports it and Filter shows it, nothing is dropped.
func TestBuilderContradictions(t *testing.T) {
	tests := []struct {
		name  string
		build pf.Builder
		want  string
	}{
		{"show after hide", pf.New().Hide(pf.Wallet).Show(pf.Wallet),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false},{"paymentMethodType":"WALLET","enable":true}]}`},
		{"methods after hiding the whole type", pf.New().Hide(pf.Wallet).HideMethods(pf.Wallet, "PAYTM"),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false},{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM"]}]}`},
		{"card filters on hidden cards", pf.New().Hide(pf.Card).HideCardTypes(pf.Credit),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":false},{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}`},
		{"hide after card filters", pf.New().HideCardTypes(pf.Credit).Hide(pf.Card),
			`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]},{"paymentMethodType":"CARD","enable":false}]}`},
		{"show some after showing the whole type", pf.Only(pf.NB).ShowMethods(pf.NB, "NB_HDFC"),
			`{"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true},{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC"]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, marshal(t, tt.build.Filter()))
			_, err := tt.build.Build()
			require.Error(t, err)
			require.Contains(t, err.Error(), "payment_filter.options[1].paymentMethodType: duplicate option block")
		})
	}
}

// TestMandateCodes: the doubled codes of spec §2.3.
func TestMandateCodes(t *testing.T) {
	require.Equal(t, []string{"NB_HDFC", "SVC_HDFC", "NB_SBI", "SVC_SBI"}, pf.MandateCodes(pf.NB, "NB_HDFC", "NB_SBI"))
	require.Equal(t, []string{"PAYTM", "SVC_PAYTM"}, pf.MandateCodes(pf.Wallet, "PAYTM"))
	require.Equal(t, []string{"LAZYPAY", "SVC_LAZYPAY"}, pf.MandateCodes(pf.ConsumerFinance, "LAZYPAY"))
	require.Empty(t, pf.MandateCodes(pf.NB))
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
