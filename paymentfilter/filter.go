package paymentfilter

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/payorch/checkout-go/emi"
)

// The wire keys that problem paths name, as the json tags below write them
// (a test checks them against the tags).
const (
	rootPath        = "payment_filter" // the session request's key of the filter, where paths start
	allowKey        = "allowDefaultOptions"
	optionsKey      = "options"
	methodTypeKey   = "paymentMethodType"
	enableKey       = "enable"
	methodsKey      = "paymentMethods"
	cardFiltersKey  = "cardFilters"
	upiFiltersKey   = "upiFilters"
	cardBrandsKey   = "cardBrands"
	cardBinsKey     = "cardBins"
	cardTypesKey    = "cardTypes"
	cardSubTypesKey = "cardSubTypes"
	cardBanksKey    = "cardBanks"
	upiTypeKey      = "upiType"
	upiMethodsKey   = "upiMethods"
)

// Filter is the payment_filter object of a session request: which payment
// options the checkout screen shows. Reading it from several goroutines is
// safe; the fluent methods change it, so use [Filter.Clone] to give each
// goroutine its own.
type Filter struct {
	// AllowDefaultOptions is allowDefaultOptions, always sent. true: every
	// default option stays visible besides the filtered ones; false: only
	// the options enabled here are shown.
	AllowDefaultOptions bool `json:"allowDefaultOptions"`
	// Options is options, always sent ([] when there are none: the service
	// requires the key): one block per payment method type, since the
	// service honours only the first block of a type.
	Options []Option `json:"options"`
	// EMIOptions is emiOptions, the EMI plans shown, sent when set.
	EMIOptions *emi.Options `json:"emiOptions,omitempty"`
}

// MarshalJSON writes the filter with its options always present, as an
// empty array when it has none (a filter of emiOptions alone): the service
// requires the key.
func (f Filter) MarshalJSON() ([]byte, error) {
	type plain Filter // the same fields and tags, without this method
	p := plain(f)
	if p.Options == nil {
		p.Options = []Option{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the caller's encoder decides on escaping
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Clone returns a deep copy of f (nil for nil): a half-built filter to
// extend in another direction, or to hand to another goroutine.
func (f *Filter) Clone() *Filter {
	if f == nil {
		return nil
	}
	c := *f
	c.Options = cloneEach(f.Options, (*Option).clone)
	c.EMIOptions = f.EMIOptions.Clone()
	return &c
}

// cloneEach returns a copy of list made by clone (nil for nil).
func cloneEach[T any](list []T, clone func(*T) T) []T {
	if list == nil {
		return nil
	}
	c := make([]T, len(list))
	for i := range list {
		c[i] = clone(&list[i])
	}
	return c
}

// Option is one element of payment_filter.options: what to show or hide of
// one payment method type.
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
	// Display is display: with Enable false, true greys the methods out
	// instead of hiding them, showing DisplayMessage.
	Display bool `json:"display,omitempty"`
	// DisplayMessage is displayMessage: the text shown on greyed-out methods.
	DisplayMessage string `json:"displayMessage,omitempty"`
}

func (o *Option) clone() Option {
	c := *o
	c.PaymentMethods = slices.Clone(o.PaymentMethods)
	c.CardFilters = cloneEach(o.CardFilters, (*CardFilter).clone)
	c.UPIFilters = cloneEach(o.UPIFilters, (*UPIFilter).clone)
	return c
}

// CardFilter is a cardFilter: which cards of the CARD option to show or
// hide. The lists of one filter combine: {cardBrands: [VISA], cardTypes:
// [CREDIT]} matches VISA credit cards.
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
}

// UnmarshalJSON decodes a cardFilter, taking the singular keys of the
// service's field table (cardBrand, cardBin, cardType, cardSubType,
// cardBank) for the plural ones; both spellings of one key is an error.
func (c *CardFilter) UnmarshalJSON(data []byte) error {
	if c == nil {
		return errors.New("checkout: decode card filter: nil pointer")
	}
	type plain CardFilter
	var v struct {
		plain
		CardBrand   []string   `json:"cardBrand"`
		CardBin     []BINRange `json:"cardBin"`
		CardType    []CardType `json:"cardType"`
		CardSubType []string   `json:"cardSubType"`
		CardBank    []string   `json:"cardBank"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if !(singular(&v.CardBrands, v.CardBrand) && singular(&v.CardBins, v.CardBin) &&
		singular(&v.CardTypes, v.CardType) && singular(&v.CardSubTypes, v.CardSubType) &&
		singular(&v.CardBanks, v.CardBank)) {
		return errors.New("checkout: decode card filter: a key is given in both its singular and plural spelling")
	}
	*c = CardFilter(v.plain)
	return nil
}

// singular moves a list decoded under a singular key into its plural
// field; false when both were given.
func singular[T any](plural *[]T, one []T) bool {
	if one == nil {
		return true
	}
	if *plural != nil {
		return false
	}
	*plural = one
	return true
}

func (c *CardFilter) clone() CardFilter {
	d := *c
	d.CardBrands = slices.Clone(c.CardBrands)
	d.CardBins = slices.Clone(c.CardBins)
	d.CardTypes = slices.Clone(c.CardTypes)
	d.CardSubTypes = slices.Clone(c.CardSubTypes)
	d.CardBanks = slices.Clone(c.CardBanks)
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
}

func (u *UPIFilter) clone() UPIFilter {
	c := *u
	c.UPIMethods = slices.Clone(u.UPIMethods)
	return c
}

// MethodType is a paymentMethodType value: a kind of payment instrument.
// This package owns the vocabulary: the options of a filter and the EMI
// filters of its emiOptions ([emi.Filter], whose PaymentMethodType is the
// text of a MethodType) take these values, and [Filter.Validate] checks
// both.
type MethodType string

// The paymentMethodType values, exactly as the service spells them.
// Validate lets other values through (the service may know more types),
// except a known value in another case, such as "card".
// The older spelling WALLETS is sent as it is and counts as WALLET for
// every rule of this package.
const (
	Card            MethodType = "CARD"             // cards
	UPI             MethodType = "UPI"              // UPI
	Wallet          MethodType = "WALLET"           // wallets
	NB              MethodType = "NB"               // net banking
	ConsumerFinance MethodType = "CONSUMER_FINANCE" // consumer finance (pay later)
	Reward          MethodType = "REWARD"           // reward points
	Cash            MethodType = "CASH"             // cash on delivery
)

// walletsOld is the older spelling of WALLET, which the service takes too.
const walletsOld MethodType = "WALLETS"

// MethodTypes returns every paymentMethodType value above, in the order the
// service documents them.
func MethodTypes() []MethodType {
	return []MethodType{Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash}
}

// Valid reports whether t is one of the values above (case sensitive). The
// zero value is not Valid, nor is the older spelling WALLETS, which the
// service takes.
func (t MethodType) Valid() bool { return slices.Contains(MethodTypes(), t) }

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
	Credit CardType = "CREDIT" // credit cards
	Debit  CardType = "DEBIT"  // debit cards
)

// Valid reports whether t is DEBIT or CREDIT (case sensitive). The zero
// value is not Valid.
func (t CardType) Valid() bool { return t == Credit || t == Debit }

// UPIType is a upiType value: what the upiMethods of a UPI filter are.
type UPIType string

// The upiType values, exactly as the service spells them. Validate lets
// other values through, except these in another case.
const (
	Collect UPIType = "COLLECT" // the customer types a VPA; upiMethods are handles
	Intent  UPIType = "INTENT"  // the customer picks a UPI app; upiMethods are apps
)

// Valid reports whether t is COLLECT or INTENT (case sensitive). The zero
// value is not Valid.
func (t UPIType) Valid() bool { return t == Collect || t == Intent }
