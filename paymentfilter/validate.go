package paymentfilter

import (
	"errors"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// mandatePrefix prefixes the second code of each method in mandate flows
// (spec §2.3).
const mandatePrefix = "SVC_"

// rootPath is where the paths of Validate start, as the session request
// names the field (spec §2.1).
const rootPath = "payment_filter"

// duplicateBlock starts the message of a second option block of a type;
// Validate recognises it.
const duplicateBlock = "duplicate option block for "

// Validate checks f against the spec (§2.2–2.5) and reports every problem
// with its JSON path, starting at "payment_filter" (for example
// "payment_filter.options[1].cardFilters[0].cardBins[2]"; EMI problems sit
// under "payment_filter.emiOptions"). A nil *Filter is valid: it is not
// sent. The error is a *ValidationError.
//
// The rules: enum values are case exact; CARD and UPI must be enabled when
// they carry card or UPI filters; paymentMethods has no effect on CARD and
// UPI; card filters only on CARD, UPI filters only on UPI; one option block
// per type; BIN ranges are digits from::to with from ≤ to; card types are
// DEBIT or CREDIT; COLLECT handles start with "@"; mandate codes come in
// pairs; lists are not empty; and the filter leaves something visible.
// Keys in Extra that are surely mistakes (mis-cased, misspelt or misplaced
// modelled keys) are reported too.
//
// The problems of the fluent calls come first (see Err): a conflicting
// call is reported, naming the call and what the block of its type does,
// instead of the duplicate block it
// left; a call the emi.Options given to EMI rejected is reported under
// "payment_filter.emiOptions".
func (f *Filter) Validate() error {
	if f == nil {
		return nil
	}
	var c valid.Collector
	f.callProblems(&c)
	// The tree's own problems, less those the call problems already say:
	// the duplicate blocks of conflicts, and the rejected EMI calls that
	// emi.Options.Validate lists too.
	said := map[Problem]int{}
	var ve *ValidationError
	if errors.As(f.EMIOptions.Err(), &ve) {
		for _, p := range ve.Problems {
			said[Problem{Path: valid.Join(rootPath, p.Path), Message: p.Message}]++
		}
	}
	var tree valid.Collector
	f.validate(&tree, rootPath)
	if errors.As(tree.Err(), &ve) {
		for _, p := range ve.Problems {
			switch {
			case said[p] > 0:
				said[p]--
			case !f.explained(p):
				c.Add(p.Path, p.Message)
			}
		}
	}
	return c.Err()
}

func (f *Filter) validate(c *valid.Collector, path string) {
	elsewhere := allKeys()
	op := valid.Join(path, "options")
	first := map[MethodType]int{}
	for i := range f.Options {
		o := &f.Options[i]
		p := valid.Index(op, i)
		o.validate(c, p, elsewhere)
		if j, dup := first[o.PaymentMethodType]; dup && o.PaymentMethodType != "" {
			c.Add(valid.Join(p, "paymentMethodType"), duplicateBlock+string(o.PaymentMethodType)+
				" (first at "+valid.Index("options", j)+"): the service honours only the first block of a type, so merge them")
		} else if !dup {
			first[o.PaymentMethodType] = i
		}
	}
	c.Merge(path, f.EMIOptions.Validate())
	f.validateVisible(c, path)
	wire.CheckExtra(c, path, f.Extra, filterKeys, nil, elsewhere, "payment_filter")
}

// validateVisible reports a filter that would leave the checkout screen
// empty.
func (f *Filter) validateVisible(c *valid.Collector, path string) {
	if !f.AllowDefaultOptions {
		for _, o := range f.Options {
			if o.Enable {
				return
			}
		}
		if emiShows(f.EMIOptions) {
			return
		}
		c.Add(valid.Join(path, "allowDefaultOptions"), "nothing would be visible: allowDefaultOptions is false and no option or EMI plan is enabled")
		return
	}
	hidden := map[MethodType]bool{}
	for _, o := range f.Options {
		if !o.Enable && len(o.PaymentMethods) == 0 {
			hidden[o.PaymentMethodType] = true
		}
	}
	for _, t := range emi.MethodTypes() {
		if !hidden[t] {
			return
		}
	}
	c.Add(valid.Join(path, "options"), "nothing would be visible: every payment method type is hidden")
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

func (o *Option) validate(c *valid.Collector, path string, elsewhere []string) {
	t := o.PaymentMethodType
	c.Merge(path, t.Validate())
	if o.PaymentMethods != nil {
		mp := valid.Join(path, "paymentMethods")
		switch t {
		case Card:
			c.Add(mp, "has no effect on CARD (spec §2.3): use cardFilters")
		case UPI:
			c.Add(mp, "has no effect on UPI (spec §2.3): use upiFilters")
		default:
			validateMethods(c, mp, t, o.PaymentMethods)
		}
	}
	if o.CardFilters != nil {
		cp := o.validateFilterList(c, path, "cardFilters", "card", Card, len(o.CardFilters))
		for i := range o.CardFilters {
			o.CardFilters[i].validate(c, valid.Index(cp, i), elsewhere)
		}
	}
	if o.UPIFilters != nil {
		up := o.validateFilterList(c, path, "upiFilters", "UPI", UPI, len(o.UPIFilters))
		for i := range o.UPIFilters {
			o.UPIFilters[i].validate(c, valid.Index(up, i), elsewhere)
		}
	}
	wire.CheckExtra(c, path, o.Extra, optionKeys, nil, elsewhere, "an option")
}

// validateFilterList checks the list under key (cardFilters or upiFilters,
// n elements, naming what kind of filters) of the option at path against
// spec §2.3: only on type only, not empty, and the option enabled. It
// returns the list's path.
func (o *Option) validateFilterList(c *valid.Collector, path, key, what string, only MethodType, n int) string {
	lp := valid.Join(path, key)
	switch {
	case o.PaymentMethodType != only:
		c.Add(lp, what+" filters apply only to "+string(only)+", not "+quote(string(o.PaymentMethodType)))
	case n == 0:
		c.Add(lp, "empty list: leave "+key+" out")
	case !o.Enable:
		c.Add(valid.Join(path, "enable"), "must be true when "+key+" are given (spec §2.3)")
	}
	return lp
}

// validateMethods checks paymentMethods of a type other than CARD and UPI,
// including the doubled codes of mandate flows (spec §2.3).
func validateMethods(c *valid.Collector, path string, t MethodType, methods []string) {
	if len(methods) == 0 {
		c.Add(path, "empty list: leave paymentMethods out to apply the option to the whole type")
		return
	}
	mandate := false
	for i, m := range methods {
		p := valid.Index(path, i)
		switch {
		case m == "":
			c.Add(p, "empty method code")
		case strings.TrimSpace(m) != m:
			c.Add(p, "method code "+quote(m)+" has leading or trailing spaces")
		case strings.Contains(m, ","):
			c.Add(p, "method code "+quote(m)+" holds a comma: list each method code as its own element")
		}
		if indexOf(methods[:i], m) >= 0 {
			c.Add(p, "method code "+quote(m)+" is listed twice")
		}
		if strings.HasPrefix(m, mandatePrefix) {
			mandate = true
		}
	}
	if !mandate {
		return
	}
	if t != NB && t != Wallet && t != ConsumerFinance {
		c.Add(path, "SVC_ mandate codes apply only to NB, WALLET and CONSUMER_FINANCE (spec §2.3)")
		return
	}
	// A mandate flow passes each method twice: its plain code and the
	// SVC_ code (NB: NB_<BANK> and SVC_<BANK>).
	for i, m := range methods {
		p := valid.Index(path, i)
		if rest, ok := strings.CutPrefix(m, mandatePrefix); ok {
			plain := rest
			if t == NB {
				plain = "NB_" + rest
			}
			if indexOf(methods, plain) < 0 {
				c.Add(p, "mandate code "+quote(m)+" needs its plain twin "+quote(plain)+" (spec §2.3: each method is passed twice)")
			}
			continue
		}
		rest := m
		if t == NB {
			var ok bool
			if rest, ok = strings.CutPrefix(m, "NB_"); !ok {
				c.Add(p, "net banking code "+quote(m)+" must be written NB_<BANK> (spec §2.3)")
				continue
			}
		}
		if indexOf(methods, mandatePrefix+rest) < 0 {
			c.Add(p, "mandate flow: "+quote(m)+" needs its twin "+quote(mandatePrefix+rest)+" (spec §2.3: each method is passed twice)")
		}
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func (c *CardFilter) validate(col *valid.Collector, path string, elsewhere []string) {
	if len(c.CardBrands)+len(c.CardBins)+len(c.CardTypes)+len(c.CardSubTypes)+len(c.CardBanks) == 0 {
		col.Add(path, "names no cards: give at least one of cardBrands, cardBins, cardTypes, cardSubTypes, cardBanks")
	}
	validateNames(col, valid.Join(path, "cardBrands"), c.CardBrands, "cardBrands")
	validateNames(col, valid.Join(path, "cardSubTypes"), c.CardSubTypes, "cardSubTypes")
	validateNames(col, valid.Join(path, "cardBanks"), c.CardBanks, "cardBanks")
	bp := valid.Join(path, "cardBins")
	if c.CardBins != nil && len(c.CardBins) == 0 {
		col.Add(bp, "empty list: leave cardBins out")
	}
	for i, r := range c.CardBins {
		col.Merge(valid.Index(bp, i), r.Validate())
	}
	tp := valid.Join(path, "cardTypes")
	if c.CardTypes != nil && len(c.CardTypes) == 0 {
		col.Add(tp, "empty list: leave cardTypes out")
	}
	for i, t := range c.CardTypes {
		if t.Valid() {
			continue
		}
		msg := "unknown card type " + quote(string(t)) + ": want DEBIT or CREDIT"
		if m := wire.FoldMatch([]string{string(Debit), string(Credit)}, string(t)); m != "" {
			msg = "unknown card type " + quote(string(t)) + ": values are case sensitive, did you mean " + quote(m) + "?"
		}
		col.Add(valid.Index(tp, i), msg)
	}
	wire.CheckExtra(col, path, c.Extra, cardFilterKeys, cardFilterAlias, elsewhere, "a card filter")
}

// validateNames checks a list of free-form codes: not empty, no blank or
// padded element, no repeats.
func validateNames(c *valid.Collector, path string, list []string, key string) {
	if list != nil && len(list) == 0 {
		c.Add(path, "empty list: leave "+key+" out")
	}
	for i, s := range list {
		p := valid.Index(path, i)
		switch {
		case s == "":
			c.Add(p, "empty value")
		case strings.TrimSpace(s) != s:
			c.Add(p, quote(s)+" has leading or trailing spaces")
		case indexOf(list[:i], s) >= 0:
			c.Add(p, quote(s)+" is listed twice")
		}
	}
}

func (u *UPIFilter) validate(c *valid.Collector, path string, elsewhere []string) {
	tp := valid.Join(path, "upiType")
	switch {
	case u.UPIType == "" && len(u.UPIMethods) > 0:
		c.Add(tp, "missing: upiMethods are handles for COLLECT and apps for INTENT, so say which")
	case u.UPIType == "" && len(u.UPIMethods) == 0:
		c.Add(path, "names nothing: give upiType, upiMethods or both")
	case !u.UPIType.Valid():
		msg := "unknown UPI type " + quote(string(u.UPIType)) + ": want COLLECT or INTENT"
		if m := wire.FoldMatch([]string{string(Collect), string(Intent)}, string(u.UPIType)); m != "" {
			msg = "unknown UPI type " + quote(string(u.UPIType)) + ": values are case sensitive, did you mean " + quote(m) + "?"
		}
		c.Add(tp, msg)
	}
	mp := valid.Join(path, "upiMethods")
	validateNames(c, mp, u.UPIMethods, "upiMethods")
	for i, m := range u.UPIMethods {
		p := valid.Index(mp, i)
		switch {
		case m == "":
		case u.UPIType == Collect && !strings.HasPrefix(m, "@"):
			c.Add(p, "collect handle "+quote(m)+" must start with \"@\", like \"@ybl\"")
		case u.UPIType == Collect && m == "@":
			c.Add(p, "collect handle is empty after \"@\"")
		case u.UPIType == Intent && strings.HasPrefix(m, "@"):
			c.Add(p, quote(m)+" is a collect handle: INTENT filters name UPI apps, such as \"PHONEPE\"")
		}
	}
	wire.CheckExtra(c, path, u.Extra, upiFilterKeys, nil, elsewhere, "a UPI filter")
}

// allKeys lists every key of a payment_filter tree, for naming a key put in
// the wrong object.
func allKeys() []string {
	return wire.Union(filterKeys, optionKeys, cardFilterAll, upiFilterKeys, emiKeys)
}

// quote wraps s in double quotes for a message, showing it as it is.
func quote(s string) string { return `"` + s + `"` }
