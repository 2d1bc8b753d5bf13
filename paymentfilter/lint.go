package paymentfilter

import (
	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

// Lint returns advice on a filter that Validate lets through because the
// service takes it, but that is probably a mistake, each at its JSON path
// from "payment_filter" as Validate reports problems; nil when there is
// none, and for a nil *Filter. It never repeats what Validate refuses, and
// the client never calls it: call it yourself (in a test, or before
// sending) to log the advice or fail on it. The advice:
//
//   - a paymentMethodType that is likely a typo of a known value, such as
//     "WALLLET" for WALLET (other unknown types get none: the service adds
//     types);
//   - a card type other than DEBIT and CREDIT, or a UPI type other than
//     COLLECT and INTENT (the only values the service documents), naming
//     the value it likely misspells, such as "CREDTI" for CREDIT;
//   - what [emi.Options.Lint] advises on emiOptions, under
//     "payment_filter.emiOptions".
//
// For example:
//
//	payment_filter.options[0].cardFilters[0].cardTypes[0]: unknown card type "CREDTI": likely a typo, did you mean "CREDIT"?
func (f *Filter) Lint() []validation.Problem {
	if f == nil {
		return nil
	}
	var e validation.Error
	for i := range f.Options {
		o := &f.Options[i]
		for _, p := range o.PaymentMethodType.Lint() {
			e.Add(validation.Join(blockPath(i), p.Path), p.Message)
		}
		for j := range o.CardFilters {
			types := validation.Join(listItem{i, cardFiltersKey, j}.path(), cardTypesKey)
			for k, t := range o.CardFilters[j].CardTypes {
				if msg := jsonobject.Unknown("card type", t, cardTypes(), true); msg != "" {
					e.Add(validation.Index(types, k), msg)
				}
			}
		}
		for j := range o.UPIFilters {
			if msg := jsonobject.Unknown("UPI type", o.UPIFilters[j].UPIType, upiTypes(), true); msg != "" {
				e.Add(validation.Join(listItem{i, upiFiltersKey, j}.path(), upiTypeKey), msg)
			}
		}
	}
	for _, p := range f.EMIOptions.Lint() {
		e.Add(validation.Join(rootPath, p.Path), p.Message)
	}
	return e.Problems
}
