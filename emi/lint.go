package emi

import (
	"fmt"
	"strings"

	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

// Lint returns advice on options that Validate lets through because the
// service takes them, but that are probably mistakes, each at its JSON
// path from the emiOptions key as Validate reports problems; nil when
// there is none, and for nil *Options. It never repeats what Validate
// refuses, and the client never calls it: call it yourself (in a test, or
// before sending) to log the advice or fail on it. The advice:
//
//   - a paymentMethodType that is likely a typo of a known value, such as
//     "WALLLET" for WALLET (see [MethodType.Lint]);
//   - an issuer code without a namespace prefix, such as "ICICI" where the
//     service's documents write SVC_ICICI: the advice names SVC_ICICI
//     (a deployment that uses its own prefix, such as JP_, writes that).
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

// Lint returns advice on t, at the path of the paymentMethodType key
// (callers place it under their object's path), as Validate reports its
// problems: a value that is likely a typo of a known one, such as
// "WALLLET" for WALLET or "UIP" for UPI, naming that value. Other unknown
// values get none (the service adds method types), and the values
// Validate refuses (a known one in another case) get none either.
func (t MethodType) Lint() []validation.Problem {
	if msg := jsonobject.Unknown("payment method type", t, methodSpellings(), false); msg != "" {
		return []validation.Problem{{Path: methodTypeKey, Message: msg}}
	}
	return nil
}

// Lint returns advice on v at path "sdk_udf": a value other than the
// three the service documents, naming the one it likely misspells (such
// as "showEMl" for showEMI) or listing the three. The zero value (not
// sent) and the values Validate refuses (a known one in another case) get
// none.
func (v Visibility) Lint() []validation.Problem {
	if msg := jsonobject.Unknown("EMI visibility", v, visibilities(), true); msg != "" {
		return []validation.Problem{{Path: visibilityKey, Message: msg}}
	}
	return nil
}
