package paymentfilter

import (
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/spelling"
	"github.com/payorch/checkout-go/validation"
)

// Validate reports what the service would refuse or could not make sense
// of, every problem with its JSON path from "payment_filter" (such as
// "payment_filter.options[1].cardFilters[0].cardBins[2]"; EMI problems sit
// under "payment_filter.emiOptions"), as a *[validation.Error]. A nil
// *Filter is valid: it is not sent. The conflicting fluent calls come first.
//
// It refuses: an option without paymentMethodType; a known value in
// another case ("card", "credit": the service matches case-exactly); a
// second block of a type; paymentMethods on CARD or UPI; card filters off
// CARD and UPI filters off UPI; CARD or UPI disabled while carrying them; a
// malformed BIN range; a COLLECT handle without "@" or an INTENT app with
// one; a filter that leaves nothing visible; and what [emi.Options.Validate]
// refuses. Unknown types and codes, BINs of any length and empty lists
// pass: the service takes them ([Filter.Lint] advises on likely mistakes).
func (f *Filter) Validate() error {
	if f == nil {
		return nil
	}
	var e validation.Error
	f.conflictProblems(&e)
	f.validate(&e, f.conflictBlocks())
	return e.Err()
}

// cardTypes and upiTypes are the card and UPI types, for messages naming
// the closest.
func cardTypes() []CardType { return []CardType{Debit, Credit} }
func upiTypes() []UPIType   { return []UPIType{Collect, Intent} }

// duplicateBlock starts the message of a second option block of a type.
const duplicateBlock = "duplicate option block for "

// validate adds the problems of the filter itself; explained are the
// blocks whose duplicate-block problem a conflict already reported.
func (f *Filter) validate(e *validation.Error, explained map[int]bool) {
	first := make(map[MethodType]int, len(f.Options))
	for i := range f.Options {
		o := &f.Options[i]
		o.validate(e, i)
		t := sameType(o.PaymentMethodType)
		if t == "" {
			continue
		}
		if j, dup := first[t]; !dup {
			first[t] = i
		} else if !explained[i] {
			e.Add(validation.Join(blockPath(i), methodTypeKey), duplicateBlock+string(o.PaymentMethodType)+
				" (first at "+validation.Index(optionsKey, j)+"): the service honours only the first block of a type, so merge them")
		}
	}
	e.Merge(rootPath, f.EMIOptions.Validate())
	f.validateVisible(e)
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
	for _, t := range emi.MethodTypes() {
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
	if err := t.Validate(); err != nil {
		e.Merge(blockPath(block), err)
	}
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
