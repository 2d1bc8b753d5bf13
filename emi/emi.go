// Package emi models which EMI (pay in instalments) plans the hosted
// checkout offers: the coarse sdk_udf switch of the session request
// ([Visibility]) and the fine-grained payment_filter.emiOptions
// ([Options]). Options is the model and its own fluent builder: [New]
// returns an empty *Options, and each method changes it in place and
// returns it, so calls chain:
//
//	emi.New().OnlyEMI()                                     // EMI is all the checkout shows
//	emi.New().OnlyNoCost()                                  // no-cost EMI only
//	emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost)
//	emi.New().DisableGroup(emi.NoCost, emi.Credit)          // no credit-card no-cost EMI
//	emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI")
//	emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12))
//
// The types are plain structs with the service's json keys: encoding/json
// writes and reads them (decoding also takes issuerFilters, the field
// table's spelling, for issuerFilter). [Options.Validate] reports every
// problem with its JSON path, starting at the emiOptions key, as a
// *[validation.Error]; [Options.Lint] gives advice on values the service
// takes but that are probably mistakes.
//
// A call that cannot be carried out, such as Disable(Plan(9)) or
// EnableGroup(NoCost, Instrument(7)), changes nothing and is recorded
// (unexported, copied by Clone, never encoded): Validate reports it first,
// for example "emiOptions: Disable(Plan(9)): unknown plan 9: want Standard,
// LowCost or NoCost". It is never dropped silently.
package emi

import (
	"slices"

	"github.com/payorch/checkout-go/internal/spelling"
	"github.com/payorch/checkout-go/validation"
)

// The wire keys that problem paths name (a test checks them against the
// json tags).
const (
	rootPath        = "emiOptions" // the key of the options in payment_filter, where paths start
	standardKey     = "standardEmi"
	lowCostKey      = "lowCostEmi"
	noCostKey       = "noCostEmi"
	showOnlyKey     = "showOnlyEmi"
	creditKey       = "credit"
	debitKey        = "debit"
	cardlessKey     = "cardless"
	filtersKey      = "filters"
	methodTypeKey   = "paymentMethodType"
	issuerFilterKey = "issuerFilter"
	issuersKey      = "issuers"
	tenuresKey      = "tenures"
)

// Visibility is the session request's sdk_udf value, the coarse EMI switch
// (enabled per account by the service operator). The zero value means "not
// sent".
type Visibility string

// The sdk_udf values, exactly as the service spells them (case sensitive).
const (
	Show             Visibility = "showEMI"             // EMI is shown on the checkout screen
	Hide             Visibility = "hideEMI"             // EMI is hidden
	ShowWithoutCards Visibility = "ShowEMIWithoutCards" // EMI is shown, the CARD method is not
)

// visibilityKey is the path of a Visibility's problems.
const visibilityKey = "sdk_udf"

// The sdk_udf values and the paymentMethodType spellings the service takes
// (WALLETS is WALLET's older spelling), for messages naming the closest.
func visibilities() []Visibility    { return []Visibility{Show, Hide, ShowWithoutCards} }
func methodSpellings() []MethodType { return append(MethodTypes(), walletsOld) }

// Valid reports whether v is one of the three sdk_udf values. The zero
// value is not Valid (but Validate accepts it: not sent).
func (v Visibility) Valid() bool { return slices.Contains(visibilities(), v) }

// Validate reports, at path "sdk_udf", a known value written in another
// case, such as "showemi", which the service would not see. Other values
// pass, and the zero value means sdk_udf is not sent.
func (v Visibility) Validate() error {
	var e validation.Error
	if msg := spelling.CaseMistake("EMI visibility", v, visibilities()); msg != "" {
		e.Add(visibilityKey, msg)
	}
	return e.Err()
}

// MethodType is a paymentMethodType value: a kind of payment instrument.
// paymentfilter.MethodType is the same type.
type MethodType string

// The paymentMethodType values, exactly as the service spells them.
// Validate lets other values through (the service may know more types),
// except these in another case.
const (
	Card            MethodType = "CARD"             // cards
	UPI             MethodType = "UPI"              // UPI
	Wallet          MethodType = "WALLET"           // wallets
	NB              MethodType = "NB"               // net banking
	ConsumerFinance MethodType = "CONSUMER_FINANCE" // consumer finance (pay later)
	Reward          MethodType = "REWARD"           // reward points
	Cash            MethodType = "CASH"             // cash
)

// walletsOld is the older spelling of WALLET, which the service takes too.
const walletsOld MethodType = "WALLETS"

// MethodTypes returns every paymentMethodType value above, in the order the
// service documents them.
func MethodTypes() []MethodType {
	return []MethodType{Card, UPI, Wallet, NB, ConsumerFinance, Reward, Cash}
}

// Valid reports whether t is one of the values above (case sensitive). The
// zero value is not Valid.
func (t MethodType) Valid() bool { return slices.Contains(MethodTypes(), t) }

// Validate reports, at path "paymentMethodType" (callers place it under
// their object's path), a missing value or a known value written in
// another case, such as "card", which the service would not see. Other
// values pass: the service may know more types.
func (t MethodType) Validate() error {
	var e validation.Error
	if t == "" {
		e.Add(methodTypeKey, "missing: want one of CARD, UPI, WALLET, NB, CONSUMER_FINANCE, REWARD, CASH")
	} else if !t.Valid() && t != walletsOld {
		if msg := spelling.CaseMistake("payment method type", t, methodSpellings()); msg != "" {
			e.Add(methodTypeKey, msg)
		}
	}
	return e.Err()
}

// Lint returns advice on t at path "paymentMethodType": a value that is
// likely a typo of a known one, such as "WALLLET" for WALLET. Other unknown
// values get none (the service adds method types), nor do those Validate
// refuses.
func (t MethodType) Lint() []validation.Problem {
	if msg := spelling.Unknown("payment method type", t, methodSpellings(), false); msg != "" {
		return []validation.Problem{{Path: methodTypeKey, Message: msg}}
	}
	return nil
}

// Lint returns advice on v at path "sdk_udf": a value other than the three
// the service documents, naming the one it likely misspells (such as
// "showEMl" for showEMI) or listing the three. The zero value and the
// values Validate refuses get none.
func (v Visibility) Lint() []validation.Problem {
	if msg := spelling.Unknown("EMI visibility", v, visibilities(), true); msg != "" {
		return []validation.Problem{{Path: visibilityKey, Message: msg}}
	}
	return nil
}
