package emi

import (
	"slices"

	"github.com/payorch/checkout-go/internal/tagjson"
)

// Clone returns a deep copy of o (nil for nil), with the calls the fluent
// methods could not carry out (see [New]): half-built options to extend in
// another direction, or to hand to another goroutine.
func (o *Options) Clone() *Options {
	if o == nil {
		return nil
	}
	c := &Options{
		problems:    slices.Clone(o.problems),
		StandardEMI: o.StandardEMI.Clone(),
		LowCostEMI:  o.LowCostEMI.Clone(),
		NoCostEMI:   o.NoCostEMI.Clone(),
		Extra:       tagjson.CloneExtra(o.Extra),
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
		Extra:    tagjson.CloneExtra(s.Extra),
	}
}

// Clone returns a deep copy of g (nil for nil).
func (g *Group) Clone() *Group {
	if g == nil {
		return nil
	}
	c := &Group{Enable: g.Enable, Extra: tagjson.CloneExtra(g.Extra)}
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
	c.Extra = tagjson.CloneExtra(f.Extra)
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
		Extra:   tagjson.CloneExtra(f.Extra),
	}
}
