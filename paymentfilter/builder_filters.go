package paymentfilter

import (
	"slices"
)

// HideCardTypes hides cards of the given types, for example
// HideCardTypes(Credit) to hide credit cards: a CARD option with enable true
// and a cardFilter with enable false.
func (f *Filter) HideCardTypes(types ...CardType) *Filter {
	return f.mergeCard(CardFilter{CardTypes: slices.Clone(types)})
}

// ShowCardTypes adds the given card types to a cardFilter with enable
// true, in the CARD option (enabled): Only(Card).ShowCardTypes(Credit)
// shows credit cards and no other card; after [New] it hides nothing (see
// the package doc).
func (f *Filter) ShowCardTypes(types ...CardType) *Filter {
	return f.mergeCard(CardFilter{Enable: true, CardTypes: slices.Clone(types)})
}

// HideBINRanges hides cards whose BIN falls in the given ranges.
func (f *Filter) HideBINRanges(ranges ...BINRange) *Filter {
	return f.mergeCard(CardFilter{CardBins: slices.Clone(ranges)})
}

// ShowBINRanges shows cards whose BIN falls in the given ranges: with
// Only(Card), only those cards; after New it adds nothing (see
// [Filter.ShowUPIApps]).
func (f *Filter) ShowBINRanges(ranges ...BINRange) *Filter {
	return f.mergeCard(CardFilter{Enable: true, CardBins: slices.Clone(ranges)})
}

// HideCardBrands hides cards of the given brands, such as "VISA".
func (f *Filter) HideCardBrands(brands ...string) *Filter {
	return f.mergeCard(CardFilter{CardBrands: slices.Clone(brands)})
}

// ShowCardBrands shows cards of the given brands: with Only(Card), only
// those cards; after New it adds nothing (see [Filter.ShowUPIApps]).
func (f *Filter) ShowCardBrands(brands ...string) *Filter {
	return f.mergeCard(CardFilter{Enable: true, CardBrands: slices.Clone(brands)})
}

// HideCardBanks hides cards issued by the given banks.
func (f *Filter) HideCardBanks(banks ...string) *Filter {
	return f.mergeCard(CardFilter{CardBanks: slices.Clone(banks)})
}

// AddCardFilter adds a copy of cf, as given, to the CARD option (enabled,
// and added when absent). Use it for a filter that combines criteria, such
// as VISA credit cards.
func (f *Filter) AddCardFilter(cf CardFilter) *Filter {
	if f == nil {
		f = New()
	}
	o := &f.Options[f.filterBlock(Card)]
	o.CardFilters = append(o.CardFilters, cf.clone())
	return f
}

// mergeCard adds a one-criterion card filter, merging it into an earlier
// filter with the same enable and the same single criterion (the values of
// one list are alternatives, so this keeps the meaning).
func (f *Filter) mergeCard(cf CardFilter) *Filter {
	if f == nil {
		f = New()
	}
	o := &f.Options[f.filterBlock(Card)]
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
		return f
	}
	o.CardFilters = append(o.CardFilters, cf)
	return f
}

// filterBlock returns the index of the block of type t (CARD or UPI) that
// card or UPI filters go into: the first block of t when it is enabled
// without paymentMethods, else a new enabled block (a conflict when t
// already has a block).
func (f *Filter) filterBlock(t MethodType) int {
	if i := f.block(t); i >= 0 && f.Options[i].Enable && f.Options[i].PaymentMethods == nil {
		return i
	}
	o := Option{PaymentMethodType: t, Enable: true}
	if t == Card {
		o.CardFilters = []CardFilter{}
	} else {
		o.UPIFilters = []UPIFilter{}
	}
	f.Options = append(f.Options, o)
	return len(f.Options) - 1
}

// HideUPIApps hides the given UPI apps: a UPI option with enable true and an
// INTENT upiFilter with enable false, for example HideUPIApps("PHONEPE",
// "GPAY").
func (f *Filter) HideUPIApps(apps ...string) *Filter {
	return f.mergeUPI(Intent, false, apps)
}

// ShowUPIApps adds the given UPI apps to an INTENT upiFilter with enable
// true, in the UPI option (enabled): Only(UPI).ShowUPIApps("GPAY") shows
// GPAY as the only UPI app; after [New] it hides nothing (see the package
// doc).
func (f *Filter) ShowUPIApps(apps ...string) *Filter {
	return f.mergeUPI(Intent, true, apps)
}

// HideUPIHandles hides the given VPA handles of UPI collect, each written
// "@<handle>": a UPI option with enable true and a COLLECT upiFilter with
// enable false, for example HideUPIHandles("@ybl").
func (f *Filter) HideUPIHandles(handles ...string) *Filter {
	return f.mergeUPI(Collect, false, handles)
}

// ShowUPIHandles adds the given VPA handles of UPI collect to a COLLECT
// upiFilter with enable true: after [Only], only those handles are
// offered; after [New], it adds nothing (see [Filter.ShowUPIApps]).
func (f *Filter) ShowUPIHandles(handles ...string) *Filter {
	return f.mergeUPI(Collect, true, handles)
}

// AddUPIFilter adds a copy of u, as given, to the UPI option (enabled, and
// added when absent), for example UPIFilter{UPIType: Collect} to hide UPI
// collect as a whole.
func (f *Filter) AddUPIFilter(u UPIFilter) *Filter {
	if f == nil {
		f = New()
	}
	o := &f.Options[f.filterBlock(UPI)]
	o.UPIFilters = append(o.UPIFilters, u.clone())
	return f
}

// mergeUPI adds a UPI filter of type t listing methods, merging it into an
// earlier filter of the same type and enable flag.
func (f *Filter) mergeUPI(t UPIType, enable bool, methods []string) *Filter {
	if f == nil {
		f = New()
	}
	o := &f.Options[f.filterBlock(UPI)]
	for j := range o.UPIFilters {
		e := &o.UPIFilters[j]
		if e.UPIType == t && e.Enable == enable && len(e.UPIMethods) > 0 {
			e.UPIMethods = append(e.UPIMethods, methods...)
			return f
		}
	}
	o.UPIFilters = append(o.UPIFilters, UPIFilter{UPIType: t, Enable: enable, UPIMethods: slices.Clone(methods)})
	return f
}
