// Package paymentfilter models payment locking: the payment_filter object of
// a session request, which chooses the payment instruments the hosted
// checkout shows, and carries the EMI filter of package emi.
//
// [Filter] is the model and its own fluent builder. [New] and [Only] return
// a *Filter, and each method changes that filter in place and returns it, so
// calls chain and a call on its own line works too:
//
//	paymentfilter.New().Hide(paymentfilter.Wallet)              // hide a whole type
//	paymentfilter.Only(paymentfilter.UPI)                       // show only UPI
//	paymentfilter.New().HideUPIHandles("@ybl").HideUPIApps("PHONEPE")
//	paymentfilter.New().HideCardTypes(paymentfilter.Credit)     // hide credit cards
//	paymentfilter.New().HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})
//	paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY", "SIMPL")
//	paymentfilter.New().EMI(emi.New().OnlyNoCost())             // EMI plans
//
// The value is ready as it is: it goes straight into a session request or a
// struct literal, and there is no finishing call:
//
//	checkout.SessionRequest{PaymentFilter: paymentfilter.New().Hide(paymentfilter.Wallet)}
//	paymentfilter.Filter{AllowDefaultOptions: true, EMIOptions: emi.New().OnlyNoCost()}
//
// A chain records nothing but the calls it could not carry out, so a chain
// without such calls equals the struct literal of what it builds.
// [Filter.Clone] gives an independent copy of a half-built filter to extend
// in two ways.
//
// [Filter.Validate], which the client calls before sending, reports the
// conflicting calls first, then every problem of the filter with its JSON
// path from "payment_filter", as a *[validation.Error]; [Filter.Lint]
// gives advice on values the service takes but that are probably
// mistakes. The types encode with the service's exact,
// case-sensitive keys and decode the service's published samples (the
// singular card keys of its field table too), keeping keys the SDK does not
// model in Extra, so that decoding then encoding gives the same JSON.
package paymentfilter

import (
	"encoding/json"
	"slices"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/jsonobject"
)

// Filter is the payment_filter object of a session request: which payment
// options the checkout screen shows. Reading it from several goroutines
// (Validate, encoding) is safe; the fluent methods change it, so use
// [Filter.Clone] to give each goroutine its own.
type Filter struct {
	// AllowDefaultOptions is allowDefaultOptions, always sent. true: every
	// default option stays visible besides the filtered ones; false: only
	// the options enabled here are shown.
	AllowDefaultOptions bool `json:"allowDefaultOptions"`
	// Options is options, always sent ([] when empty; the one exception is
	// a decoded filter that had no options, sent back without it while
	// Options stays empty): one block per payment method type, since the
	// service honours only the first block of a type.
	Options []Option `json:"options,omitzero"`
	// EMIOptions is emiOptions, the EMI plans shown (see [emi.Options]),
	// sent when set.
	EMIOptions *emi.Options `json:"emiOptions,omitzero"`
	// Extra holds keys the SDK does not model, sent unchanged after the
	// modelled ones (sorted). Decoding fills it so nothing is lost.
	Extra map[string]json.RawMessage `json:"-"`

	// conflicts are the conflicting fluent calls, in call order, nil when
	// there are none.
	conflicts []conflict
	// optionsAbsent records that the decoded object had no options key:
	// while Options stays empty, it is not sent back either.
	optionsAbsent bool
}

// Clone returns a deep copy of f (nil for nil), with the conflicts of its
// fluent calls (see [New]): a half-built filter to extend in another
// direction, or to hand to another goroutine.
func (f *Filter) Clone() *Filter {
	if f == nil {
		return nil
	}
	c := *f
	if f.Options != nil {
		c.Options = make([]Option, len(f.Options))
		for i := range f.Options {
			c.Options[i] = f.Options[i].clone()
		}
	}
	c.EMIOptions = f.EMIOptions.Clone()
	c.Extra = jsonobject.CloneExtra(f.Extra)
	c.conflicts = slices.Clone(f.conflicts)
	return &c
}

// Option is one element of payment_filter.options: what to show or hide of
// one payment method type.
//
// Keys the SDK does not model, such as display and displayMessage of the
// service's published schema (grey out an option with a message), are kept
// in Extra.
type Option struct {
	// PaymentMethodType is paymentMethodType (required, case sensitive).
	PaymentMethodType MethodType `json:"paymentMethodType"`
	// Enable is enable (required): false hides the type (or the listed
	// methods), true shows it. It must be true for CARD and UPI when they
	// carry card or UPI filters.
	Enable bool `json:"enable"`
	// PaymentMethods is paymentMethods: the method codes the lock applies
	// to. It has no effect on CARD and UPI. Mandate flows of NB, WALLET and
	// CONSUMER_FINANCE pass each code twice (see [MandateCodes]).
	PaymentMethods []string `json:"paymentMethods,omitzero"`
	// CardFilters is cardFilters: considered only for CARD.
	CardFilters []CardFilter `json:"cardFilters,omitzero"`
	// UPIFilters is upiFilters: considered only for UPI.
	UPIFilters []UPIFilter `json:"upiFilters,omitzero"`
	// Extra holds keys the SDK does not model (see Filter.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Clone returns a deep copy of o (nil for nil).
func (o *Option) Clone() *Option {
	if o == nil {
		return nil
	}
	c := o.clone()
	return &c
}

func (o *Option) clone() Option {
	c := *o
	c.PaymentMethods = slices.Clone(o.PaymentMethods)
	if o.CardFilters != nil {
		c.CardFilters = make([]CardFilter, len(o.CardFilters))
		for i := range o.CardFilters {
			c.CardFilters[i] = o.CardFilters[i].clone()
		}
	}
	if o.UPIFilters != nil {
		c.UPIFilters = make([]UPIFilter, len(o.UPIFilters))
		for i := range o.UPIFilters {
			c.UPIFilters[i] = o.UPIFilters[i].clone()
		}
	}
	c.Extra = jsonobject.CloneExtra(o.Extra)
	return c
}

// CardFilter is a cardFilter: which cards of the CARD option to show or
// hide. It encodes the plural keys the service accepts (cardBrands,
// cardBins, cardTypes, cardSubTypes, cardBanks) and decodes the singular
// spellings of the service's field table too (cardBrand, cardBin, cardType,
// cardSubType, cardBank). The lists of one filter combine: {cardBrands:
// [VISA], cardTypes: [CREDIT]} matches VISA credit cards.
type CardFilter struct {
	// Enable is enable (required): false hides, true shows the cards
	// matched.
	Enable bool `json:"enable"`
	// CardBrands is cardBrands: card network brand codes, such as "VISA".
	CardBrands []string `json:"cardBrands,omitzero"`
	// CardBins is cardBins: BIN ranges, written "<from>::<to>".
	CardBins []BINRange `json:"cardBins,omitzero"`
	// CardTypes is cardTypes: DEBIT, CREDIT.
	CardTypes []CardType `json:"cardTypes,omitzero"`
	// CardSubTypes is cardSubTypes: such as BUSINESS, EMPLOYEE_CARD.
	CardSubTypes []string `json:"cardSubTypes,omitzero"`
	// CardBanks is cardBanks: issuing bank names.
	CardBanks []string `json:"cardBanks,omitzero"`
	// Extra holds keys the SDK does not model (see Filter.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Clone returns a deep copy of c (nil for nil).
func (c *CardFilter) Clone() *CardFilter {
	if c == nil {
		return nil
	}
	d := c.clone()
	return &d
}

func (c *CardFilter) clone() CardFilter {
	d := *c
	d.CardBrands = slices.Clone(c.CardBrands)
	d.CardBins = slices.Clone(c.CardBins)
	d.CardTypes = slices.Clone(c.CardTypes)
	d.CardSubTypes = slices.Clone(c.CardSubTypes)
	d.CardBanks = slices.Clone(c.CardBanks)
	d.Extra = jsonobject.CloneExtra(c.Extra)
	return d
}

// UPIFilter is a upiFilter: which UPI apps or collect handles of the UPI
// option to show or hide.
type UPIFilter struct {
	// UPIType is upiType: COLLECT or INTENT; it says what UPIMethods are.
	UPIType UPIType `json:"upiType,omitzero"`
	// Enable is enable (required): false hides, true shows the methods
	// matched.
	Enable bool `json:"enable"`
	// UPIMethods is upiMethods: for COLLECT, VPA handle suffixes "@<handle>";
	// for INTENT, UPI app identifiers.
	UPIMethods []string `json:"upiMethods,omitzero"`
	// Extra holds keys the SDK does not model (see Filter.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Clone returns a deep copy of u (nil for nil).
func (u *UPIFilter) Clone() *UPIFilter {
	if u == nil {
		return nil
	}
	c := u.clone()
	return &c
}

func (u *UPIFilter) clone() UPIFilter {
	c := *u
	c.UPIMethods = slices.Clone(u.UPIMethods)
	c.Extra = jsonobject.CloneExtra(u.Extra)
	return c
}

// MethodType is a paymentMethodType value. It is the same type as
// [emi.MethodType], so one value serves the options and the EMI filters.
type MethodType = emi.MethodType

// The paymentMethodType values, exactly as the service spells them.
// Validate lets other values through (the service may know more types),
// except a known value in another case, such as "card".
const (
	// Card is CARD: cards.
	Card = emi.Card
	// UPI is UPI.
	UPI = emi.UPI
	// Wallet is WALLET: wallets. The service's older documents spell it
	// WALLETS: a decoded WALLETS is kept as it is and sent back as it is,
	// and counts as WALLET for the one-block-per-type rule, for the rule
	// that something stays visible, and for the block a fluent call on
	// Wallet extends.
	Wallet = emi.Wallet
	// NB is NB: net banking.
	NB = emi.NB
	// ConsumerFinance is CONSUMER_FINANCE: consumer finance (pay later).
	ConsumerFinance = emi.ConsumerFinance
	// Reward is REWARD: reward points.
	Reward = emi.Reward
	// Cash is CASH: cash on delivery.
	Cash = emi.Cash
)

// walletsOld is the older spelling of WALLET in the service's documents.
const walletsOld MethodType = "WALLETS"

// sameType returns the type t stands for: WALLET for WALLETS, t otherwise.
func sameType(t MethodType) MethodType {
	if t == walletsOld {
		return Wallet
	}
	return t
}

// CardType is a cardTypes value.
type CardType string

// The cardTypes values, exactly as the service spells them. Validate lets
// other values through, except these in another case.
const (
	// Credit is CREDIT: credit cards.
	Credit CardType = "CREDIT"
	// Debit is DEBIT: debit cards.
	Debit CardType = "DEBIT"
)

// Valid reports whether t is DEBIT or CREDIT (case sensitive). The zero
// value is not Valid.
func (t CardType) Valid() bool { return t == Credit || t == Debit }

// cardTypes are the cardTypes values, for messages naming the closest.
func cardTypes() []CardType { return []CardType{Debit, Credit} }

// UPIType is a upiType value: what the upiMethods of a UPI filter are.
type UPIType string

// The upiType values, exactly as the service spells them. Validate lets
// other values through, except these in another case.
const (
	// Collect is COLLECT: the customer types a VPA; upiMethods are handles.
	Collect UPIType = "COLLECT"
	// Intent is INTENT: the customer picks a UPI app; upiMethods are apps.
	Intent UPIType = "INTENT"
)

// Valid reports whether t is COLLECT or INTENT (case sensitive). The zero
// value is not Valid.
func (t UPIType) Valid() bool { return t == Collect || t == Intent }

// upiTypes are the upiType values, for messages naming the closest.
func upiTypes() []UPIType { return []UPIType{Collect, Intent} }
