package emi

import (
	"slices"
	"strconv"

	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// Builder builds Options fluently. It is an immutable value: every method
// returns a new Builder and leaves its receiver untouched, so a half-built
// Builder can be shared and extended in several directions without aliasing
// surprises. The zero value is ready and equals New(). Safe for concurrent
// use.
//
// A call the builder cannot carry out, such as Disable(Plan(9)) or
// EnableGroup(NoCost, Instrument(7)), changes no option and is recorded in
// the returned Builder (and every Builder made from it): Build and Err
// report it as a *ValidationError, for example
// "emiOptions: Disable(Plan(9)): unknown plan 9: want Standard, LowCost or
// NoCost". It is never dropped silently.
type Builder struct {
	o Options
	// problems are the calls the builder rejected, in call order. Shared
	// between Builders: only ever appended to through a clipped copy.
	problems []valid.Problem
}

// New returns an empty Builder.
func New() Builder { return Builder{} }

// Options returns a fresh copy of the options built so far, not validated.
// A rejected call (an unknown Plan or Instrument) cannot be written as
// emiOptions, so Options leaves it out: it returns the options of the
// accepted calls only. Build reports the rejected calls, and Err returns
// them on their own; check Err when you use Options directly.
func (b Builder) Options() *Options {
	return b.o.Clone()
}

// Err returns the builder calls that were rejected (an unknown Plan or
// Instrument), as a *ValidationError whose paths start at "emiOptions", or
// nil when there were none. It does not validate the options: Build does
// both.
func (b Builder) Err() error {
	if len(b.problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: slices.Clone(b.problems)}
}

// Build returns a fresh copy of the options built so far, or a
// *ValidationError listing first the rejected builder calls (see Err), then
// the problems Validate finds in the options.
func (b Builder) Build() (*Options, error) {
	o := b.o.Clone()
	var c valid.Collector
	for _, p := range b.problems {
		c.Add(p.Path, p.Message)
	}
	c.Merge("", o.Validate())
	if err := c.Err(); err != nil {
		return nil, err
	}
	return o, nil
}

// reject returns n with a problem recorded at path for call.
func (b Builder) reject(path, call, msg string) Builder {
	b.problems = append(slices.Clip(b.problems), valid.Problem{Path: path, Message: call + ": " + msg})
	return b
}

// checkPlan records an unknown plan and reports whether p is known.
func (b *Builder) checkPlan(call string, p Plan) bool {
	if b.o.sub(p) != nil {
		return true
	}
	*b = b.reject("emiOptions", call, "unknown plan "+strconv.Itoa(int(p))+": want Standard, LowCost or NoCost")
	return false
}

// checkGroup records an unknown plan or instrument and reports whether both
// are known.
func (b *Builder) checkGroup(call string, p Plan, in Instrument) bool {
	if !b.checkPlan(call, p) {
		return false
	}
	if in.Key() == unknownGroup {
		*b = b.reject(valid.Join("emiOptions", p.Key()), call,
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

// ShowOnlyEMI sets showOnlyEmi true: EMI becomes the only visible instrument
// (spec §2.5, "show only EMI").
func (b Builder) ShowOnlyEMI() Builder {
	n := b.clone()
	t := true
	n.o.ShowOnlyEMI = &t
	return n
}

// OnlyNoCost shows only no-cost EMI, as spec §2.5 describes it: standardEmi
// and lowCostEmi disabled, noCostEmi enabled and showOnlyEmi true. (The
// service's published sample of this behaviour leaves showOnlyEmi out; build
// that shape with Disable(Standard, LowCost).Enable(NoCost).)
func (b Builder) OnlyNoCost() Builder {
	return b.Disable(Standard, LowCost).Enable(NoCost).ShowOnlyEMI()
}

// Enable sets enable true on the given plan types, adding them when absent
// ("any combination of the three types by enable flags", spec §2.5).
func (b Builder) Enable(plans ...Plan) Builder {
	return b.setPlans(true, plans)
}

// Disable sets enable false on the given plan types, adding them when
// absent. Groups already inside a disabled plan type are kept; Validate
// reports them, since they no longer have an effect.
func (b Builder) Disable(plans ...Plan) Builder {
	return b.setPlans(false, plans)
}

func (b Builder) setPlans(enable bool, plans []Plan) Builder {
	name := "Disable"
	if enable {
		name = "Enable"
	}
	n := b.clone()
	for _, p := range plans {
		if !n.checkPlan(planCall(name, plans), p) {
			continue
		}
		s := n.o.sub(p)
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
func (b Builder) DisableGroup(p Plan, in Instrument) Builder {
	return b.setGroup(groupCall("DisableGroup", p, in), p, in, false)
}

// EnableGroup sets enable true on group in of plan type p. An absent plan
// type is added enabled.
func (b Builder) EnableGroup(p Plan, in Instrument) Builder {
	return b.setGroup(groupCall("EnableGroup", p, in), p, in, true)
}

func (b Builder) setGroup(call string, p Plan, in Instrument, enable bool) Builder {
	n := b.clone()
	if g := n.group(call, p, in); g != nil {
		g.Enable = enable
	}
	return n
}

// group returns group in of plan p, adding an enabled plan type and an
// enabled group when absent; for an unknown plan or group it records the
// problem against call and returns nil.
func (b *Builder) group(call string, p Plan, in Instrument) *Group {
	if !b.checkGroup(call, p, in) {
		return nil
	}
	s := b.o.sub(p)
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
func (b Builder) RemoveIssuers(p Plan, in Instrument, issuers ...string) Builder {
	return b.addFilter(groupCall("RemoveIssuers", p, in), p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: issuers}})
}

// RemoveTenures removes the given tenure ranges of one issuer (SVC_<BANK>)
// from group in of plan type p, for example RemoveTenures(NoCost, Credit,
// "SVC_ICICI", Months(9, 12)) (spec §2.5).
func (b Builder) RemoveTenures(p Plan, in Instrument, issuer string, tenures ...TenureRange) Builder {
	return b.addFilter(groupCall("RemoveTenures", p, in), p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: []string{issuer}, Tenures: tenures}})
}

// AddFilter appends a copy of f to the filters of group in of plan type p,
// adding an enabled plan type and group when absent. For the Credit and
// Debit groups an empty PaymentMethodType and PaymentMethod become CARD.
func (b Builder) AddFilter(p Plan, in Instrument, f Filter) Builder {
	return b.addFilter(groupCall("AddFilter", p, in), p, in, f)
}

func (b Builder) addFilter(call string, p Plan, in Instrument, f Filter) Builder {
	n := b.clone()
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

func (b Builder) clone() Builder {
	return Builder{o: *b.o.Clone(), problems: b.problems}
}

// Clone returns a deep copy of o (nil for nil).
func (o *Options) Clone() *Options {
	if o == nil {
		return nil
	}
	c := &Options{
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
