package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/validation"
)

// TestBuilderInPlace: a fluent call changes its receiver and returns it;
// Clone gives a copy to extend another way that shares nothing.
func TestBuilderInPlace(t *testing.T) {
	o := emi.New()
	o.RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
	require.Same(t, o, o.OnlyEMI(), "the receiver is returned")
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]}},"showOnlyEmi":true}`,
		wiretest.JSONString(t, o))

	base := emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
	before := wiretest.JSONString(t, base)
	a := base.Clone().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC")
	b := base.Clone().DisableGroup(emi.NoCost, emi.Debit).OnlyEMI()
	require.Equal(t, before, wiretest.JSONString(t, base))
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}},{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`,
		wiretest.JSONString(t, a))
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]},"debit":{"enable":false}},"showOnlyEmi":true}`,
		wiretest.JSONString(t, b))

	c := base.Clone()
	c.NoCostEMI.Credit.Filters[0].IssuerFilter.Tenures[0] = emi.Months(1, 2)
	c.NoCostEMI.Enable = false
	require.Equal(t, before, wiretest.JSONString(t, base))

	tenures := []emi.TenureRange{emi.Months(3, 6)}
	d := emi.New().RemoveTenures(emi.Standard, emi.Debit, "SVC_SBI", tenures...)
	tenures[0] = emi.Months(1, 1)
	require.Contains(t, wiretest.JSONString(t, d), `"3::6"`)
}

// TestBuilderNilReceiver: the fluent methods on a nil *Options start from
// New(); empty Options are valid (the service's own samples send {}).
func TestBuilderNilReceiver(t *testing.T) {
	var b *emi.Options
	require.Equal(t, emi.New().OnlyEMI(), b.OnlyEMI())
	require.Equal(t, emi.New().Enable(emi.NoCost), b.Enable(emi.NoCost))
	require.Equal(t, emi.New().DisableGroup(emi.NoCost, emi.Credit), b.DisableGroup(emi.NoCost, emi.Credit))
	require.Equal(t, emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_X"), b.RemoveIssuers(emi.NoCost, emi.Credit, "SVC_X"))
	require.Nil(t, b)
	require.NoError(t, emi.New().Validate())
	require.Equal(t, `{}`, wiretest.JSONString(t, emi.New()))
}

// TestBuilderKeepsGroupsAcrossPlanToggles: enabling or disabling a plan type
// keeps what is inside it.
func TestBuilderKeepsGroupsAcrossPlanToggles(t *testing.T) {
	o := emi.New().DisableGroup(emi.NoCost, emi.Credit).OnlyNoCost()
	require.Equal(t, `{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true,"credit":{"enable":false}},"showOnlyEmi":true}`,
		wiretest.JSONString(t, o))
}

// TestBuilderRejectsUnknownPlanOrInstrument: a call naming an unknown Plan or
// Instrument changes nothing, and the builder keeps it: Validate reports it
// with the call as written, never a silent fix-up.
func TestBuilderRejectsUnknownPlanOrInstrument(t *testing.T) {
	tests := []struct {
		name     string
		b        *emi.Options
		options  string               // the JSON: the accepted calls only
		problems []validation.Problem // Validate, in order
	}{
		{
			name:    "unknown plan before a valid one",
			b:       emi.New().Disable(emi.Plan(9)).Enable(emi.NoCost),
			options: `{"noCostEmi":{"enable":true}}`,
			problems: []validation.Problem{
				{Path: "emiOptions", Message: "Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost"},
			},
		},
		{
			name:    "unknown plan among valid ones",
			b:       emi.New().Enable(emi.Standard, emi.NoCost+1),
			options: `{"standardEmi":{"enable":true}}`,
			problems: []validation.Problem{
				{Path: "emiOptions", Message: "Enable(Standard, Plan(4)): unknown plan 4: want Standard, LowCost or NoCost"},
			},
		},
		{
			name:    "unknown instrument",
			b:       emi.New().EnableGroup(emi.NoCost, emi.Instrument(7)),
			options: `{}`,
			problems: []validation.Problem{
				{Path: "emiOptions.noCostEmi", Message: "EnableGroup(NoCost, Instrument(7)): unknown instrument 7: want Credit, Debit or Cardless"},
			},
		},
		{
			name:    "unknown plan of a group, after valid calls",
			b:       emi.New().OnlyNoCost().DisableGroup(emi.Plan(0), emi.Credit),
			options: `{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}`,
			problems: []validation.Problem{
				{Path: "emiOptions", Message: "DisableGroup(Plan(0), Credit): unknown plan 0: want Standard, LowCost or NoCost"},
			},
		},
		{
			name:    "every filter call",
			b:       emi.New().RemoveIssuers(emi.NoCost, 0, "SVC_HDFC").RemoveTenures(-1, emi.Debit, "SVC_SBI", emi.Months(3, 6)).AddFilter(emi.Standard, 4, emi.Filter{PaymentMethod: "CARD"}).OnlyEMI(),
			options: `{"showOnlyEmi":true}`,
			problems: []validation.Problem{
				{Path: "emiOptions.noCostEmi", Message: "RemoveIssuers(NoCost, Instrument(0)): unknown instrument 0: want Credit, Debit or Cardless"},
				{Path: "emiOptions", Message: "RemoveTenures(Plan(-1), Debit): unknown plan -1: want Standard, LowCost or NoCost"},
				{Path: "emiOptions.standardEmi", Message: "AddFilter(Standard, Instrument(4)): unknown instrument 4: want Credit, Debit or Cardless"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.options, wiretest.JSONString(t, tt.b))

			var ve *validation.Error
			require.ErrorAs(t, tt.b.Validate(), &ve)
			require.Equal(t, tt.problems, ve.Problems)

			// The problem stays with a Clone, and with later calls.
			require.ErrorAs(t, tt.b.Clone().Validate(), &ve)
			require.Equal(t, tt.problems, ve.Problems)
			require.ErrorContains(t, tt.b.Clone().Enable(emi.Standard).Validate(), tt.problems[0].Message)

			// Decoded from its JSON, the options have no call history.
			var d emi.Options
			require.NoError(t, json.Unmarshal([]byte(tt.options), &d))
			require.NoError(t, d.Validate())
		})
	}
}

// TestBuilderProblemsDoNotLeak: a problem recorded on a clone of shared
// Options is not seen by the original or another clone.
func TestBuilderProblemsDoNotLeak(t *testing.T) {
	base := emi.New().Enable(emi.NoCost).Disable(emi.Plan(7), emi.Plan(8), emi.Plan(9))
	a := base.Clone().Enable(emi.Plan(5))
	b := base.Clone().Enable(emi.Plan(6))
	for o, want := range map[*emi.Options]string{base: "Plan(9)", a: "Enable(Plan(5))", b: "Enable(Plan(6))"} {
		require.Contains(t, wiretest.LastProblem(t, o.Validate()), want)
	}
	require.NoError(t, emi.New().Enable(emi.NoCost).Validate())
}

// TestBuilderAnyCombinationOfTypes: every combination of the three EMI plan
// types, each absent, enabled or disabled (spec §2.5, "any combination of
// the three types by enable flags"), gives exactly those enable flags,
// whichever order the calls come in.
func TestBuilderAnyCombinationOfTypes(t *testing.T) {
	plans := []emi.Plan{emi.Standard, emi.LowCost, emi.NoCost}
	states := []string{"absent", "enabled", "disabled"}
	seen := 0
	for code := 0; code < 27; code++ {
		var on, off []emi.Plan
		want := ""
		name := ""
		for i, p := range plans {
			state := code / []int{1, 3, 9}[i] % 3
			name += p.Key() + "=" + states[state] + " "
			switch state {
			case 1:
				on = append(on, p)
				want += `,"` + p.Key() + `":{"enable":true}`
			case 2:
				off = append(off, p)
				want += `,"` + p.Key() + `":{"enable":false}`
			}
		}
		t.Run(name, func(t *testing.T) {
			if want == "" {
				want = "{}"
			} else {
				want = "{" + want[1:] + "}"
			}
			for _, o := range []*emi.Options{emi.New().Enable(on...).Disable(off...), emi.New().Disable(off...).Enable(on...)} {
				require.NoError(t, o.Validate())
				require.Equal(t, want, wiretest.JSONString(t, o))
			}
			seen++
		})
	}
	require.Equal(t, 27, seen)

	// A later call on the same type wins.
	require.Equal(t, `{"noCostEmi":{"enable":false}}`, wiretest.JSONString(t, emi.New().Enable(emi.NoCost).Disable(emi.NoCost)))
	require.Equal(t, `{"noCostEmi":{"enable":true}}`, wiretest.JSONString(t, emi.New().Disable(emi.NoCost).Enable(emi.NoCost)))
}

// TestBuilderRemoveInEveryGroup: RemoveIssuers and RemoveTenures work in
// every plan type and group, as spec §2.5 shapes them: an enabled plan type
// and group holding an enabled filter whose issuerFilter has enable false.
// Credit and debit filters match CARD, as the service's samples do; cardless
// ones name no method.
func TestBuilderRemoveInEveryGroup(t *testing.T) {
	for _, p := range []emi.Plan{emi.Standard, emi.LowCost, emi.NoCost} {
		for _, in := range []emi.Instrument{emi.Credit, emi.Debit, emi.Cardless} {
			t.Run(p.Key()+"."+in.Key(), func(t *testing.T) {
				card := ""
				if in != emi.Cardless {
					card = `"paymentMethodType":"CARD","paymentMethod":"CARD",`
				}
				o := emi.New().RemoveIssuers(p, in, "SVC_HDFC", "SVC_SBI").RemoveTenures(p, in, "SVC_ICICI", emi.Months(3, 6), emi.Months(9, 12))
				require.NoError(t, o.Validate())
				require.Equal(t, `{"`+p.Key()+`":{"enable":true,"`+in.Key()+`":{"enable":true,"filters":[`+
					`{"enable":true,`+card+`"issuerFilter":{"issuers":["SVC_HDFC","SVC_SBI"],"enable":false}},`+
					`{"enable":true,`+card+`"issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["3::6","9::12"],"enable":false}}]}}}`,
					wiretest.JSONString(t, o))
			})
		}
	}
}
