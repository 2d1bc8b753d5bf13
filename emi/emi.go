// Package emi models EMI filtering of the hosted checkout (spec §2.5): the
// sdk_udf visibility switch (Visibility) and payment_filter.emiOptions
// (Options). Options is the model and its own fluent builder: New returns
// an empty *Options and every method (one per behaviour the spec lists)
// returns a new *Options, leaving its receiver untouched:
//
//	emi.New().OnlyEMI()                                     // showOnlyEmi true
//	emi.New().OnlyNoCost()                                  // no-cost EMI only
//	emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost)
//	emi.New().DisableGroup(emi.NoCost, emi.Credit)          // no credit-card no-cost EMI
//	emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI")
//	emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
//
// The types are plain structs: they encode with the service's exact,
// case-sensitive keys and decode what the service's samples send, keeping
// keys the SDK does not model in Extra so that decoding then encoding gives
// the same JSON. Validate reports every problem with its JSON path, starting
// at "emiOptions".
package emi

import (
	"encoding/json"
	"strconv"

	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// ValidationError is the error of Validate: every problem with its JSON path.
// It is the same type as checkout.ValidationError.
type ValidationError = valid.Error

// Problem is one reason a value cannot be sent: a JSON path and a message.
type Problem = valid.Problem

// Visibility is the session request's sdk_udf value (spec §2.5), the coarse
// EMI switch. It needs an account-level configuration by the service
// operator. The zero value means "not sent".
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
func (v Visibility) Valid() bool {
	switch v {
	case Show, Hide, ShowWithoutCards:
		return true
	}
	return false
}

// Validate reports an unknown or mis-cased visibility at path "sdk_udf". The
// zero value is valid: it means sdk_udf is not sent.
func (v Visibility) Validate() error {
	if v == "" || v.Valid() {
		return nil
	}
	msg := "unknown EMI visibility " + quote(string(v)) + ": want showEMI, hideEMI or ShowEMIWithoutCards (case sensitive)"
	for _, w := range []Visibility{Show, Hide, ShowWithoutCards} {
		if wire.FoldMatch([]string{string(w)}, string(v)) != "" {
			msg = "unknown EMI visibility " + quote(string(v)) + ": values are case sensitive, did you mean " + quote(string(w)) + "?"
		}
	}
	return &valid.Error{Problems: []valid.Problem{{Path: "sdk_udf", Message: msg}}}
}

// MethodType is a paymentMethodType value (spec §2.3, and emiFilter in
// §2.5). paymentfilter.MethodType is the same type, so one value serves the
// options of a payment filter and its EMI refinements.
type MethodType string

// The paymentMethodType values, exactly as the service spells them.
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

// MethodTypes returns every paymentMethodType value in the spec's order.
func MethodTypes() []MethodType {
	return []MethodType{Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash}
}

// Valid reports whether t is one of the spec's values (case sensitive). The
// zero value is not Valid.
func (t MethodType) Valid() bool {
	switch t {
	case Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash:
		return true
	}
	return false
}

// Validate reports a missing, unknown or mis-cased value at path
// "paymentMethodType" (callers place it under their object's path).
func (t MethodType) Validate() error {
	if t.Valid() {
		return nil
	}
	msg := "unknown payment method type " + quote(string(t)) + ": want one of CARD, UPI, WALLET, NB, CONSUMER_FINANCE, REWARD, CASH"
	if t == "" {
		msg = "missing: want one of CARD, UPI, WALLET, NB, CONSUMER_FINANCE, REWARD, CASH"
	}
	for _, w := range MethodTypes() {
		if wire.FoldMatch([]string{string(w)}, string(t)) != "" {
			msg = "unknown payment method type " + quote(string(t)) + ": values are case sensitive, did you mean " + quote(string(w)) + "?"
		}
	}
	return &valid.Error{Problems: []valid.Problem{{Path: "paymentMethodType", Message: msg}}}
}

// Options is payment_filter.emiOptions (spec §2.5). Each plan type left nil
// is not sent and keeps the service's default. It is a plain value: safe for
// concurrent reads (Validate, encoding, the fluent methods), not for
// concurrent writes. Clone makes an independent copy. New starts a fluent
// chain whose every step is a new *Options (see New); a struct literal
// works as well. (The method that sets showOnlyEmi is OnlyEMI: the field
// ShowOnlyEMI takes the name.)
type Options struct {
	// StandardEMI is standardEmi: standard EMI plans.
	StandardEMI *SubFilter `json:"standardEmi,omitempty"`
	// LowCostEMI is lowCostEmi: low cost EMI plans.
	LowCostEMI *SubFilter `json:"lowCostEmi,omitempty"`
	// NoCostEMI is noCostEmi: no cost EMI plans.
	NoCostEMI *SubFilter `json:"noCostEmi,omitempty"`
	// ShowOnlyEMI is showOnlyEmi: true makes EMI the only visible instrument.
	ShowOnlyEMI *bool `json:"showOnlyEmi,omitempty"`
	// Extra holds keys the SDK does not model, sent unchanged after the
	// modelled ones (sorted). Decoding fills it so nothing is lost.
	Extra map[string]json.RawMessage `json:"-"`

	// problems are the fluent calls rejected (see Err), in call order.
	// Shared between copies: only ever appended to through a clip.
	problems []valid.Problem
}

// SubFilter is an EmiSubFilter (spec §2.5): the standardEmi, lowCostEmi or
// noCostEmi object.
type SubFilter struct {
	// Enable is enable (required): enables or disables this EMI type.
	Enable bool `json:"enable"`
	// Credit is credit: credit-card plans within this EMI type.
	Credit *Group `json:"credit,omitempty"`
	// Debit is debit: debit-card plans within this EMI type.
	Debit *Group `json:"debit,omitempty"`
	// Cardless is cardless: cardless plans within this EMI type.
	Cardless *Group `json:"cardless,omitempty"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Group is the credit, debit or cardless object of an EmiSubFilter.
type Group struct {
	// Enable is enable (required): enables or disables this group.
	Enable bool `json:"enable"`
	// Filters is filters: refinements (emiFilter objects).
	Filters []Filter `json:"filters,omitempty"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Filter is an emiFilter (spec §2.5): one refinement inside a Group.
type Filter struct {
	// Enable is enable (required): enables or disables the plans matched.
	Enable bool `json:"enable"`
	// PaymentMethodType is paymentMethodType (optional, case sensitive).
	PaymentMethodType MethodType `json:"paymentMethodType,omitempty"`
	// PaymentMethod is paymentMethod (optional): the payment method whose
	// plans are matched, a single string as the samples send it.
	PaymentMethod string `json:"paymentMethod,omitempty"`
	// IssuerFilter is issuerFilter (optional). Decoding also accepts the
	// field table's spelling issuerFilters; encoding always writes
	// issuerFilter, as the samples do.
	IssuerFilter *IssuerFilter `json:"issuerFilter,omitempty"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// IssuerFilter is the issuerFilter object of an emiFilter (spec §2.5).
type IssuerFilter struct {
	// Issuers is issuers: issuer codes written SVC_<BANK>.
	Issuers []string `json:"issuers,omitempty"`
	// Tenures is tenures: tenure ranges in months, written "<from>::<to>".
	Tenures []TenureRange `json:"tenures,omitempty"`
	// Enable is enable (required): false removes the matched plans.
	Enable bool `json:"enable"`
	// Extra holds keys the SDK does not model (see Options.Extra).
	Extra map[string]json.RawMessage `json:"-"`
}

// Plan names one of the three EMI plan types of emiOptions, for the fluent
// methods of Options.
type Plan int

// The EMI plan types. Any other Plan value is unknown: the fluent methods
// of Options reject it (see New).
const (
	// Standard is standardEmi.
	Standard Plan = iota + 1 // wire key "standardEmi"
	// LowCost is lowCostEmi.
	LowCost // wire key "lowCostEmi"
	// NoCost is noCostEmi.
	NoCost // wire key "noCostEmi"
)

// unknownPlan and unknownGroup are the keys of unknown Plan and Instrument
// values; neither is a wire key.
const (
	unknownPlan  = "unknownPlan"
	unknownGroup = "unknownGroup"
)

// Key returns the wire key of p ("standardEmi", "lowCostEmi", "noCostEmi").
func (p Plan) Key() string {
	switch p {
	case Standard:
		return "standardEmi"
	case LowCost:
		return "lowCostEmi"
	case NoCost:
		return "noCostEmi"
	}
	return unknownPlan
}

// goName spells p as Go code names it: "NoCost", or "Plan(9)" when unknown.
func (p Plan) goName() string {
	switch p {
	case Standard:
		return "Standard"
	case LowCost:
		return "LowCost"
	case NoCost:
		return "NoCost"
	}
	return "Plan(" + strconv.Itoa(int(p)) + ")"
}

// String returns the wire key of p.
func (p Plan) String() string { return p.Key() }

// Instrument names one of the groups of an EmiSubFilter, for the fluent
// methods of Options.
type Instrument int

// The groups of an EmiSubFilter. Any other Instrument value is unknown: the
// fluent methods of Options reject it (see New).
const (
	// Credit is credit: credit-card plans.
	Credit Instrument = iota + 1 // wire key "credit"
	// Debit is debit: debit-card plans.
	Debit // wire key "debit"
	// Cardless is cardless: cardless plans.
	Cardless // wire key "cardless"
)

// Key returns the wire key of in ("credit", "debit", "cardless").
func (in Instrument) Key() string {
	switch in {
	case Credit:
		return "credit"
	case Debit:
		return "debit"
	case Cardless:
		return "cardless"
	}
	return unknownGroup
}

// goName spells in as Go code names it: "Credit", or "Instrument(7)" when
// unknown.
func (in Instrument) goName() string {
	switch in {
	case Credit:
		return "Credit"
	case Debit:
		return "Debit"
	case Cardless:
		return "Cardless"
	}
	return "Instrument(" + strconv.Itoa(int(in)) + ")"
}

// String returns the wire key of in.
func (in Instrument) String() string { return in.Key() }

// sub returns the address of the field of o that holds plan p.
func (o *Options) sub(p Plan) **SubFilter {
	switch p {
	case Standard:
		return &o.StandardEMI
	case LowCost:
		return &o.LowCostEMI
	case NoCost:
		return &o.NoCostEMI
	}
	return nil
}

// group returns the address of the field of s that holds group in.
func (s *SubFilter) group(in Instrument) **Group {
	switch in {
	case Credit:
		return &s.Credit
	case Debit:
		return &s.Debit
	case Cardless:
		return &s.Cardless
	}
	return nil
}
