package emi

import (
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// New returns empty Options, to extend with the fluent methods, for example
// emi.New().OnlyNoCost(). It is &Options{}. Each method changes the options
// in place and returns them, so calls chain; a call on a nil *Options
// starts from New(). A call that cannot be carried out is reported by
// Validate (see the package doc).
func New() *Options { return &Options{} }

// OnlyEMI sets showOnlyEmi true: EMI becomes the only visible instrument.
func (o *Options) OnlyEMI() *Options {
	if o == nil {
		o = New()
	}
	o.ShowOnlyEMI = new(true)
	return o
}

// OnlyNoCost shows only no-cost EMI, as the service describes it:
// standardEmi and lowCostEmi disabled, noCostEmi enabled and showOnlyEmi
// true. (The service's published sample of this behaviour leaves
// showOnlyEmi out: build that with Disable(Standard, LowCost).Enable(NoCost).)
func (o *Options) OnlyNoCost() *Options {
	return o.Disable(Standard, LowCost).Enable(NoCost).OnlyEMI()
}

// Enable sets enable true on the given plan types, adding them when absent:
// any combination of the three types by enable flags.
func (o *Options) Enable(plans ...Plan) *Options { return o.setPlans("Enable", true, plans) }

// Disable sets enable false on the given plan types, adding them when
// absent. Groups already inside a disabled plan type are kept as they are.
func (o *Options) Disable(plans ...Plan) *Options { return o.setPlans("Disable", false, plans) }

func (o *Options) setPlans(name string, enable bool, plans []Plan) *Options {
	if o == nil {
		o = New()
	}
	for _, p := range plans {
		if s := o.plan(func() string { return planCall(name, plans) }, p, enable); s != nil {
			s.Enable = enable
		}
	}
	return o
}

// DisableGroup sets enable false on group in of plan type p, for example
// DisableGroup(NoCost, Credit) hides credit-card EMI inside no-cost EMI. An
// absent plan type is added enabled.
func (o *Options) DisableGroup(p Plan, in Instrument) *Options {
	return o.setGroup("DisableGroup", p, in, false)
}

// EnableGroup sets enable true on group in of plan type p. An absent plan
// type is added enabled.
func (o *Options) EnableGroup(p Plan, in Instrument) *Options {
	return o.setGroup("EnableGroup", p, in, true)
}

func (o *Options) setGroup(name string, p Plan, in Instrument, enable bool) *Options {
	if o == nil {
		o = New()
	}
	if g := o.group(name, p, in); g != nil {
		g.Enable = enable
	}
	return o
}

// RemoveIssuers removes every plan of the given issuers (such as
// "SVC_ICICI", with the issuer prefix of the deployment) from group in of
// plan type p: an issuerFilter with enable false inside an enabled group.
// For the Credit and Debit groups the filter matches paymentMethodType
// CARD, paymentMethod CARD, as the service's samples do.
func (o *Options) RemoveIssuers(p Plan, in Instrument, issuers ...string) *Options {
	return o.addFilter("RemoveIssuers", p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: issuers}})
}

// RemoveTenures removes the given tenure ranges of one issuer from group
// in of plan type p, for example RemoveTenures(NoCost, Credit, "SVC_ICICI",
// Months(9, 12)).
func (o *Options) RemoveTenures(p Plan, in Instrument, issuer string, tenures ...TenureRange) *Options {
	return o.addFilter("RemoveTenures", p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: []string{issuer}, Tenures: tenures}})
}

// AddFilter appends a copy of f to the filters of group in of plan type p,
// adding an enabled plan type and group when absent. For the Credit and
// Debit groups an empty PaymentMethodType and PaymentMethod become CARD.
func (o *Options) AddFilter(p Plan, in Instrument, f Filter) *Options {
	return o.addFilter("AddFilter", p, in, f)
}

func (o *Options) addFilter(name string, p Plan, in Instrument, f Filter) *Options {
	if o == nil {
		o = New()
	}
	g := o.group(name, p, in)
	if g == nil {
		return o
	}
	f = f.clone()
	if in == Credit || in == Debit {
		if f.PaymentMethodType == "" {
			f.PaymentMethodType = cardMethod
		}
		if f.PaymentMethod == "" {
			f.PaymentMethod = cardMethod
		}
	}
	g.Filters = append(g.Filters, f)
	return o
}

// cardMethod is the paymentMethodType and paymentMethod of the plans on
// cards, as the service's samples write them (paymentfilter.Card).
const cardMethod = "CARD"

// plan returns plan type p, added with enable when absent; for an unknown
// p it records the problem of call and returns nil.
func (o *Options) plan(call func() string, p Plan, enable bool) *SubFilter {
	s := o.sub(p)
	if s == nil {
		o.reject(rootPath, call(), "unknown plan "+strconv.Itoa(int(p))+": want Standard, LowCost or NoCost")
		return nil
	}
	if *s == nil {
		*s = &SubFilter{Enable: enable}
	}
	return *s
}

// group returns group in of plan p, adding an enabled plan type and an
// enabled group when absent; for an unknown plan or group it records the
// problem of the call name and returns nil.
func (o *Options) group(name string, p Plan, in Instrument) *Group {
	call := func() string { return name + "(" + p.goName() + ", " + in.goName() + ")" }
	if o.sub(p) != nil && known(int(in)) == 0 {
		o.reject(validation.Join(rootPath, p.Key()), call(), "unknown instrument "+strconv.Itoa(int(in))+": want Credit, Debit or Cardless")
		return nil
	}
	s := o.plan(call, p, true)
	if s == nil {
		return nil
	}
	g := s.group(in)
	if *g == nil {
		*g = &Group{Enable: true}
	}
	return *g
}

// reject records a problem at path for call.
func (o *Options) reject(path, call, msg string) {
	o.problems = append(o.problems, validation.Problem{Path: path, Message: call + ": " + msg})
}

// planCall spells a call on plans the way it was written, for example
// "Disable(Standard, Plan(9))".
func planCall(name string, plans []Plan) string {
	names := make([]string, len(plans))
	for i, p := range plans {
		names[i] = p.goName()
	}
	return name + "(" + strings.Join(names, ", ") + ")"
}
