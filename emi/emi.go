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
// path, starting at the emiOptions key, as a *[validation.Error];
// [Options.Lint] gives advice on values the service takes but that are
// probably mistakes.
package emi

import (
	"encoding/json"
	"slices"

	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

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

// visibilityKey is the session request's key of a Visibility: the path of
// its problems.
const visibilityKey = "sdk_udf"

// visibilities are the sdk_udf values, for messages naming the closest.
func visibilities() []Visibility { return []Visibility{Show, Hide, ShowWithoutCards} }

// Valid reports whether v is one of the three sdk_udf values. The zero value
// is not a wire value, so it is not Valid (but Validate accepts it: not sent).
func (v Visibility) Valid() bool {
	switch v {
	case Show, Hide, ShowWithoutCards:
		return true
	}
	return false
}

// Validate reports, at path "sdk_udf", a known value written in another
// case, such as "showemi": the service matches values case-exactly, so it
// would not see it. Other values pass (the service may know more), and the
// zero value means sdk_udf is not sent. [Visibility.Lint] advises on a
// likely typo.
func (v Visibility) Validate() error {
	var e validation.Error
	if msg := jsonobject.CaseMistake("EMI visibility", v, visibilities()); msg != "" {
		e.Add(visibilityKey, msg)
	}
	return e.Err()
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

// MethodTypes returns every paymentMethodType value above, in the order the
// service documents them.
func MethodTypes() []MethodType {
	return []MethodType{Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash}
}

// methodSpellings are the paymentMethodType spellings the service takes:
// the values above and the older WALLETS.
func methodSpellings() []MethodType { return append(MethodTypes(), walletsOld) }

// Valid reports whether t is one of the values above (case sensitive). The
// zero value is not Valid.
func (t MethodType) Valid() bool {
	switch t {
	case Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash:
		return true
	}
	return false
}

// Validate reports, at the path of the paymentMethodType key (callers place it under
// their object's path), a missing value or a known value written in
// another case, such as "card": the service matches values case-exactly,
// so it would not see it. Other values pass: the service may know more
// types.
func (t MethodType) Validate() error {
	var e validation.Error
	if t == "" {
		e.Add(methodTypeKey, "missing: want one of CARD, UPI, WALLET, NB, CONSUMER_FINANCE, REWARD, CASH")
	} else if !t.Valid() && t != walletsOld {
		if msg := jsonobject.CaseMistake("payment method type", t, methodSpellings()); msg != "" {
			e.Add(methodTypeKey, msg)
		}
	}
	return e.Err()
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
	problems []validation.Problem
}

// Clone returns a deep copy of o (nil for nil), with the calls the fluent
// methods could not carry out (see [New]): half-built options to extend in
// another direction, or to hand to another goroutine.
func (o *Options) Clone() *Options {
	if o == nil {
		return nil
	}
	c := *o
	c.StandardEMI = o.StandardEMI.Clone()
	c.LowCostEMI = o.LowCostEMI.Clone()
	c.NoCostEMI = o.NoCostEMI.Clone()
	if o.ShowOnlyEMI != nil {
		only := *o.ShowOnlyEMI
		c.ShowOnlyEMI = &only
	}
	c.Extra = jsonobject.CloneExtra(o.Extra)
	c.problems = slices.Clone(o.problems)
	return &c
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

// Clone returns a deep copy of s (nil for nil).
func (s *SubFilter) Clone() *SubFilter {
	if s == nil {
		return nil
	}
	c := *s
	c.Credit = s.Credit.Clone()
	c.Debit = s.Debit.Clone()
	c.Cardless = s.Cardless.Clone()
	c.Extra = jsonobject.CloneExtra(s.Extra)
	return &c
}

// Group is the credit, debit or cardless object of an EMI plan type.
type Group struct {
	// Enable is enable (required): enables or disables this group.
	Enable bool `json:"enable"`
	// Filters is filters: refinements (emiFilter objects).
	Filters []Filter `json:"filters,omitzero"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Clone returns a deep copy of g (nil for nil).
func (g *Group) Clone() *Group {
	if g == nil {
		return nil
	}
	c := *g
	if g.Filters != nil {
		c.Filters = make([]Filter, len(g.Filters))
		for i := range g.Filters {
			c.Filters[i] = g.Filters[i].clone()
		}
	}
	c.Extra = jsonobject.CloneExtra(g.Extra)
	return &c
}

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

// Clone returns a deep copy of f (nil for nil).
func (f *Filter) Clone() *Filter {
	if f == nil {
		return nil
	}
	c := f.clone()
	return &c
}

func (f *Filter) clone() Filter {
	c := *f
	c.IssuerFilter = f.IssuerFilter.Clone()
	c.Extra = jsonobject.CloneExtra(f.Extra)
	return c
}

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

// Clone returns a deep copy of f (nil for nil).
func (f *IssuerFilter) Clone() *IssuerFilter {
	if f == nil {
		return nil
	}
	c := *f
	c.Issuers = slices.Clone(f.Issuers)
	c.Tenures = slices.Clone(f.Tenures)
	c.Extra = jsonobject.CloneExtra(f.Extra)
	return &c
}
