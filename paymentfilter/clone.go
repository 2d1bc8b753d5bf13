package paymentfilter

import (
	"slices"

	"github.com/payorch/checkout-go/internal/tagjson"
)

// Clone returns a deep copy of f (nil for nil), with the conflicts of its
// fluent calls (see [New]): a half-built filter to extend in another
// direction, or to hand to another goroutine.
func (f *Filter) Clone() *Filter {
	if f == nil {
		return nil
	}
	c := &Filter{
		conflicts:           slices.Clone(f.conflicts),
		optionsAbsent:       f.optionsAbsent,
		AllowDefaultOptions: f.AllowDefaultOptions,
		EMIOptions:          f.EMIOptions.Clone(),
		Extra:               tagjson.CloneExtra(f.Extra),
	}
	if f.Options != nil {
		c.Options = make([]Option, len(f.Options))
		for i := range f.Options {
			c.Options[i] = *f.Options[i].Clone()
		}
	}
	return c
}

// Clone returns a deep copy of o (nil for nil).
func (o *Option) Clone() *Option {
	if o == nil {
		return nil
	}
	c := &Option{
		PaymentMethodType: o.PaymentMethodType,
		Enable:            o.Enable,
		PaymentMethods:    slices.Clone(o.PaymentMethods),
		Extra:             tagjson.CloneExtra(o.Extra),
	}
	if o.CardFilters != nil {
		c.CardFilters = make([]CardFilter, len(o.CardFilters))
		for i := range o.CardFilters {
			c.CardFilters[i] = *o.CardFilters[i].Clone()
		}
	}
	if o.UPIFilters != nil {
		c.UPIFilters = make([]UPIFilter, len(o.UPIFilters))
		for i := range o.UPIFilters {
			c.UPIFilters[i] = *o.UPIFilters[i].Clone()
		}
	}
	return c
}

// Clone returns a deep copy of c (nil for nil).
func (c *CardFilter) Clone() *CardFilter {
	if c == nil {
		return nil
	}
	return &CardFilter{
		Enable:       c.Enable,
		CardBrands:   slices.Clone(c.CardBrands),
		CardBins:     slices.Clone(c.CardBins),
		CardTypes:    slices.Clone(c.CardTypes),
		CardSubTypes: slices.Clone(c.CardSubTypes),
		CardBanks:    slices.Clone(c.CardBanks),
		Extra:        tagjson.CloneExtra(c.Extra),
	}
}

// Clone returns a deep copy of u (nil for nil).
func (u *UPIFilter) Clone() *UPIFilter {
	if u == nil {
		return nil
	}
	return &UPIFilter{
		UPIType:    u.UPIType,
		Enable:     u.Enable,
		UPIMethods: slices.Clone(u.UPIMethods),
		Extra:      tagjson.CloneExtra(u.Extra),
	}
}
