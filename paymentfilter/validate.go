package paymentfilter

import (
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/spelling"
	"github.com/payorch/checkout-go/validation"
)

// Validate reports, as a *[validation.Error] with JSON paths from
// "payment_filter", what the service would refuse or could not make sense
// of; nil for a nil *Filter, which is not sent. It reads only the filter's
// data, so a filter validates the same however it was built. The rules are
// the code of validate.go and conflict.go in this package; advice on what
// the service takes is package lint's.
func (f *Filter) Validate() error {
	if f == nil {
		return nil
	}
	var e validation.Error
	for i := range f.Options {
		f.Options[i].validate(&e, i)
	}
	f.duplicateBlocks(&e)
	e.Merge(rootPath, f.EMIOptions.Validate())
	f.validateEMIMethodTypes(&e)
	f.validateVisible(&e)
	return e.Err()
}

// cardTypes and upiTypes are the card and UPI types, for messages naming
// the closest.
func cardTypes() []CardType { return []CardType{Debit, Credit} }
func upiTypes() []UPIType   { return []UPIType{Collect, Intent} }

// validateMethodType adds, at path, a missing method type when required,
// or a known one written in another case, such as "card", which the
// service would not see. Other values pass: the service may know more.
func validateMethodType(e *validation.Error, path string, t MethodType, required bool) {
	switch {
	case t == "" && required:
		e.Add(path, "missing: want one of CARD, UPI, WALLET, NB, CONSUMER_FINANCE, REWARD, CASH")
	case t == "" || t.Valid() || t == walletsOld:
	default:
		if msg := spelling.CaseMistake("payment method type", t, append(MethodTypes(), walletsOld)); msg != "" {
			e.Add(path, msg)
		}
	}
}

// validateEMIMethodTypes checks the paymentMethodType of each EMI filter
// of emiOptions against this package's vocabulary.
func (f *Filter) validateEMIMethodTypes(e *validation.Error) {
	for path, ef := range f.EMIOptions.Filters() {
		validateMethodType(e, validation.Join(validation.Join(rootPath, path), methodTypeKey), MethodType(ef.PaymentMethodType), false)
	}
}

// validateVisible reports a filter that would leave the checkout screen
// empty.
func (f *Filter) validateVisible(e *validation.Error) {
	if !f.AllowDefaultOptions {
		for _, o := range f.Options {
			if o.Enable {
				return
			}
		}
		if emiShows(f.EMIOptions) {
			return
		}
		e.Add(validation.Join(rootPath, allowKey), "nothing would be visible: allowDefaultOptions is false and no option or EMI plan is enabled")
		return
	}
	hidden := map[MethodType]bool{}
	for _, o := range f.Options {
		if !o.Enable && len(o.PaymentMethods) == 0 {
			hidden[sameType(o.PaymentMethodType)] = true
		}
	}
	for _, t := range MethodTypes() {
		if !hidden[t] {
			return
		}
	}
	e.Add(validation.Join(rootPath, optionsKey), "nothing would be visible: every payment method type is hidden")
}

// emiShows reports whether o enables some EMI plans on its own.
func emiShows(o *emi.Options) bool {
	if o == nil {
		return false
	}
	if o.ShowOnlyEMI != nil && *o.ShowOnlyEMI {
		return true
	}
	for _, s := range []*emi.SubFilter{o.StandardEMI, o.LowCostEMI, o.NoCostEMI} {
		if s != nil && s.Enable {
			return true
		}
	}
	return false
}

// listItem is where a card or UPI filter sits: the item of the list
// under key of the block options[block]. Its path is built only when a
// problem is reported there, so a valid filter builds none.
type listItem struct {
	block int
	key   string // cardFiltersKey or upiFiltersKey
	item  int
}

// path is the filter's path, such as "payment_filter.options[1].cardFilters[0]".
func (l listItem) path() string {
	return validation.Index(validation.Join(blockPath(l.block), l.key), l.item)
}

// validate adds the problems of the option options[block].
func (o *Option) validate(e *validation.Error, block int) {
	t := o.PaymentMethodType
	validateMethodType(e, validation.Join(blockPath(block), methodTypeKey), t, true)
	switch {
	case o.PaymentMethods == nil:
	case t == Card:
		e.Add(validation.Join(blockPath(block), methodsKey), "has no effect on CARD, the service ignores it: use "+cardFiltersKey)
	case t == UPI:
		e.Add(validation.Join(blockPath(block), methodsKey), "has no effect on UPI, the service ignores it: use "+upiFiltersKey)
	}
	if o.CardFilters != nil {
		o.validateFilterList(e, block, cardFiltersKey, "card", Card)
		for i := range o.CardFilters {
			o.CardFilters[i].validate(e, listItem{block, cardFiltersKey, i})
		}
	}
	if o.UPIFilters != nil {
		o.validateFilterList(e, block, upiFiltersKey, "UPI", UPI)
		for i := range o.UPIFilters {
			o.UPIFilters[i].validate(e, listItem{block, upiFiltersKey, i})
		}
	}
	o.valueConflicts(e, block)
}

// validateFilterList checks that the list under key (cardFilters or
// upiFilters, naming what kind of filters) of the option options[block]
// sits on its type only, in an enabled option, as the service considers
// it nowhere else.
func (o *Option) validateFilterList(e *validation.Error, block int, key, what string, only MethodType) {
	switch {
	case o.PaymentMethodType != only:
		e.Add(validation.Join(blockPath(block), key), what+" filters apply only to "+string(only)+", not "+strconv.Quote(string(o.PaymentMethodType)))
	case !o.Enable:
		e.Add(validation.Join(blockPath(block), enableKey), "must be true when "+key+" are given: the service requires it")
	}
}

func (c *CardFilter) validate(e *validation.Error, at listItem) {
	for i, r := range c.CardBins {
		if err := r.Validate(); err != nil {
			e.Merge(validation.Index(validation.Join(at.path(), cardBinsKey), i), err)
		}
	}
	for i, t := range c.CardTypes {
		if msg := spelling.CaseMistake("card type", t, cardTypes()); msg != "" {
			e.Add(validation.Index(validation.Join(at.path(), cardTypesKey), i), msg)
		}
	}
}

func (u *UPIFilter) validate(e *validation.Error, at listItem) {
	if msg := spelling.CaseMistake("UPI type", u.UPIType, upiTypes()); msg != "" {
		e.Add(validation.Join(at.path(), upiTypeKey), msg)
	}
	for i, m := range u.UPIMethods {
		var msg string
		switch {
		case u.UPIType == Collect && !strings.HasPrefix(m, "@"):
			msg = "collect handle " + strconv.Quote(m) + " must start with \"@\", like \"@ybl\""
		case u.UPIType == Collect && m == "@":
			msg = "collect handle is empty after \"@\""
		case u.UPIType == Intent && strings.HasPrefix(m, "@"):
			msg = strconv.Quote(m) + " is a collect handle: INTENT filters name UPI apps, such as \"PHONEPE\""
		default:
			continue
		}
		e.Add(validation.Index(validation.Join(at.path(), upiMethodsKey), i), msg)
	}
}
