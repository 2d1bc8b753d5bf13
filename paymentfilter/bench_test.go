package paymentfilter_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

// largestFilter is the largest realistic filter: every option type the spec
// shows, card filters on every criterion, UPI collect and intent filters,
// mandate codes, and EMI refinements on all three plan types.
func largestFilter() *pf.Filter {
	return pf.Only(pf.Card, pf.UPI).
		HideCardTypes(pf.Credit).
		HideBINRanges(pf.BINRange{From: "459000", To: "460000"}, pf.BINRange{From: "512345", To: "512399"}, pf.BINRange{From: "60000000", To: "60999999"}).
		HideCardBrands("AMEX", "DINERS").
		AddCardFilter(pf.CardFilter{CardBrands: []string{"VISA"}, CardTypes: []pf.CardType{pf.Debit},
			CardSubTypes: []string{"BUSINESS", "EMPLOYEE_CARD"}, CardBanks: []string{"SBI", "ICICI"}}).
		HideUPIHandles("@ybl", "@okhdfcbank", "@paytm").
		HideUPIApps("PHONEPE", "GPAY", "PAYTM", "CRED").
		ShowMandateMethods("", pf.NB, "NB_HDFC", "NB_SBI", "NB_ICICI", "NB_AXIS").
		ShowMandateMethods("", pf.Wallet, "PAYTM", "MOBIKWIK").
		ShowMandateMethods("", pf.ConsumerFinance, "LAZYPAY", "SIMPL").
		Show(pf.Cash, pf.Reward).
		EMI(emi.New().
			Enable(emi.Standard, emi.LowCost).
			DisableGroup(emi.LowCost, emi.Debit).
			RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12), emi.Months(18, 24)).
			RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC", "SVC_SBI").
			RemoveTenures(emi.Standard, emi.Debit, "SVC_AXIS", emi.Months(3, 6)).
			AddFilter(emi.Standard, emi.Cardless, emi.Filter{Enable: false, PaymentMethodType: string(pf.ConsumerFinance), PaymentMethod: "LAZYPAY"}))
}

// asMap returns the same filter as the plain way builds it: nested
// map[string]any, encoded by encoding/json.
func asMap(tb testing.TB, f *pf.Filter) map[string]any {
	tb.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestBenchmarkInputsAgree: the benchmarks encode the same JSON tree, and the
// largest filter is valid.
func TestBenchmarkInputsAgree(t *testing.T) {
	f := largestFilter()
	require.NoError(t, f.Validate())
	typed, err := json.Marshal(f)
	require.NoError(t, err)
	fromMap, err := json.Marshal(asMap(t, f))
	require.NoError(t, err)
	var a, b any
	require.NoError(t, json.Unmarshal(typed, &a))
	require.NoError(t, json.Unmarshal(fromMap, &b))
	require.True(t, reflect.DeepEqual(a, b), "benchmark inputs differ:\n%s\n%s", typed, fromMap)
}

// BenchmarkFilterMarshal encodes the largest realistic filter, typed, with
// encoding/json.
func BenchmarkFilterMarshal(b *testing.B) {
	f := largestFilter()
	wiretest.Bench(b, func() error { _, err := json.Marshal(f); return err })
}

// BenchmarkFilterMarshalMap encodes the same JSON from map[string]any with
// encoding/json: the baseline.
func BenchmarkFilterMarshalMap(b *testing.B) {
	m := asMap(b, largestFilter())
	wiretest.Bench(b, func() error { _, err := json.Marshal(m); return err })
}

// BenchmarkFilterUnmarshal decodes the largest realistic filter.
func BenchmarkFilterUnmarshal(b *testing.B) {
	data, err := json.Marshal(largestFilter())
	if err != nil {
		b.Fatal(err)
	}
	wiretest.Bench(b, func() error { var f pf.Filter; return json.Unmarshal(data, &f) })
}

// hugeFilter hides n wallet codes and n BIN ranges, and removes n EMI
// issuers and n tenure ranges.
func hugeFilter(n int) *pf.Filter {
	codes := make([]string, n)
	bins := make([]pf.BINRange, n)
	issuers := make([]string, n)
	tenures := make([]emi.TenureRange, n)
	for i := range n {
		codes[i] = "W" + strconv.Itoa(i)
		bins[i] = pf.BINRange{From: strconv.Itoa(400000 + i), To: strconv.Itoa(400000 + i + 9)}
		issuers[i] = "SVC_B" + strconv.Itoa(i)
		tenures[i] = emi.Months(i+1, i+3)
	}
	return pf.New().HideMethods(pf.Wallet, codes...).HideBINRanges(bins...).
		EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, issuers...).RemoveTenures(emi.NoCost, emi.Debit, "SVC_X", tenures...))
}

// BenchmarkFilterValidate validates filters hiding 1,000 and 10,000 method
// codes and BIN ranges (and as many EMI issuers and tenures): the time per
// element stays flat.
func BenchmarkFilterValidate(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		f := hugeFilter(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := f.Validate(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*4*n), "ns/element")
		})
	}
}
