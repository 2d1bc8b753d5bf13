package lint

import (
	"fmt"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/spelling"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// The paths of a payment filter's advice start at the session request's
// key of the filter.
const filterPath = "payment_filter"

// methodSpellings are the paymentMethodType values the service takes:
// package paymentfilter's, and WALLETS, WALLET's older spelling.
func methodSpellings() []paymentfilter.MethodType {
	return append(paymentfilter.MethodTypes(), "WALLETS")
}

// methodType advises, at path, on a method type that is likely a typo of
// a known one, such as "WALLLET" for WALLET. Other unknown values get
// none (the service adds method types), nor do those Validate refuses.
func (a *advice) methodType(path string, t paymentfilter.MethodType) {
	if msg := spelling.Unknown("payment method type", t, methodSpellings(), false); msg != "" {
		a.Add(path, msg)
	}
}

// filter advises on a payment filter: a method, card or UPI type that is
// likely a typo, a hiding block that does nothing because
// allowDefaultOptions is false, a card filter that lists nothing, and the
// advice on its EMI options.
func (a *advice) filter(f *paymentfilter.Filter) {
	if f == nil {
		return
	}
	first := map[paymentfilter.MethodType]bool{}
	for i := range f.Options {
		o := &f.Options[i]
		block := validation.Index(filterPath+".options", i)
		a.methodType(validation.Join(block, "paymentMethodType"), o.PaymentMethodType)
		isFirst := !first[sameType(o.PaymentMethodType)]
		first[sameType(o.PaymentMethodType)] = true
		if !f.AllowDefaultOptions && !o.Enable && !o.Display && o.PaymentMethodType != "" && isFirst {
			a.Add(block, "has no effect: it hides "+string(o.PaymentMethodType)+
				", which is not shown anyway: allowDefaultOptions is false, so only the options enabled here are shown; remove the block")
		}
		for j := range o.CardFilters {
			c := &o.CardFilters[j]
			at := validation.Index(validation.Join(block, "cardFilters"), j)
			if c.CardBrands == nil && c.CardBins == nil && c.CardTypes == nil && c.CardSubTypes == nil && c.CardBanks == nil {
				a.Add(at, "lists no cardBrands, cardBins, cardTypes, cardSubTypes or cardBanks: it matches every card")
			}
			for k, t := range c.CardTypes {
				if msg := spelling.Unknown("card type", t, []paymentfilter.CardType{paymentfilter.Debit, paymentfilter.Credit}, true); msg != "" {
					a.Add(validation.Index(validation.Join(at, "cardTypes"), k), msg)
				}
			}
		}
		for j, u := range o.UPIFilters {
			if msg := spelling.Unknown("UPI type", u.UPIType, []paymentfilter.UPIType{paymentfilter.Collect, paymentfilter.Intent}, true); msg != "" {
				a.Add(validation.Join(validation.Index(validation.Join(block, "upiFilters"), j), "upiType"), msg)
			}
		}
	}
	a.emi(f.EMIOptions, filterPath)
}

// sameType returns the type t stands for: WALLET for WALLETS, t otherwise.
func sameType(t paymentfilter.MethodType) paymentfilter.MethodType {
	if t == "WALLETS" {
		return paymentfilter.Wallet
	}
	return t
}

// emi advises on the EMI options of a filter at prefix ("" for options on
// their own): a paymentMethodType that is likely a typo, an issuer code
// without a namespace prefix, such as "ICICI" where the service's
// documents write SVC_ICICI.
func (a *advice) emi(o *emi.Options, prefix string) {
	for path, f := range o.Filters() {
		a.emiFilter(validation.Join(prefix, path), f)
	}
}

// emiFilter advises on one EMI filter at path.
func (a *advice) emiFilter(path string, f *emi.Filter) {
	a.methodType(validation.Join(path, "paymentMethodType"), paymentfilter.MethodType(f.PaymentMethodType))
	if f.IssuerFilter == nil {
		return
	}
	for i, code := range f.IssuerFilter.Issuers {
		if code != "" && !strings.Contains(code, "_") {
			a.Add(validation.Index(validation.Join(path, "issuerFilter.issuers"), i), fmt.Sprintf(
				"issuer %.40q has no namespace prefix: did you mean %.44q? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)",
				code, "SVC_"+code))
		}
	}
}
