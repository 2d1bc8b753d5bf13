package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
)

func marshal(t *testing.T, o *emi.Options) string {
	t.Helper()
	b, err := json.Marshal(o)
	require.NoError(t, err)
	return string(b)
}

// TestBuilderImmutable: extending a shared builder leaves it as it was, and
// returned Options do not alias it.
func TestBuilderImmutable(t *testing.T) {
	base := emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
	before := marshal(t, base.Options())

	a := base.RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC")
	b := base.DisableGroup(emi.NoCost, emi.Debit).ShowOnlyEMI()
	require.Equal(t, before, marshal(t, base.Options()))
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}},{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`,
		marshal(t, a.Options()))
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]},"debit":{"enable":false}},"showOnlyEmi":true}`,
		marshal(t, b.Options()))

	o := base.Options()
	o.NoCostEMI.Credit.Filters[0].IssuerFilter.Tenures[0] = emi.Months(1, 2)
	o.NoCostEMI.Enable = false
	require.Equal(t, before, marshal(t, base.Options()))

	tenures := []emi.TenureRange{emi.Months(3, 6)}
	c := emi.New().RemoveTenures(emi.Standard, emi.Debit, "SVC_SBI", tenures...)
	tenures[0] = emi.Months(1, 1)
	require.Contains(t, marshal(t, c.Options()), `"3::6"`)
}

// TestBuilderZeroValue: the zero Builder is New(), and Build of nothing is
// an error (emiOptions that set nothing).
func TestBuilderZeroValue(t *testing.T) {
	var b emi.Builder
	require.Equal(t, marshal(t, emi.New().ShowOnlyEMI().Options()), marshal(t, b.ShowOnlyEMI().Options()))
	_, err := b.Build()
	require.ErrorContains(t, err, "emiOptions: sets nothing")
}

// TestBuilderKeepsGroupsAcrossPlanToggles: enabling or disabling a plan type
// keeps what is inside it.
func TestBuilderKeepsGroupsAcrossPlanToggles(t *testing.T) {
	o := emi.New().DisableGroup(emi.NoCost, emi.Credit).OnlyNoCost().Options()
	require.Equal(t, `{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true,"credit":{"enable":false}},"showOnlyEmi":true}`,
		marshal(t, o))
}

// TestPlanAndInstrumentKeys: the wire keys behind the builder's names.
func TestPlanAndInstrumentKeys(t *testing.T) {
	require.Equal(t, []string{"standardEmi", "lowCostEmi", "noCostEmi"}, []string{emi.Standard.Key(), emi.LowCost.Key(), emi.NoCost.Key()})
	require.Equal(t, []string{"credit", "debit", "cardless"}, []string{emi.Credit.Key(), emi.Debit.Key(), emi.Cardless.Key()})
	// An unknown plan or group is ignored by the builder, not a panic.
	require.Equal(t, `{}`, marshal(t, emi.New().Enable(emi.Plan(9)).DisableGroup(emi.NoCost+1, emi.Credit).Options()))
	require.Equal(t, `{}`, marshal(t, emi.New().DisableGroup(emi.NoCost, emi.Instrument(0)).Options()))
}
