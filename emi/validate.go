package emi

import (
	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

// Validate reports what the service would refuse or could not make sense
// of, every problem with its JSON path from the emiOptions key (for
// example emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]). A nil
// *Options is valid: it is not sent. The error is a *[validation.Error].
//
// It refuses: a fluent call that could not be carried out (see [New]),
// first; a known paymentMethodType written in another case; a tenure range
// that is not "<from>::<to>" in months with from at least 1 and not above
// to; showOnlyEmi true while standard, low cost and no cost EMI are all
// disabled (nothing would be visible); and an Extra key that is a modelled
// key, is not JSON or is a modelled key in another case.
//
// It lets through what the service takes: empty options ({} appears in the
// service's own samples), issuers with any prefix, unknown method types,
// empty lists, groups inside a disabled plan type, and keys the SDK does
// not model ([Options.Lint] advises on likely mistakes among them).
// Validate takes time in proportion to the size of the options.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	var e validation.Error
	for _, p := range o.problems {
		e.Add(p.Path, p.Message)
	}
	o.validate(&e)
	return e.Err()
}

func (o *Options) validate(e *validation.Error) {
	o.StandardEMI.validate(e, validation.Join(rootPath, standardKey))
	o.LowCostEMI.validate(e, validation.Join(rootPath, lowCostKey))
	o.NoCostEMI.validate(e, validation.Join(rootPath, noCostKey))
	if o.ShowOnlyEMI != nil && *o.ShowOnlyEMI && o.StandardEMI.disabled() && o.LowCostEMI.disabled() && o.NoCostEMI.disabled() {
		e.Add(validation.Join(rootPath, showOnlyKey),
			"nothing would be visible: showOnlyEmi is true but standard, low cost and no cost EMI are all disabled")
	}
	jsonobject.CheckExtra(e, rootPath, o.Extra, optionsKeys(), rootPath, allKeys)
}

// disabled reports whether s is sent with enable false (nil is not sent:
// the service's default applies).
func (s *SubFilter) disabled() bool { return s != nil && !s.Enable }

func (s *SubFilter) validate(e *validation.Error, path string) {
	if s == nil {
		return
	}
	s.Credit.validate(e, validation.Join(path, creditKey))
	s.Debit.validate(e, validation.Join(path, debitKey))
	s.Cardless.validate(e, validation.Join(path, cardlessKey))
	jsonobject.CheckExtra(e, path, s.Extra, subFilterKeys(), "an EMI plan type", allKeys)
}

func (g *Group) validate(e *validation.Error, path string) {
	if g == nil {
		return
	}
	for i := range g.Filters {
		g.Filters[i].validate(e, validation.Index(validation.Join(path, filtersKey), i))
	}
	jsonobject.CheckExtra(e, path, g.Extra, groupKeys(), "an EMI group", allKeys)
}

func (f *Filter) validate(e *validation.Error, path string) {
	if f.PaymentMethodType != "" {
		e.Merge(path, f.PaymentMethodType.Validate())
	}
	if f.IssuerFilter != nil {
		f.IssuerFilter.validate(e, validation.Join(path, issuerFilterKey))
	}
	jsonobject.CheckExtra(e, path, f.Extra, filterKeys(), "an emiFilter", allKeys)
}

func (f *IssuerFilter) validate(e *validation.Error, path string) {
	for i, t := range f.Tenures {
		if err := t.Validate(); err != nil {
			e.Merge(validation.Index(validation.Join(path, tenuresKey), i), err)
		}
	}
	jsonobject.CheckExtra(e, path, f.Extra, issuerKeys(), "an issuerFilter", allKeys)
}
