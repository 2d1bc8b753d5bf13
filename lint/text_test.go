package lint_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/lint"
)

// The shared advice on a field's text: each value, in an order request's
// field, gets advice or none.
func TestText(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(r *checkout.OrderRequest)
		advice bool
	}{
		{"two places", func(r *checkout.OrderRequest) { r.Amount = "10.00" }, false},
		{"no places", func(r *checkout.OrderRequest) { r.Amount = "10" }, true},
		{"leading zero before the point", func(r *checkout.OrderRequest) { r.Amount = "0.50" }, false},
		{"leading zeros", func(r *checkout.OrderRequest) { r.Amount = "010.00" }, true},
		{"https URL", func(r *checkout.OrderRequest) { r.ReturnURL = "https://shop.example/r" }, false},
		{"http loopback URL", func(r *checkout.OrderRequest) { r.ReturnURL = "http://127.0.0.1:8080/r" }, false},
		{"http localhost URL", func(r *checkout.OrderRequest) { r.ReturnURL = "http://LOCALHOST/r" }, false},
		{"http URL", func(r *checkout.OrderRequest) { r.ReturnURL = "http://shop.example/r" }, true},
		{"ftp URL", func(r *checkout.OrderRequest) { r.ReturnURL = "ftp://shop.example/r" }, true},
		{"email", func(r *checkout.OrderRequest) { r.CustomerEmail = "a@b.in" }, false},
		{"email without domain dot", func(r *checkout.OrderRequest) { r.CustomerEmail = "a@b" }, true},
		{"email with a space", func(r *checkout.OrderRequest) { r.CustomerEmail = "a b@c.in" }, true},
		{"email ending in a dot", func(r *checkout.OrderRequest) { r.CustomerEmail = "a@b.in." }, true},
		{"phone", func(r *checkout.OrderRequest) { r.CustomerPhone = "9876543210" }, false},
		{"phone with a letter inside", func(r *checkout.OrderRequest) { r.CustomerPhone = "98765x3210" }, true},
		{"order id of 20 characters", func(r *checkout.OrderRequest) { r.OrderID = "ordér-67890123456789" }, false},
		{"order id of 21 characters", func(r *checkout.OrderRequest) { r.OrderID = "ordér-678901234567890" }, true},
	} {
		r := fullOrder()
		tc.mutate(r)
		require.NoError(t, r.Validate(), tc.name)
		require.Equal(t, tc.advice, lint.Check(r) != nil, "%s: %v", tc.name, lint.Check(r))
	}
}
