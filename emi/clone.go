package emi

import (
	"slices"

	"github.com/payorch/checkout-go/internal/deepcopy"
)

// Clone returns a deep copy of o (nil for nil), with the calls the fluent
// methods could not carry out (see [New]): half-built options to extend in
// another direction, or to hand to another goroutine.
func (o *Options) Clone() *Options {
	c := deepcopy.Of(o)
	if c != nil {
		c.problems = slices.Clone(o.problems)
	}
	return c
}

// Clone returns a deep copy of s (nil for nil).
func (s *SubFilter) Clone() *SubFilter { return deepcopy.Of(s) }

// Clone returns a deep copy of g (nil for nil).
func (g *Group) Clone() *Group { return deepcopy.Of(g) }

// Clone returns a deep copy of f (nil for nil).
func (f *Filter) Clone() *Filter { return deepcopy.Of(f) }

// Clone returns a deep copy of f (nil for nil).
func (f *IssuerFilter) Clone() *IssuerFilter { return deepcopy.Of(f) }
