package emi

import "github.com/payorch/checkout-go/validation"

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
	o.eachFilter(func(f *Filter, path string) {
		if f.IssuerFilter == nil {
			return
		}
		for i, t := range f.IssuerFilter.Tenures {
			if err := t.Validate(); err != nil {
				e.Merge(validation.Index(validation.Join(validation.Join(path, issuerFilterKey), tenuresKey), i), err)
			}
		}
	})
	if o.ShowOnlyEMI != nil && *o.ShowOnlyEMI && o.StandardEMI.disabled() && o.LowCostEMI.disabled() && o.NoCostEMI.disabled() {
		e.Add(validation.Join(rootPath, showOnlyKey),
			"nothing would be visible: showOnlyEmi is true but standard, low cost and no cost EMI are all disabled")
	}
	return e.Err()
}

// disabled reports whether s is sent with enable false (nil is not sent:
// the service's default applies).
func (s *SubFilter) disabled() bool { return s != nil && !s.Enable }

// eachFilter calls visit with every emiFilter of o and its path, in the
// order of the plan types and groups.
func (o *Options) eachFilter(visit func(f *Filter, path string)) {
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
				visit(&g.Filters[i], validation.Index(filters, i))
			}
		}
	}
}
