// Package paymentfilter models payment locking (spec §2.2–2.4): the
// payment_filter object of a session request, which restricts the payment
// instruments the hosted checkout shows, and carries the EMI filter of
// package emi.
//
// Filter is the model and its own fluent builder. New and Only return a
// *Filter, and every method reads like a line of the behaviour table of
// spec §2.4, returning a new *Filter (a deep copy) and leaving its receiver
// untouched:
//
//	paymentfilter.New().Hide(paymentfilter.Wallet)              // hide a whole type
//	paymentfilter.Only(paymentfilter.UPI)                       // show only UPI
//	paymentfilter.New().HideUPIHandles("@ybl").HideUPIApps("PHONEPE")
//	paymentfilter.New().HideCardTypes(paymentfilter.Credit)     // hide credit cards
//	paymentfilter.New().HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})
//	paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY", "SIMPL")
//	paymentfilter.New().EMI(emi.New().OnlyNoCost())             // spec §2.5
//
// so a chain goes straight into a session request or a struct literal:
//
//	checkout.SessionRequest{PaymentFilter: paymentfilter.New().Hide(paymentfilter.Wallet)}
//	paymentfilter.Filter{AllowDefaultOptions: true, EMIOptions: emi.New().OnlyNoCost()}
//
// A chain keeps no record of its calls, only of the calls it could not
// carry out, so one without such problems is reflect.DeepEqual to the
// literal of what it builds: New().EMI(emi.New().OnlyNoCost()) to the
// literal above.
//
// Build validates a copy; Validate, which the client calls before sending,
// reports first the fluent calls that conflict (see New) or that the
// emi.Options given to EMI rejected. The structs encode with the service's
// exact, case-sensitive keys and decode the service's published samples
// (including the singular card keys of the field table), keeping keys the
// SDK does not model in Extra so that decoding then encoding gives the same
// JSON.
// Validate reports every problem with its JSON path, starting at
// "payment_filter".
package paymentfilter

import (
	"encoding/json"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/valid"
)

// ValidationError is the error of Validate: every problem with its JSON path.
// It is the same type as checkout.ValidationError.
type ValidationError = valid.Error

// Problem is one reason a value cannot be sent: a JSON path and a message.
type Problem = valid.Problem

// Filter is the payment_filter object of a session request (spec §2.2). It
// is a plain value: safe for concurrent reads (Validate, encoding, the
// fluent methods), not for concurrent writes. Clone makes an independent
// copy. New and Only start a fluent chain whose every step is a new
// *Filter (see New); a struct literal works as well.
type Filter struct {
	// AllowDefaultOptions is allowDefaultOptions, always sent. true: every
	// default option stays visible besides the filtered ones; false: only
	// the options enabled here are shown.
	AllowDefaultOptions bool `json:"allowDefaultOptions"`
	// Options is options, always sent ([] when empty): one block per
	// payment method type (the service honours only the first block of a
	// type, so Validate rejects duplicates).
	Options []Option `json:"options"`
	// EMIOptions is emiOptions (spec §2.5), sent when set.
	EMIOptions *emi.Options `json:"emiOptions,omitempty"`
	// Extra holds keys the SDK does not model, sent unchanged after the
	// modelled ones (sorted). Decoding fills it so nothing is lost.
	Extra map[string]json.RawMessage `json:"-"`

	// conflicts are the conflicting fluent calls, in call order, nil when
	// there are none. Shared between copies: only ever appended to through
	// a clip.
	conflicts []conflict
	// optionsAbsent records that the decoded object had no options key:
	// while Options stays empty, it is not sent back either.
	optionsAbsent bool
}

// Option is one element of payment_filter.options (spec §2.3).
//
// Keys the spec does not list, such as display and displayMessage of the
// service's published schema (grey out an option with a message), are kept
// in Extra.
type Option struct {
	// PaymentMethodType is paymentMethodType (required, case sensitive).
	PaymentMethodType MethodType `json:"paymentMethodType"`
	// Enable is enable (required): false hides the type (or the named
	// methods), true shows it. It must be true for CARD and UPI when they
	// carry card or UPI filters.
	Enable bool `json:"enable"`
	// PaymentMethods is paymentMethods: the method codes the lock applies
	// to. It has no effect on CARD and UPI. For mandate flows of NB, WALLET
	// and CONSUMER_FINANCE each code is passed twice (see MandateCodes).
	PaymentMethods []string `json:"paymentMethods,omitempty"`
	// CardFilters is cardFilters: considered only for CARD.
	CardFilters []CardFilter `json:"cardFilters,omitempty"`
	// UPIFilters is upiFilters: considered only for UPI.
	UPIFilters []UPIFilter `json:"upiFilters,omitempty"`
	// Extra holds keys the SDK does not model (see Filter.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// CardFilter is a cardFilter (spec §2.3). It encodes the plural keys the
// service accepts (cardBrands, cardBins, cardTypes, cardSubTypes,
// cardBanks) and decodes the singular spellings of the spec's field table
// too (cardBrand, cardBin, cardType, cardSubType, cardBank). The lists of
// one filter combine: {cardBrands: [VISA], cardTypes: [CREDIT]} matches VISA
// credit cards.
type CardFilter struct {
	// Enable is enable (required): false disables, true enables the cards
	// matched.
	Enable bool `json:"enable"`
	// CardBrands is cardBrands: card network brand codes, such as "VISA".
	CardBrands []string `json:"cardBrands,omitempty"`
	// CardBins is cardBins: BIN ranges, written "<from>::<to>".
	CardBins []BINRange `json:"cardBins,omitempty"`
	// CardTypes is cardTypes: DEBIT, CREDIT.
	CardTypes []CardType `json:"cardTypes,omitempty"`
	// CardSubTypes is cardSubTypes: such as BUSINESS, EMPLOYEE_CARD.
	CardSubTypes []string `json:"cardSubTypes,omitempty"`
	// CardBanks is cardBanks: issuing bank names.
	CardBanks []string `json:"cardBanks,omitempty"`
	// Extra holds keys the SDK does not model (see Filter.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// UPIFilter is a upiFilter (spec §2.3).
type UPIFilter struct {
	// UPIType is upiType: COLLECT or INTENT; it says what UPIMethods are.
	UPIType UPIType `json:"upiType,omitempty"`
	// Enable is enable (required): false disables, true enables the
	// methods matched.
	Enable bool `json:"enable"`
	// UPIMethods is upiMethods: for COLLECT, VPA handle suffixes "@<handle>";
	// for INTENT, UPI app identifiers.
	UPIMethods []string `json:"upiMethods,omitempty"`
	// Extra holds keys the SDK does not model (see Filter.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// MethodType is a paymentMethodType value (spec §2.3). It is the same type
// as emi.MethodType, so one value serves the options and the EMI filters.
type MethodType = emi.MethodType

// The paymentMethodType values, exactly as the service spells them.
const (
	// Card is CARD.
	Card = emi.Card
	// UPI is UPI.
	UPI = emi.UPI
	// Wallet is WALLET.
	Wallet = emi.Wallet
	// NB is NB (net banking).
	NB = emi.NB
	// ConsumerFinance is CONSUMER_FINANCE.
	ConsumerFinance = emi.ConsumerFinance
	// Reward is REWARD.
	Reward = emi.Reward
	// Cash is CASH.
	Cash = emi.Cash
)

// CardType is a cardTypes value (spec §2.3).
type CardType string

// The cardTypes values, exactly as the service spells them.
const (
	// Credit is CREDIT.
	Credit CardType = "CREDIT"
	// Debit is DEBIT.
	Debit CardType = "DEBIT"
)

// Valid reports whether t is DEBIT or CREDIT (case sensitive). The zero
// value is not Valid.
func (t CardType) Valid() bool { return t == Credit || t == Debit }

// UPIType is a upiType value (spec §2.3).
type UPIType string

// The upiType values, exactly as the service spells them.
const (
	// Collect is COLLECT: the customer types a VPA; upiMethods are handles.
	Collect UPIType = "COLLECT"
	// Intent is INTENT: the customer picks a UPI app; upiMethods are apps.
	Intent UPIType = "INTENT"
)

// Valid reports whether t is COLLECT or INTENT (case sensitive). The zero
// value is not Valid.
func (t UPIType) Valid() bool { return t == Collect || t == Intent }
