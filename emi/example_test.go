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

// The coarse sdk_udf switch of the session request.
func ExampleVisibility_Validate() {
	fmt.Println(emi.ShowWithoutCards.Validate())
	fmt.Println(emi.Visibility("showemi").Validate())
	// Output:
	// <nil>
	// checkout: validate: invalid request: sdk_udf: unknown EMI visibility "showemi": values are case sensitive, did you mean "showEMI"?
}

// Validate names each problem by its JSON path. Issuers may have any
// prefix: deployments of the service use their own.
func ExampleOptions_Validate() {
	o := emi.New().RemoveTenures(emi.Standard, emi.Debit, "JP_HDFC", emi.Months(12, 6)).
		AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "consumer_finance"})
	fmt.Println(o.Validate())
	// Output:
	// checkout: validate: invalid request: emiOptions.standardEmi.debit.filters[0].issuerFilter.tenures[0]: tenure range "12::6" has from greater than to; emiOptions.standardEmi.cardless.filters[0].paymentMethodType: unknown payment method type "consumer_finance": values are case sensitive, did you mean "CONSUMER_FINANCE"?
}

// A call naming an unknown plan type changes nothing and is reported by
// Validate, never ignored.
func ExampleOptions_Validate_rejectedCall() {
	o := emi.New().Disable(emi.Plan(9)).Enable(emi.NoCost)
	fmt.Println(o.Validate())
	// Output:
	// checkout: validate: invalid request: emiOptions: Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost
}

// Lint gives advice on values the service takes but that are probably
// mistakes: here an issuer without its namespace prefix and a method type
// with a typo. Validate lets both through.
func ExampleOptions_Lint() {
	o := emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI").
		AddFilter(emi.Standard, emi.Cardless, emi.Filter{PaymentMethodType: "CONSUMER_FINANCEE"})
	fmt.Println(o.Validate())
	for _, p := range o.Lint() {
		fmt.Println(p)
	}
	// Output:
	// <nil>
	// emiOptions.standardEmi.cardless.filters[0].paymentMethodType: unknown payment method type "CONSUMER_FINANCEE": likely a typo, did you mean "CONSUMER_FINANCE"?
	// emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[0]: issuer "ICICI" has no namespace prefix: did you mean "SVC_ICICI"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)
}

// The sdk_udf value gets advice when it is likely a typo.
func ExampleVisibility_Lint() {
	fmt.Println(emi.Visibility("showEMl").Lint())
	// Output:
	// [sdk_udf: unknown EMI visibility "showEMl": likely a typo, did you mean "showEMI"?]
}
