package paymentfilter

import (
	"slices"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/wire"
)

// Builder builds a Filter fluently, one call per behaviour of spec §2.4. It
// is an immutable value: every method returns a new Builder and leaves its
// receiver untouched, so a half-built Builder can be shared and extended in
// several directions without aliasing surprises. The zero value is ready
// and equals New(). Safe for concurrent use.
//
// The builder keeps one option block per payment method type and merges
// each call into the block of its type. A call that contradicts the block
// (Show after Hide of the same type, card filters on a hidden CARD, methods
// on a type hidden as a whole) is not resolved silently: it adds a second
// block of that type, which Validate and Build report as a duplicate.
type Builder struct {
	only bool // allowDefaultOptions false
	f    Filter
}

// New returns a Builder whose filter keeps every default option visible
// (allowDefaultOptions true) besides what later calls hide or show.
func New() Builder { return Builder{} }

// Only returns a Builder whose filter shows only what is enabled
// (allowDefaultOptions false), starting with the given method types, for
// example Only(UPI) ("show only UPI", spec §2.4). Only() with no type
// starts from nothing, for a filter that shows only EMI or only some
// methods of a type.
func Only(types ...MethodType) Builder {
	return Builder{only: true}.Show(types...)
}

// Filter returns a fresh copy of the filter built so far, not validated.
func (b Builder) Filter() *Filter {
	f := b.f.Clone()
	f.AllowDefaultOptions = !b.only
	if f.Options == nil {
		f.Options = []Option{}
	}
	return f
}

// Build returns a fresh copy of the filter built so far and the result of
// validating it (a *ValidationError).
func (b Builder) Build() (*Filter, error) {
	f := b.Filter()
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// Hide hides each given method type as a whole: an option with enable false
// (spec §2.4, "hide a whole method type", for CARD, WALLET, NB, CASH and
// the others).
func (b Builder) Hide(types ...MethodType) Builder {
	return b.setTypes(false, types)
}

// Show shows each given method type as a whole: an option with enable true.
// With Only it selects what the checkout shows; with New it has no effect
// beyond what the defaults already show, but documents intent.
func (b Builder) Show(types ...MethodType) Builder {
	return b.setTypes(true, types)
}

func (b Builder) setTypes(enable bool, types []MethodType) Builder {
	n := b.clone()
	for _, t := range types {
		i := n.block(t)
		switch {
		case i < 0:
			n.f.Options = append(n.f.Options, Option{PaymentMethodType: t, Enable: enable})
		case n.f.Options[i].Enable == enable && n.f.Options[i].PaymentMethods == nil &&
			(enable || (n.f.Options[i].CardFilters == nil && n.f.Options[i].UPIFilters == nil)):
			// Already so.
		default:
			n.f.Options = append(n.f.Options, Option{PaymentMethodType: t, Enable: enable})
		}
	}
	return n
}

// HideMethods hides the given method codes of type t: an option with
// paymentMethods and enable false (spec §2.4, "hide specific wallets":
// HideMethods(Wallet, "LAZYPAY", "SIMPL")).
func (b Builder) HideMethods(t MethodType, codes ...string) Builder {
	return b.setMethods(t, false, codes)
}

// ShowMethods shows the given method codes of type t: an option with
// paymentMethods and enable true. With Only it shows just those methods,
// for example Only().ShowMethods(NB, "NB_HDFC").
func (b Builder) ShowMethods(t MethodType, codes ...string) Builder {
	return b.setMethods(t, true, codes)
}

// HideMandateMethods hides methods of a mandate flow, passing each code
// twice as spec §2.3 requires (see MandateCodes).
func (b Builder) HideMandateMethods(t MethodType, codes ...string) Builder {
	return b.setMethods(t, false, MandateCodes(t, codes...))
}

// ShowMandateMethods shows methods of a mandate flow, passing each code
// twice as spec §2.3 requires (see MandateCodes).
func (b Builder) ShowMandateMethods(t MethodType, codes ...string) Builder {
	return b.setMethods(t, true, MandateCodes(t, codes...))
}

// MandateCodes returns codes with each method passed twice, as mandate
// flows of NB, WALLET and CONSUMER_FINANCE need (spec §2.3): for NB the
// plain code NB_<BANK> and SVC_<BANK> (MandateCodes(NB, "NB_HDFC") is
// NB_HDFC, SVC_HDFC); for WALLET and CONSUMER_FINANCE <CODE> and
// SVC_<CODE> (PAYTM, SVC_PAYTM). It never drops or rewrites a code it is
// given; Validate reports codes that do not pair up (an NB code without
// NB_, a type without mandate codes).
func MandateCodes(t MethodType, codes ...string) []string {
	out := make([]string, 0, 2*len(codes))
	for _, c := range codes {
		rest := c
		if t == NB {
			rest = strings.TrimPrefix(c, "NB_")
		}
		out = append(out, c, mandatePrefix+rest)
	}
	return out
}

func (b Builder) setMethods(t MethodType, enable bool, codes []string) Builder {
	n := b.clone()
	i := n.block(t)
	if i >= 0 {
		o := &n.f.Options[i]
		if o.Enable == enable && len(o.PaymentMethods) > 0 {
			for _, c := range codes {
				if indexOf(o.PaymentMethods, c) < 0 {
					o.PaymentMethods = append(o.PaymentMethods, c)
				}
			}
			return n
		}
	}
	n.f.Options = append(n.f.Options, Option{PaymentMethodType: t, Enable: enable, PaymentMethods: slices.Clone(codes)})
	return n
}

// HideCardTypes hides cards of the given types, for example
// HideCardTypes(Credit) (spec §2.4, "hide credit cards"): a CARD option with
// enable true and a cardFilter with enable false.
func (b Builder) HideCardTypes(types ...CardType) Builder {
	return b.mergeCard(CardFilter{CardTypes: slices.Clone(types)})
}

// ShowCardTypes shows cards of the given types; with Only(Card) it shows
// only those, for example Only(Card).ShowCardTypes(Credit).
func (b Builder) ShowCardTypes(types ...CardType) Builder {
	return b.mergeCard(CardFilter{Enable: true, CardTypes: slices.Clone(types)})
}

// HideBINRanges hides cards whose BIN falls in the given ranges (spec §2.4,
// "hide BIN ranges").
func (b Builder) HideBINRanges(ranges ...BINRange) Builder {
	return b.mergeCard(CardFilter{CardBins: slices.Clone(ranges)})
}

// ShowBINRanges shows cards whose BIN falls in the given ranges.
func (b Builder) ShowBINRanges(ranges ...BINRange) Builder {
	return b.mergeCard(CardFilter{Enable: true, CardBins: slices.Clone(ranges)})
}

// HideCardBrands hides cards of the given brands, such as "VISA".
func (b Builder) HideCardBrands(brands ...string) Builder {
	return b.mergeCard(CardFilter{CardBrands: slices.Clone(brands)})
}

// ShowCardBrands shows cards of the given brands.
func (b Builder) ShowCardBrands(brands ...string) Builder {
	return b.mergeCard(CardFilter{Enable: true, CardBrands: slices.Clone(brands)})
}

// HideCardBanks hides cards issued by the given banks.
func (b Builder) HideCardBanks(banks ...string) Builder {
	return b.mergeCard(CardFilter{CardBanks: slices.Clone(banks)})
}

// AddCardFilter adds a copy of cf, as given, to the CARD option (enabled,
// and added when absent). Use it for a filter that combines criteria, such
// as VISA credit cards.
func (b Builder) AddCardFilter(cf CardFilter) Builder {
	n := b.clone()
	o := n.cardBlock()
	o.CardFilters = append(o.CardFilters, *cf.Clone())
	return n
}

// mergeCard adds a one-criterion card filter, merging it into an earlier
// filter with the same enable and the same single criterion (the values of
// one list are alternatives, so this keeps the meaning).
func (b Builder) mergeCard(cf CardFilter) Builder {
	n := b.clone()
	o := n.cardBlock()
	for i := range o.CardFilters {
		e := &o.CardFilters[i]
		if e.Enable != cf.Enable || e.Extra != nil || e.criteria() != cf.criteria() || e.criteria() == "" {
			continue
		}
		e.CardBrands = appendNew(e.CardBrands, cf.CardBrands)
		e.CardTypes = appendNew(e.CardTypes, cf.CardTypes)
		e.CardBanks = appendNew(e.CardBanks, cf.CardBanks)
		e.CardBins = appendNew(e.CardBins, cf.CardBins)
		return n
	}
	o.CardFilters = append(o.CardFilters, cf)
	return n
}

// criteria names the single list c sets, or "" when it sets none or several.
func (c *CardFilter) criteria() string {
	set := ""
	for _, l := range []struct {
		key string
		n   int
	}{{"cardBrands", len(c.CardBrands)}, {"cardBins", len(c.CardBins)}, {"cardTypes", len(c.CardTypes)},
		{"cardSubTypes", len(c.CardSubTypes)}, {"cardBanks", len(c.CardBanks)}} {
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

func appendNew[T comparable](list, more []T) []T {
	for _, v := range more {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// cardBlock returns the enabled CARD option, adding one when there is none
// or when the first one is not enabled for card filters.
func (b *Builder) cardBlock() *Option {
	return b.filterBlock(Card)
}

func (b *Builder) filterBlock(t MethodType) *Option {
	if i := b.block(t); i >= 0 && b.f.Options[i].Enable && b.f.Options[i].PaymentMethods == nil {
		return &b.f.Options[i]
	}
	b.f.Options = append(b.f.Options, Option{PaymentMethodType: t, Enable: true})
	return &b.f.Options[len(b.f.Options)-1]
}

// HideUPIApps hides the given UPI apps (spec §2.4): a UPI option with enable
// true and an INTENT upiFilter with enable false, for example
// HideUPIApps("PHONEPE", "GPAY").
func (b Builder) HideUPIApps(apps ...string) Builder {
	return b.mergeUPI(Intent, false, apps)
}

// ShowUPIApps shows the given UPI apps: an INTENT upiFilter with enable true.
func (b Builder) ShowUPIApps(apps ...string) Builder {
	return b.mergeUPI(Intent, true, apps)
}

// HideUPIHandles hides the given VPA handles of UPI collect, each written
// "@<handle>" (spec §2.4): a UPI option with enable true and a COLLECT
// upiFilter with enable false, for example HideUPIHandles("@ybl").
func (b Builder) HideUPIHandles(handles ...string) Builder {
	return b.mergeUPI(Collect, false, handles)
}

// ShowUPIHandles shows the given VPA handles of UPI collect.
func (b Builder) ShowUPIHandles(handles ...string) Builder {
	return b.mergeUPI(Collect, true, handles)
}

// AddUPIFilter adds a copy of u, as given, to the UPI option (enabled, and
// added when absent), for example UPIFilter{UPIType: Collect} to hide UPI
// collect as a whole.
func (b Builder) AddUPIFilter(u UPIFilter) Builder {
	n := b.clone()
	o := n.filterBlock(UPI)
	o.UPIFilters = append(o.UPIFilters, *u.Clone())
	return n
}

func (b Builder) mergeUPI(t UPIType, enable bool, methods []string) Builder {
	n := b.clone()
	o := n.filterBlock(UPI)
	for i := range o.UPIFilters {
		e := &o.UPIFilters[i]
		if e.UPIType == t && e.Enable == enable && e.Extra == nil && len(e.UPIMethods) > 0 {
			e.UPIMethods = appendNew(e.UPIMethods, methods)
			return n
		}
	}
	o.UPIFilters = append(o.UPIFilters, UPIFilter{UPIType: t, Enable: enable, UPIMethods: slices.Clone(methods)})
	return n
}

// AddOption appends a copy of o as its own option block, for keys the
// builder has no method for (Extra). It does not merge: a second block of a
// type already present is reported by Validate.
func (b Builder) AddOption(o Option) Builder {
	n := b.clone()
	n.f.Options = append(n.f.Options, *o.Clone())
	return n
}

// EMI sets emiOptions to the options e builds (spec §2.5), replacing any set
// before, for example EMI(emi.New().OnlyNoCost()).
func (b Builder) EMI(e emi.Builder) Builder {
	n := b.clone()
	n.f.EMIOptions = e.Options()
	return n
}

// block returns the index of the first option of type t, or -1.
func (b *Builder) block(t MethodType) int {
	for i := range b.f.Options {
		if b.f.Options[i].PaymentMethodType == t {
			return i
		}
	}
	return -1
}

func (b Builder) clone() Builder {
	return Builder{only: b.only, f: *b.f.Clone()}
}

// Clone returns a deep copy of f (nil for nil).
func (f *Filter) Clone() *Filter {
	if f == nil {
		return nil
	}
	c := &Filter{
		AllowDefaultOptions: f.AllowDefaultOptions,
		EMIOptions:          f.EMIOptions.Clone(),
		Extra:               wire.CloneExtra(f.Extra),
	}
	if f.Options != nil {
		c.Options = make([]Option, len(f.Options))
		for i := range f.Options {
			c.Options[i] = *f.Options[i].Clone()
		}
	}
	return c
}

// Clone returns a deep copy of o (nil for nil).
func (o *Option) Clone() *Option {
	if o == nil {
		return nil
	}
	c := &Option{
		PaymentMethodType: o.PaymentMethodType,
		Enable:            o.Enable,
		PaymentMethods:    slices.Clone(o.PaymentMethods),
		Extra:             wire.CloneExtra(o.Extra),
	}
	if o.CardFilters != nil {
		c.CardFilters = make([]CardFilter, len(o.CardFilters))
		for i := range o.CardFilters {
			c.CardFilters[i] = *o.CardFilters[i].Clone()
		}
	}
	if o.UPIFilters != nil {
		c.UPIFilters = make([]UPIFilter, len(o.UPIFilters))
		for i := range o.UPIFilters {
			c.UPIFilters[i] = *o.UPIFilters[i].Clone()
		}
	}
	return c
}

// Clone returns a deep copy of c (nil for nil).
func (c *CardFilter) Clone() *CardFilter {
	if c == nil {
		return nil
	}
	return &CardFilter{
		Enable:       c.Enable,
		CardBrands:   slices.Clone(c.CardBrands),
		CardBins:     slices.Clone(c.CardBins),
		CardTypes:    slices.Clone(c.CardTypes),
		CardSubTypes: slices.Clone(c.CardSubTypes),
		CardBanks:    slices.Clone(c.CardBanks),
		Extra:        wire.CloneExtra(c.Extra),
	}
}

// Clone returns a deep copy of u (nil for nil).
func (u *UPIFilter) Clone() *UPIFilter {
	if u == nil {
		return nil
	}
	return &UPIFilter{
		UPIType:    u.UPIType,
		Enable:     u.Enable,
		UPIMethods: slices.Clone(u.UPIMethods),
		Extra:      wire.CloneExtra(u.Extra),
	}
}
