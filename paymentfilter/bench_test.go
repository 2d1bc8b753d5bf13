package paymentfilter_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/payorch/checkout-go/emi"
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
		ShowMandateMethods(pf.NB, "NB_HDFC", "NB_SBI", "NB_ICICI", "NB_AXIS").
		ShowMandateMethods(pf.Wallet, "PAYTM", "MOBIKWIK").
		ShowMandateMethods(pf.ConsumerFinance, "LAZYPAY", "SIMPL").
		Hide(pf.Cash, pf.Reward).
		EMI(emi.New().
			Enable(emi.Standard, emi.LowCost).
			DisableGroup(emi.LowCost, emi.Debit).
			RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12), emi.Months(18, 24)).
			RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC", "SVC_SBI").
			RemoveTenures(emi.Standard, emi.Debit, "SVC_AXIS", emi.Months(3, 6)).
			AddFilter(emi.Standard, emi.Cardless, emi.Filter{Enable: false, PaymentMethodType: emi.ConsumerFinance, PaymentMethod: "LAZYPAY"})).
		Filter()
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

// The plain encoding/json way with the same struct shape and tags, for the
// record of why the package has its own encoder.
type (
	plainFilter struct {
		AllowDefaultOptions bool          `json:"allowDefaultOptions"`
		Options             []plainOption `json:"options"`
		EMIOptions          *emi.Options  `json:"emiOptions,omitempty"`
	}
	plainOption struct {
		PaymentMethodType string            `json:"paymentMethodType"`
		Enable            bool              `json:"enable"`
		PaymentMethods    []string          `json:"paymentMethods,omitempty"`
		CardFilters       []plainCardFilter `json:"cardFilters,omitempty"`
		UPIFilters        []plainUPIFilter  `json:"upiFilters,omitempty"`
	}
	plainCardFilter struct {
		Enable       bool          `json:"enable"`
		CardBrands   []string      `json:"cardBrands,omitempty"`
		CardBins     []pf.BINRange `json:"cardBins,omitempty"`
		CardTypes    []pf.CardType `json:"cardTypes,omitempty"`
		CardSubTypes []string      `json:"cardSubTypes,omitempty"`
		CardBanks    []string      `json:"cardBanks,omitempty"`
	}
	plainUPIFilter struct {
		UPIType    pf.UPIType `json:"upiType,omitempty"`
		Enable     bool       `json:"enable"`
		UPIMethods []string   `json:"upiMethods,omitempty"`
	}
)

func asPlain(f *pf.Filter) *plainFilter {
	p := &plainFilter{AllowDefaultOptions: f.AllowDefaultOptions, EMIOptions: f.EMIOptions}
	for _, o := range f.Options {
		po := plainOption{PaymentMethodType: string(o.PaymentMethodType), Enable: o.Enable, PaymentMethods: o.PaymentMethods}
		for _, c := range o.CardFilters {
			po.CardFilters = append(po.CardFilters, plainCardFilter{c.Enable, c.CardBrands, c.CardBins, c.CardTypes, c.CardSubTypes, c.CardBanks})
		}
		for _, u := range o.UPIFilters {
			po.UPIFilters = append(po.UPIFilters, plainUPIFilter{u.UPIType, u.Enable, u.UPIMethods})
		}
		p.Options = append(p.Options, po)
	}
	return p
}

// TestBenchmarkInputsAgree: the benchmarks encode the same JSON tree, and the
// largest filter is valid.
func TestBenchmarkInputsAgree(t *testing.T) {
	f := largestFilter()
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	typed, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	fromMap, err := json.Marshal(asMap(t, f))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := json.Marshal(asPlain(f))
	if err != nil {
		t.Fatal(err)
	}
	var a, b, c any
	_ = json.Unmarshal(typed, &a)
	_ = json.Unmarshal(fromMap, &b)
	_ = json.Unmarshal(plain, &c)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
		t.Fatalf("benchmark inputs differ:\n%s\n%s\n%s", typed, fromMap, plain)
	}
	if string(typed) != string(plain) {
		t.Fatalf("the hand-written encoder differs from encoding/json:\n%s\n%s", typed, plain)
	}
}

// BenchmarkFilterMarshal encodes the largest realistic filter, typed, with
// the SDK's encoder (MarshalJSON, the same bytes AppendJSON writes into an
// enclosing body).
func BenchmarkFilterMarshal(b *testing.B) {
	f := largestFilter()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFilterMarshalMap encodes the same JSON from map[string]any with
// encoding/json: the baseline.
func BenchmarkFilterMarshalMap(b *testing.B) {
	m := asMap(b, largestFilter())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFilterMarshalStdlib encodes the typed filter through
// json.Marshal, as a struct embedding *Filter is encoded: encoding/json
// re-scans (compacts) the output of every MarshalJSON, which costs more than
// the encoder itself. An enclosing encoder that splices AppendJSON's output
// avoids it.
func BenchmarkFilterMarshalStdlib(b *testing.B) {
	f := largestFilter()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFilterMarshalPlainStruct encodes the same JSON from plain structs
// with tags and no custom encoder (which could not keep Extra keys or empty
// decoded lists): the plain encoding/json way.
func BenchmarkFilterMarshalPlainStruct(b *testing.B) {
	p := asPlain(largestFilter())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(p); err != nil {
			b.Fatal(err)
		}
	}
}
