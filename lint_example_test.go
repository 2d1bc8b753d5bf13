package checkout_test

import (
	"encoding/json"
	"fmt"

	"github.com/payorch/checkout-go"
)

// A body pasted from the service's documents passes Validate as it is;
// Lint gives the advice on it, and the client sends it unchanged.
func ExampleSessionRequest_Lint() {
	var r checkout.SessionRequest
	_ = json.Unmarshal([]byte(`{"order_id":"yourUniqueOrderId","amount":"1.0","customer_id":"cust_42",
		"customer_phone":"9876543210","customer_email":"dummyemail@gmail.com",
		"payment_page_client_id":"<YOUR_CLIENT_ID>","action":"enach","service":"in.juspay.ec"}`), &r)
	fmt.Println(r.Validate())
	for _, p := range r.Lint() {
		fmt.Printf("%s: %s\n", p.Path, p.Message)
	}
	// Output:
	// <nil>
	// action: "enach" is not an action this SDK knows (paymentPage, quickPay, paymentManagement): only what every action needs was checked
	// amount: has one decimal place: the service takes it, but its documents write amounts with two, like "1.00"
}

// The namespace of the gateway reference key follows the deployment.
func ExampleWithNamespace() {
	c, err := checkout.NewClient("merchant_42", "sk_test_key",
		checkout.WithBaseURL("https://api.example.com"), checkout.WithNamespace("JUSPAY"))
	fmt.Println(c.Namespace(), err)
	// Output:
	// JUSPAY <nil>
}
