package paymentfilter

import (
	"github.com/payorch/checkout-go/internal/spelling"
	"github.com/payorch/checkout-go/validation"
)

// Lint returns advice on a filter that Validate lets through because the
// service takes it, but that is probably a mistake, each at its JSON path
// from "payment_filter"; nil when there is none, and for a nil *Filter. The
// client never calls it: call it yourself to log the advice or fail on it.
// It advises on a paymentMethodType, card type or UPI type that is likely a
// typo (such as "CREDTI" for CREDIT), on a hiding block that does nothing
// because allowDefaultOptions is false (Only(UPI).HideMethods(Wallet, "X")
// hides a type that is not shown anyway), on a card filter that lists
// nothing, and what [emi.Options.Lint] says.
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
		if !f.AllowDefaultOptions && !o.Enable && !o.Display && o.PaymentMethodType != "" && f.block(o.PaymentMethodType) == i {
			e.Add(blockPath(i), "has no effect: it hides "+string(o.PaymentMethodType)+
				", which is not shown anyway: allowDefaultOptions is false, so only the options enabled here are shown; remove the block")
		}
		for j := range o.CardFilters {
			c := &o.CardFilters[j]
			if c.CardBrands == nil && c.CardBins == nil && c.CardTypes == nil && c.CardSubTypes == nil && c.CardBanks == nil {
				e.Add(listItem{i, cardFiltersKey, j}.path(), "lists no cardBrands, cardBins, cardTypes, cardSubTypes or cardBanks: it matches every card")
			}
			types := validation.Join(listItem{i, cardFiltersKey, j}.path(), cardTypesKey)
			for k, t := range c.CardTypes {
				if msg := spelling.Unknown("card type", t, cardTypes(), true); msg != "" {
					e.Add(validation.Index(types, k), msg)
				}
			}
		}
		for j := range o.UPIFilters {
			if msg := spelling.Unknown("UPI type", o.UPIFilters[j].UPIType, upiTypes(), true); msg != "" {
				e.Add(validation.Join(listItem{i, upiFiltersKey, j}.path(), upiTypeKey), msg)
			}
		}
	}
	for _, p := range f.EMIOptions.Lint() {
		e.Add(validation.Join(rootPath, p.Path), p.Message)
	}
	return e.Problems
}
