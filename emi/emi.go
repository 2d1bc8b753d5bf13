// Package emi models EMI filtering of the hosted checkout (spec §2.5): the
// sdk_udf visibility switch (Visibility) and payment_filter.emiOptions
// (Options).
package emi

// STUB: replaced by the emi implementation. Kept only so that dependants compile.

// Visibility is the session request's sdk_udf value (spec §2.5).
type Visibility string

// The sdk_udf values, exactly as the service spells them.
const (
	Show             Visibility = "showEMI"
	Hide             Visibility = "hideEMI"
	ShowWithoutCards Visibility = "ShowEMIWithoutCards"
)

// Validate reports an unknown visibility at path "sdk_udf". The zero value is valid (not sent).
func (v Visibility) Validate() error { return nil }

// Options is payment_filter.emiOptions.
type Options struct{}

// Validate checks the options; problem paths start with "emiOptions".
func (o *Options) Validate() error { return nil }
