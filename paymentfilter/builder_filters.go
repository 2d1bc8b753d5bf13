package paymentfilter

import (
	"slices"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// HideCardTypes hides cards of the given types, for example
// HideCardTypes(Credit) to hide credit cards: a CARD option with enable true
// and a cardFilter with enable false.
func (f *Filter) HideCardTypes(types ...CardType) *Filter {
	return f.mergeCard(func() string { return listCall("HideCardTypes", types) }, CardFilter{CardTypes: slices.Clone(types)})
}

// ShowCardTypes adds the given card types to a cardFilter with enable
// true, in the CARD option (enabled): Only(Card).ShowCardTypes(Credit)
// shows credit cards and no other card; after [New] it hides nothing (see
// the package doc).
func (f *Filter) ShowCardTypes(types ...CardType) *Filter {
	return f.mergeCard(func() string { return listCall("ShowCardTypes", types) }, CardFilter{Enable: true, CardTypes: slices.Clone(types)})
}

// HideBINRanges hides cards whose BIN falls in the given ranges.
func (f *Filter) HideBINRanges(ranges ...BINRange) *Filter {
	return f.mergeCard(func() string { return listCall("HideBINRanges", ranges) }, CardFilter{CardBins: slices.Clone(ranges)})
}

// ShowBINRanges shows cards whose BIN falls in the given ranges: with
// Only(Card), only those cards; after New it adds nothing (see
// [Filter.ShowUPIApps]).
func (f *Filter) ShowBINRanges(ranges ...BINRange) *Filter {
	return f.mergeCard(func() string { return listCall("ShowBINRanges", ranges) }, CardFilter{Enable: true, CardBins: slices.Clone(ranges)})
}

// HideCardBrands hides cards of the given brands, such as "VISA".
func (f *Filter) HideCardBrands(brands ...string) *Filter {
	return f.mergeCard(func() string { return listCall("HideCardBrands", brands) }, CardFilter{CardBrands: slices.Clone(brands)})
}

// ShowCardBrands shows cards of the given brands: with Only(Card), only
// those cards; after New it adds nothing (see [Filter.ShowUPIApps]).
func (f *Filter) ShowCardBrands(brands ...string) *Filter {
	return f.mergeCard(func() string { return listCall("ShowCardBrands", brands) }, CardFilter{Enable: true, CardBrands: slices.Clone(brands)})
}

// HideCardBanks hides cards issued by the given banks.
func (f *Filter) HideCardBanks(banks ...string) *Filter {
	return f.mergeCard(func() string { return listCall("HideCardBanks", banks) }, CardFilter{CardBanks: slices.Clone(banks)})
}

// AddCardFilter adds a copy of cf, as given, to the CARD option (enabled,
// and added when absent). Use it for a filter that combines criteria, such
// as VISA credit cards.
func (f *Filter) AddCardFilter(cf CardFilter) *Filter {
	if f == nil {
		f = New()
	}
	call := func() string { return jsonCall("AddCardFilter", cf) }
	i := f.filterBlock(call, Card)
	clash := f.cardClash(call, i, &cf)
	o := &f.Options[i]
	o.CardFilters = append(o.CardFilters, cf.clone())
	f.addClash(clash, len(o.CardFilters)-1)
	return f
}

// mergeCard adds a one-criterion card filter, merging it into an earlier
// filter with the same enable and the same single criterion (the values of
// one list are alternatives, so this keeps the meaning).
func (f *Filter) mergeCard(call func() string, cf CardFilter) *Filter {
	if f == nil {
		f = New()
	}
	i := f.filterBlock(call, Card)
	clash := f.cardClash(call, i, &cf)
	o := &f.Options[i]
	want := cf.criterion()
	for j := range o.CardFilters {
		e := &o.CardFilters[j]
		if e.Enable != cf.Enable || want == "" || e.criterion() != want {
			continue
		}
		e.CardBrands = append(e.CardBrands, cf.CardBrands...)
		e.CardTypes = append(e.CardTypes, cf.CardTypes...)
		e.CardBanks = append(e.CardBanks, cf.CardBanks...)
		e.CardBins = append(e.CardBins, cf.CardBins...)
		f.addClash(clash, j)
		return f
	}
	o.CardFilters = append(o.CardFilters, cf)
	f.addClash(clash, len(o.CardFilters)-1)
	return f
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

// cardClash returns the conflict of call, which adds the one-criterion
// card filter cf to the CARD block options[block], with a filter of that
// block that lists some of the same values under the same single
// criterion with the other enable flag; nil when there is none.
func (f *Filter) cardClash(call func() string, block int, cf *CardFilter) *conflict {
	key := cf.criterion()
	if key == "" {
		return nil
	}
	for j := range f.Options[block].CardFilters {
		e := &f.Options[block].CardFilters[j]
		if e.Enable == cf.Enable || e.criterion() != key {
			continue
		}
		var both []string
		noun := ""
		switch key {
		case cardBrandsKey:
			both, noun = common(e.CardBrands, cf.CardBrands, asText), "card brand"
		case cardBinsKey:
			both, noun = common(e.CardBins, cf.CardBins, BINRange.String), "BIN range"
		case cardTypesKey:
			both, noun = common(e.CardTypes, cf.CardTypes, asText), "card type"
		case cardSubTypesKey:
			both, noun = common(e.CardSubTypes, cf.CardSubTypes, asText), "card sub type"
		case cardBanksKey:
			both, noun = common(e.CardBanks, cf.CardBanks, asText), "card bank"
		}
		if len(both) > 0 {
			return valueConflict(call, listItem{block, cardFiltersKey, j}, "card filter", e.Enable, key, both, noun)
		}
	}
	return nil
}

// upiClash is cardClash for a UPI filter of type t that lists methods with
// the enable flag enable.
func (f *Filter) upiClash(call func() string, block int, t UPIType, enable bool, methods []string) *conflict {
	for j := range f.Options[block].UPIFilters {
		e := &f.Options[block].UPIFilters[j]
		if e.UPIType != t || e.Enable == enable {
			continue
		}
		if both := common(e.UPIMethods, methods, asText); len(both) > 0 {
			noun := "UPI handle"
			if t == Intent {
				noun = "UPI app"
			}
			return valueConflict(call, listItem{block, upiFiltersKey, j}, string(t)+" UPI filter", e.Enable, upiMethodsKey, both, noun)
		}
	}
	return nil
}

// valueConflict is the conflict of call with the filter at, which shows
// or hides (enable) the values both of its list key.
func valueConflict(call func() string, at listItem, what string, enable bool, key string, both []string, noun string) *conflict {
	var s strings.Builder
	s.WriteString(call() + " conflicts with the " + what + ", which ")
	if enable {
		s.WriteString("shows ")
	} else {
		s.WriteString("hides ")
	}
	s.WriteString(key + " ")
	quoteList(&s, both)
	s.WriteString(" (enable: " + strconv.FormatBool(enable) + "): the same " + noun + " cannot be both shown and hidden")
	typ := Card
	if at.key == upiFiltersKey {
		typ = UPI
	}
	return &conflict{problem: validation.Problem{Path: at.path(), Message: s.String()}, block: at.block, typ: typ, list: at.key}
}

// addClash records clash, when there is one, once the call's values are
// in the filter at index item of the clash's block.
func (f *Filter) addClash(clash *conflict, item int) {
	if clash != nil {
		clash.item = item
		f.conflicts = append(f.conflicts, *clash)
	}
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

// filterBlock returns the index of the block of type t (CARD or UPI) that
// card or UPI filters go into: the first block of t when it is enabled
// without paymentMethods, else a new enabled block (a conflict when t
// already has a block).
func (f *Filter) filterBlock(call func() string, t MethodType) int {
	if i := f.block(t); i >= 0 && f.Options[i].Enable && f.Options[i].PaymentMethods == nil {
		return i
	}
	o := Option{PaymentMethodType: t, Enable: true}
	what := upiFiltersKey
	if t == Card {
		o.CardFilters = []CardFilter{}
		what = cardFiltersKey
	} else {
		o.UPIFilters = []UPIFilter{}
	}
	f.add(call, "one block cannot also carry "+what+", which need enable: true and no paymentMethods", o)
	return len(f.Options) - 1
}

// HideUPIApps hides the given UPI apps: a UPI option with enable true and an
// INTENT upiFilter with enable false, for example HideUPIApps("PHONEPE",
// "GPAY").
func (f *Filter) HideUPIApps(apps ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("HideUPIApps", apps) }, Intent, false, apps)
}

// ShowUPIApps adds the given UPI apps to an INTENT upiFilter with enable
// true, in the UPI option (enabled): Only(UPI).ShowUPIApps("GPAY") shows
// GPAY as the only UPI app; after [New] it hides nothing (see the package
// doc).
func (f *Filter) ShowUPIApps(apps ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("ShowUPIApps", apps) }, Intent, true, apps)
}

// HideUPIHandles hides the given VPA handles of UPI collect, each written
// "@<handle>": a UPI option with enable true and a COLLECT upiFilter with
// enable false, for example HideUPIHandles("@ybl").
func (f *Filter) HideUPIHandles(handles ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("HideUPIHandles", handles) }, Collect, false, handles)
}

// ShowUPIHandles adds the given VPA handles of UPI collect to a COLLECT
// upiFilter with enable true: after [Only], only those handles are
// offered; after [New], it adds nothing (see [Filter.ShowUPIApps]).
func (f *Filter) ShowUPIHandles(handles ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("ShowUPIHandles", handles) }, Collect, true, handles)
}

// AddUPIFilter adds a copy of u, as given, to the UPI option (enabled, and
// added when absent), for example UPIFilter{UPIType: Collect} to hide UPI
// collect as a whole.
func (f *Filter) AddUPIFilter(u UPIFilter) *Filter {
	if f == nil {
		f = New()
	}
	call := func() string { return jsonCall("AddUPIFilter", u) }
	i := f.filterBlock(call, UPI)
	clash := f.upiClash(call, i, u.UPIType, u.Enable, u.UPIMethods)
	o := &f.Options[i]
	o.UPIFilters = append(o.UPIFilters, u.clone())
	f.addClash(clash, len(o.UPIFilters)-1)
	return f
}

func (f *Filter) mergeUPI(call func() string, t UPIType, enable bool, methods []string) *Filter {
	if f == nil {
		f = New()
	}
	i := f.filterBlock(call, UPI)
	clash := f.upiClash(call, i, t, enable, methods)
	o := &f.Options[i]
	for j := range o.UPIFilters {
		e := &o.UPIFilters[j]
		if e.UPIType == t && e.Enable == enable && len(e.UPIMethods) > 0 {
			e.UPIMethods = append(e.UPIMethods, methods...)
			f.addClash(clash, j)
			return f
		}
	}
	o.UPIFilters = append(o.UPIFilters, UPIFilter{UPIType: t, Enable: enable, UPIMethods: slices.Clone(methods)})
	f.addClash(clash, len(o.UPIFilters)-1)
	return f
}
