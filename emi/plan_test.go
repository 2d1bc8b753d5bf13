package emi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
)

// TestPlanAndInstrumentKeys: the wire keys behind the builder's names.
func TestPlanAndInstrumentKeys(t *testing.T) {
	require.Equal(t, []string{"standardEmi", "lowCostEmi", "noCostEmi"}, []string{emi.Standard.Key(), emi.LowCost.Key(), emi.NoCost.Key()})
	require.Equal(t, []string{"credit", "debit", "cardless"}, []string{emi.Credit.Key(), emi.Debit.Key(), emi.Cardless.Key()})
}

// TestPlanAndInstrumentNames: unknown values have keys that are no wire
// key, and print as the key.
func TestPlanAndInstrumentNames(t *testing.T) {
	require.Equal(t, "unknownPlan", emi.Plan(9).Key())
	require.Equal(t, "unknownPlan", emi.Plan(0).String())
	require.Equal(t, "unknownGroup", emi.Instrument(-1).Key())
	require.Equal(t, "noCostEmi", emi.NoCost.String())
	require.Equal(t, "cardless", emi.Cardless.String())
}
