// Package lint gives advice on requests: what the service takes but is
// probably a mistake, or what its documents recommend though it does not
// enforce it. The client never calls it; run it yourself, in a test or
// before sending, to log the advice or fail on it, or run "checkout lint"
// on a body.
//
// The advice lives here, in one place, and nowhere else: each request type
// has one question, Validate, which says what the service refuses and what
// the body could not say (the client calls it before sending), and each
// enum value has Valid. [Check] never repeats what Validate refuses.
//
//	for _, p := range lint.Check(req) {
//		log.Printf("advice: %s", p) // amount: has one decimal place: …
//	}
package lint

import (
	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// Request is a value [Check] gives advice on: a request the client sends,
// or the payment filter and EMI options that go inside a session request.
type Request interface {
	*checkout.SessionRequest | *checkout.OrderRequest | *checkout.UpdateOrderRequest |
		*checkout.CustomerRequest | *checkout.UpdateCustomerRequest |
		*paymentfilter.Filter | *emi.Options
}

// Check returns the advice on r, each problem at the JSON or form path of
// the field as the service spells it ("amount",
// "payment_filter.options[0].cardFilters[0].cardTypes[0]"); nil when there
// is none, and for a nil r. Paths of a filter start at "payment_filter",
// those of EMI options at "emiOptions".
func Check[R Request](r R) []validation.Problem {
	var a advice
	switch r := any(r).(type) {
	case *checkout.SessionRequest:
		a.session(r)
	case *checkout.OrderRequest:
		a.order(r)
	case *checkout.UpdateOrderRequest:
		a.update(r)
	case *checkout.CustomerRequest:
		a.customer(r)
	case *checkout.UpdateCustomerRequest:
		a.updateCustomer(r)
	case *paymentfilter.Filter:
		a.filter(r)
	case *emi.Options:
		a.emi(r, "")
	}
	if len(a.Problems) == 0 {
		return nil
	}
	return a.Problems
}

// advice collects the problems of one Check.
type advice struct{ validation.Error }
