package paymentfilter

import (
	"slices"
	"strings"

	"github.com/payorch/checkout-go/emi"
)

// New returns a filter that keeps every default option visible
// (allowDefaultOptions true) besides what later calls hide or show, for
// example New().Hide(Wallet). It is &Filter{AllowDefaultOptions: true}. The
// package doc says how the fluent calls compose and when two conflict.
func New() *Filter { return &Filter{AllowDefaultOptions: true} }

// Only returns a filter that shows only what is enabled
// (allowDefaultOptions false), starting with the given method types, for
// example Only(UPI) to show only UPI. Only() with no type starts from
// nothing, for a filter that shows only EMI or only some methods of a type.
// Only() is &Filter{}. A Hide call after Only hides what is not shown
// anyway (package lint says so).
func Only(types ...MethodType) *Filter {
	return (&Filter{}).setTypes(true, types)
}

// Hide hides each given method type as a whole: an option with enable
// false. It works for every type: CARD, WALLET, NB, CASH and the others.
func (f *Filter) Hide(types ...MethodType) *Filter {
	return f.setTypes(false, types)
}

// Show shows each given method type as a whole: an option with enable true.
// With Only it selects what the checkout shows; with New it has no effect
// beyond what the defaults already show, but documents intent.
func (f *Filter) Show(types ...MethodType) *Filter {
	return f.setTypes(true, types)
}

// setTypes shows or hides each of types as a whole, in the block of its
// type when that block says so already, else in a new block (a second
// block of a type is what Validate reports as a conflict).
func (f *Filter) setTypes(enable bool, types []MethodType) *Filter {
	if f == nil {
		f = New()
	}
	for _, t := range types {
		if i := f.block(t); i >= 0 {
			o := &f.Options[i]
			if o.Enable == enable && o.PaymentMethods == nil && (enable || (o.CardFilters == nil && o.UPIFilters == nil)) {
				continue // Already so.
			}
		}
		f.Options = append(f.Options, Option{PaymentMethodType: t, Enable: enable})
	}
	return f
}

// HideMethods hides the given method codes of type t: an option with
// paymentMethods and enable false, for example HideMethods(Wallet,
// "LAZYPAY", "SIMPL") to hide two wallets.
func (f *Filter) HideMethods(t MethodType, codes ...string) *Filter {
	return f.setMethods(t, false, codes)
}

// ShowMethods shows the given method codes of type t: an option with
// paymentMethods and enable true. With Only it shows just those methods,
// for example Only().ShowMethods(NB, "NB_HDFC").
func (f *Filter) ShowMethods(t MethodType, codes ...string) *Filter {
	return f.setMethods(t, true, codes)
}

// DefaultMandatePrefix is the prefix of the second code of each method in
// mandate flows in its generic form ("SVC_", as in SVC_HDFC). Deployments of the service use their own prefix, such
// as "JP_": pass it to [MandateCodes], [Filter.HideMandateMethods] and
// [Filter.ShowMandateMethods].
const DefaultMandatePrefix = "SVC_"

// HideMandateMethods hides methods of a mandate flow, passing each code
// twice with the given prefix ("" for [DefaultMandatePrefix]), as mandate
// flows need (see [MandateCodes]): HideMandateMethods("JP_", Wallet,
// "PAYTM") hides PAYTM and JP_PAYTM.
func (f *Filter) HideMandateMethods(prefix string, t MethodType, codes ...string) *Filter {
	return f.setMethods(t, false, MandateCodes(prefix, t, codes...))
}

// ShowMandateMethods shows methods of a mandate flow, passing each code
// twice with the given prefix ("" for [DefaultMandatePrefix]), as mandate
// flows need (see [MandateCodes]): Only().ShowMandateMethods("", NB,
// "NB_HDFC") shows only NB_HDFC and SVC_HDFC.
func (f *Filter) ShowMandateMethods(prefix string, t MethodType, codes ...string) *Filter {
	return f.setMethods(t, true, MandateCodes(prefix, t, codes...))
}

// MandateCodes returns codes with each method passed twice, as mandate
// flows of NB, WALLET and CONSUMER_FINANCE need: the plain code, then the
// code with prefix ("" means [DefaultMandatePrefix], "SVC_"). For NB the
// plain code is NB_<BANK> and the second one prefix+<BANK>
// (MandateCodes("", NB, "NB_HDFC") is NB_HDFC, SVC_HDFC); for WALLET and
// CONSUMER_FINANCE it is <CODE> and prefix+<CODE> (MandateCodes("JP_",
// Wallet, "PAYTM") is PAYTM, JP_PAYTM). It never drops or rewrites a code
// it is given.
func MandateCodes(prefix string, t MethodType, codes ...string) []string {
	if prefix == "" {
		prefix = DefaultMandatePrefix
	}
	out := make([]string, 0, 2*len(codes))
	for _, c := range codes {
		rest := c
		if sameType(t) == NB {
			rest = strings.TrimPrefix(c, string(NB)+"_")
		}
		out = append(out, c, prefix+rest)
	}
	return out
}

// setMethods adds codes to the block of type t when it lists methods with
// the same enable flag, else appends a block of its own.
func (f *Filter) setMethods(t MethodType, enable bool, codes []string) *Filter {
	if f == nil {
		f = New()
	}
	if i := f.block(t); i >= 0 {
		o := &f.Options[i]
		if o.Enable == enable && len(o.PaymentMethods) > 0 {
			o.PaymentMethods = append(o.PaymentMethods, codes...)
			return f
		}
	}
	f.Options = append(f.Options, Option{PaymentMethodType: t, Enable: enable, PaymentMethods: slices.Clone(codes)})
	return f
}

// AddOption appends a copy of o as its own option block, for fields the
// builder has no method for (Display, DisplayMessage). It does not merge:
// when its type already has a block, Validate reports the second one.
func (f *Filter) AddOption(o Option) *Filter {
	if f == nil {
		f = New()
	}
	f.Options = append(f.Options, o.clone())
	return f
}

// EMI sets emiOptions to e, replacing any set before, for example
// EMI(emi.New().OnlyNoCost()); a nil e removes emiOptions. The filter holds
// e itself, not a copy, as the struct literal Filter{EMIOptions: e} would,
// so Validate reports e's problems under "payment_filter.emiOptions".
func (f *Filter) EMI(e *emi.Options) *Filter {
	if f == nil {
		f = New()
	}
	f.EMIOptions = e
	return f
}

// block returns the index of the first option of type t (WALLETS counting
// as WALLET), or -1. It looks at every block: a filter has one per type.
func (f *Filter) block(t MethodType) int {
	t = sameType(t)
	for i := range f.Options {
		if sameType(f.Options[i].PaymentMethodType) == t {
			return i
		}
	}
	return -1
}
