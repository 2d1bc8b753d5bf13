package paymentfilter

import "slices"

// HideCardTypes hides cards of the given types, for example
// HideCardTypes(Credit) to hide credit cards: a CARD option with enable true
// and a cardFilter with enable false.
func (f *Filter) HideCardTypes(types ...CardType) *Filter {
	return f.mergeCard(func() string { return listCall("HideCardTypes", types) }, CardFilter{CardTypes: slices.Clone(types)})
}

// ShowCardTypes shows cards of the given types; with Only(Card) it shows
// only those, for example Only(Card).ShowCardTypes(Credit).
func (f *Filter) ShowCardTypes(types ...CardType) *Filter {
	return f.mergeCard(func() string { return listCall("ShowCardTypes", types) }, CardFilter{Enable: true, CardTypes: slices.Clone(types)})
}

// HideBINRanges hides cards whose BIN falls in the given ranges.
func (f *Filter) HideBINRanges(ranges ...BINRange) *Filter {
	return f.mergeCard(func() string { return listCall("HideBINRanges", ranges) }, CardFilter{CardBins: slices.Clone(ranges)})
}

// ShowBINRanges shows cards whose BIN falls in the given ranges.
func (f *Filter) ShowBINRanges(ranges ...BINRange) *Filter {
	return f.mergeCard(func() string { return listCall("ShowBINRanges", ranges) }, CardFilter{Enable: true, CardBins: slices.Clone(ranges)})
}

// HideCardBrands hides cards of the given brands, such as "VISA".
func (f *Filter) HideCardBrands(brands ...string) *Filter {
	return f.mergeCard(func() string { return listCall("HideCardBrands", brands) }, CardFilter{CardBrands: slices.Clone(brands)})
}

// ShowCardBrands shows cards of the given brands.
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
	o := f.filterBlock(func() string { return jsonCall("AddCardFilter", cf) }, Card)
	o.CardFilters = append(o.CardFilters, *cf.Clone())
	return f
}

// mergeCard adds a one-criterion card filter, merging it into an earlier
// filter with the same enable and the same single criterion (the values of
// one list are alternatives, so this keeps the meaning).
func (f *Filter) mergeCard(call func() string, cf CardFilter) *Filter {
	if f == nil {
		f = New()
	}
	o := f.filterBlock(call, Card)
	want := cf.criterion()
	for i := range o.CardFilters {
		e := &o.CardFilters[i]
		if e.Enable != cf.Enable || e.Extra != nil || want == "" || e.criterion() != want {
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

// criterion names the single list c sets, or "" when it sets none or
// several.
func (c *CardFilter) criterion() string {
	set := ""
	for _, l := range [...]struct {
		name string
		n    int
	}{{"brands", len(c.CardBrands)}, {"bins", len(c.CardBins)}, {"types", len(c.CardTypes)},
		{"subtypes", len(c.CardSubTypes)}, {"banks", len(c.CardBanks)}} {
		if l.n == 0 {
			continue
		}
		if set != "" {
			return ""
		}
		set = l.name
	}
	return set
}

// filterBlock returns the block of type t (CARD or UPI) that card or UPI
// filters go into: the first block of t when it is enabled without
// paymentMethods, else a new enabled block (a conflict when t already has
// a block).
func (f *Filter) filterBlock(call func() string, t MethodType) *Option {
	if i := f.block(t); i >= 0 && f.Options[i].Enable && f.Options[i].PaymentMethods == nil {
		return &f.Options[i]
	}
	o := Option{PaymentMethodType: t, Enable: true}
	what := upiFiltersKey
	if t == Card {
		o.CardFilters = []CardFilter{}
		what = cardFiltersKey
	} else {
		o.UPIFilters = []UPIFilter{}
	}
	return f.add(call, "one block cannot also carry "+what+", which need enable: true and no paymentMethods", o)
}

// HideUPIApps hides the given UPI apps: a UPI option with enable true and an
// INTENT upiFilter with enable false, for example HideUPIApps("PHONEPE",
// "GPAY").
func (f *Filter) HideUPIApps(apps ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("HideUPIApps", apps) }, Intent, false, apps)
}

// ShowUPIApps shows the given UPI apps: an INTENT upiFilter with enable true.
func (f *Filter) ShowUPIApps(apps ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("ShowUPIApps", apps) }, Intent, true, apps)
}

// HideUPIHandles hides the given VPA handles of UPI collect, each written
// "@<handle>": a UPI option with enable true and a COLLECT upiFilter with
// enable false, for example HideUPIHandles("@ybl").
func (f *Filter) HideUPIHandles(handles ...string) *Filter {
	return f.mergeUPI(func() string { return listCall("HideUPIHandles", handles) }, Collect, false, handles)
}

// ShowUPIHandles shows the given VPA handles of UPI collect.
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
	o := f.filterBlock(func() string { return jsonCall("AddUPIFilter", u) }, UPI)
	o.UPIFilters = append(o.UPIFilters, *u.Clone())
	return f
}

func (f *Filter) mergeUPI(call func() string, t UPIType, enable bool, methods []string) *Filter {
	if f == nil {
		f = New()
	}
	o := f.filterBlock(call, UPI)
	for i := range o.UPIFilters {
		e := &o.UPIFilters[i]
		if e.UPIType == t && e.Enable == enable && e.Extra == nil && len(e.UPIMethods) > 0 {
			e.UPIMethods = append(e.UPIMethods, methods...)
			return f
		}
	}
	o.UPIFilters = append(o.UPIFilters, UPIFilter{UPIType: t, Enable: enable, UPIMethods: slices.Clone(methods)})
	return f
}
