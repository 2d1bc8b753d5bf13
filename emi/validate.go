package emi

import (
	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/internal/valid"
)

// Validate reports what the service would refuse or could not make sense
// of, every problem with its JSON path from the emiOptions key (for
// example emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]). A nil
// *Options is valid: it is not sent. The error is a *ValidationError.
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
// not model. Validate takes time in proportion to the size of the options.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	var c valid.Collector
	for _, p := range o.problems {
		c.Add(p.Path, p.Message)
	}
	o.validate(&c)
	return c.Err()
}

func (o *Options) validate(c *valid.Collector) {
	allOff := true
	for _, p := range []Plan{Standard, LowCost, NoCost} {
		s := *o.sub(p)
		if s == nil || s.Enable {
			allOff = false
		}
		if s != nil {
			s.validate(c, valid.Join(rootPath, p.Key()))
		}
	}
	if o.ShowOnlyEMI != nil && *o.ShowOnlyEMI && allOff {
		c.Add(valid.Join(rootPath, optionsObject.Key("ShowOnlyEMI")),
			"nothing would be visible: showOnlyEmi is true but standard, low cost and no cost EMI are all disabled")
	}
	optionsObject.CheckExtra(c, rootPath, o.Extra, rootPath, allKeys)
}

func (s *SubFilter) validate(c *valid.Collector, path string) {
	for _, in := range []Instrument{Credit, Debit, Cardless} {
		if g := *s.group(in); g != nil {
			g.validate(c, valid.Join(path, in.Key()))
		}
	}
	subFilterObject.CheckExtra(c, path, s.Extra, "an EMI plan type", allKeys)
}

func (g *Group) validate(c *valid.Collector, path string) {
	fp := valid.Join(path, groupObject.Key("Filters"))
	for i := range g.Filters {
		g.Filters[i].validate(c, valid.Index(fp, i))
	}
	groupObject.CheckExtra(c, path, g.Extra, "an EMI group", allKeys)
}

func (f *Filter) validate(c *valid.Collector, path string) {
	if f.PaymentMethodType != "" {
		c.Merge(path, f.PaymentMethodType.Validate())
	}
	if f.IssuerFilter != nil {
		f.IssuerFilter.validate(c, valid.Join(path, filterObject.Key("IssuerFilter")))
	}
	filterObject.CheckExtra(c, path, f.Extra, "an emiFilter", allKeys)
}

func (f *IssuerFilter) validate(c *valid.Collector, path string) {
	for i, t := range f.Tenures {
		if err := t.Validate(); err != nil {
			c.Merge(valid.Index(valid.Join(path, issuerObject.Key("Tenures")), i), err)
		}
	}
	issuerObject.CheckExtra(c, path, f.Extra, "an issuerFilter", allKeys)
}

// allKeys are the keys of every object of emiOptions, to name a key put in
// the wrong object.
var allKeys = tagjson.KeysOf(optionsObject, subFilterObject, groupObject, filterObject, issuerObject)
