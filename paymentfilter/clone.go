package paymentfilter

import (
	"slices"

	"github.com/payorch/checkout-go/internal/deepcopy"
)

// Clone returns a deep copy of f (nil for nil), with the conflicts of its
// fluent calls (see [New]): a half-built filter to extend in another
// direction, or to hand to another goroutine.
func (f *Filter) Clone() *Filter {
	c := deepcopy.Of(f)
	if c != nil {
		c.conflicts = slices.Clone(f.conflicts)
	}
	return c
}

// Clone returns a deep copy of o (nil for nil).
func (o *Option) Clone() *Option { return deepcopy.Of(o) }

// Clone returns a deep copy of c (nil for nil).
func (c *CardFilter) Clone() *CardFilter { return deepcopy.Of(c) }

// Clone returns a deep copy of u (nil for nil).
func (u *UPIFilter) Clone() *UPIFilter { return deepcopy.Of(u) }
