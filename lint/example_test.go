package lint_test

import (
	"encoding/json"
	"fmt"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/paymentfilter"
)

// A body pasted from the service's documents passes Validate as it is;
// Check gives the advice on it, and the client sends it unchanged.
func ExampleCheck() {
	var r checkout.SessionRequest
	_ = json.Unmarshal([]byte(`{"order_id":"yourUniqueOrderId","amount":"1.0","customer_id":"cust_42",
		"customer_phone":"9876543210","customer_email":"dummyemail@gmail.com",
		"payment_page_client_id":"<YOUR_CLIENT_ID>","action":"enach","service":"in.juspay.ec"}`), &r)
	fmt.Println(r.Validate())
	for _, p := range lint.Check(&r) {
		fmt.Println(p)
	}
	// Output:
	// <nil>
	// action: "enach" is not an action this SDK knows (paymentPage, quickPay, paymentManagement): only what every action needs was checked
	// amount: has one decimal place: the service takes it, but its documents write amounts with two, like "1.00"
}

// The advice on a payment filter: values the service takes but that are
// probably mistakes, such as a method type with a typo and an issuer
// without its namespace prefix. Validate lets them through.
func ExampleCheck_filter() {
	f := paymentfilter.New().HideCardTypes("CREDTI").Hide("WALLLET").
		EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "ICICI"))
	fmt.Println(f.Validate())
	for _, p := range lint.Check(f) {
		fmt.Println(p)
	}
	// Output:
	// <nil>
	// payment_filter.options[0].cardFilters[0].cardTypes[0]: unknown card type "CREDTI": likely a typo, did you mean "CREDIT"?
	// payment_filter.options[1].paymentMethodType: unknown payment method type "WALLLET": likely a typo, did you mean "WALLET"?
	// payment_filter.emiOptions.noCostEmi.credit.filters[0].issuerFilter.issuers[0]: issuer "ICICI" has no namespace prefix: did you mean "SVC_ICICI"? (issuer codes are written SVC_<BANK>, or with the deployment's own prefix, such as JP_<BANK>)
}
