package paymentfilter

import (
	"slices"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/internal/valid"
)

// Validate reports what the service would refuse or could not make sense
// of, every problem with its JSON path from "payment_filter" (for example
// "payment_filter.options[1].cardFilters[0].cardBins[2]"; EMI problems sit
// under "payment_filter.emiOptions"). A nil *Filter is valid: it is not
// sent. The error is a *ValidationError.
//
// It refuses: an option without paymentMethodType; a known value written
// in another case ("card", "credit", "intent": the service matches values
// case-exactly, so it would not see them); a second option block of a type
// (the service honours only the first); paymentMethods on CARD or UPI
// (ignored there: use card or UPI filters); card filters on another type
// than CARD and UPI filters on another type than UPI; CARD or UPI disabled
// while carrying those filters; a BIN range that is not digits
// "<from>::<to>" with from not above to; a COLLECT handle that does not
// start with "@" or an INTENT app that does; a filter that would leave
// nothing visible; an Extra key that is a modelled key, is not JSON or is
// a modelled key in another case; and what [emi.Options.Validate] refuses.
//
// It lets through what the service takes: method types, card types and
// UPI types it does not know, any method code (with any prefix, a comma,
// or twice), BINs of any number of digits, empty lists, and keys the SDK
// does not model.
//
// The conflicting fluent calls come first (see [New]), each instead of the
// duplicate block it left; the calls the [emi.Options] given to EMI could
// not carry out come first among the emiOptions problems. Validate takes
// time in proportion to the size of the filter.
func (f *Filter) Validate() error {
	if f == nil {
		return nil
	}
	var c valid.Collector
	f.conflictProblems(&c)
	f.validate(&c, f.conflictBlocks())
	return c.Err()
}

// allKeys are the keys of every object of a payment filter, emiOptions
// included, to name a key put in the wrong object.
var allKeys = tagjson.KeysOf(filterObject, optionObject, cardObject, upiObject,
	tagjson.ObjectOf[emi.Options](), tagjson.ObjectOf[emi.SubFilter](), tagjson.ObjectOf[emi.Group](),
	tagjson.ObjectOf[emi.Filter](), tagjson.ObjectOf[emi.IssuerFilter]())

// The keys Validate names in its paths, read from the json tags.
var (
	optionsKey     = filterObject.Key("Options")
	allowKey       = filterObject.Key("AllowDefaultOptions")
	methodTypeKey  = optionObject.Key("PaymentMethodType")
	enableKey      = optionObject.Key("Enable")
	methodsKey     = optionObject.Key("PaymentMethods")
	cardFiltersKey = optionObject.Key("CardFilters")
	upiFiltersKey  = optionObject.Key("UPIFilters")
	cardBinsKey    = cardObject.Key("CardBins")
	cardTypesKey   = cardObject.Key("CardTypes")
	upiTypeKey     = upiObject.Key("UPIType")
	upiMethodsKey  = upiObject.Key("UPIMethods")
)

// duplicateBlock starts the message of a second option block of a type.
const duplicateBlock = "duplicate option block for "

// validate adds the problems of the filter itself; explained are the
// blocks whose duplicate-block problem a conflict already reported.
func (f *Filter) validate(c *valid.Collector, explained map[int]bool) {
	first := make(map[MethodType]int, len(f.Options))
	for i := range f.Options {
		o := &f.Options[i]
		o.validate(c, i)
		t := sameType(o.PaymentMethodType)
		if t == "" {
			continue
		}
		if j, dup := first[t]; !dup {
			first[t] = i
		} else if !explained[i] {
			c.Add(valid.Join(blockPath(i), methodTypeKey), duplicateBlock+string(o.PaymentMethodType)+
				" (first at "+valid.Index(optionsKey, j)+"): the service honours only the first block of a type, so merge them")
		}
	}
	c.Merge(rootPath, f.EMIOptions.Validate())
	f.validateVisible(c)
	filterObject.CheckExtra(c, rootPath, f.Extra, rootPath, allKeys)
}

// methodTypes are the payment method types, each once, for
// validateVisible (read only: emi.MethodTypes returns a new copy on each
// call).
var methodTypes = func() []emi.MethodType {
	t := emi.MethodTypes()
	slices.Sort(t)
	return slices.Compact(t)
}()

// validateVisible reports a filter that would leave the checkout screen
// empty.
func (f *Filter) validateVisible(c *valid.Collector) {
	if !f.AllowDefaultOptions {
		for _, o := range f.Options {
			if o.Enable {
				return
			}
		}
		if emiShows(f.EMIOptions) {
			return
		}
		c.Add(valid.Join(rootPath, allowKey), "nothing would be visible: allowDefaultOptions is false and no option or EMI plan is enabled")
		return
	}
	hidden := map[MethodType]bool{}
	for _, o := range f.Options {
		if !o.Enable && len(o.PaymentMethods) == 0 {
			hidden[sameType(o.PaymentMethodType)] = true
		}
	}
	if len(hidden) < len(methodTypes) {
		return // some type is not hidden: there are fewer hidden ones
	}
	for _, t := range methodTypes {
		if !hidden[t] {
			return
		}
	}
	c.Add(valid.Join(rootPath, optionsKey), "nothing would be visible: every payment method type is hidden")
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
	return valid.Index(valid.Join(blockPath(l.block), l.key), l.item)
}

// validate adds the problems of the option options[block].
func (o *Option) validate(c *valid.Collector, block int) {
	t := o.PaymentMethodType
	if err := t.Validate(); err != nil {
		c.Merge(blockPath(block), err)
	}
	switch {
	case o.PaymentMethods == nil:
	case t == Card:
		c.Add(valid.Join(blockPath(block), methodsKey), "has no effect on CARD, the service ignores it: use "+cardFiltersKey)
	case t == UPI:
		c.Add(valid.Join(blockPath(block), methodsKey), "has no effect on UPI, the service ignores it: use "+upiFiltersKey)
	}
	if o.CardFilters != nil {
		o.validateFilterList(c, block, cardFiltersKey, "card", Card)
		for i := range o.CardFilters {
			o.CardFilters[i].validate(c, listItem{block, cardFiltersKey, i})
		}
	}
	if o.UPIFilters != nil {
		o.validateFilterList(c, block, upiFiltersKey, "UPI", UPI)
		for i := range o.UPIFilters {
			o.UPIFilters[i].validate(c, listItem{block, upiFiltersKey, i})
		}
	}
	if len(o.Extra) > 0 {
		optionObject.CheckExtra(c, blockPath(block), o.Extra, "an option", allKeys)
	}
}

// validateFilterList checks that the list under key (cardFilters or
// upiFilters, naming what kind of filters) of the option options[block]
// sits on its type only, in an enabled option, as the service considers
// it nowhere else.
func (o *Option) validateFilterList(c *valid.Collector, block int, key, what string, only MethodType) {
	switch {
	case o.PaymentMethodType != only:
		c.Add(valid.Join(blockPath(block), key), what+" filters apply only to "+string(only)+", not "+strconv.Quote(string(o.PaymentMethodType)))
	case !o.Enable:
		c.Add(valid.Join(blockPath(block), enableKey), "must be true when "+key+" are given: the service requires it")
	}
}

func (c *CardFilter) validate(col *valid.Collector, at listItem) {
	for i, r := range c.CardBins {
		if err := r.Validate(); err != nil {
			col.Merge(valid.Index(valid.Join(at.path(), cardBinsKey), i), err)
		}
	}
	for i, t := range c.CardTypes {
		if msg := tagjson.CaseMistake("card type", t, Debit, Credit); msg != "" {
			col.Add(valid.Index(valid.Join(at.path(), cardTypesKey), i), msg)
		}
	}
	if len(c.Extra) > 0 {
		cardObject.CheckExtra(col, at.path(), c.Extra, "a card filter", allKeys)
	}
}

func (u *UPIFilter) validate(c *valid.Collector, at listItem) {
	if msg := tagjson.CaseMistake("UPI type", u.UPIType, Collect, Intent); msg != "" {
		c.Add(valid.Join(at.path(), upiTypeKey), msg)
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
		c.Add(valid.Index(valid.Join(at.path(), upiMethodsKey), i), msg)
	}
	if len(u.Extra) > 0 {
		upiObject.CheckExtra(c, at.path(), u.Extra, "a UPI filter", allKeys)
	}
}
