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
// *[validation.Error]; package lint gives advice on values the service
// takes but that are probably mistakes.
//
// A call that cannot be carried out, such as Disable(Plan(9)) or
// EnableGroup(NoCost, Instrument(7)), changes nothing and is recorded
// (unexported, copied by Clone, never encoded): Validate reports it first,
// for example "emiOptions: Disable(Plan(9)): unknown plan 9: want Standard,
// LowCost or NoCost". It is never dropped silently.
package emi

import "slices"

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

// Visibilities returns the three sdk_udf values, in the order above.
func Visibilities() []Visibility { return []Visibility{Show, Hide, ShowWithoutCards} }

// Valid reports whether v is one of the three sdk_udf values. The zero
// value is not Valid (it means sdk_udf is not sent). The session request's
// Validate refuses a known value written in another case, such as
// "showemi", which the service would not see.
func (v Visibility) Valid() bool { return slices.Contains(Visibilities(), v) }
