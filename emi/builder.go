package emi

import (
	"strconv"

	"github.com/payorch/checkout-go/validation"
)

// New returns empty Options, to extend with the fluent methods, for example
// emi.New().OnlyNoCost(). It is &Options{}.
//
// The fluent methods of Options say one behaviour each. Each changes the
// options in place and returns them, so calls chain, and a call on its own
// line works too; a call on a nil *Options starts from New(). Nothing is
// copied per call.
//
// A call that cannot be carried out, such as Disable(Plan(9)) or
// EnableGroup(NoCost, Instrument(7)), changes no option and is recorded
// (unexported, copied by Clone, never encoded; a decoded or hand-written
// Options has none): Validate reports it first, for example
// emiOptions: Disable(Plan(9)): unknown plan 9: want Standard, LowCost or
// NoCost. It is never dropped silently.
func New() *Options { return &Options{} }

// reject records a problem at path for call.
func (o *Options) reject(path, call, msg string) {
	o.problems = append(o.problems, validation.Problem{Path: path, Message: call + ": " + msg})
}

// checkPlan records an unknown plan and reports whether p is known.
func (o *Options) checkPlan(call string, p Plan) bool {
	if o.sub(p) != nil {
		return true
	}
	o.reject(rootPath, call, "unknown plan "+strconv.Itoa(int(p))+": want Standard, LowCost or NoCost")
	return false
}

// checkGroup records an unknown plan or instrument and reports whether both
// are known.
func (o *Options) checkGroup(call string, p Plan, in Instrument) bool {
	if !o.checkPlan(call, p) {
		return false
	}
	if in.Key() == unknownGroup {
		o.reject(validation.Join(rootPath, p.Key()), call,
			"unknown instrument "+strconv.Itoa(int(in))+": want Credit, Debit or Cardless")
		return false
	}
	return true
}

// planCall spells a call on plans the way it was written, for example
// "Disable(Standard, Plan(9))".
func planCall(name string, plans []Plan) string {
	s := name + "("
	for i, p := range plans {
		if i > 0 {
			s += ", "
		}
		s += p.goName()
	}
	return s + ")"
}

// groupCall spells a call on one group, for example
// "EnableGroup(NoCost, Instrument(7))".
func groupCall(name string, p Plan, in Instrument) string {
	return name + "(" + p.goName() + ", " + in.goName() + ")"
}

// OnlyEMI sets showOnlyEmi true: EMI becomes the only visible instrument.
func (o *Options) OnlyEMI() *Options {
	if o == nil {
		o = New()
	}
	t := true
	o.ShowOnlyEMI = &t
	return o
}

// OnlyNoCost shows only no-cost EMI, as the service describes it:
// standardEmi and lowCostEmi disabled, noCostEmi enabled and showOnlyEmi
// true. (The service's published sample of this behaviour leaves
// showOnlyEmi out; build that shape with Disable(Standard,
// LowCost).Enable(NoCost).)
func (o *Options) OnlyNoCost() *Options {
	return o.Disable(Standard, LowCost).Enable(NoCost).OnlyEMI()
}

// Enable sets enable true on the given plan types, adding them when absent:
// any combination of the three types by enable flags.
func (o *Options) Enable(plans ...Plan) *Options {
	return o.setPlans(true, plans)
}

// Disable sets enable false on the given plan types, adding them when
// absent. Groups already inside a disabled plan type are kept as they are.
func (o *Options) Disable(plans ...Plan) *Options {
	return o.setPlans(false, plans)
}

func (o *Options) setPlans(enable bool, plans []Plan) *Options {
	if o == nil {
		o = New()
	}
	name := "Disable"
	if enable {
		name = "Enable"
	}
	for _, p := range plans {
		if !o.checkPlan(planCall(name, plans), p) {
			continue
		}
		s := o.sub(p)
		if *s == nil {
			*s = &SubFilter{}
		}
		(*s).Enable = enable
	}
	return o
}

// DisableGroup sets enable false on group in of plan type p, for example
// DisableGroup(NoCost, Credit) hides credit-card EMI inside no-cost EMI. An
// absent plan type is added enabled.
func (o *Options) DisableGroup(p Plan, in Instrument) *Options {
	return o.setGroup(groupCall("DisableGroup", p, in), p, in, false)
}

// EnableGroup sets enable true on group in of plan type p. An absent plan
// type is added enabled.
func (o *Options) EnableGroup(p Plan, in Instrument) *Options {
	return o.setGroup(groupCall("EnableGroup", p, in), p, in, true)
}

func (o *Options) setGroup(call string, p Plan, in Instrument, enable bool) *Options {
	if o == nil {
		o = New()
	}
	if g := o.group(call, p, in); g != nil {
		g.Enable = enable
	}
	return o
}

// group returns group in of plan p, adding an enabled plan type and an
// enabled group when absent; for an unknown plan or group it records the
// problem against call and returns nil.
func (o *Options) group(call string, p Plan, in Instrument) *Group {
	if !o.checkGroup(call, p, in) {
		return nil
	}
	s := o.sub(p)
	if *s == nil {
		*s = &SubFilter{Enable: true}
	}
	g := (*s).group(in)
	if g == nil {
		return nil
	}
	if *g == nil {
		*g = &Group{Enable: true}
	}
	return *g
}

// RemoveIssuers removes every plan of the given issuers (such as
// "SVC_ICICI", with the issuer prefix of the deployment) from group in of
// plan type p: an issuerFilter with enable false inside an enabled group.
// For the Credit and Debit groups the filter matches paymentMethodType
// CARD, paymentMethod CARD, as the service's samples do.
func (o *Options) RemoveIssuers(p Plan, in Instrument, issuers ...string) *Options {
	return o.addFilter(groupCall("RemoveIssuers", p, in), p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: issuers}})
}

// RemoveTenures removes the given tenure ranges of one issuer from group
// in of plan type p, for example RemoveTenures(NoCost, Credit, "SVC_ICICI",
// Months(9, 12)).
func (o *Options) RemoveTenures(p Plan, in Instrument, issuer string, tenures ...TenureRange) *Options {
	return o.addFilter(groupCall("RemoveTenures", p, in), p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: []string{issuer}, Tenures: tenures}})
}

// AddFilter appends a copy of f to the filters of group in of plan type p,
// adding an enabled plan type and group when absent. For the Credit and
// Debit groups an empty PaymentMethodType and PaymentMethod become CARD.
func (o *Options) AddFilter(p Plan, in Instrument, f Filter) *Options {
	return o.addFilter(groupCall("AddFilter", p, in), p, in, f)
}

func (o *Options) addFilter(call string, p Plan, in Instrument, f Filter) *Options {
	if o == nil {
		o = New()
	}
	g := o.group(call, p, in)
	if g == nil {
		return o
	}
	f = *f.Clone()
	if in == Credit || in == Debit {
		if f.PaymentMethodType == "" {
			f.PaymentMethodType = Card
		}
		if f.PaymentMethod == "" {
			f.PaymentMethod = string(Card)
		}
	}
	g.Filters = append(g.Filters, f)
	return o
}
