package lint_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/validation"
)

// fullOrder is a valid order request with no advice.
func fullOrder() *checkout.OrderRequest {
	return &checkout.OrderRequest{
		OrderID: "HD-1707740261", Amount: "1499.00", Currency: "INR", CustomerID: "cust_42",
		CustomerEmail: "asha@example.com", CustomerPhone: "9876543210", ReturnURL: "https://shop.example.com/return",
		BillingAddress:   &checkout.Address{City: "Bengaluru"},
		GatewayMetadata:  []checkout.GatewayMetadata{{Gateway: "PAYU", Key: "offer_key", Value: "OFF10"}, {Gateway: "RAZORPAY", Key: "notes", Value: "x"}},
		SubventionAmount: "50.00",
		CollectionLinks:  &checkout.CollectionLinks{Links: []checkout.CollectionLink{{Method: checkout.CollectionPay, Expiry: 30 * time.Minute}}},
	}
}

// The advice on order requests Validate lets through, moved here from
// OrderRequest.Lint with the same paths.
func TestOrder(t *testing.T) {
	require.Nil(t, lint.Check(fullOrder()))
	require.Nil(t, lint.Check((*checkout.OrderRequest)(nil)))
	for _, tc := range []struct {
		name   string
		mutate func(r *checkout.OrderRequest)
		want   []string
	}{
		{"amounts", func(r *checkout.OrderRequest) { r.Amount, r.SubventionAmount = "1499", "05.5" },
			[]string{"amount", "metadata.subvention_amount", "metadata.subvention_amount"}},
		{"order id", func(r *checkout.OrderRequest) { r.OrderID = " order-with-a-long-name-1 " }, []string{"order_id", "order_id"}},
		{"customer", func(r *checkout.OrderRequest) {
			r.CustomerEmail, r.CustomerPhone = "asha.example.com", "+91 98765 43210"
		},
			[]string{"customer_email", "customer_phone"}},
		{"return url", func(r *checkout.OrderRequest) { r.ReturnURL = "http://shop.example.com/r" }, []string{"return_url"}},
		{"relative return url", func(r *checkout.OrderRequest) { r.ReturnURL = "/r" }, []string{"return_url"}},
		{"return url with user", func(r *checkout.OrderRequest) { r.ReturnURL = "https://u:p@shop.example.com/r" }, []string{"return_url"}},
		{"metadata spaces", func(r *checkout.OrderRequest) { r.GatewayMetadata[1].Gateway = "RAZORPAY " }, []string{"metadata[1]"}},
		{"collection links", func(r *checkout.OrderRequest) {
			r.CollectionLinks = &checkout.CollectionLinks{Links: []checkout.CollectionLink{
				{Method: "INTENT"}, {Method: checkout.CollectionQR}, {Method: checkout.CollectionQR},
			}}
		}, []string{
			"payment_collection_link_details.supported_payment_methods[0]",
			"payment_collection_link_details.supported_payment_methods[2]",
		}},
		{"no collection link", func(r *checkout.OrderRequest) { r.CollectionLinks = &checkout.CollectionLinks{} },
			[]string{"payment_collection_link_details.supported_payment_methods"}},
		{"extra keys", func(r *checkout.OrderRequest) {
			r.Extra = map[string]string{"udf\x001": "v", "udf\x7f": "v", "": "v", "udf1": "v"}
		}, []string{"", `"udf\x001"`, `"udf\x7f"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := fullOrder()
			tc.mutate(r)
			requireAdvice(t, r, tc.want)
		})
	}
}

// The advice on order updates: one that changes nothing, the amount's
// shape.
func TestUpdateOrder(t *testing.T) {
	require.Equal(t, []validation.Problem{{Path: "", Message: "changes nothing: set the amount, an address or udf fields"}},
		lint.Check(&checkout.UpdateOrderRequest{}))
	requireAdvice(t, &checkout.UpdateOrderRequest{Amount: "90"}, []string{"amount"})
	requireAdvice(t, &checkout.UpdateOrderRequest{Amount: "90.00", Extra: map[string]string{"a\nb": "x"}}, []string{`"a\nb"`})
	require.Nil(t, lint.Check(&checkout.UpdateOrderRequest{Amount: "90.00"}))
	require.Nil(t, lint.Check((*checkout.UpdateOrderRequest)(nil)))
}

// The advice on customer requests, which Validate lets through.
func TestCustomers(t *testing.T) {
	requireAdvice(t, &checkout.CustomerRequest{ObjectReferenceID: "c1", MobileNumber: "+91 9988776655", EmailAddress: "customer", MobileCountryCode: "+91"},
		[]string{"object_reference_id", "mobile_number", "email_address", "mobile_country_code"})
	require.Nil(t, lint.Check(&checkout.CustomerRequest{ObjectReferenceID: "cust-0001", MobileNumber: "9988776655"}))
	require.Nil(t, lint.Check((*checkout.CustomerRequest)(nil)))

	require.Equal(t, []validation.Problem{{Path: "", Message: "changes nothing: set at least one detail"}},
		lint.Check(&checkout.UpdateCustomerRequest{}))
	requireAdvice(t, &checkout.UpdateCustomerRequest{EmailAddress: "a@b"}, []string{"email_address"})
	require.Nil(t, lint.Check(&checkout.UpdateCustomerRequest{FirstName: "Asha"}))
	require.Nil(t, lint.Check((*checkout.UpdateCustomerRequest)(nil)))
}
