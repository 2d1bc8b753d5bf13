package paymentfilter_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	pf "github.com/payorch/checkout-go/paymentfilter"
)

// TestNilAndZeroValues: the exported methods of nil pointers and zero values
// of both packages answer with a value or an error, never a panic.
func TestNilAndZeroValues(t *testing.T) {
	tests := []struct {
		name    string
		call    func() error
		wantErr bool
	}{
		{"nil Filter Validate (not sent)", func() error { return (*pf.Filter)(nil).Validate() }, false},
		{"nil Clones", func() error {
			_, _, _, _ = (*pf.Filter)(nil).Clone(), (*pf.Option)(nil).Clone(), (*pf.CardFilter)(nil).Clone(), (*pf.UPIFilter)(nil).Clone()
			_, _, _, _, _ = (*emi.Options)(nil).Clone(), (*emi.SubFilter)(nil).Clone(), (*emi.Group)(nil).Clone(), (*emi.Filter)(nil).Clone(), (*emi.IssuerFilter)(nil).Clone()
			return nil
		}, false},
		{"nil Filter UnmarshalJSON", func() error {
			return (*pf.Filter)(nil).UnmarshalJSON([]byte(`{"allowDefaultOptions":true,"options":[]}`))
		}, true},
		{"nil Option UnmarshalJSON", func() error {
			return (*pf.Option)(nil).UnmarshalJSON([]byte(`{"paymentMethodType":"CASH","enable":false}`))
		}, true},
		{"nil CardFilter UnmarshalJSON", func() error { return (*pf.CardFilter)(nil).UnmarshalJSON([]byte(`{"enable":false}`)) }, true},
		{"nil UPIFilter UnmarshalJSON", func() error { return (*pf.UPIFilter)(nil).UnmarshalJSON([]byte(`{"enable":false}`)) }, true},
		{"nil BINRange UnmarshalText", func() error { return (*pf.BINRange)(nil).UnmarshalText([]byte("459000::460000")) }, true},
		{"zero Filter MarshalJSON", func() error { _, err := pf.Filter{}.MarshalJSON(); return err }, false},
		{"zero Option MarshalJSON", func() error { _, err := pf.Option{}.MarshalJSON(); return err }, false},
		{"zero BINRange Validate", func() error { return pf.BINRange{}.Validate() }, true},
		{"nil emi.Options given to EMI (emiOptions not sent)", func() error { return pf.New().EMI((*emi.Options)(nil)).Validate() }, false},
		{"empty emi.Options given to EMI (the service takes {})", func() error { return pf.New().EMI(emi.New()).Validate() }, false},
		{"nil Filter fluent calls", func() error { return (*pf.Filter)(nil).Hide(pf.Cash).HideUPIApps("GPAY").Validate() }, false},
		{"nil Filter fluent calls on cards", func() error {
			return (*pf.Filter)(nil).AddCardFilter(pf.CardFilter{CardBrands: []string{"VISA"}}).Validate()
		}, false},
		{"nil Filter mandate calls", func() error { return (*pf.Filter)(nil).HideMandateMethods("", pf.Wallet, "PAYTM").Validate() }, false},
		{"nil Filter Validate (not sent)", func() error { return (*pf.Filter)(nil).Validate() }, false},
		{"nil emi Options fluent calls", func() error { return (*emi.Options)(nil).OnlyNoCost().Validate() }, false},
		{"nil emi Options other fluent calls", func() error { return (*emi.Options)(nil).RemoveIssuers(emi.NoCost, emi.Credit, "JP_HDFC").Validate() }, false},
		{"nil emi Options Validate (not sent)", func() error { return (*emi.Options)(nil).Validate() }, false},
		{"nil emi Options MarshalJSON", func() error { _, err := json.Marshal((*emi.Options)(nil)); return err }, false},
		{"nil emi Options UnmarshalJSON", func() error { return (*emi.Options)(nil).UnmarshalJSON([]byte(`{}`)) }, true},
		{"nil emi SubFilter UnmarshalJSON", func() error { return (*emi.SubFilter)(nil).UnmarshalJSON([]byte(`{"enable":true}`)) }, true},
		{"nil emi Group UnmarshalJSON", func() error { return (*emi.Group)(nil).UnmarshalJSON([]byte(`{"enable":true}`)) }, true},
		{"nil emi Filter UnmarshalJSON", func() error { return (*emi.Filter)(nil).UnmarshalJSON([]byte(`{"enable":true}`)) }, true},
		{"nil emi IssuerFilter UnmarshalJSON", func() error { return (*emi.IssuerFilter)(nil).UnmarshalJSON([]byte(`{"enable":true}`)) }, true},
		{"nil TenureRange UnmarshalText", func() error { return (*emi.TenureRange)(nil).UnmarshalText([]byte("9::12")) }, true},
		{"zero TenureRange Validate", func() error { return emi.TenureRange{}.Validate() }, true},
		{"zero Visibility Validate (not sent)", func() error { return emi.Visibility("").Validate() }, false},
		{"zero MethodType Validate", func() error { return emi.MethodType("").Validate() }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = tt.call() })
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
		})
	}
}
