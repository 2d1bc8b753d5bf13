package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

// filterStep is one flag's change to the filter being built: it applies
// the flag's value v to f, or refuses v.
type filterStep func(f *paymentfilter.Filter, v string) (*paymentfilter.Filter, error)

// emiFlags declares the flags of "checkout filter" that build the filter's
// emiOptions, one per behaviour of package emi's fluent methods, through
// op (a flag with a value) and boolOp (a flag without one).
func emiFlags(op func(name, help string, step filterStep), boolOp func(name, help string, step func(*paymentfilter.Filter) *paymentfilter.Filter)) {
	op("emi-enable", "enable these EMI plan types, `PLANS` (standardEmi, lowCostEmi, noCostEmi)", emiStep(func(o *emi.Options, v string) (*emi.Options, error) {
		plans, err := listOf(v, noPlan, parsePlan)
		if err != nil {
			return nil, err
		}
		return o.Enable(plans...), nil
	}))
	op("emi-disable", "disable these EMI plan types, `PLANS`", emiStep(func(o *emi.Options, v string) (*emi.Options, error) {
		plans, err := listOf(v, noPlan, parsePlan)
		if err != nil {
			return nil, err
		}
		return o.Disable(plans...), nil
	}))
	op("emi-enable-group", "enable one group of a plan type, `PLAN.GROUP` (noCostEmi.debit; groups: credit, debit, cardless)", emiStep(func(o *emi.Options, v string) (*emi.Options, error) {
		p, in, err := parsePlanGroup(v)
		if err != nil {
			return nil, err
		}
		return o.EnableGroup(p, in), nil
	}))
	op("emi-disable-group", "disable one group of a plan type, `PLAN.GROUP` (noCostEmi.credit: no credit-card plans in no-cost EMI)", emiStep(func(o *emi.Options, v string) (*emi.Options, error) {
		p, in, err := parsePlanGroup(v)
		if err != nil {
			return nil, err
		}
		return o.DisableGroup(p, in), nil
	}))
	op("emi-remove-issuers", "remove the plans of these issuers from one group, `PLAN.GROUP:ISSUER,ISSUER` (noCostEmi.credit:SVC_ICICI)", emiStep(func(o *emi.Options, v string) (*emi.Options, error) {
		group, issuers, ok := strings.Cut(v, ":")
		if !ok || len(list(issuers)) == 0 {
			return nil, fmt.Errorf("%q is not PLAN.GROUP:ISSUER,ISSUER", v)
		}
		p, in, err := parsePlanGroup(group)
		if err != nil {
			return nil, err
		}
		return o.RemoveIssuers(p, in, list(issuers)...), nil
	}))
	op("emi-remove-tenures", "remove these tenures, in months, of one issuer from one group, `PLAN.GROUP:ISSUER:FROM::TO,FROM::TO` (noCostEmi.credit:SVC_ICICI:9::12)", emiStep(func(o *emi.Options, v string) (*emi.Options, error) {
		group, rest, _ := strings.Cut(v, ":")
		issuer, tenures, ok := strings.Cut(rest, ":")
		// An issuer of digits is the start of a range: the issuer is missing.
		if !ok || strings.Trim(issuer, " 0123456789") == "" {
			return nil, fmt.Errorf("%q is not PLAN.GROUP:ISSUER:FROM::TO,FROM::TO", v)
		}
		p, in, err := parsePlanGroup(group)
		if err != nil {
			return nil, err
		}
		ranges, err := listOf(tenures, emptyList, emi.ParseTenureRange)
		if err != nil {
			return nil, err
		}
		return o.RemoveTenures(p, in, strings.TrimSpace(issuer), ranges...), nil
	}))
	boolOp("emi-only", "show EMI only (showOnlyEmi true)", emiOnly((*emi.Options).OnlyEMI))
	boolOp("emi-only-no-cost", "show no-cost EMI only: standard and low cost EMI disabled, no cost enabled, showOnlyEmi true", emiOnly((*emi.Options).OnlyNoCost))
}

// noPlan is what an EMI plan type flag with no item is refused with.
const noPlan = "no EMI plan type given"

// emiStep makes the step of an EMI flag: apply changes the filter's
// emiOptions (nil until the first EMI flag, when the emi methods start
// from emi.New()) by the flag's value, or refuses the value.
func emiStep(apply func(o *emi.Options, v string) (*emi.Options, error)) filterStep {
	return func(f *paymentfilter.Filter, v string) (*paymentfilter.Filter, error) {
		o, err := apply(f.EMIOptions, v)
		if err != nil {
			return nil, err
		}
		return f.EMI(o), nil
	}
}

// emiOnly makes the step of an EMI flag without a value.
func emiOnly(apply func(*emi.Options) *emi.Options) func(*paymentfilter.Filter) *paymentfilter.Filter {
	return func(f *paymentfilter.Filter) *paymentfilter.Filter { return f.EMI(apply(f.EMIOptions)) }
}

// parsePlan reads an EMI plan type by its wire key (noCostEmi).
func parsePlan(s string) (emi.Plan, error) {
	plans := []emi.Plan{emi.Standard, emi.LowCost, emi.NoCost}
	for _, p := range plans {
		if p.Key() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown EMI plan type %q: use %s, %s or %s", s, plans[0], plans[1], plans[2])
}

// parsePlanGroup reads "PLAN.GROUP", such as noCostEmi.credit: a plan
// type and one of its groups by their wire keys.
func parsePlanGroup(s string) (emi.Plan, emi.Instrument, error) {
	plan, group, ok := strings.Cut(strings.TrimSpace(s), ".")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not PLAN.GROUP, such as noCostEmi.credit", s)
	}
	p, err := parsePlan(plan)
	if err != nil {
		return 0, 0, err
	}
	groups := []emi.Instrument{emi.Credit, emi.Debit, emi.Cardless}
	for _, in := range groups {
		if in.Key() == group {
			return p, in, nil
		}
	}
	return 0, 0, fmt.Errorf("unknown EMI group %q: use %s, %s or %s", group, groups[0], groups[1], groups[2])
}

// boolFlag declares a flag without a value whose step applies when it is
// given (true); --name=false adds no step.
func boolFlag(fs *flag.FlagSet, name, help string, add func()) {
	fs.BoolFunc(name, help, func(v string) error {
		on, err := strconv.ParseBool(v)
		if on {
			add()
		}
		return err
	})
}
