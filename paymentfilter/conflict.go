package paymentfilter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// Conflicts are found from the filter's structure, the same whichever way
// it was built (fluent calls, a struct literal, JSON): a second option block
// of a type, which the service ignores, and a card or UPI value that one
// filter of a block shows and another hides.

// duplicateBlocks adds a problem at each option block whose type has an
// earlier block, saying what both do and whether one block could say both.
func (f *Filter) duplicateBlocks(e *validation.Error) {
	first := make(map[MethodType]int, len(f.Options))
	for i := range f.Options {
		t := sameType(f.Options[i].PaymentMethodType)
		if t == "" {
			continue
		}
		j, dup := first[t]
		if !dup {
			first[t] = i
			continue
		}
		e.Add(blockPath(i), f.duplicateMessage(j, i))
	}
}

// duplicateMessage words the problem of block i, a second block of the
// type of block j: what each does, and how to say it in one block.
func (f *Filter) duplicateMessage(j, i int) string {
	a, b := &f.Options[j], &f.Options[i]
	t := b.PaymentMethodType
	msg := "duplicate " + string(t) + " block (the first is " + validation.Index(optionsKey, j) + "): this one " + b.state() +
		", the first " + a.state() + "; the service honours only the first block of a type"
	if mergeable(a, b) {
		return msg + ", so merge them into one"
	}
	msg += ", and one block cannot do both"
	switch {
	case b.CardFilters != nil || b.UPIFilters != nil:
		what := cardFiltersKey
		if b.UPIFilters != nil {
			what = upiFiltersKey
		}
		msg += ": " + what + " need enable: true and no paymentMethods"
	case !b.Enable && len(b.PaymentMethods) > 0 && a.Enable && a.PaymentMethods == nil:
		msg += f.hideInstead(codesCall("HideMethods(", t, b.PaymentMethods), t)
	}
	return msg
}

// mergeable reports whether one block can say what blocks a and b of one
// type say: the same enable flag, both listing methods or neither, and
// filters only in enabled blocks.
func mergeable(a, b *Option) bool {
	filters := a.CardFilters != nil || a.UPIFilters != nil || b.CardFilters != nil || b.UPIFilters != nil
	return a.Enable == b.Enable && (len(a.PaymentMethods) > 0) == (len(b.PaymentMethods) > 0) && (a.Enable || !filters)
}

// hideInstead names the composition that hides some methods of a shown
// type t, for the duplicate block hiding them (call, such as
// `HideMethods(WALLET, "PAYTM")`): New(), hiding the types f does not show,
// then call.
func (f *Filter) hideInstead(call string, t MethodType) string {
	var hidden []MethodType
	for _, other := range MethodTypes() {
		shown := f.AllowDefaultOptions
		for _, o := range f.Options {
			if sameType(o.PaymentMethodType) == other && o.PaymentMethods == nil {
				shown = o.Enable
			}
		}
		if !shown && other != sameType(t) {
			hidden = append(hidden, other)
		}
	}
	start := "New()"
	if len(hidden) > 0 {
		start += "." + listCall("Hide", hidden)
	}
	return "; to show " + string(t) + " but these methods, write " + start + "." + call +
		" instead, or list the " + string(t) + " methods to show with ShowMethods(" + string(t) + ", …)"
}

// valueConflicts adds a problem at each card filter of the block options[i]
// that hides (or shows) a value an earlier filter of the block shows (or
// hides) under the same single criterion, and the same for UPI filters of
// one upiType.
func (o *Option) valueConflicts(e *validation.Error, i int) {
	for k := range o.CardFilters {
		later := &o.CardFilters[k]
		key := later.criterion()
		for j := range k {
			earlier := &o.CardFilters[j]
			if key == "" || earlier.Enable == later.Enable || earlier.criterion() != key {
				continue
			}
			if both, noun := later.common(earlier, key); len(both) > 0 {
				e.Add(listItem{i, cardFiltersKey, k}.path(), valueMessage(later.Enable, key, both, "card filter", listItem{i, cardFiltersKey, j}, noun))
				break
			}
		}
	}
	for k := range o.UPIFilters {
		later := &o.UPIFilters[k]
		for j := range k {
			earlier := &o.UPIFilters[j]
			if earlier.UPIType != later.UPIType || earlier.Enable == later.Enable {
				continue
			}
			if both := common(earlier.UPIMethods, later.UPIMethods, asText); len(both) > 0 {
				noun := "UPI handle"
				if later.UPIType == Intent {
					noun = "UPI app"
				}
				e.Add(listItem{i, upiFiltersKey, k}.path(), valueMessage(later.Enable, upiMethodsKey, both,
					string(later.UPIType)+" UPI filter", listItem{i, upiFiltersKey, j}, noun))
				break
			}
		}
	}
}

// valueMessage words the conflict of a filter that shows or hides (enable)
// the values both of its list key with the filter at earlier (a what),
// which does the opposite.
func valueMessage(enable bool, key string, both []string, what string, earlier listItem, noun string) string {
	var s strings.Builder
	s.WriteString(doing(enable) + " " + key + " ")
	quoteList(&s, both)
	s.WriteString(" (enable: " + strconv.FormatBool(enable) + "), which the " + what + " at " +
		validation.Index(earlier.key, earlier.item) + " " + doing(!enable) + ": the same " + noun + " cannot be both shown and hidden")
	return s.String()
}

// doing is "shows" or "hides".
func doing(enable bool) string {
	if enable {
		return "shows"
	}
	return "hides"
}

// criterion names the key of the single list c sets, or "" when it sets
// none or several.
func (c *CardFilter) criterion() string {
	set := ""
	for _, l := range [...]struct {
		key string
		n   int
	}{{cardBrandsKey, len(c.CardBrands)}, {cardBinsKey, len(c.CardBins)}, {cardTypesKey, len(c.CardTypes)},
		{cardSubTypesKey, len(c.CardSubTypes)}, {cardBanksKey, len(c.CardBanks)}} {
		if l.n == 0 {
			continue
		}
		if set != "" {
			return ""
		}
		set = l.key
	}
	return set
}

// common returns the values of the list under key that earlier and c both
// hold, as text, and the noun of such a value.
func (c *CardFilter) common(earlier *CardFilter, key string) ([]string, string) {
	switch key {
	case cardBrandsKey:
		return common(earlier.CardBrands, c.CardBrands, asText), "card brand"
	case cardBinsKey:
		return common(earlier.CardBins, c.CardBins, BINRange.String), "BIN range"
	case cardTypesKey:
		return common(earlier.CardTypes, c.CardTypes, asText), "card type"
	case cardSubTypesKey:
		return common(earlier.CardSubTypes, c.CardSubTypes, asText), "card sub type"
	}
	return common(earlier.CardBanks, c.CardBanks, asText), "card bank"
}

// common returns, as text, the values of list that added holds too, each
// once, in list's order.
func common[T comparable](list, added []T, text func(T) string) []string {
	var out []string
	for _, v := range list {
		if slices.Contains(added, v) && !slices.Contains(out, text(v)) {
			out = append(out, text(v))
		}
	}
	return out
}

// asText is a string value as it is, for common.
func asText[S ~string](s S) string { return string(s) }

// blockPath is the path of options[i].
func blockPath(i int) string { return validation.Index(validation.Join(rootPath, optionsKey), i) }

// state says what block o does, then the fields that make it do so, for
// conflict messages, for example `hides the listed WALLET methods
// (enable: false, paymentMethods "PAYTM", "SVC_PAYTM")`.
func (o *Option) state() string {
	t := string(o.PaymentMethodType)
	var s strings.Builder
	switch filters := o.CardFilters != nil || o.UPIFilters != nil; {
	case len(o.PaymentMethods) > 0 && o.Enable:
		s.WriteString("shows the listed " + t + " methods")
	case len(o.PaymentMethods) > 0:
		s.WriteString("hides the listed " + t + " methods")
	case filters && o.Enable:
		s.WriteString("keeps " + t + " enabled for its filters")
	case filters:
		s.WriteString("hides " + t + " as a whole, filters and all")
	case o.Enable:
		s.WriteString("shows " + t + " as a whole")
	default:
		s.WriteString("hides " + t + " as a whole")
	}
	s.WriteString(" (enable: " + strconv.FormatBool(o.Enable) + ", ")
	if len(o.PaymentMethods) == 0 {
		s.WriteString("no paymentMethods")
	} else {
		s.WriteString("paymentMethods ")
		quoteList(&s, o.PaymentMethods)
	}
	s.WriteString(count(len(o.CardFilters), "cardFilter") + count(len(o.UPIFilters), "upiFilter") + ")")
	return s.String()
}

// quoteList writes the first few values of list, quoted and separated by
// commas.
func quoteList(s *strings.Builder, list []string) {
	const most = 4
	for i, v := range list {
		if i == most {
			s.WriteString(", … (" + strconv.Itoa(len(list)) + " in all)")
			return
		}
		if i > 0 {
			s.WriteString(", ")
		}
		s.WriteString(strconv.Quote(v))
	}
}

// count spells ", <n> <noun>s" for n > 0, or "".
func count(n int, noun string) string {
	switch n {
	case 0:
		return ""
	case 1:
		return ", 1 " + noun
	}
	return ", " + strconv.Itoa(n) + " " + noun + "s"
}

// codesCall spells a call on the codes of a type, from its head up to the
// type: codesCall("HideMethods(", Wallet, codes) gives
// `HideMethods(WALLET, "PAYTM")`.
func codesCall(head string, t MethodType, codes []string) string {
	var s strings.Builder
	s.WriteString(head + string(t))
	for _, c := range codes {
		s.WriteString(", " + strconv.Quote(c))
	}
	s.WriteString(")")
	return s.String()
}

// listCall spells a call on method types, for example "Hide(WALLET, NB)".
func listCall(name string, list []MethodType) string {
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = string(t)
	}
	return fmt.Sprintf("%s(%s)", name, strings.Join(names, ", "))
}
