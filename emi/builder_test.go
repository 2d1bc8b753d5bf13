package emi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// TestBuilderImmutable: extending shared Options leaves them as they were,
// and a copy made by Options does not alias them.
func TestBuilderImmutable(t *testing.T) {
	base := emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
	before := wiretest.JSONString(t, base.Options())

	a := base.RemoveIssuers(emi.NoCost, emi.Credit, "SVC_HDFC")
	b := base.DisableGroup(emi.NoCost, emi.Debit).OnlyEMI()
	require.Equal(t, before, wiretest.JSONString(t, base.Options()))
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}},{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_HDFC"],"enable":false}}]}}}`,
		wiretest.JSONString(t, a.Options()))
	require.Equal(t, `{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]},"debit":{"enable":false}},"showOnlyEmi":true}`,
		wiretest.JSONString(t, b.Options()))

	o := base.Options()
	o.NoCostEMI.Credit.Filters[0].IssuerFilter.Tenures[0] = emi.Months(1, 2)
	o.NoCostEMI.Enable = false
	require.Equal(t, before, wiretest.JSONString(t, base.Options()))

	tenures := []emi.TenureRange{emi.Months(3, 6)}
	c := emi.New().RemoveTenures(emi.Standard, emi.Debit, "SVC_SBI", tenures...)
	tenures[0] = emi.Months(1, 1)
	require.Contains(t, wiretest.JSONString(t, c.Options()), `"3::6"`)
}

// TestBuilderNilReceiver: the fluent methods on a nil *Options start from
// New(), and Build of nothing is an error (emiOptions that set nothing).
func TestBuilderNilReceiver(t *testing.T) {
	var b *emi.Options
	require.Equal(t, wiretest.JSONString(t, emi.New().OnlyEMI().Options()), wiretest.JSONString(t, b.OnlyEMI().Options()))
	_, err := b.Build()
	require.ErrorContains(t, err, "emiOptions: sets nothing")
}

// TestBuilderKeepsGroupsAcrossPlanToggles: enabling or disabling a plan type
// keeps what is inside it.
func TestBuilderKeepsGroupsAcrossPlanToggles(t *testing.T) {
	o := emi.New().DisableGroup(emi.NoCost, emi.Credit).OnlyNoCost().Options()
	require.Equal(t, `{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true,"credit":{"enable":false}},"showOnlyEmi":true}`,
		wiretest.JSONString(t, o))
}

// TestPlanAndInstrumentKeys: the wire keys behind the builder's names.
func TestPlanAndInstrumentKeys(t *testing.T) {
	require.Equal(t, []string{"standardEmi", "lowCostEmi", "noCostEmi"}, []string{emi.Standard.Key(), emi.LowCost.Key(), emi.NoCost.Key()})
	require.Equal(t, []string{"credit", "debit", "cardless"}, []string{emi.Credit.Key(), emi.Debit.Key(), emi.Cardless.Key()})
}

// TestBuilderRejectsUnknownPlanOrInstrument: a call naming an unknown Plan or
// Instrument changes nothing, and the builder keeps it: Build and Err report
// it with the call as written, never a silent fix-up.
func TestBuilderRejectsUnknownPlanOrInstrument(t *testing.T) {
	tests := []struct {
		name     string
		b        *emi.Options
		options  string        // Options(): the accepted calls only
		problems []emi.Problem // Build(), in order
	}{
		{
			name:    "unknown plan before a valid one",
			b:       emi.New().Disable(emi.Plan(9)).Enable(emi.NoCost),
			options: `{"noCostEmi":{"enable":true}}`,
			problems: []emi.Problem{
				{Path: "emiOptions", Message: "Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost"},
			},
		},
		{
			name:    "unknown plan among valid ones",
			b:       emi.New().Enable(emi.Standard, emi.NoCost+1),
			options: `{"standardEmi":{"enable":true}}`,
			problems: []emi.Problem{
				{Path: "emiOptions", Message: "Enable(Standard, Plan(4)): unknown plan 4: want Standard, LowCost or NoCost"},
			},
		},
		{
			name:    "unknown instrument",
			b:       emi.New().EnableGroup(emi.NoCost, emi.Instrument(7)),
			options: `{}`,
			problems: []emi.Problem{
				{Path: "emiOptions.noCostEmi", Message: "EnableGroup(NoCost, Instrument(7)): unknown instrument 7: want Credit, Debit or Cardless"},
				{Path: "emiOptions", Message: "sets nothing: leave emiOptions out"},
			},
		},
		{
			name:    "unknown plan of a group, after valid calls",
			b:       emi.New().OnlyNoCost().DisableGroup(emi.Plan(0), emi.Credit),
			options: `{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}`,
			problems: []emi.Problem{
				{Path: "emiOptions", Message: "DisableGroup(Plan(0), Credit): unknown plan 0: want Standard, LowCost or NoCost"},
			},
		},
		{
			name:    "every filter call",
			b:       emi.New().RemoveIssuers(emi.NoCost, 0, "SVC_HDFC").RemoveTenures(-1, emi.Debit, "SVC_SBI", emi.Months(3, 6)).AddFilter(emi.Standard, 4, emi.Filter{PaymentMethod: "CARD"}).OnlyEMI(),
			options: `{"showOnlyEmi":true}`,
			problems: []emi.Problem{
				{Path: "emiOptions.noCostEmi", Message: "RemoveIssuers(NoCost, Instrument(0)): unknown instrument 0: want Credit, Debit or Cardless"},
				{Path: "emiOptions", Message: "RemoveTenures(Plan(-1), Debit): unknown plan -1: want Standard, LowCost or NoCost"},
				{Path: "emiOptions.standardEmi", Message: "AddFilter(Standard, Instrument(4)): unknown instrument 4: want Credit, Debit or Cardless"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.options, wiretest.JSONString(t, tt.b.Options()))

			o, err := tt.b.Build()
			require.Nil(t, o)
			var ve *emi.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Equal(t, tt.problems, ve.Problems)

			err = tt.b.Err()
			require.ErrorAs(t, err, &ve)
			require.Equal(t, tt.problems[0], ve.Problems[0], "Err reports the rejected calls")

			// The problem stays with every Options made from this one,
			// and Validate reports it (the copy made by Options too).
			_, err = tt.b.Enable(emi.Standard).Build()
			require.ErrorContains(t, err, tt.problems[0].Message)
			require.ErrorAs(t, tt.b.Options().Validate(), &ve)
			require.Equal(t, tt.problems, ve.Problems)
			require.ErrorAs(t, tt.b.Clone().Validate(), &ve)
			require.Equal(t, tt.problems, ve.Problems)

			// Decoded from its JSON, the options have no call history.
			var d emi.Options
			require.NoError(t, json.Unmarshal([]byte(tt.options), &d))
			require.NoError(t, d.Err())
		})
	}
}

// TestBuilderProblemsDoNotLeak: a problem recorded on one branch of shared
// Options is not seen by its base or by a sibling branch.
func TestBuilderProblemsDoNotLeak(t *testing.T) {
	// Three problems: an appended list would have spare capacity here.
	base := emi.New().Enable(emi.NoCost).Disable(emi.Plan(7), emi.Plan(8), emi.Plan(9))
	a := base.Enable(emi.Plan(5))
	b := base.Enable(emi.Plan(6))
	last := func(b *emi.Options) string {
		var ve *emi.ValidationError
		require.ErrorAs(t, b.Err(), &ve)
		return ve.Problems[len(ve.Problems)-1].Message
	}
	require.Contains(t, last(base), "Plan(9)")
	require.Contains(t, last(a), "Enable(Plan(5))")
	require.Contains(t, last(b), "Enable(Plan(6))")
	require.NoError(t, emi.New().Enable(emi.NoCost).Err())
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
				_, err := emi.New().Enable(on...).Disable(off...).Build()
				require.ErrorContains(t, err, "emiOptions: sets nothing")
				return
			}
			want = "{" + want[1:] + "}"
			for _, b := range []*emi.Options{emi.New().Enable(on...).Disable(off...), emi.New().Disable(off...).Enable(on...)} {
				o, err := b.Build()
				require.NoError(t, err)
				require.Equal(t, want, wiretest.JSONString(t, o))
			}
			seen++
		})
	}
	require.Equal(t, 26, seen)

	// A later call on the same type wins.
	require.Equal(t, `{"noCostEmi":{"enable":false}}`, wiretest.JSONString(t, emi.New().Enable(emi.NoCost).Disable(emi.NoCost).Options()))
	require.Equal(t, `{"noCostEmi":{"enable":true}}`, wiretest.JSONString(t, emi.New().Disable(emi.NoCost).Enable(emi.NoCost).Options()))
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
				o, err := emi.New().RemoveIssuers(p, in, "SVC_HDFC", "SVC_SBI").RemoveTenures(p, in, "SVC_ICICI", emi.Months(3, 6), emi.Months(9, 12)).Build()
				require.NoError(t, err)
				require.Equal(t, `{"`+p.Key()+`":{"enable":true,"`+in.Key()+`":{"enable":true,"filters":[`+
					`{"enable":true,`+card+`"issuerFilter":{"issuers":["SVC_HDFC","SVC_SBI"],"enable":false}},`+
					`{"enable":true,`+card+`"issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["3::6","9::12"],"enable":false}}]}}}`,
					wiretest.JSONString(t, o))
			})
		}
	}
}
