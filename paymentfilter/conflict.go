package paymentfilter

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/validation"
)

// conflict is a fluent call that the block of its type, as it stood, could
// not express, or that shows a card or UPI value an earlier call hid (or
// hides one it showed). problem is reported while what the call added is
// still there: the block it appended (block, of type typ) or, for a value
// (list is cardFiltersKey or upiFiltersKey), the filter at index item of
// that list of the block it extended.
type conflict struct {
	problem validation.Problem
	block   int
	typ     MethodType
	list    string
	item    int
}

// conflictProblems adds the conflicts whose block is still there.
func (f *Filter) conflictProblems(e *validation.Error) {
	for _, k := range f.conflicts {
		if f.hasConflict(k) {
			e.Add(k.problem.Path, k.problem.Message)
		}
	}
}

// hasConflict reports whether what conflict k added is still in f (it is
// not when the caller removed it by hand).
func (f *Filter) hasConflict(k conflict) bool {
	if k.block >= len(f.Options) || f.Options[k.block].PaymentMethodType != k.typ {
		return false
	}
	switch k.list {
	case cardFiltersKey:
		return k.item < len(f.Options[k.block].CardFilters)
	case upiFiltersKey:
		return k.item < len(f.Options[k.block].UPIFilters)
	}
	return true
}

// conflictBlocks returns the blocks that conflicting calls appended and
// that are still there: their duplicate-block problem is explained by the
// conflict.
func (f *Filter) conflictBlocks() map[int]bool {
	if len(f.conflicts) == 0 {
		return nil
	}
	blocks := make(map[int]bool, len(f.conflicts))
	for _, k := range f.conflicts {
		if k.list == "" && f.hasConflict(k) {
			blocks[k.block] = true
		}
	}
	return blocks
}

// blockPath is the path of options[i].
func blockPath(i int) string { return validation.Index(validation.Join(rootPath, optionsKey), i) }

// wholeType says what a block without paymentMethods or filters does.
func wholeType(enable bool, t MethodType) string {
	if enable {
		return "show " + string(t) + " as a whole"
	}
	return "hide " + string(t) + " as a whole"
}

// hideInstead names the composition that hides some methods of a shown
// type, for the conflict of call (a hide of listed methods) with a block
// showing that type: New(), hiding the types f does not show, then call.
func (f *Filter) hideInstead(call func() string, t MethodType) string {
	var hidden []MethodType
	for _, other := range emi.MethodTypes() {
		shown := f.AllowDefaultOptions
		for _, o := range f.Options {
			if sameType(o.PaymentMethodType) == other && o.PaymentMethods == nil {
				shown = o.Enable
			}
		}
		if !shown {
			hidden = append(hidden, other)
		}
	}
	start := "New()"
	if len(hidden) > 0 {
		start += "." + listCall("Hide", hidden)
	}
	return "; to show " + string(t) + " but these methods, write " + start + "." + call() +
		" instead, or list the " + string(t) + " methods to show with ShowMethods(" + string(t) + ", …)"
}

// listed says what a block with paymentMethods does.
func listed(enable bool) string {
	if enable {
		return "show listed methods"
	}
	return "hide listed methods"
}

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

// listCall spells a call on a list as written, for example
// "Hide(WALLET, NB)" or `HideUPIApps("GPAY")`: strings and BIN ranges
// quoted, enums (MethodType, CardType) as their wire values.
func listCall[T ~string | BINRange](name string, list []T) string {
	var s strings.Builder
	s.WriteString(name + "(")
	for i, v := range list {
		if i > 0 {
			s.WriteString(", ")
		}
		switch v := any(v).(type) {
		case string:
			s.WriteString(strconv.Quote(v))
		case BINRange:
			s.WriteString(strconv.Quote(v.String()))
		default:
			fmt.Fprint(&s, v)
		}
	}
	s.WriteString(")")
	return s.String()
}

// jsonCall spells a call on a filter by its JSON, for example
// `AddUPIFilter({"upiType":"COLLECT","enable":false})`.
func jsonCall(name string, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return name + "(…)"
	}
	return name + "(" + string(b) + ")"
}
