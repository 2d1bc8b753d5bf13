// Package paymentfilter models payment locking (spec §2.2–2.4): the
// payment_filter object of a session request.
package paymentfilter

import "github.com/payorch/checkout-go/emi"

// STUB: replaced by the paymentfilter implementation. Kept only so that dependants compile.

// Filter is the payment_filter object.
type Filter struct {
	AllowDefaultOptions bool         `json:"allowDefaultOptions"`
	Options             []Option     `json:"options"`
	EMIOptions          *emi.Options `json:"emiOptions,omitempty"`
}

// Option is one element of payment_filter.options.
type Option struct{}

// Validate checks the filter; problem paths start with "payment_filter".
func (f *Filter) Validate() error { return nil }
