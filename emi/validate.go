package emi

import (
	"fmt"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// Validate reports what the service would refuse or could not make sense
// of, every problem with its JSON path from the emiOptions key (such as
// emiOptions.noCostEmi.credit.filters[0].issuerFilter.tenures[1]), as a
// *[validation.Error]. A nil *Options is valid: it is not sent.
//
// It refuses, after the fluent calls that could not be carried out: a
// known paymentMethodType in another case; a tenure range that is not
// "<from>::<to>" months with from at least 1 and not above to; and
// showOnlyEmi true while all three plan types are disabled. It lets through
// what the service takes: empty options, issuers with any prefix, unknown
// method types, empty lists ([Options.Lint] advises on likely mistakes).
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	e := validation.Error{Problems: append([]validation.Problem(nil), o.problems...)}
	o.eachFilter(func(f *Filter, path string) {
		if f.PaymentMethodType != "" {
			e.Merge(path, f.PaymentMethodType.Validate())
		}
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

// Lint returns advice on options that Validate lets through because the
// service takes them, but that are probably mistakes, each at its JSON
// path from the emiOptions key; nil when there is none, and for nil
// *Options. The client never calls it: call it yourself to log the advice
// or fail on it. It advises on a paymentMethodType that is likely a typo
// (see [MethodType.Lint]) and on an issuer code without a namespace prefix,
// such as "ICICI" where the service's documents write SVC_ICICI.
func (o *Options) Lint() []validation.Problem {
	if o == nil {
		return nil
	}
	var e validation.Error
	o.eachFilter(func(f *Filter, path string) {
		for _, p := range f.PaymentMethodType.Lint() {
			e.Add(validation.Join(path, p.Path), p.Message)
		}
		if f.IssuerFilter == nil {
			return
		}
		for i, code := range f.IssuerFilter.Issuers {
			if code != "" && !strings.Contains(code, "_") {
				e.Add(validation.Index(validation.Join(validation.Join(path, issuerFilterKey), issuersKey), i), fmt.Sprintf(
					"issuer %.40q has no namespace prefix: did you mean %.44q? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)",
					code, "SVC_"+code))
			}
		}
	})
	return e.Problems
}

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
