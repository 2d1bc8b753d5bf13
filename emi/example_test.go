package emi_test

import (
	"encoding/json"
	"fmt"

	"github.com/payorch/checkout-go/emi"
)

// show shows the emiOptions sent, or why they cannot be sent.
func show(o *emi.Options) {
	if err := o.Validate(); err != nil {
		fmt.Println("error:", err)
		return
	}
	out, _ := json.Marshal(o)
	fmt.Println(string(out))
}

// Show only EMI.
func ExampleOptions_OnlyEMI() {
	show(emi.New().OnlyEMI())
	// Output:
	// {"showOnlyEmi":true}
}

// Show only no-cost EMI.
func ExampleOptions_OnlyNoCost() {
	show(emi.New().OnlyNoCost())
	// Output:
	// {"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}
}

// Any combination of the three EMI types, by enable flags.
func ExampleOptions_Enable() {
	show(emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost))
	show(emi.New().Disable(emi.Standard, emi.LowCost, emi.NoCost))
	// Output:
	// {"standardEmi":{"enable":true},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true}}
	// {"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":false}}
}

// Hide credit-card EMI inside no-cost EMI.
func ExampleOptions_DisableGroup() {
	show(emi.New().DisableGroup(emi.NoCost, emi.Credit))
	// Output:
	// {"noCostEmi":{"enable":true,"credit":{"enable":false}}}
}

// Remove an issuer's plans.
func ExampleOptions_RemoveIssuers() {
	show(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI"))
	// Output:
	// {"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"enable":false}}]}}}
}

// Remove certain tenure ranges of an issuer.
func ExampleOptions_RemoveTenures() {
	show(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12)))
	// Output:
	// {"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[{"enable":true,"paymentMethodType":"CARD","paymentMethod":"CARD","issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9::12"],"enable":false}}]}}}
}

// Validate names each problem by its JSON path. Issuers may have any
// prefix: deployments of the service use their own.
func ExampleOptions_Validate() {
	o := emi.New().RemoveTenures(emi.Standard, emi.Debit, "JP_HDFC", emi.Months(12, 6)).
		AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "CONSUMER_FINANCE"})
	fmt.Println(o.Validate())
	// Output:
	// checkout: validate: invalid request: emiOptions.standardEmi.debit.filters[0].issuerFilter.tenures[0]: tenure range "12::6" has from greater than to
}

// A call naming an unknown plan type changes nothing and is reported by
// Validate, never ignored.
func ExampleOptions_Validate_rejectedCall() {
	o := emi.New().Disable(emi.Plan(9)).Enable(emi.NoCost)
	fmt.Println(o.Validate())
	// Output:
	// checkout: validate: invalid request: emiOptions: Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost
}
