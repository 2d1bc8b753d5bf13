package emi

import (
	"slices"

	"github.com/payorch/checkout-go/internal/wire"
)

// Builder builds Options fluently. It is an immutable value: every method
// returns a new Builder and leaves its receiver untouched, so a half-built
// Builder can be shared and extended in several directions without aliasing
// surprises. The zero value is ready and equals New(). Safe for concurrent
// use.
type Builder struct {
	o Options
}

// New returns an empty Builder.
func New() Builder { return Builder{} }

// Options returns a fresh copy of the options built so far, not validated.
func (b Builder) Options() *Options {
	return b.o.Clone()
}

// Build returns a fresh copy of the options built so far and the result of
// validating it (a *ValidationError).
func (b Builder) Build() (*Options, error) {
	o := b.o.Clone()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return o, nil
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
	n := b.clone()
	for _, p := range plans {
		if s := n.o.sub(p); s != nil {
			if *s == nil {
				*s = &SubFilter{}
			}
			(*s).Enable = enable
		}
	}
	return n
}

// DisableGroup sets enable false on group in of plan type p, for example
// DisableGroup(NoCost, Credit) hides credit-card EMI inside no-cost EMI
// (spec §2.5). An absent plan type is added enabled.
func (b Builder) DisableGroup(p Plan, in Instrument) Builder {
	return b.setGroup(p, in, false)
}

// EnableGroup sets enable true on group in of plan type p. An absent plan
// type is added enabled.
func (b Builder) EnableGroup(p Plan, in Instrument) Builder {
	return b.setGroup(p, in, true)
}

func (b Builder) setGroup(p Plan, in Instrument, enable bool) Builder {
	n := b.clone()
	if g := n.group(p, in); g != nil {
		g.Enable = enable
	}
	return n
}

// group returns group in of plan p, adding an enabled plan type and an
// enabled group when absent; nil for an unknown plan or group.
func (b *Builder) group(p Plan, in Instrument) *Group {
	s := b.o.sub(p)
	if s == nil || in.Key() == "unknownGroup" {
		return nil
	}
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
	return b.AddFilter(p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: issuers}})
}

// RemoveTenures removes the given tenure ranges of one issuer (SVC_<BANK>)
// from group in of plan type p, for example RemoveTenures(NoCost, Credit,
// "SVC_ICICI", Months(9, 12)) (spec §2.5).
func (b Builder) RemoveTenures(p Plan, in Instrument, issuer string, tenures ...TenureRange) Builder {
	return b.AddFilter(p, in, Filter{Enable: true, IssuerFilter: &IssuerFilter{Issuers: []string{issuer}, Tenures: tenures}})
}

// AddFilter appends a copy of f to the filters of group in of plan type p,
// adding an enabled plan type and group when absent. For the Credit and
// Debit groups an empty PaymentMethodType and PaymentMethod become CARD.
func (b Builder) AddFilter(p Plan, in Instrument, f Filter) Builder {
	n := b.clone()
	g := n.group(p, in)
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
	return Builder{o: *b.o.Clone()}
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
