package emi

import (
	"slices"
	"strconv"

	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// New returns empty Options, to extend with the fluent methods, for example
// emi.New().OnlyNoCost().
//
// The fluent methods of Options build it one call per behaviour of spec
// §2.5. Each returns a new *Options and leaves its receiver untouched, so a
// half-built value can be shared and extended in several directions
// without aliasing surprises; a nil receiver is New(). Extending one value
// from several goroutines at once is safe.
//
// A call that cannot be carried out, such as Disable(Plan(9)) or
// EnableGroup(NoCost, Instrument(7)), changes no option and is recorded in
// the returned Options (and every Options made from it, Clone included; a
// decoded or hand-written Options has none): Validate, Build and Err report
// it as a *ValidationError, for example
// "emiOptions: Disable(Plan(9)): unknown plan 9: want Standard, LowCost or
// NoCost". It is never dropped silently, and never encoded.
func New() *Options { return &Options{} }

// Options returns a deep copy of o (see Clone), not validated; the calls
// the fluent methods rejected stay with it, so its Validate reports them.
// It is kept so that chains ending in .Options() read as before.
func (o *Options) Options() *Options {
	if o == nil {
		return New()
	}
	return o.Clone()
}

// Err returns the fluent calls that were rejected (an unknown Plan or
// Instrument), as a *ValidationError whose paths start at "emiOptions", or
// nil when there were none. It does not validate the options: Validate and
// Build do both.
func (o *Options) Err() error {
	if o == nil || len(o.problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: slices.Clone(o.problems)}
}

// Build returns a deep copy of o, or the *ValidationError of Validate:
// first the rejected fluent calls (see Err), then the problems of the
// options themselves.
func (o *Options) Build() (*Options, error) {
	c := o.Options()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// reject records a problem at path for call. o must be a fresh copy.
func (o *Options) reject(path, call, msg string) {
	o.problems = append(slices.Clip(o.problems), valid.Problem{Path: path, Message: call + ": " + msg})
}

// checkPlan records an unknown plan and reports whether p is known.
func (o *Options) checkPlan(call string, p Plan) bool {
	if o.sub(p) != nil {
		return true
	}
	o.reject("emiOptions", call, "unknown plan "+strconv.Itoa(int(p))+": want Standard, LowCost or NoCost")
	return false
}

// checkGroup records an unknown plan or instrument and reports whether both
// are known.
func (o *Options) checkGroup(call string, p Plan, in Instrument) bool {
	if !o.checkPlan(call, p) {
		return false
	}
	if in.Key() == unknownGroup {
		o.reject(valid.Join("emiOptions", p.Key()), call,
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

// OnlyEMI sets showOnlyEmi true: EMI becomes the only visible instrument
// (spec §2.5, "show only EMI").
func (o *Options) OnlyEMI() *Options {
	n := o.clone()
	t := true
	n.ShowOnlyEMI = &t
	return n
}

// OnlyNoCost shows only no-cost EMI, as spec §2.5 describes it: standardEmi
// and lowCostEmi disabled, noCostEmi enabled and showOnlyEmi true. (The
// service's published sample of this behaviour leaves showOnlyEmi out; build
// that shape with Disable(Standard, LowCost).Enable(NoCost).)
func (o *Options) OnlyNoCost() *Options {
	return o.Disable(Standard, LowCost).Enable(NoCost).OnlyEMI()
}

// Enable sets enable true on the given plan types, adding them when absent
// ("any combination of the three types by enable flags", spec §2.5).
func (o *Options) Enable(plans ...Plan) *Options {
	return o.setPlans(true, plans)
}

// Disable sets enable false on the given plan types, adding them when
// absent. Groups already inside a disabled plan type are kept; Validate
// reports them, since they no longer have an effect.
func (o *Options) Disable(plans ...Plan) *Options {
	return o.setPlans(false, plans)
}

func (o *Options) setPlans(enable bool, plans []Plan) *Options {
	name := "Disable"
	if enable {
		name = "Enable"
	}
	n := o.clone()
	for _, p := range plans {
		if !n.checkPlan(planCall(name, plans), p) {
			continue
		}
		s := n.sub(p)
		if *s == nil {
			*s = &SubFilter{}
		}
		(*s).Enable = enable
	}
	return n
}

// DisableGroup sets enable false on group in of plan type p, for example
// DisableGroup(NoCost, Credit) hides credit-card EMI inside no-cost EMI
// (spec §2.5). An absent plan type is added enabled.
func (o *Options) DisableGroup(p Plan, in Instrument) *Options {
	return o.setGroup(groupCall("DisableGroup", p, in), p, in, false)
}

// EnableGroup sets enable true on group in of plan type p. An absent plan
// type is added enabled.
func (o *Options) EnableGroup(p Plan, in Instrument) *Options {
	return o.setGroup(groupCall("EnableGroup", p, in), p, in, true)
}

func (o *Options) setGroup(call string, p Plan, in Instrument, enable bool) *Options {
	n := o.clone()
	if g := n.group(call, p, in); g != nil {
		g.Enable = enable
	}
	return n
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

// RemoveIssuers removes every plan of the given issuers (SVC_<BANK>) from
// group in of plan type p: an issuerFilter with enable false inside an
// enabled group (spec §2.5). For the Credit and Debit groups the filter
// matches paymentMethodType CARD, paymentMethod CARD, as the service's
// samples do.
func (o *Options) RemoveIssuers(p Plan, in Instrument, issuers ...string) *Options {
	return o.addFilter(groupCall("RemoveIssuers", p, in), p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: issuers}})
}

// RemoveTenures removes the given tenure ranges of one issuer (SVC_<BANK>)
// from group in of plan type p, for example RemoveTenures(NoCost, Credit,
// "SVC_ICICI", Months(9, 12)) (spec §2.5).
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
	n := o.clone()
	g := n.group(call, p, in)
	if g == nil {
		return n
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
	return n
}

// clone returns a deep copy of o to change, New() for nil.
func (o *Options) clone() *Options {
	if o == nil {
		return New()
	}
	return o.Clone()
}

// Clone returns a deep copy of o (nil for nil), with the calls the fluent
// methods rejected (see Err).
func (o *Options) Clone() *Options {
	if o == nil {
		return nil
	}
	c := &Options{
		problems:    slices.Clip(o.problems),
		StandardEMI: o.StandardEMI.Clone(),
		LowCostEMI:  o.LowCostEMI.Clone(),
		NoCostEMI:   o.NoCostEMI.Clone(),
		Extra:       wire.CloneExtra(o.Extra),
	}
	if o.ShowOnlyEMI != nil {
		v := *o.ShowOnlyEMI
		c.ShowOnlyEMI = &v
	}
	return c
}

// Clone returns a deep copy of s (nil for nil).
func (s *SubFilter) Clone() *SubFilter {
	if s == nil {
		return nil
	}
	return &SubFilter{
		Enable:   s.Enable,
		Credit:   s.Credit.Clone(),
		Debit:    s.Debit.Clone(),
		Cardless: s.Cardless.Clone(),
		Extra:    wire.CloneExtra(s.Extra),
	}
}

// Clone returns a deep copy of g (nil for nil).
func (g *Group) Clone() *Group {
	if g == nil {
		return nil
	}
	c := &Group{Enable: g.Enable, Extra: wire.CloneExtra(g.Extra)}
	if g.Filters != nil {
		c.Filters = make([]Filter, len(g.Filters))
		for i := range g.Filters {
			c.Filters[i] = *g.Filters[i].Clone()
		}
	}
	return c
}

// Clone returns a deep copy of f (nil for nil).
func (f *Filter) Clone() *Filter {
	if f == nil {
		return nil
	}
	c := *f
	c.IssuerFilter = f.IssuerFilter.Clone()
	c.Extra = wire.CloneExtra(f.Extra)
	return &c
}

// Clone returns a deep copy of f (nil for nil).
func (f *IssuerFilter) Clone() *IssuerFilter {
	if f == nil {
		return nil
	}
	return &IssuerFilter{
		Issuers: slices.Clone(f.Issuers),
		Tenures: slices.Clone(f.Tenures),
		Enable:  f.Enable,
		Extra:   wire.CloneExtra(f.Extra),
	}
}
