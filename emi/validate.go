package emi

import (
	"iter"

	"github.com/payorch/checkout-go/validation"
)

// Validate reports, as a *[validation.Error] with JSON paths from the
// emiOptions key, what the service would refuse or could not make sense
// of, after the fluent calls that could not be carried out; nil for nil
// *Options, which are not sent. The rules are the code of this method;
// the paymentMethodType values are checked by the paymentfilter.Filter
// holding the options, and advice is package lint's.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	e := validation.Error{Problems: append([]validation.Problem(nil), o.problems...)}
	for path, f := range o.Filters() {
		if f.IssuerFilter == nil {
			continue
		}
		for i, t := range f.IssuerFilter.Tenures {
			if err := t.Validate(); err != nil {
				e.Merge(validation.Index(validation.Join(validation.Join(path, issuerFilterKey), tenuresKey), i), err)
			}
		}
	}
	if o.ShowOnlyEMI != nil && *o.ShowOnlyEMI && o.StandardEMI.disabled() && o.LowCostEMI.disabled() && o.NoCostEMI.disabled() {
		e.Add(validation.Join(rootPath, showOnlyKey),
			"nothing would be visible: showOnlyEmi is true but standard, low cost and no cost EMI are all disabled")
	}
	return e.Err()
}

// disabled reports whether s is sent with enable false (nil is not sent:
// the service's default applies).
func (s *SubFilter) disabled() bool { return s != nil && !s.Enable }

// Filters yields every emiFilter of o (the filter itself, not a copy) with
// its path from the emiOptions key, "emiOptions.standardEmi.credit.filters[0]",
// in the order of the plan types and groups; nothing for nil options.
func (o *Options) Filters() iter.Seq2[string, *Filter] {
	return func(yield func(string, *Filter) bool) {
		if o == nil {
			return
		}
		for _, p := range [...]Plan{Standard, LowCost, NoCost} {
			s := *o.sub(p)
			if s == nil {
				continue
			}
			for _, in := range [...]Instrument{Credit, Debit, Cardless} {
				g := *s.group(in)
				if g == nil {
					continue
				}
				filters := validation.Join(validation.Join(validation.Join(rootPath, p.Key()), in.Key()), filtersKey)
				for i := range g.Filters {
					if !yield(validation.Index(filters, i), &g.Filters[i]) {
						return
					}
				}
			}
		}
	}
}
