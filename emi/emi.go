// Package emi models which EMI (pay in instalments) plans the hosted
// checkout offers: the coarse sdk_udf switch of the session request
// ([Visibility]) and the fine-grained payment_filter.emiOptions
// ([Options]). Options is the model and its own fluent builder: [New]
// returns an empty *Options, and each method (one per behaviour the service
// documents) changes it in place and returns it, so calls chain:
//
//	emi.New().OnlyEMI()                                     // EMI is all the checkout shows
//	emi.New().OnlyNoCost()                                  // no-cost EMI only
//	emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost)
//	emi.New().DisableGroup(emi.NoCost, emi.Credit)          // no credit-card no-cost EMI
//	emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI")
//	emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
//
// The types are plain structs: they encode with the service's exact,
// case-sensitive keys and decode what the service's samples send, keeping
// keys the SDK does not model in Extra so that decoding then encoding gives
// the same JSON. [Options.Validate] reports every problem with its JSON
// path, starting at the emiOptions key.
package emi

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/payorch/checkout-go/internal/deepcopy"
	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/internal/valid"
)

// ValidationError is the error of Validate: every problem with its JSON path.
// It is the same type as checkout.ValidationError.
type ValidationError = valid.Error

// Problem is one reason a value cannot be sent: a JSON path and a message.
type Problem = valid.Problem

// Visibility is the session request's sdk_udf value, the coarse EMI switch:
// show EMI, hide it, or show it without the CARD method. The service
// operator must enable it for the account. The zero value means "not sent".
type Visibility string

// The sdk_udf values, exactly as the service spells them (case sensitive).
const (
	// Show is sdk_udf "showEMI": EMI is shown on the checkout screen.
	Show Visibility = "showEMI"
	// Hide is sdk_udf "hideEMI": EMI is hidden.
	Hide Visibility = "hideEMI"
	// ShowWithoutCards is sdk_udf "ShowEMIWithoutCards": EMI is shown, the
	// CARD method is not.
	ShowWithoutCards Visibility = "ShowEMIWithoutCards"
)

// Valid reports whether v is one of the three sdk_udf values. The zero value
// is not a wire value, so it is not Valid (but Validate accepts it: not sent).
func (v Visibility) Valid() bool { return slices.Contains(visibilities[:], v) }

var visibilities = [...]Visibility{Show, Hide, ShowWithoutCards}

// Validate reports, at path "sdk_udf", a known value written in another
// case, such as "showemi": the service matches values case-exactly, so it
// would not see it. Other values pass (the service may know more), and the
// zero value means sdk_udf is not sent.
func (v Visibility) Validate() error {
	if msg := tagjson.CaseMistake("EMI visibility", v, visibilities[:]...); msg != "" {
		return tagjson.Problem("sdk_udf", msg)
	}
	return nil
}

// MethodType is a paymentMethodType value: a kind of payment instrument.
// paymentfilter.MethodType is the same type, so one value serves the
// options of a payment filter and its EMI refinements.
type MethodType string

// The paymentMethodType values, exactly as the service spells them.
// Validate lets other values through (the service may know more types),
// except these in another case.
const (
	// Card is CARD: cards.
	Card MethodType = "CARD"
	// UPI is UPI.
	UPI MethodType = "UPI"
	// Wallet is WALLET: wallets.
	Wallet MethodType = "WALLET"
	// NB is NB: net banking.
	NB MethodType = "NB"
	// ConsumerFinance is CONSUMER_FINANCE: consumer finance (pay later).
	ConsumerFinance MethodType = "CONSUMER_FINANCE"
	// Reward is REWARD: reward points.
	Reward MethodType = "REWARD"
	// Cash is CASH: cash.
	Cash MethodType = "CASH"
)

// walletsOld is the older spelling of WALLET in the service's documents,
// which the service takes too.
const walletsOld MethodType = "WALLETS"

var (
	// methodTypes are the values above, in the order the service
	// documents them.
	methodTypes = [...]MethodType{Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash}
	// methodSpellings are the spellings the service takes.
	methodSpellings = append(methodTypes[:len(methodTypes):len(methodTypes)], walletsOld)
)

// MethodTypes returns every paymentMethodType value above, in the order the
// service documents them.
func MethodTypes() []MethodType { return slices.Clone(methodTypes[:]) }

// Valid reports whether t is one of the values above (case sensitive). The
// zero value is not Valid.
func (t MethodType) Valid() bool { return slices.Contains(methodTypes[:], t) }

// Validate reports, at the path of the paymentMethodType key (callers place it under
// their object's path), a missing value or a known value written in
// another case, such as "card": the service matches values case-exactly,
// so it would not see it. Other values pass: the service may know more
// types.
func (t MethodType) Validate() error {
	if t == "" {
		return tagjson.Problem(methodTypeKey, "missing: want one of CARD, UPI, WALLET, NB, CONSUMER_FINANCE, REWARD, CASH")
	}
	if msg := tagjson.CaseMistake("payment method type", t, methodSpellings...); msg != "" {
		return tagjson.Problem(methodTypeKey, msg)
	}
	return nil
}

// Options is payment_filter.emiOptions: which EMI plans the checkout
// offers. Each plan type left nil is not sent and keeps the service's
// default. Reading it from several goroutines (Validate, encoding) is safe;
// the fluent methods change it, so use [Options.Clone] to give each
// goroutine its own. (The method that sets showOnlyEmi is OnlyEMI: the
// field ShowOnlyEMI takes the name.)
type Options struct {
	// StandardEMI is standardEmi: standard EMI plans.
	StandardEMI *SubFilter `json:"standardEmi,omitzero"`
	// LowCostEMI is lowCostEmi: low cost EMI plans.
	LowCostEMI *SubFilter `json:"lowCostEmi,omitzero"`
	// NoCostEMI is noCostEmi: no cost EMI plans.
	NoCostEMI *SubFilter `json:"noCostEmi,omitzero"`
	// ShowOnlyEMI is showOnlyEmi: true makes EMI the only visible instrument.
	ShowOnlyEMI *bool `json:"showOnlyEmi,omitzero"`
	// Extra holds keys the SDK does not model, sent unchanged after the
	// modelled ones (sorted). Decoding fills it so nothing is lost.
	Extra map[string]json.RawMessage `json:"-"`

	// problems are the fluent calls that could not be carried out (see
	// New), in call order.
	problems []valid.Problem
}

// rootPath is where the paths of Validate and of decoding problems start:
// the key of the options in payment_filter.
const rootPath = "emiOptions"

// optionsObject and the others are the keys the types declare in their
// json tags, read once. The types below Options only add their Extra keys
// in MarshalJSON, so a tree without any is encoded in one pass (see
// WithPlain).
var (
	optionsObject = tagjson.ObjectOf[Options]().WithPlain(
		reflect.TypeFor[SubFilter](), reflect.TypeFor[Group](), reflect.TypeFor[Filter](), reflect.TypeFor[IssuerFilter]())
	subFilterObject = tagjson.ObjectOf[SubFilter]().WithPlain(
		reflect.TypeFor[Group](), reflect.TypeFor[Filter](), reflect.TypeFor[IssuerFilter]())
	groupObject   = tagjson.ObjectOf[Group]().WithPlain(reflect.TypeFor[Filter](), reflect.TypeFor[IssuerFilter]())
	filterObject  = issuerFilters(tagjson.ObjectOf[Filter]()).WithPlain(reflect.TypeFor[IssuerFilter]())
	issuerObject  = tagjson.ObjectOf[IssuerFilter]()
	methodTypeKey = filterObject.Key("PaymentMethodType")
)

// MarshalJSON encodes o with the service's keys: the plan types that are
// set, showOnlyEmi when set, then Extra.
func (o Options) MarshalJSON() ([]byte, error) {
	type plain Options
	return optionsObject.Marshal((*plain)(&o), o.Extra)
}

// UnmarshalJSON decodes emiOptions. It is strict about what it models
// (case-exact keys, JSON types, required enable flags) and keeps every
// other key in Extra. Errors are a *ValidationError at the JSON path from
// the emiOptions key; null leaves o unchanged.
func (o *Options) UnmarshalJSON(data []byte) error {
	return optionsObject.Unmarshal(data, o, rootPath)
}

// Clone returns a deep copy of o (nil for nil), with the calls the fluent
// methods could not carry out (see [New]): half-built options to extend in
// another direction, or to hand to another goroutine.
func (o *Options) Clone() *Options {
	c := deepcopy.Of(o)
	if c != nil {
		c.problems = slices.Clone(o.problems)
	}
	return c
}

// SubFilter is an EMI plan type: the standardEmi, lowCostEmi or noCostEmi
// object.
type SubFilter struct {
	// Enable is enable (required): enables or disables this EMI type.
	Enable bool `json:"enable"`
	// Credit is credit: credit-card plans within this EMI type.
	Credit *Group `json:"credit,omitzero"`
	// Debit is debit: debit-card plans within this EMI type.
	Debit *Group `json:"debit,omitzero"`
	// Cardless is cardless: cardless plans within this EMI type.
	Cardless *Group `json:"cardless,omitzero"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// MarshalJSON encodes s with the service's keys, then Extra.
func (s SubFilter) MarshalJSON() ([]byte, error) {
	type plain SubFilter
	return subFilterObject.Marshal((*plain)(&s), s.Extra)
}

// UnmarshalJSON decodes an EMI plan type (see [Options.UnmarshalJSON]);
// paths in errors are relative to it.
func (s *SubFilter) UnmarshalJSON(data []byte) error {
	return subFilterObject.Unmarshal(data, s, "")
}

// Clone returns a deep copy of s (nil for nil).
func (s *SubFilter) Clone() *SubFilter { return deepcopy.Of(s) }

// Group is the credit, debit or cardless object of an EMI plan type.
type Group struct {
	// Enable is enable (required): enables or disables this group.
	Enable bool `json:"enable"`
	// Filters is filters: refinements (emiFilter objects).
	Filters []Filter `json:"filters,omitzero"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// MarshalJSON encodes g with the service's keys, then Extra; filters is
// sent when it is non-nil (an empty decoded list is sent back as []).
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group
	return groupObject.Marshal((*plain)(&g), g.Extra)
}

// UnmarshalJSON decodes a credit, debit or cardless group (see
// [Options.UnmarshalJSON]); paths in errors are relative to the group.
func (g *Group) UnmarshalJSON(data []byte) error {
	return groupObject.Unmarshal(data, g, "")
}

// Clone returns a deep copy of g (nil for nil).
func (g *Group) Clone() *Group { return deepcopy.Of(g) }

// Filter is an emiFilter: one refinement inside a Group, matching plans by
// payment method and issuer.
type Filter struct {
	// Enable is enable (required): enables or disables the plans matched.
	Enable bool `json:"enable"`
	// PaymentMethodType is paymentMethodType (optional, case sensitive).
	PaymentMethodType MethodType `json:"paymentMethodType,omitzero"`
	// PaymentMethod is paymentMethod (optional): the payment method whose
	// plans are matched, a single string as the samples send it.
	PaymentMethod string `json:"paymentMethod,omitzero"`
	// IssuerFilter is issuerFilter (optional). Decoding also accepts the
	// spelling issuerFilters of the service's field table; encoding always
	// writes issuerFilter, as the service's samples do.
	IssuerFilter *IssuerFilter `json:"issuerFilter,omitzero"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// issuerFilters makes o accept the plural spelling of the issuer filter's
// key.
func issuerFilters(o *tagjson.Object) *tagjson.Object {
	k := o.Key("IssuerFilter")
	return o.WithAlias(k+"s", k)
}

// MarshalJSON encodes f with the service's keys (issuerFilter, singular),
// then Extra.
func (f Filter) MarshalJSON() ([]byte, error) {
	type plain Filter
	return filterObject.Marshal((*plain)(&f), f.Extra)
}

// UnmarshalJSON decodes an emiFilter, accepting issuerFilters for
// issuerFilter (both in one object is an error); paths in errors are
// relative to the filter.
func (f *Filter) UnmarshalJSON(data []byte) error {
	return filterObject.Unmarshal(data, f, "")
}

// Clone returns a deep copy of f (nil for nil).
func (f *Filter) Clone() *Filter { return deepcopy.Of(f) }

// IssuerFilter is the issuerFilter object of an emiFilter: the plans of
// some issuers, or of some of their tenures.
type IssuerFilter struct {
	// Issuers is issuers: issuer codes, written SVC_<BANK> in the service's
	// documents; deployments use their own prefix, such as JP_<BANK>.
	Issuers []string `json:"issuers,omitzero"`
	// Tenures is tenures: tenure ranges in months, written "<from>::<to>".
	Tenures []TenureRange `json:"tenures,omitzero"`
	// Enable is enable (required): false removes the matched plans.
	Enable bool `json:"enable"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// MarshalJSON encodes f with the service's keys, then Extra; issuers and
// tenures are sent when non-nil.
func (f IssuerFilter) MarshalJSON() ([]byte, error) {
	type plain IssuerFilter
	return issuerObject.Marshal((*plain)(&f), f.Extra)
}

// UnmarshalJSON decodes an issuerFilter (see [Options.UnmarshalJSON]). A
// tenure that is not a well-formed range is kept for Validate to report.
func (f *IssuerFilter) UnmarshalJSON(data []byte) error {
	return issuerObject.Unmarshal(data, f, "")
}

// Clone returns a deep copy of f (nil for nil).
func (f *IssuerFilter) Clone() *IssuerFilter { return deepcopy.Of(f) }
