package emi

import (
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// paymentFilterKeys are the keys of the enclosing payment_filter objects, so
// that one put inside emiOptions by mistake is named as misplaced.
var paymentFilterKeys = []string{
	"allowDefaultOptions", "options", "emiOptions", "paymentMethods", "cardFilters", "upiFilters",
	"cardBrands", "cardBins", "cardTypes", "cardSubTypes", "cardBanks",
	"cardBrand", "cardBin", "cardType", "cardSubType", "upiType", "upiMethods",
}

// Validate checks o against the spec (§2.5) and reports every problem with
// its JSON path, starting at "emiOptions" (for example
// "emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]"). A nil
// *Options is valid: it is not sent. The error is a *ValidationError; it
// lists first the fluent calls that were rejected (see Err), then the
// problems of the options themselves.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	var c valid.Collector
	for _, p := range o.problems {
		c.Add(p.Path, p.Message)
	}
	o.validate(&c, "emiOptions")
	return c.Err()
}

func (o *Options) validate(c *valid.Collector, path string) {
	elsewhere := append(allKeys(), paymentFilterKeys...)
	if o.StandardEMI == nil && o.LowCostEMI == nil && o.NoCostEMI == nil && o.ShowOnlyEMI == nil && len(o.Extra) == 0 {
		c.Add(path, "sets nothing: leave emiOptions out")
		return
	}
	allOff := true
	for _, p := range []Plan{Standard, LowCost, NoCost} {
		s := *o.sub(p)
		if s == nil || s.Enable {
			allOff = false
		}
		if s != nil {
			s.validate(c, valid.Join(path, p.Key()), p.Key(), elsewhere)
		}
	}
	if o.ShowOnlyEMI != nil && *o.ShowOnlyEMI && allOff {
		c.Add(valid.Join(path, "showOnlyEmi"), "nothing would be visible: showOnlyEmi is true but standard, low cost and no cost EMI are all disabled")
	}
	wire.CheckExtra(c, path, o.Extra, optionsKeys, nil, elsewhere, "emiOptions")
}

func (s *SubFilter) validate(c *valid.Collector, path, key string, elsewhere []string) {
	for _, in := range []Instrument{Credit, Debit, Cardless} {
		g := *s.group(in)
		if g == nil {
			continue
		}
		gp := valid.Join(path, in.Key())
		if !s.Enable {
			c.Add(gp, "has no effect while "+key+".enable is false")
		}
		g.validate(c, gp, in.Key(), elsewhere)
	}
	wire.CheckExtra(c, path, s.Extra, subFilterKeys, nil, elsewhere, "an EMI plan type ("+key+")")
}

func (g *Group) validate(c *valid.Collector, path, key string, elsewhere []string) {
	fp := valid.Join(path, "filters")
	switch {
	case g.Filters != nil && len(g.Filters) == 0:
		c.Add(fp, "empty list: leave filters out")
	case len(g.Filters) > 0 && !g.Enable:
		c.Add(fp, "has no effect while "+key+".enable is false")
	}
	for i := range g.Filters {
		g.Filters[i].validate(c, valid.Index(fp, i), elsewhere)
	}
	wire.CheckExtra(c, path, g.Extra, groupKeys, nil, elsewhere, "an EMI group ("+key+")")
}

func (f *Filter) validate(c *valid.Collector, path string, elsewhere []string) {
	if f.PaymentMethodType != "" {
		c.Merge(path, f.PaymentMethodType.Validate())
	}
	if f.PaymentMethodType == "" && f.PaymentMethod == "" && f.IssuerFilter == nil {
		c.Add(path, "names no plans: give paymentMethodType, paymentMethod or issuerFilter")
	}
	if f.IssuerFilter != nil {
		f.IssuerFilter.validate(c, valid.Join(path, "issuerFilter"), elsewhere)
	}
	wire.CheckExtra(c, path, f.Extra, filterKeys, filterAliases, elsewhere, "an emiFilter")
}

func (f *IssuerFilter) validate(c *valid.Collector, path string, elsewhere []string) {
	if len(f.Issuers) == 0 && len(f.Tenures) == 0 {
		c.Add(path, "names no issuer or tenure: give issuers, tenures or both")
	}
	ip := valid.Join(path, "issuers")
	if f.Issuers != nil && len(f.Issuers) == 0 {
		c.Add(ip, "empty list: leave issuers out")
	}
	for i, is := range f.Issuers {
		if !validIssuer(is) {
			c.Add(valid.Index(ip, i), "issuer "+quote(is)+" must be written SVC_<BANK> in capitals, for example \"SVC_HDFC\"")
		}
		for j := 0; j < i; j++ {
			if f.Issuers[j] == is {
				c.Add(valid.Index(ip, i), "issuer "+quote(is)+" is listed twice")
				break
			}
		}
	}
	tp := valid.Join(path, "tenures")
	if f.Tenures != nil && len(f.Tenures) == 0 {
		c.Add(tp, "empty list: leave tenures out")
	}
	for i, t := range f.Tenures {
		c.Merge(valid.Index(tp, i), t.Validate())
	}
	wire.CheckExtra(c, path, f.Extra, issuerFilterKeys, nil, elsewhere, "an issuerFilter")
}

// validIssuer reports whether s is SVC_<BANK>: the prefix, then capitals,
// digits and underscores.
func validIssuer(s string) bool {
	const prefix = "SVC_"
	if len(s) <= len(prefix) || s[:len(prefix)] != prefix {
		return false
	}
	for i := len(prefix); i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// quote wraps s in double quotes for a message, showing it as it is.
func quote(s string) string { return `"` + s + `"` }
